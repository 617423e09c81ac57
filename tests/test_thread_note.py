"""The threading note (skillstudio/gui/infra/threads.py) names every place in the app
that starts a thread or a background job: read from the code (ast), each call of a
background helper (LatestJob), of a thread (QThread and its subclasses, QThreadPool,
a QRunnable, threading.Thread, watchdog's Observer, the scan's reader processes, an
executor or a process) is named by its module and its owner (the class it is made
in, else the function), and every entry of the note still names one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from skillstudio.gui.infra import threads

PACKAGE = Path(threads.__file__).resolve().parents[2]  # skillstudio/
# What starts a thread or a job: called by these names (or subclasses of the first
# four, found in the app), wherever they come from.
THREADS = {"QThread", "QRunnable", "QThreadPool", "LatestJob"}
STARTERS = THREADS | {
    "Thread",
    "Observer",
    "Workers",
    "ThreadPoolExecutor",
    "ProcessPoolExecutor",
    "Process",
    "Pool",
    "QtConcurrent",
}
ENTRY = re.compile(r"^- (gui/\S+\.py) (\w+):", re.MULTILINE)


def _name(node: ast.expr) -> str | None:
    """The last name of `Thread`, `threading.Thread`, `QThreadPool.globalInstance`'s
    receiver and the like: the name the call is made by."""
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node.value, ast.Name | ast.Attribute | ast.Call) and node.attr in (
            "globalInstance",
            "start",
            "run",
        ):
            node = node.value
        else:
            return node.attr
    return node.id if isinstance(node, ast.Name) else None


def thread_classes(trees: dict[str, ast.Module]) -> set[str]:
    """THREADS and the app's classes made from them (ScanThread, a job's runnable)."""
    found = set(THREADS)
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.ClassDef)
                    and node.name not in found
                    and any(_name(base) in found for base in node.bases)
                ):
                    found.add(node.name)
                    grew = True
    return found


def call_sites(tree: ast.Module, module: str, starters: set[str]) -> set[tuple[str, str]]:
    """(module, owner) of every call in `tree` made by one of `starters`' names."""
    sites: set[tuple[str, str]] = set()

    def visit(node: ast.AST, owner: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            # a class owns what is made in it; a function at the top of a module too
            top_function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            owns = isinstance(child, ast.ClassDef) or (top_function and owner is None)
            inner = getattr(child, "name", owner) if owns else owner
            if isinstance(child, ast.Call) and _name(child.func) in starters:
                sites.add((module, owner or "<module>"))
            visit(child, inner)

    visit(tree, None)
    return sites


def app_sites() -> set[tuple[str, str]]:
    trees = {
        path.relative_to(PACKAGE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted((PACKAGE / "gui").rglob("*.py"))
    }
    starters = STARTERS | thread_classes(trees)
    sites: set[tuple[str, str]] = set()
    for module, tree in trees.items():
        sites |= call_sites(tree, module, starters)
    return sites


def note_entries() -> set[tuple[str, str]]:
    return set(ENTRY.findall(threads.__doc__ or ""))


def test_every_thread_and_background_job_is_in_the_threading_note() -> None:
    sites, named = app_sites(), note_entries()
    assert sites - named == set(), "start a thread or a job: say so in gui/infra/threads.py"
    assert named - sites == set(), "the note names a thread or a job the code no longer has"


def test_the_call_sites_found_are_those_of_the_code() -> None:
    """What the check sees, on a module of its own: the owners of a job, a pool run, a
    thread subclass and a plain thread, and nothing for a mere mention of a name."""
    source = (
        "import threading\n"
        "from PySide6.QtCore import QThread, QThreadPool\n"
        "class Worker(QThread):\n    pass\n"
        "class Panel:\n"
        "    def __init__(self):\n        self.job = LatestJob(self)\n"
        "        self.kind = QThread  # a mention, not a call\n"
        "class Pool:\n    def go(self, r):\n        QThreadPool.globalInstance().start(r)\n"
        "def start_worker():\n    Worker().start()\n"
        "def plain():\n    threading.Thread(target=print).start()\n"
        "def quiet():\n    threading.Event()\n"
    )
    tree = ast.parse(source)
    starters = STARTERS | thread_classes({"gui/x.py": tree})
    assert call_sites(tree, "gui/x.py", starters) == {
        ("gui/x.py", "Panel"),
        ("gui/x.py", "Pool"),
        ("gui/x.py", "start_worker"),
        ("gui/x.py", "plain"),
    }
    # and the app's own: the job owners and threads the note lists are found
    sites = app_sites()
    for site in [
        ("gui/panels/live_panel.py", "LivePanel"),
        ("gui/controllers/scan_controller.py", "Scanning"),
        ("gui/infra/background.py", "LatestJob"),
        ("gui/editor/preview.py", "_Renderer"),
    ]:
        assert site in sites
