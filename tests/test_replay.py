"""A read-only command served again from its recording (cli/replay.py, issue 27): the
served output is byte for byte the output of a run, and any change to what the run looked
at (a file edited or swapped, a folder's entries, a link, a configuration file, the
environment) makes the command run again. Runs that cannot be told complete are never
recorded; a recording that is not ours is ignored."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skillstudio.cli import entry, replay
from skillstudio.core.scanning import parallel

from .helpers import skill_text, write

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own; what the run looked at counts as settled at once
    (every change below is made after the recording run ended)."""
    home = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(replay, "SETTLED_NS", 0)
    return home / "skillstudio"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = tmp_path / "repo"
    write(
        base,
        ".agents/skills/alpha/SKILL.md",
        skill_text(
            name="alpha",
            description="Summarise quarterly sales figures. Use when asked for sales.",
            _body="# Alpha\n\nSee [the guide](references/guide.md).\n",
        ),
    )
    write(base, ".agents/skills/alpha/references/guide.md", "# Guide\n")
    write(
        base,
        ".agents/skills/beta/SKILL.md",
        skill_text(
            name="beta", description="Plan a trip with flights and hotels. Use when travelling."
        ),
    )
    write(base, ".agents/skills/gamma/SKILL.md", skill_text(name="Gamma", description=""))
    os.makedirs(base / ".claude/skills")
    os.symlink("../../.agents/skills/alpha", base / ".claude/skills/alpha")
    monkeypatch.chdir(base)
    return base


