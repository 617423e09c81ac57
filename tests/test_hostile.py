"""Hostile folders (tests/hostile.py): the CLI and the app stay responsive, bounded in
memory, and report each case. The slow variants (a 100 MB file written out, a
100,000-entry folder) run with SKILLSTUDIO_SLOW=1:

    SKILLSTUDIO_SLOW=1 .venv/bin/python -m pytest tests/test_hostile.py -q
"""

from __future__ import annotations

import itertools
import json
import os
import stat
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import hostile
from .helpers import REPO

SLOW = os.environ.get("SKILLSTUDIO_SLOW") == "1"
MEMORY_MB = 300

# Runs the CLI in a child and prints its peak RSS (kB) on stderr's last line: VmHWM,
# the high-water mark of this process image (getrusage's ru_maxrss survives exec on
# Linux, so a child of a big pytest process would report its parent's size).
MEASURED = (
    "import sys\n"
    "from skillstudio.cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "peak = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
    "print(peak[0] if peak else 0, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    base = tmp_path_factory.mktemp("hostile")
    yield Path(hostile.make(str(base), big=SLOW))
    hostile.remove(str(base))  # pytest's own clean-up recurses per level


def cli(
    *args: str, cwd: Path, timeout: float = 120
) -> tuple[subprocess.CompletedProcess[str], float, int]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": REPO},
    )
    seconds = time.perf_counter() - started
    rss_kb = int(done.stderr.strip().splitlines()[-1])
    return done, seconds, rss_kb


def test_lint_reports_every_case_quickly_and_in_bounded_memory(tree: Path) -> None:
    done, seconds, rss_kb = cli(
        "lint", str(tree), "--profile", "agentskills", "--format", "json", cwd=tree.parent
    )
    assert done.returncode == 1, done.stderr  # errors found, no crash
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    by_folder: dict[str, set[str]] = {}
    for d in report["diagnostics"]:
        folder = os.path.relpath(d["path"], tree).split(os.sep)[0]
        by_folder.setdefault(folder, set()).add(d["code"])
        assert d["message"] and (d["line"] is None or d["line"] >= 1)
    names = {s["name"] for s in report["skills"]}
    assert {"yaml-invalid", "skipped"} <= by_folder["alias-bomb"]
    assert "file-too-large" in by_folder["huge-file"]
    assert "not-utf8" in by_folder["binary"] and "not-utf8" in by_folder["latin1"]
    assert "symlink-skipped" in by_folder["escape"]
    assert "yaml-invalid" in by_folder["deep-flow"]
    for case in hostile.yaml_bombs():  # one diagnostic each, not one per key or level
        assert sum(case in d["path"] for d in report["diagnostics"]) <= 3, case
        assert "yaml-invalid" in by_folder[case], case
    assert "outside" not in names, "a link out of the root is not followed"
    assert {"wide", "deep", "vanishing", "backtracking", "loop"} <= names
    assert "name-dir-mismatch" in by_folder["newline\nname"]
    assert "name-dir-mismatch" in by_folder["ünï-cødé 名前"]
    assert seconds < 60 and rss_kb < MEMORY_MB * 1024, (seconds, rss_kb)


def test_unclosed_quote_and_typed_metadata_are_placed_and_bounded(tree: Path) -> None:
    done, seconds, _rss = cli(
        "lint", "unclosed-quote", "--profile", "agentskills", "--format", "json", cwd=tree
    )
    found = [d for d in json.loads(done.stdout)["diagnostics"] if d["code"] == "yaml-invalid"]
    assert [(d["line"], d["column"]) for d in found] == [(3, 14)]  # where the quote opens
    assert len(found[0]["message"]) < 600 and "…'" in found[0]["message"]
    done, seconds, _rss = cli("show", "typed-metadata", "--profile", "agentskills", cwd=tree)
    assert done.returncode == 0, done.stderr
    assert "metadata.k1: written 1.10" in done.stdout and "metadata.k0: written yes" in done.stdout
    assert seconds < 30


def test_text_output_keeps_one_diagnostic_per_line(tree: Path) -> None:
    done, _seconds, _rss = cli("lint", str(tree), "--profile", "agentskills", cwd=tree.parent)
    lines = done.stdout.splitlines()
    assert any("newline\\nname/SKILL.md:" in line for line in lines)
    assert all(line.startswith(("skills/", "/")) or " checked with " in line for line in lines), (
        lines
    )


def test_backtracking_patterns_do_not_hang_matching(tree: Path) -> None:
    query = "a" * 60 + "! " + "x" * 60
    done, seconds, _rss = cli(
        "match", query, "--root", str(tree), "--profile", "toolsets", cwd=tree.parent
    )
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr
    assert seconds < 20, seconds


