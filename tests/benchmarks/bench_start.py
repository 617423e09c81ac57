"""App start to first painted window, bundled skills (docs/performance.md: ≤ 1.0 s).

The app is started the way a user starts it (`python -m skillstudio gui skills/`,
fresh settings) in a new process; the clock runs from just before that process
is created until the main window's first paint event, so interpreter start,
imports and the first layout are all inside. The alternative measured in the
same run is the floor for any PySide6 app: a new process that shows an empty
QWidget. Both report their resident memory at first paint.

Usage: QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_start.py [--repeat N]
Prints medians; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Runs in the child. CLOCK_MONOTONIC (perf_counter on Linux) is one clock for
# every process, so the parent can subtract its own reading taken before spawn.
_CHILD = r"""
import json, os, runpy, sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

def rss_mb():
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return 0.0

class Painted(QObject):
    def __init__(self):
        super().__init__()
        self.at = None
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.perf_counter()
        return False

def wait_for_paint(window):
    watch = Painted()
    window.installEventFilter(watch)
    app = QApplication.instance()
    deadline = time.perf_counter() + 10
    while watch.at is None and time.perf_counter() < deadline:
        app.processEvents()
    print(json.dumps({"painted": watch.at, "rss_mb": rss_mb()}), flush=True)

if sys.argv[1] == "bare":
    app = QApplication(sys.argv[:1])
    window = QWidget()
    window.resize(1200, 780)
    window.show()
    wait_for_paint(window)
else:
    def first_paint(*_args):
        window = next(w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow")
        wait_for_paint(window)
        return 0
    QApplication.exec = first_paint  # the event loop is entered: wait for the paint, then leave
    sys.argv = ["skillstudio", "gui", sys.argv[2]]
    try:
        runpy.run_module("skillstudio", run_name="__main__")
    except SystemExit:
        pass
"""


@dataclass
class StartFigures:
    app_ms: float  # process creation → the main window's first paint, bundled skills
    app_rss_mb: float
    bare_ms: float  # the same for an empty QWidget (the floor for a PySide6 app)
    bare_rss_mb: float


def child_json(cmd: list[str], env: dict[str, str], what: str) -> dict[str, Any]:
    """Run a benchmark child and read the JSON object on its last such stdout line."""
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"{what} failed: {proc.stderr.strip()[-800:]}")
    data: dict[str, Any] = json.loads(lines[-1])
    return data


def _once(kind: str, folder: str) -> tuple[float, float]:
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="skillstudio-start-")  # fresh settings
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    start = time.perf_counter()
    data = child_json([sys.executable, "-c", _CHILD, kind, folder], env, f"the {kind} start")
    if data["painted"] is None:
        raise RuntimeError(f"the {kind} window was never painted")
    return (data["painted"] - start) * 1000, float(data["rss_mb"])


def run(repeat: int = 5, folder: str | None = None) -> StartFigures:
    folder = folder or os.path.join(REPO, "skills")
    _once("bare", folder)  # warm the page cache for both
    _once("app", folder)
    apps, bares = [], []
    for _ in range(repeat):  # interleaved: drift in the machine's speed hits both alike
        bares.append(_once("bare", folder))
        apps.append(_once("app", folder))
    return StartFigures(
        app_ms=statistics.median(a[0] for a in apps),
        app_rss_mb=statistics.median(a[1] for a in apps),
        bare_ms=statistics.median(b[0] for b in bares),
        bare_rss_mb=statistics.median(b[1] for b in bares),
    )


def report(f: StartFigures) -> str:
    return "\n".join(
        [
            "App start to first paint, bundled skills (new processes, medians)",
            f"  skillstudio gui skills/   {f.app_ms:6.0f} ms (target ≤ 1000 ms), "
            f"{f.app_rss_mb:.0f} MB resident",
            f"  an empty QWidget          {f.bare_ms:6.0f} ms, {f.bare_rss_mb:.0f} MB resident "
            f"(app = {f.app_ms / f.bare_ms:.1f} × the floor)",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--folder")
    args = parser.parse_args(argv)
    print(report(run(args.repeat, args.folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
