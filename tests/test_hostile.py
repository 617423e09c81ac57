"""Hostile folders (tests/hostile.py): the CLI and the app stay responsive, bounded in
memory, and report each case. The slow variants (a 100 MB file written out, a
100,000-entry folder) run with SKILLSTUDIO_SLOW=1:

    SKILLSTUDIO_SLOW=1 .venv/bin/python -m pytest tests/test_hostile.py -q
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

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


def cli(*args: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], float, int]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, *args],
        capture_output=True,
        text=True,
        timeout=120,
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
    from skillstudio.core.project import project_from_roots

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

    from skillstudio.gui.main_window import MainWindow
    from skillstudio.gui.problems_model import DIAGNOSTIC_ROLE

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
    paths = {problems.index(r, 0).data(DIAGNOSTIC_ROLE).path for r in range(problems.rowCount())}
    for folder in ("alias-bomb", "huge-file", "binary", "latin1", "deep-flow"):
        assert any(f"{os.sep}{folder}{os.sep}" in p for p in paths), folder
    assert stall < 1000, f"the event loop stalled {stall} ms during the scan"
    # 1,000 nested folders are deeper than watchdog's recursive walk goes: the watcher
    # falls back to folder-by-folder watches and says so; shallow changes still arrive.
    assert "levels deep" in messages[0] and "Reload" in messages[0]
    with qtbot.waitSignal(window.watcher.skills_changed, timeout=5000):  # type: ignore[attr-defined]
        (tree / "wide" / "SKILL.md").write_text(hostile.skill("wide", "Changed on disk."))
    window.close()