def test_a_file_vanishing_during_the_scan_is_reported_not_raised(tmp_path: Path) -> None:
    from skillstudio.core.projects.project import project_from_roots

    root = Path(hostile.make(str(tmp_path / "tree"), wide=10))
    project = project_from_roots([str(root)], "agentskills", str(tmp_path))
    registry = project.registry()
    vanishing = root / "vanishing" / "SKILL.md"

    def progress(done: int, total: int) -> None:
        if vanishing.exists():  # gone after discovery, before its read
            vanishing.unlink()

    try:
        registry.scan(progress)
        registry.refresh()
    finally:
        hostile.remove(str(tmp_path / "tree"))
    codes = {d.code for d in registry.diagnostics if "vanishing" in d.path}
    names = {s.name for s in registry.skills}
    assert "vanishing" not in names or codes, "either gone from the list or reported"


def test_the_app_opens_a_hostile_tree_and_stays_responsive(tree: Path, qtbot: object) -> None:
    from PySide6.QtCore import QElapsedTimer, QSettings, QTimer

    from skillstudio.gui.window.main_window import MainWindow

    settings = QSettings(str(tree.parent / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.show()
    beats: list[int] = []
    clock = QElapsedTimer()
    clock.start()
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: beats.append(clock.elapsed()))
    timer.start()
    messages: list[str] = []
    window.watcher.limited.connect(messages.append)
    with qtbot.waitSignal(window.scan_finished, timeout=60_000):  # type: ignore[attr-defined]
        assert window.open_path(str(tree), "agentskills")
    timer.stop()  # before the test itself blocks on the watcher below
    stall = max((b - a for a, b in itertools.pairwise(beats)), default=0)
    assert window.watcher.ready.wait(30)
    qtbot.waitUntil(lambda: bool(messages))  # type: ignore[attr-defined]
    problems = window.problems_model
    paths = {diag.path for diag in problems.shown()}  # grouped rows flattened
    for folder in (
        "alias-bomb",
        "huge-file",
        "binary",
        "latin1",
        "deep-flow",
        *hostile.yaml_bombs(),
    ):
        assert any(f"{os.sep}{folder}{os.sep}" in p for p in paths), folder
    assert stall < 1000, f"the event loop stalled {stall} ms during the scan"
    # 1,000 nested folders: the watcher watches down to its depth bound (or, where
    # watchdog walks them itself, falls back to folder-by-folder watches) and says so;
    # shallow changes still arrive.
    assert "levels deep" in messages[0] and "Reload" in messages[0]
    with qtbot.waitSignal(window.watcher.skills_changed, timeout=5000):  # type: ignore[attr-defined]
        (tree / "wide" / "SKILL.md").write_text(hostile.skill("wide", "Changed on disk."))
    window.close()


# -- files and folders (issue 14 items 4, 5, 7, 8, 9, 11, 12, 13; issue 15 items 9, 10, 12) --

HANG_GUARD_S = 10  # every command on every case finishes within this


def run_ok(
    *args: str, cwd: Path, codes: tuple[int, ...] = (0, 1)
) -> subprocess.CompletedProcess[str]:
    """A CLI run that must finish within the hang guard, with an expected exit code and
    no internal error or traceback."""
    done, _seconds, _rss = cli(*args, cwd=cwd, timeout=HANG_GUARD_S)
    assert done.returncode in codes, (args, done.returncode, done.stdout[-400:], done.stderr[-400:])
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    return done


def test_codex_side_files_get_diagnostics_not_hangs(tree: Path) -> None:
    """agents/openai.yaml as a FIFO or an alias bomb, a plugin manifest linking to itself:
    each a warning on that file, and the skill still loads."""
    done = run_ok("lint", str(tree), "--profile", "codex", "--format", "json", cwd=tree.parent)
    report = json.loads(done.stdout)
    found = {
        os.path.relpath(str(d["path"]), tree).split(os.sep)[0]: str(d["message"])
        for d in report["diagnostics"]
        if str(d["path"]).endswith(("openai.yaml", "plugin.json"))
    }
    assert "FIFO" in found["codex-openai-fifo"]
    assert "cannot be used" in found["codex-openai-bomb"]
    assert "loops" in found["codex-plugin-loop"]
    names = {s["name"] for s in report["skills"]}
    assert {
        "codex-openai-fifo",
        "codex-openai-bomb",
        "codex-plugin-loop:codex-plugin-loop",
    } <= names


def test_special_files_links_and_toolsets_get_diagnostics_not_hangs(tree: Path) -> None:
    done = run_ok("lint", str(tree), "--profile", "toolsets", "--format", "json", cwd=tree.parent)
    report = json.loads(done.stdout)
    by_folder: dict[str, list[dict[str, object]]] = {}
    for d in report["diagnostics"]:
        by_folder.setdefault(os.path.relpath(d["path"], tree).split(os.sep)[0], []).append(d)

    def messages(folder: str, code: str) -> list[str]:
        return [str(d["message"]) for d in by_folder.get(folder, []) if d["code"] == code]

    assert any("loops" in m for m in messages("skill-loop", "symlink-skipped"))
    assert any("FIFO" in m for m in messages("skill-fifo", "unreadable"))
    assert any("folder" in m for m in messages("skill-folder", "unreadable"))
    assert any("outside" in m for m in messages("skill-outside-fifo", "symlink-skipped"))
    leak = messages("toolset-leak", "toolset-missing")
    assert len(leak) == 1 and "outside" in leak[0], leak  # secret.py was not read
    fifo = messages("toolset-fifo", "toolset-missing")
    assert len(fifo) == 2 and "FIFO" in fifo[0] and "outside" in fifo[1], fifo
    assert messages("toolset-quadratic", "toolset-missing")
    assert not messages("toolset-many-refs", "toolset-missing")
    names = {s["name"] for s in report["skills"]}
    assert {"wide", "special-files", "toolset-many-refs"} <= names  # the neighbours load


def test_profile_detection_survives_a_linked_skill_md_loop(tree: Path) -> None:
    """No --profile: detection samples SKILL.md files, including skill-loop's."""
    done = run_ok("lint", "--format", "json", cwd=tree.parent)
    assert "wide" in {s["name"] for s in json.loads(done.stdout)["skills"]}


@pytest.mark.parametrize(
    "args",
    [
        ("show", "deep"),
        ("show", "special-files"),
        ("activate", "deep", "--profile", "workspace"),
        ("activate", "special-files", "--profile", "workspace"),
        ("match", "special files", "--profile", "toolsets"),
        ("prompt", "--profile", "toolsets"),
        ("list", "--profile", "toolsets"),
    ],
)
def test_commands_finish_on_the_tree(tree: Path, args: tuple[str, ...]) -> None:
    done = run_ok(*args, "--root", str(tree), cwd=tree.parent)
    assert "\x1b" not in done.stdout, "terminal escape codes from names are printed escaped"


def test_the_likely_ranking_reads_a_bounded_gist_of_a_huge_body(tree: Path) -> None:
    done = run_ok(
        "match",
        "w0000007 please",
        "--profile",
        "agentskills",
        "--format",
        "json",
        "--root",
        str(tree),
        cwd=tree.parent,
    )
    likely = json.loads(done.stdout)["likely"]
    assert likely and likely[0]["skill"] == "gist-words"  # a word of its body's start
    from skillstudio.core.projects.project import project_from_folder
    from skillstudio.core.reading.skill_words import GIST_WORDS, gist_counts

    registry = project_from_folder(str(tree), "agentskills").registry()
    registry.scan()
    found = registry.get("gist-words")
    assert found is not None
    assert len(gist_counts(found.gist)) == GIST_WORDS and len(found.gist) < 10_000
    # the bundled markdown: special files, links and folders left out, the 100 MB
    # file read 32 KB far; nothing from outside the skill's folder
    bundled = registry.get("bundled-hostile")
    assert bundled is not None and bundled.status == "active"
    words = dict(gist_counts(bundled.gist))
    assert words["bundledword"] == 500  # its 1,000 words at half weight
    assert hostile.BUNDLED_SECRET not in bundled.gist


def test_list_escapes_names_and_paths(tree: Path) -> None:
    done = run_ok("list", "--root", str(tree), "--profile", "agentskills", cwd=tree.parent)
    row = next(line for line in done.stdout.splitlines() if line.startswith("escape-codes"))
    assert row.startswith("escape-codes\\x1b[31m") and "escape\\x1b[2Jcodes" in row


def test_pack_leaves_out_special_files_and_says_so(tree: Path, tmp_path: Path) -> None:
    done = run_ok(
        "pack", str(tree / "special-files"), "-o", str(tmp_path / "new") + "/", cwd=tmp_path
    )
    archive = tmp_path / "new" / "special-files.skill"  # a missing folder is created
    names = zipfile.ZipFile(archive).namelist()
    assert names == ["special-files/SKILL.md"]
    for left in ("pipe.png: left out, it is a FIFO", "zero.png: left out, it is a link"):
        assert left in done.stderr
    assert not list(tmp_path.rglob("*.part"))
    again = run_ok("pack", str(tree / "special-files"), "-o", str(tmp_path / "new"), cwd=tmp_path)
    assert "special-files.skill" in again.stdout  # onto a folder: <folder>/<name>.skill


def test_pack_refuses_what_unpack_would_refuse(tree: Path, tmp_path: Path) -> None:
    deep = run_ok(
        "pack", str(tree / "deep"), "-o", str(tmp_path / "d.skill"), cwd=tmp_path, codes=(2,)
    )
    assert "levels" in deep.stderr
    sparse = tmp_path / "sparse"
    sparse.mkdir()
    (sparse / "SKILL.md").write_text(hostile.skill("sparse"))
    with open(sparse / "big.bin", "wb") as fh:
        fh.truncate(3 * 1024**3)  # 3 GB to stat(), no disk used
    big = run_ok("pack", str(sparse), "-o", str(tmp_path / "s.skill"), cwd=tmp_path, codes=(2,))
    assert "big.bin" in big.stderr and "100 MB" in big.stderr
    linked = tmp_path / "linked"
    linked.mkdir()
    (tmp_path / "real.md").write_text(hostile.skill("linked"))
    (linked / "SKILL.md").symlink_to(tmp_path / "real.md")
    link = run_ok("pack", str(linked), "-o", str(tmp_path / "l.skill"), cwd=tmp_path, codes=(2,))
    assert "is a link" in link.stderr
    assert not list(tmp_path.glob("*.skill*")), "nothing written, no .part left"


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return hostile.make_archives(str(tmp_path_factory.mktemp("archives")), big=SLOW)


@pytest.mark.parametrize(
    ("case", "says"), [(case, says) for case, says in hostile.ARCHIVE_CASES.items() if says]
)
def test_unpack_refuses_hostile_archives(
    archives: dict[str, str], tmp_path: Path, case: str, says: str
) -> None:
    done = run_ok(
        "unpack", archives[case], "--root", str(tmp_path / "root"), cwd=tmp_path, codes=(1,)
    )
    assert "refused" in done.stderr and says in done.stderr, done.stderr
    assert not (tmp_path / "root").exists() or not os.listdir(tmp_path / "root")


def test_the_entry_count_is_checked_before_zipfile_reads_the_directory(
    archives: dict[str, str], tmp_path: Path
) -> None:
    import tracemalloc

    from skillstudio.core.editing.archive import ArchiveError, unpack

    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="at most 1000"):
            unpack(archives["many-entries"], str(tmp_path / "root"))
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes to refuse a 100,001-entry archive"