class Runs:
    """`replay.run` as the shell's `skillstudio` would call it, counting real runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.ran = 0

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        self.monkeypatch.setattr(sys, "stdout", out)
        self.monkeypatch.setattr(sys, "stderr", err)

        def command(words: list[str]) -> int:
            self.ran += 1
            return entry._command_line(words)

        code = replay.run(list(argv), command)
        return code, out.getvalue(), err.getvalue()


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, cache_home: Path) -> Iterator[Runs]:
    yield Runs(monkeypatch)


def recordings(cache_home: Path) -> list[Path]:
    return sorted(cache_home.glob(replay.PREFIX + "*")) if cache_home.is_dir() else []


def fresh(*argv: str) -> tuple[int, str, str]:
    """The same command read afresh (no recording, no cache) for comparison."""
    out, err = io.StringIO(), io.StringIO()
    from skillstudio.cli.main import main

    code = main([*argv, "--no-cache"], out=out, err=err)
    return code, out.getvalue(), err.getvalue()


COMMANDS = [
    ("lint", "--format", "json"),
    ("lint", "-v"),
    ("match", "summarise the sales figures", "--format", "json"),
    ("list",),
    ("show", "alpha"),
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv))
def test_a_second_run_is_served_with_the_same_output(
    project: Path, run: Runs, cache_home: Path, argv: tuple[str, ...]
) -> None:
    first = run(*argv)
    assert run.ran == 1 and len(recordings(cache_home)) == 1
    second = run(*argv)
    assert run.ran == 1  # served: the command did not run
    assert second == first
    assert first == fresh(*argv)


def _edit(base: Path) -> None:
    path = base / ".agents/skills/beta/SKILL.md"
    path.write_text(path.read_text().replace("Plan a trip", "Plan a long trip"))


def _same_size_edit(base: Path) -> None:  # the same size: the times and inode tell
    path = base / ".agents/skills/beta/SKILL.md"
    path.write_text(path.read_text().replace("flights", "FLIGHTS"))


def _swap(base: Path) -> None:  # another file renamed over it (new inode)
    path = base / ".agents/skills/beta/SKILL.md"
    other = base / "beta.new"
    other.write_text(path.read_text().replace("hotels", "trains"))
    os.replace(other, path)


def _add_skill(base: Path) -> None:
    write(
        base,
        ".agents/skills/delta/SKILL.md",
        skill_text(name="delta", description="Summarise sales calls. Use when asked about calls."),
    )


def _remove_skill(base: Path) -> None:
    os.remove(base / ".agents/skills/beta/SKILL.md")
    os.rmdir(base / ".agents/skills/beta")


def _retarget_link(base: Path) -> None:
    os.remove(base / ".claude/skills/alpha")
    os.symlink("../../.agents/skills/beta", base / ".claude/skills/alpha")


def _reference_gone(base: Path) -> None:
    os.remove(base / ".agents/skills/alpha/references/guide.md")


def _config(base: Path) -> None:
    write(base, "skillstudio.yaml", "profile: claude-code\nroots: [.claude/skills]\n")


def _dangling_then_made(base: Path) -> None:
    os.symlink("../../.agents/skills/omega", base / ".claude/skills/omega")


CHANGES = [
    _edit,
    _same_size_edit,
    _swap,
    _add_skill,
    _remove_skill,
    _retarget_link,
    _reference_gone,
    _config,
    _dangling_then_made,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__.strip("_"))
@pytest.mark.parametrize("argv", COMMANDS[:1], ids=lambda argv: " ".join(argv))
def test_any_change_to_what_was_looked_at_runs_the_command_again(
    project: Path, run: Runs, change: Any, argv: tuple[str, ...]
) -> None:
    run(*argv)
    change(project)
    time.sleep(0.01)  # (a file system clock tick: the change is not in the recorded tick)
    after = run(*argv)
    assert run.ran == 2, "a changed tree was served the old answer"
    assert after == fresh(*argv)
    assert run(*argv) == after and run.ran == 2  # and the new answer is served next


@pytest.mark.parametrize("change", [_edit, _add_skill], ids=["edit", "add_skill"])
def test_a_request_is_ranked_again_after_a_change(project: Path, run: Runs, change: Any) -> None:
    argv = (
        "match",
        "plan a long trip or summarise sales calls",
        ".agents/skills",
        "--format",
        "json",
    )
    before = run(*argv)
    change(project)
    after = run(*argv)
    assert run.ran == 2 and after == fresh(*argv)
    assert after != before  # (the request's words are in the change)


def test_a_dangling_link_made_whole_is_seen(project: Path, run: Runs) -> None:
    os.symlink("../../.agents/skills/omega", project / ".claude/skills/omega")
    before = run("lint", "--format", "json")
    write(
        project,
        ".agents/skills/omega/SKILL.md",
        skill_text(name="omega", description="Answer questions about omega. Use when asked."),
    )
    after = run("lint", "--format", "json")
    assert run.ran == 2 and after != before
    assert after == fresh("lint", "--format", "json")


def test_the_environment_and_the_words_are_part_of_the_key(
    project: Path, run: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("lint", "--format", "json")
    run("lint", "--format", "json", "--profile", "codex")
    assert run.ran == 2
    monkeypatch.setenv("CODEX_HOME", str(project / "elsewhere"))
    run("lint", "--format", "json")
    assert run.ran == 3
    monkeypatch.chdir(project / ".agents")
    run("lint", "--format", "json")
    assert run.ran == 4


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", "--no-cache"),
        ("set", "beta", "description=Plan a short trip."),
        ("test",),
        ("pack", ".agents/skills/beta", "-o", "beta.skill"),
        ("lint", "--fix"),
    ],
    ids=lambda argv: " ".join(argv),
)
def test_commands_that_write_or_bypass_the_cache_are_never_recorded(
    project: Path, run: Runs, cache_home: Path, argv: tuple[str, ...]
) -> None:
    run(*argv)
    run(*argv)
    assert run.ran == 2
    assert recordings(cache_home) == []


def test_a_run_that_started_workers_is_not_recorded(
    project: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "WORKERS_STARTED", False)

    def with_workers(words: list[str]) -> int:
        code = entry._command_line(words)
        parallel.WORKERS_STARTED = True  # as Workers._started sets it
        return code

    replay.run(["lint"], with_workers)
    assert recordings(cache_home) == []


def test_a_run_cut_by_a_closed_pipe_is_not_recorded(
    project: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", Closed())
    code = replay.run(["lint", "--format", "json"], entry._command_line)
    assert code == 0 or code == 1
    assert recordings(cache_home) == []


def test_a_run_whose_files_are_not_settled_is_not_recorded(
    project: Path, run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay, "SETTLED_NS", 3600 * 10**9)  # everything is "recent"
    run("lint")
    assert recordings(cache_home) == []


def test_a_recording_that_is_not_ours_is_ignored(
    project: Path, run: Runs, cache_home: Path
) -> None:
    first = run("lint", "--format", "json")
    (path,) = recordings(cache_home)
    data = bytearray(path.read_bytes())
    at = data.index(b'"parts"')
    data[at + 10] ^= 0x01  # one changed byte of the recorded output
    path.write_bytes(bytes(data))
    assert run("lint", "--format", "json") == first
    assert run.ran == 2  # the signature did not hold: the command ran
    path.write_bytes(b"not a recording")
    assert run("lint", "--format", "json") == first and run.ran == 3


def test_recording_leaves_the_file_functions_as_they_were(project: Path, run: Runs) -> None:
    before = (os.stat, os.lstat, os.scandir, os.listdir)
    run("lint")
    assert (os.stat, os.lstat, os.scandir, os.listdir) == before


def test_the_whole_process_is_served(tmp_path: Path, project: Path) -> None:
    """`python -m skillstudio` as a shell runs it: the second run prints the same bytes
    without importing the command line (it never loads the core's profiles)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "proc-cache"), PYTHONPATH=str(ROOT))
    time.sleep(replay.SETTLED_NS / 1e9 + 0.1)  # what the run reads is settled
    argv = [sys.executable, "-m", "skillstudio", "lint", "--format", "json"]
    probe = "import sys; print(sorted(m for m in sys.modules if 'profiles' in m))"
    first = subprocess.run(argv, capture_output=True, env=env, cwd=project, check=False)
    second = subprocess.run(argv, capture_output=True, env=env, cwd=project, check=False)
    assert (second.returncode, second.stdout, second.stderr) == (
        first.returncode,
        first.stdout,
        first.stderr,
    )
    served = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.argv={['skillstudio', *argv[3:]]!r}\n"
            "from skillstudio.cli import entry\ncode = entry.main()\n" + probe,
        ],
        capture_output=True,
        env=env,
        cwd=project,
        check=False,
        text=True,
    )
    assert served.stdout.strip().endswith("[]"), served.stdout[-300:]


def test_a_folder_above_that_only_gains_other_entries_keeps_the_recording(
    project: Path, run: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folders above the project are looked at (what they are), not listed: a file
    added beside the project (as /tmp or a home folder gains files all day), while the
    command runs or after, changes nothing the command read."""
    real = entry._command_line

    def busy_neighbours(words: list[str]) -> int:
        code = real(words)
        # another process (a file this process opened would be a file the command read)
        subprocess.run(["touch", str(project.parent / "during.txt")], check=True)
        return code

    monkeypatch.setattr(entry, "_command_line", busy_neighbours)
    first = run("lint", "--format", "json")
    (project.parent / "after.txt").write_text("x")
    assert run("lint", "--format", "json") == first
    assert run.ran == 1


def test_workers_an_earlier_command_of_the_process_started_do_not_count(
    project: Path, run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "WORKERS_STARTED", True)  # (an earlier scan's workers)
    first = run("lint", "--format", "json")
    assert len(recordings(cache_home)) == 1
    assert run("lint", "--format", "json") == first and run.ran == 1
