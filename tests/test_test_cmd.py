"""`skillstudio test`'s text (cli/test_cmd.py): a suite's heading names the project it
ran against and its roots, a catalogue's fifty roots in one short line (issue 39, last
round: every root was printed on one line); `test` and `test --leaks` read suites
alike."""

from __future__ import annotations

from pathlib import Path

from .helpers import cli, skill_text, write


def catalogue(base: Path, count: int) -> Path:
    """`count` plugins of one skill each (a root per plugin) and a suite of one case."""
    for i in range(count):
        name = f"task-{i:02d}"
        text = skill_text(name=name, description=f"Does task {i}. Use when asked for task {i}.")
        write(base, f"plugins/p{i:02d}/skills/{name}/SKILL.md", text)
    write(base, "suites/s.yaml", 'cases:\n  - query: "/task-01 now"\n    expect: task-01\n')
    return base


def heading(out: str) -> str:
    return out.splitlines()[0]


def test_a_catalogues_roots_are_counted_and_the_first_few_named(tmp_path: Path) -> None:
    base = catalogue(tmp_path, 50)
    run = cli("test", "suites/s.yaml", "--profile", "claude-code", cwd=base)
    assert run.code == 0, run.out + run.err
    line = heading(run.out)
    assert line.endswith(
        "(claude-code; 50 roots: plugins/p00/skills, plugins/p01/skills, "
        "plugins/p02/skills and 47 more; -v names them all)"
    ), line
    assert "plugins/p49/skills" not in line and len(line) < 200


def test_verbose_names_every_root(tmp_path: Path) -> None:
    base = catalogue(tmp_path, 50)
    run = cli("test", "suites/s.yaml", "--profile", "claude-code", "-v", cwd=base)
    assert run.code == 0, run.out + run.err
    line = heading(run.out)
    roots = line.split("roots: ", 1)[1].rstrip(")").split(", ")
    assert roots == [f"plugins/p{i:02d}/skills" for i in range(50)]
    assert "more" not in line
    # the JSON always lists every root
    data = cli("test", "suites/s.yaml", "--profile", "claude-code", "--format", "json", cwd=base)
    assert len(data.json["suites"][0]["roots"]) == 50


def test_a_few_roots_are_all_named_as_before(tmp_path: Path) -> None:
    base = catalogue(tmp_path, 3)
    run = cli("test", "suites/s.yaml", "--profile", "claude-code", cwd=base)
    assert run.code == 0, run.out + run.err
    assert heading(run.out).endswith(
        "(claude-code; roots: plugins/p00/skills, plugins/p01/skills, plugins/p02/skills)"
    )


def test_test_and_leaks_stop_alike_at_a_suite_they_cannot_read(tmp_path: Path) -> None:
    """Both read suites through one loop: the suites before a broken one are read, the
    broken one is a usage error (exit 2) naming its file, in both."""
    base = catalogue(tmp_path, 2)
    write(base, "suites/broken.yaml", "cases: [\n")
    for extra in ((), ("--leaks",)):
        run = cli("test", "suites/s.yaml", "suites/broken.yaml", *extra, cwd=base)
        assert run.code == 2, (extra, run.out, run.err)
        assert "broken.yaml" in run.err and run.out == "", (extra, run.out, run.err)