def test_unpack_stages_in_a_private_folder(archives: dict[str, str], tmp_path: Path) -> None:
    root = tmp_path / "root"
    mine = root / "x.unpacking"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("the user's own folder")
    run_ok("unpack", archives["crc"], "--root", str(root), cwd=tmp_path, codes=(1,))
    assert (mine / "notes.txt").read_text() == "the user's own folder"  # not deleted
    run_ok("unpack", archives["good"], "--root", str(root), cwd=tmp_path, codes=(0,))
    assert sorted(os.listdir(root)) == ["x", "x.unpacking"]  # not merged, no staging left
    assert os.listdir(root / "x") == ["SKILL.md"]
    # a link named like the old staging folder: nothing is written through it
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "SKILL.md").write_text("victim")
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.unpacking").symlink_to(victim)
    run_ok("unpack", archives["good"], "--root", str(other), cwd=tmp_path, codes=(0,))
    assert (victim / "SKILL.md").read_text() == "victim"
    assert (other / "x.unpacking").is_symlink() and (other / "x" / "SKILL.md").is_file()


def test_unpack_restores_execute_bits_but_never_setuid(
    archives: dict[str, str], tmp_path: Path
) -> None:
    run_ok("unpack", archives["modes"], "--root", str(tmp_path), cwd=tmp_path, codes=(0,))
    run_sh = os.stat(tmp_path / "x/scripts/run.sh").st_mode
    setuid = os.stat(tmp_path / "x/scripts/setuid").st_mode
    assert run_sh & 0o111 == 0o111 and setuid & 0o111 == 0o111
    assert not setuid & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX)
    assert not os.stat(tmp_path / "x/SKILL.md").st_mode & 0o111


