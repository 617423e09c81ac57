"""Failures injected into the app's stages (a bug, or input no check foresaw), and what
the window shows of them."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.ranking.match_index import MatchIndex
from skillstudio.core.scanning import parallel as reading
from skillstudio.gui.window.main_window import MainWindow

from .parts import longest_stall


def fail_for(monkeypatch: pytest.MonkeyPatch, stage: str, path: Path) -> Callable[[], None]:
    """From now on, `stage` raises for the skill at `path` (a bug, or input no check
    foresaw); the returned function lifts that."""
    target, name = STAGES[stage]
    original = getattr(target, name)
    failing = {"on": True}

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        subject = args[1] if name == "_add" else args[0]
        if failing["on"] and str(getattr(subject, "path", subject)) == str(path):
            raise RuntimeError(f"injected failure in {stage}")
        return original(*args, **kwargs)

    monkeypatch.setattr(target, name, wrapped)
    return lambda: failing.update(on=False)


STAGES: dict[str, tuple[Any, str]] = {
    "load": (reading, "read_document"),  # (where a scan or refresh reads a skill)
    "validate": (reading, "validate_skill"),
    "match": (MatchIndex, "_add"),
}


def problem_on(win: MainWindow, path: Path) -> Diagnostic | None:
    for diag in win.problems_model.shown():
        if diag.code == "internal" and diag.path == str(path):
            return diag
    return None


def shown(win: MainWindow, path: Path) -> bool:
    return win.tree_model.index_of(str(path)).isValid()


def description(win: MainWindow, path: Path) -> str:
    skill = win.context.registries[0].by_path.get(str(path))
    return skill.description if skill is not None else ""


def set_description(path: Path, text: str) -> None:
    path.write_text(f"---\nname: {path.parent.name}\ndescription: {text}\n---\nBody.\n")


def run_for(qtbot: QtBot, seconds: float) -> float:
    """Run the event loop for `seconds`; the longest gap between 10 ms ticks."""
    end = time.perf_counter() + seconds
    return longest_stall(qtbot, lambda: None, lambda: time.perf_counter() > end)
