"""Architecture: core, the CLI and the language server import no Qt; the import-linter
layer contracts hold."""

from __future__ import annotations

import os
import pathlib
import pkgutil
import subprocess
import sys

import pytest

import skillstudio.core

BLOCKER = r"""
import importlib, importlib.abc, pkgutil, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6", "qtpy"):
            raise ImportError(f"blocked Qt import: {name}")
        return None

sys.meta_path.insert(0, Block())
import skillstudio.core, skillstudio.cli, skillstudio.lsp
names = []
for pkg in (skillstudio.core, skillstudio.cli, skillstudio.lsp):
    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(info.name)
        names.append(info.name)
qt = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6")]
assert not qt, qt
print(len(names))
"""


def test_core_cli_and_lsp_import_with_qt_blocked() -> None:
    proc = subprocess.run([sys.executable, "-c", BLOCKER], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    modules = list(pkgutil.walk_packages(skillstudio.core.__path__))
    assert int(proc.stdout.strip()) >= len(modules) > 5


def test_no_qt_import_statements_in_core() -> None:
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


ROOT = pathlib.Path(__file__).resolve().parent.parent
LINTER = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))\n"
)


def test_import_linter_contracts_are_kept() -> None:
    """core < cli < gui, core < lsp (which imports neither the CLI nor the app), core's
    and the app's sub-packages in layers (issues 16 and 35)."""
    pytest.importorskip("importlinter")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-c", LINTER],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "5 kept, 0 broken" in proc.stdout, proc.stdout


def test_every_part_of_the_app_is_in_its_layers_contract() -> None:
    """A new sub-package (or top module) of skillstudio/gui is placed in the app's
    layers contract, or nothing would keep it from importing upwards (issue 35)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "gui-layers"
    ]
    named = {name.strip() for layer in contract["layers"] for name in layer.split("|")}
    gui = ROOT / "skillstudio" / "gui"
    parts = {p.name for p in gui.iterdir() if (p / "__init__.py").is_file()}
    parts |= {p.stem for p in gui.glob("*.py") if p.name != "__init__.py"}
    assert parts == named


MAX_LINES = 600  # a signal: a module longer than this is split along its seams (issue 16)
# A module that needs more lines for one job may have them (issue 35): its path, the
# lines it may have, and why it is one job. Trimming comments or docstrings to fit is
# never the answer; a split follows a responsibility.
LONGER: dict[str, tuple[int, str]] = {}


def test_no_module_is_over_600_lines_unless_its_reason_is_written() -> None:
    lengths = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in (ROOT / "skillstudio").rglob("*.py")
    }
    too_long = {
        path: length
        for path, length in lengths.items()
        if length > LONGER.get(path, (MAX_LINES, ""))[0]
    }
    assert too_long == {}, "split these modules along their seams, or write why they are one job"
    assert [p for p, (_limit, why) in LONGER.items() if len(why.split()) < 5] == []
    done = sorted(p for p in LONGER if lengths.get(p, 0) <= MAX_LINES)
    assert done == [], "these are within the limit now: take them off LONGER"


def test_the_app_window_loads_no_http_library_before_a_request() -> None:
    """httpx (0.1-0.5 s of imports) is loaded by the first live request, not before the
    window's first paint: the modules of the window name it for their types only."""
    code = (
        "import sys\nimport skillstudio.gui.window.main_window\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('httpx', 'httpcore')))\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