def test_unpack_on_a_full_disk_is_a_refusal(archives: dict[str, str], tmp_path: Path) -> None:
    """The file-size limit makes every write past 4 KB fail as a full disk would."""
    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "from skillstudio.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    archive = tmp_path / "big.skill"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("x/SKILL.md", hostile.SKILL_BYTES)
        zf.writestr("x/data.bin", b"\0" * 65536)
    done = subprocess.run(
        [sys.executable, "-c", script, "unpack", str(archive), "--root", "root"],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": REPO},
    )
    assert done.returncode == 1 and "refused" in done.stderr, done.stderr
    assert "internal error" not in done.stderr
    assert os.listdir(tmp_path / "root") == []


def test_unpack_of_a_missing_file_says_so(tmp_path: Path) -> None:
    done = run_ok("unpack", "missing.skill", cwd=tmp_path, codes=(2,))
    assert "missing.skill does not exist" in done.stderr and "zip" not in done.stderr


def test_set_name_is_a_registry_name_never_a_file_here(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    (skills / "tool").mkdir(parents=True)
    (skills / "tool" / "SKILL.md").write_text(hostile.skill("tool"))
    script = tmp_path / "tool"
    script.write_text("#!/bin/sh\necho the user's script\n")
    run_ok("set", "tool", "license=MIT", "--root", str(skills), cwd=tmp_path, codes=(0,))
    assert script.read_text() == "#!/bin/sh\necho the user's script\n"
    assert "license: MIT" in (skills / "tool" / "SKILL.md").read_text()
    for path in ("./tool", "./tool/"):  # a path, but not a skill's: refused
        run_ok("set", path, "license=MIT", cwd=tmp_path, codes=(2,))
    assert script.read_text() == "#!/bin/sh\necho the user's script\n"


def test_set_writes_through_a_link_inside_the_root_and_refuses_others(tmp_path: Path) -> None:
    skills = tmp_path / "skills"
    for name in ("linked", "out", "ro"):
        (skills / name).mkdir(parents=True)
    (skills / "real.md").write_text(hostile.skill("linked"))
    (skills / "linked" / "SKILL.md").symlink_to("../real.md")
    (tmp_path / "outside.md").write_text(hostile.skill("out"))
    (skills / "out" / "SKILL.md").symlink_to(tmp_path / "outside.md")
    (skills / "ro" / "SKILL.md").write_text(hostile.skill("ro"))
    os.chmod(skills / "ro" / "SKILL.md", 0o444)
    run_ok("set", "linked", "license=MIT", "--root", str(skills), cwd=tmp_path, codes=(0,))
    assert (skills / "linked" / "SKILL.md").is_symlink()
    assert "license: MIT" in (skills / "real.md").read_text()
    out = run_ok("set", "skills/out/SKILL.md", "license=MIT", cwd=tmp_path, codes=(1,))
    assert "outside" in out.stderr and (skills / "out" / "SKILL.md").is_symlink()
    assert "license" not in (tmp_path / "outside.md").read_text()
    ro = run_ok("set", "ro", "license=MIT", "--root", str(skills), cwd=tmp_path, codes=(1,))
    assert "read-only" in ro.stderr and "license" not in (skills / "ro" / "SKILL.md").read_text()


PREVIEW = (
    "import sys\n"
    "from PySide6.QtWidgets import QApplication\n"
    "from skillstudio.gui.editor.preview import Preview\n"
    "app = QApplication([])\n"
    "folder = sys.argv[1]\n"
    "preview = Preview()\n"
    "preview.show_body(open(folder + '/SKILL.md').read(), folder)\n"
    "while preview.pending:  # the render, images included, comes from the worker\n"
    "    app.processEvents()\n"
    "preview.grab()\n"
    "print('rendered')\n"
)


def test_the_preview_never_opens_special_files_as_images(tree: Path) -> None:
    """zero.png -> /dev/zero (4.3 GB read, then abort on main) and pipe.png, a FIFO."""
    done = subprocess.run(
        [sys.executable, "-c", PREVIEW, str(tree / "special-files")],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S * 3,
        env={**os.environ, "PYTHONPATH": REPO, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0 and "rendered" in done.stdout, done.stderr[-400:]


SVG_PREVIEW = (
    "import sys\n"
    "from PySide6.QtWidgets import QApplication\n"
    "from skillstudio.gui.editor.preview import Preview\n"
    "app = QApplication([])\n"
    "folder = sys.argv[1]\n"
    "preview = Preview()\n"
    "preview.show_body(open(folder + '/SKILL.md').read(), folder)\n"
    "while preview.pending:\n"
    "    app.processEvents()\n"
    "preview.grab()\n"
    "print('rendered', len(preview._images))\n"
)


def test_svg_images_that_reach_outside_or_multiply_are_not_followed(tree: Path) -> None:
    """Issue 25 item 4: /dev/stdin (an open pipe here, a terminal in the report), a
    FIFO beside the skill, images on disk inside and outside, a chain of uses, an
    entity: each SVG drawn from its own bytes or not at all, none waited on."""
    terminal, keep_open = os.pipe()
    try:
        done = subprocess.run(
            [sys.executable, "-c", SVG_PREVIEW, str(tree / "svg-reach")],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=HANG_GUARD_S * 3,
            env={**os.environ, "PYTHONPATH": REPO, "QT_QPA_PLATFORM": "offscreen"},
        )
    finally:
        os.close(terminal)
        os.close(keep_open)
    assert done.returncode == 0 and "rendered" in done.stdout, done.stderr[-400:]
    assert done.stdout.split()[-1] == "4"  # stdin, pipe, disk, inside drawn bare; no bomb


def test_links_out_and_a_hundred_thousand_links_are_reported_and_bounded(tree: Path) -> None:
    """Issue 25 items 8 and 14: a link inside the skill to /etc/passwd and a folder
    link out are broken links; 100,000 links cost one bounded check."""
    done = run_ok(
        "lint", "link-out", "links-100k", "--profile", "all", "--format", "json", cwd=tree
    )
    diagnostics = json.loads(done.stdout)["diagnostics"]
    out = {
        d["message"] for d in diagnostics if "link-out" in d["path"] and d["code"] == "link-broken"
    }
    assert out and all("outside the skill folder" in m for m in out)
    assert {m.split("'")[1] for m in out} == {"refs/notes.md", "shared/SKILL.md"}
    many = [d for d in diagnostics if "links-100k" in d["path"]]
    assert 0 < sum(d["code"] == "link-broken" for d in many) <= 8 * 1000
    assert any(d["code"] == "scan-limit" for d in many)


def test_a_suite_that_is_a_fifo_is_refused_not_waited_on(tree: Path, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "suite.yaml")
    done = run_ok(
        "test", str(tmp_path / "suite.yaml"), "--root", str(tree), cwd=tmp_path, codes=(2,)
    )
    assert "FIFO" in done.stderr


def test_the_app_opens_a_folder_with_a_looping_skill_md_without_a_profile(
    tmp_path: Path, qtbot: object
) -> None:
    """Detection read SKILL.md -> SKILL.md (ELOOP): the app could not open the folder,
    and reopening it at the next start failed again."""
    from PySide6.QtCore import QSettings

    from skillstudio.gui.window.main_window import MainWindow

    (tmp_path / "skills" / "loop").mkdir(parents=True)
    (tmp_path / "skills" / "loop" / "SKILL.md").symlink_to("SKILL.md")
    (tmp_path / "skills" / "ok").mkdir()
    (tmp_path / "skills" / "ok" / "SKILL.md").write_text(hostile.skill("ok"))
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    with qtbot.waitSignal(window.scan_finished, timeout=30_000):  # type: ignore[attr-defined]
        assert window.open_path(str(tmp_path / "skills"))
    assert [s.name for r in window.context.registries for s in r.skills] == ["ok"]
    window.close()


# -- skill regular expressions and placeholders (issue 14, items 2 and 3) ---------------
PATTERN_CASES = ("pattern-overflow", "pattern-nested", "pattern-slow", "pattern-huge-repeat")
SLOW_QUERY = "pattern-slow request " + "ab" * 20  # long enough to make each pattern time out


def no_crash(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_hostile_patterns_are_pattern_invalid_at_the_pattern(tree: Path) -> None:
    done, seconds, _rss = cli(
        "lint", str(tree), "--profile", "toolsets", "--format", "json", cwd=tree.parent
    )
    no_crash(done)
    report = json.loads(done.stdout)
    for case in PATTERN_CASES:
        found = [
            d
            for d in report["diagnostics"]
            if d["code"] == "pattern-invalid"
            and d["severity"] == "error"
            and f"{os.sep}{case}{os.sep}" in d["path"]
        ]
        assert found, case
        assert (found[0]["line"], found[0]["column"]) == (7, 7), found[0]  # the first item
        assert len(found[0]["message"]) < 400, "a 10,000-character pattern is cut in the message"
    slow = [d for d in report["diagnostics"] if f"{os.sep}pattern-slow{os.sep}" in d["path"]]
    assert any("takes over" in d["message"] and "1 KB input" in d["message"] for d in slow)
    assert any("not checked for speed" in d["message"] for d in slow), "the check is bounded"
    names = {s["name"] for s in report["skills"] if s["status"] == "active"}
    assert {"wide", "pattern-slow", "pattern-overflow", "pattern-nested"} <= names
    assert seconds < 10, seconds


@pytest.fixture(scope="module")
def suite(tree: Path) -> Path:
    path = tree.parent / "patterns.suite.yaml"
    path.write_text(
        "profile: toolsets\nroots: [skills]\ncases:\n"
        f"  - query: {json.dumps(SLOW_QUERY)}\n    expect: pattern-slow\n"
        '  - query: "wide"\n    expect: none\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "command",
    [
        ("list", "--profile", "toolsets"),
        ("show", "pattern-nested", "--profile", "toolsets"),
        ("match", SLOW_QUERY, "--profile", "toolsets"),
        ("prompt", "--tier", "2", "--profile", "toolsets"),
        ("prompt", "--query", SLOW_QUERY, "--profile", "toolsets"),
        ("activate", "pattern-overflow", "--profile", "toolsets"),
        ("activate", "dollar-digits", "one two", "--profile", "pegasus"),
        ("prompt", "--query", "/dollar-digits one two", "--profile", "pegasus"),
        ("test", "SUITE"),
    ],
    ids=lambda c: " ".join(c[:2])[:30],
)
def test_commands_finish_on_hostile_patterns_and_placeholders(
    tree: Path, suite: Path, command: tuple[str, ...]
) -> None:
    args = [str(suite) if a == "SUITE" else a for a in command]
    if command[0] != "test":
        args += ["--root", str(tree)]
    done, seconds, rss_kb = cli(*args, cwd=tree.parent)
    no_crash(done)
    assert seconds < 10, seconds
    assert rss_kb < MEMORY_MB * 1024, rss_kb
    if command[0] == "match":
        assert "pattern budget of" in done.stdout and "not tried" in done.stdout
        assert "pattern-slow" in done.stdout  # its keyword still scores
    if "dollar-digits" in command[1]:
        assert "$" + "7" * 5000 in done.stdout, "an index past every argument stays as written"
        assert "one" in done.stdout  # $0


def test_a_request_shares_one_pattern_budget(tmp_path: Path) -> None:
    from skillstudio.core.projects.project import project_from_roots
    from skillstudio.core.ranking.matching import match

    root = tmp_path / "skills"
    patterns = [f"(.|..)+(?!x{{0,{n + 1}}})" for n in range(hostile.SLOW_PATTERNS)]
    hostile.write(str(root / "slow" / "SKILL.md"), hostile.patterns_skill("slow", patterns))
    # after the slow one in path order: it gets its turn all the same
    hostile.write(
        str(root / "zz-fine" / "SKILL.md"), hostile.patterns_skill("zz-fine", ["fine.+end"])
    )
    registry = project_from_roots([str(root)], "toolsets", str(tmp_path)).registry()
    registry.scan()
    query = "a fine request at the end " + "ab" * 20
    started = time.perf_counter()
    result = match(registry, query)
    seconds = time.perf_counter() - started
    assert seconds < 5, seconds  # a hang guard: 300 patterns × 50 ms took 15 s and more
    assert any("budget" in n and "not tried" in n for n in result.notes), result.notes
    fine = result.candidate("zz-fine")
    assert fine is not None and [r.rule for r in fine.reasons] == ["pattern"]


# Each command of a case runs in one child: a crash in a C library kills only the child
# (exit 139 on main for 50,000 nested brackets), and the child reports, per command,
# its exit code, seconds and output.
COMMANDS = (
    "import io, json, sys, time\n"
    "from skillstudio.cli.main import main\n"
    "results = []\n"
    "for argv in json.loads(sys.argv[1]):\n"
    "    out, err = io.StringIO(), io.StringIO()\n"
    "    started = time.perf_counter()\n"
    "    code = main(argv, out=out, err=err)\n"
    "    seconds = time.perf_counter() - started\n"
    "    results.append({'argv': argv, 'code': code, 'seconds': seconds,\n"
    "                    'out': out.getvalue(), 'err': err.getvalue()})\n"
    "print(json.dumps(results))\n"
)
OK_SUITE = 'cases:\n  - query: "use neighbour skill"\n    expect: neighbour\n'


def run_commands(cwd: Path, commands: list[list[str]]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS, json.dumps(commands)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": REPO},
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    results: list[dict[str, Any]] = json.loads(done.stdout)
    for result in results:
        text = result["out"] + result["err"]
        assert "internal error" not in text and "Traceback" not in text, (result["argv"], text)
        assert result["seconds"] < 10, (result["argv"], result["seconds"])
    return results


def every_command(skill: str, root: list[str], suite: str) -> list[list[str]]:
    return [
        ["lint", *root[1:2]] if root else ["lint"],
        ["list", "--format", "json", *root],
        ["show", "neighbour", *root],
        ["show", skill, *root],
        ["match", "use neighbour skill", *root],
        ["prompt", *root],
        ["activate", "neighbour", *root],
        ["test", suite, *root],
    ]


def neighbour_loads(results: list[dict[str, Any]]) -> None:
    listed = json.loads(results[1]["out"])
    assert {"name": "neighbour", "status": "active"}.items() <= next(
        s for s in listed["skills"] if s["name"] == "neighbour"
    ).items()
    assert results[2]["code"] == 0 and results[6]["code"] == 0
    assert "neighbour" in results[4]["out"]


@pytest.mark.parametrize("case", sorted(hostile.yaml_bombs()))
def test_every_command_survives_a_yaml_bomb_in_a_skill(case: str, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    hostile.write(str(root / case / "SKILL.md"), hostile.yaml_bombs()[case])
    hostile.write(str(root / "neighbour" / "SKILL.md"), hostile.skill("neighbour"))
    hostile.write(str(tmp_path / "ok.yaml"), OK_SUITE)
    results = run_commands(tmp_path, every_command(case, ["--root", str(root)], "ok.yaml"))
    assert all(r["code"] in (0, 1) for r in results), [(r["argv"], r["code"]) for r in results]
    neighbour_loads(results)
    assert results[7]["code"] == 0, results[7]["out"]  # the suite on the neighbour passes
    lint = results[0]["out"]
    where = f"{case}/SKILL.md:"
    found = [line for line in lint.splitlines() if where in line and "yaml-invalid" in line]
    assert found, lint
    line_number = int(found[0].split(where)[1].split(":")[0])
    assert line_number >= 2, found  # inside the frontmatter, not the fallback 1:1


@pytest.mark.parametrize("case", sorted(hostile.project_bombs()))
def test_every_command_survives_a_hostile_config_or_suite(case: str, tmp_path: Path) -> None:
    folder = Path(hostile.make_project(str(tmp_path), case))
    hostile.write(str(folder / "ok.yaml"), OK_SUITE)
    name = hostile.project_bombs()[case][0]
    suite = name if name != "skillstudio.yaml" else "ok.yaml"
    extra = ["--skill", "neighbour"] if name.endswith(".json") else []
    commands = every_command("neighbour", [], suite)
    commands[-1] += extra
    results = run_commands(folder, commands)
    assert all(r["code"] in (0, 1) for r in results[:-1]), [(r["argv"], r["code"]) for r in results]
    neighbour_loads(results)
    tested = results[-1]
    if name == "skillstudio.yaml":
        assert tested["code"] == 0, tested
        found = [line for line in results[0]["out"].splitlines() if "config-invalid" in line]
        assert found and found[0].startswith("skillstudio.yaml:1:"), results[0]["out"]
        if "int" in case or "tokens" in case:
            assert "must be a whole number from 0 to" in found[0], found
    else:  # the suite is a refused argument: exit 2 and a message that says where and why
        assert tested["code"] == 2, tested
        assert tested["err"].startswith("skillstudio: error: "), tested["err"]
        assert f"{os.sep}{name}" in tested["err"], tested["err"]
        assert len(tested["err"]) < 500 and tested["out"] == "", tested


@pytest.mark.parametrize(
    ("case", "profile"), [("many-keys", "agentskills"), ("many-items", "toolsets")]
)
def test_many_keys_or_items_cost_one_diagnostic_and_little_memory(
    case: str, profile: str, tmp_path: Path
) -> None:
    # 20 files of 60,000 keys (12 MB): main took 105 s and 3.8 GB for 472 MB of JSON
    # (a diagnostic per key); 60,000 toolsets items gave a diagnostic per item. Bounded,
    # a frontmatter past 256 keys or a list past 5,000 items is one yaml-invalid each.
    text = hostile.yaml_bombs()[case]
    root = tmp_path / "skills"
    for n in range(20):
        hostile.write(str(root / f"k{n:02d}" / "SKILL.md"), text.replace(case, f"k{n:02d}"))
    hostile.write(str(root / "neighbour" / "SKILL.md"), hostile.skill("neighbour"))
    done, seconds, rss_kb = cli(
        "lint", str(root), "--format", "json", "--profile", profile, cwd=tmp_path
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert len(report["diagnostics"]) <= 3 * 20, len(report["diagnostics"])
    assert {s["name"] for s in report["skills"] if s["status"] == "active"} == {"neighbour"}
    assert rss_kb < MEMORY_MB * 1024 and seconds < 60, (rss_kb, seconds)


def test_a_huge_number_typed_for_context_tokens_is_refused(tmp_path: Path) -> None:
    from .helpers import cli as cli_in_process

    hostile.write(str(tmp_path / "skills" / "neighbour" / "SKILL.md"), hostile.skill("neighbour"))
    for digits in (400, 5_000):  # main: OverflowError in the budget ("internal error")
        run = cli_in_process(
            "prompt", "--profile", "pegasus", "--context-tokens", "9" * digits, cwd=tmp_path
        )
        assert run.code == 2 and "internal error" not in run.err, run.err


def test_a_temporary_name_with_a_huge_pid_does_not_stop_a_save(tmp_path: Path) -> None:
    """A skill folder can hold any name: a writer's temporary-file pattern with a
    30-digit 'pid' made os.kill raise OverflowError on every save (main)."""
    from skillstudio.core.editing.saving import TEMP_PREFIX, TEMP_SUFFIX, atomic_write

    path = tmp_path / "SKILL.md"
    path.write_text(hostile.skill("saved"))
    odd = tmp_path / f"{TEMP_PREFIX}SKILL.md.{'9' * 30}.x{TEMP_SUFFIX}"
    odd.write_text("not ours")
    atomic_write(str(path), b"new text", None, check=False)
    assert path.read_bytes() == b"new text"
    assert odd.read_text() == "not ours", "no writer of ours has such a pid: kept"


@pytest.mark.parametrize("case", ["config-deep", "config-huge-int"])
def test_the_app_opens_a_project_with_a_hostile_config(case: str, tmp_path: Path) -> None:
    # main: exit 139 (deep) or ValueError at start (5,000 digits)
    folder = hostile.make_project(str(tmp_path), case)
    done = subprocess.run(
        [sys.executable, "-m", "skillstudio", "gui", "--smoke-test", folder],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": REPO, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "1 skill in 1 root" in done.stdout, done.stdout


def test_placeholder_links_never_leave_their_folder(tree: Path) -> None:
    """Issue 17: `${CLAUDE_PLUGIN_ROOT}/../..` and `{baseDir}/../..` are links out of the
    skill's folder (no plugin here): link-broken, outside; a way back in is just missing."""
    done = run_ok("lint", str(tree / "placeholder-escape"), "--format", "json", cwd=tree.parent)
    broken = [d["message"] for d in json.loads(done.stdout)["diagnostics"]]
    assert len([m for m in broken if "points outside the skill folder" in m]) == 2, broken
    assert len([m for m in broken if "does not exist" in m]) == 1, broken
