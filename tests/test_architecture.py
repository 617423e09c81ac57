"""skillstudio.core and the CLI import no Qt (STYLE.md practice 1)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import skillstudio.core

BLOCKER = r"""
import importlib, importlib.abc, pkgutil, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6", "qtpy"):
            raise ImportError(f"blocked Qt import: {name}")
        return None

sys.meta_path.insert(0, Block())
import skillstudio.core, skillstudio.cli
names = []
for pkg in (skillstudio.core, skillstudio.cli):
    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(info.name)
        names.append(info.name)
qt = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6")]
assert not qt, qt
print(len(names))
"""


def test_core_and_cli_import_with_qt_blocked() -> None:
    proc = subprocess.run([sys.executable, "-c", BLOCKER], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    modules = list(pkgutil.walk_packages(skillstudio.core.__path__))
    assert int(proc.stdout.strip()) >= len(modules) > 5


def test_no_qt_import_statements_in_core() -> None:
    import pathlib

    root = pathlib.Path(skillstudio.core.__file__).parent
    offenders = [
        str(path)
        for path in root.rglob("*.py")
        if any(
            line.lstrip().startswith(("import PySide6", "from PySide6", "import shiboken6"))
            for line in path.read_text(encoding="utf-8").splitlines()
        )
    ]
    assert offenders == []
