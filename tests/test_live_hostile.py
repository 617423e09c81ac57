"""Live checks against hostile input (issue 34, items 1-3): an answer-cache entry that
is a FIFO or a link out. Every server listens on 127.0.0.1 (tests/live_fake.py);
nothing reaches a network.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.run import plan
from skillstudio.core.live.stats import LiveCase

from .helpers import cli
from .live_fake import FakeModel
from .test_live import check, registry_for, settings


def eval_args(url: str) -> list[str]:
    return ["eval", "--request", "fill in the PDF form", "--endpoint", url, "--model", "m"]


def _cached_entry(tmp_path: Path) -> tuple[Path, Any, AnswerCache]:
    """A project whose one request is in the cache: (its entry, the registry, cache)."""
    registry, _ = registry_for(tmp_path / "p", "claude-code")
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        url = fake.url
        check(registry, [LiveCase("q", [])], settings(url, runs=1), cache)
    (entry,) = (tmp_path / "cache").rglob("*.json")
    return entry, (registry, url), cache


def test_a_fifo_at_an_answer_cache_entry_is_a_miss_not_a_wait(tmp_path: Path) -> None:
    entry, (registry, url), cache = _cached_entry(tmp_path)
    entry.unlink()
    os.mkfifo(entry)
    out: list[Any] = []
    s = settings(url, runs=1, offline=True)
    worker = threading.Thread(
        target=lambda: out.append(plan(registry, [LiveCase("q", [])], s, {}, cache)),
        daemon=True,
    )
    try:
        worker.start()
        worker.join(5)
    finally:  # a reader blocked in open() is let go (main's way)
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK)) if worker.is_alive() else None
    assert out and out[0].calls == 1  # a miss: --offline reports it, never waits


def test_eval_offline_with_a_fifo_in_the_cache_does_not_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry_for(tmp_path, "claude-code")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        assert cli(*eval_args(fake.url), "--runs", "1", "--yes", cwd=tmp_path).code == 0
    (entry,) = (tmp_path / "xdg").rglob("*.json")
    entry.unlink()
    os.mkfifo(entry)
    out: list[Any] = []
    args = [*eval_args(fake.url), "--runs", "1", "--offline"]
    worker = threading.Thread(target=lambda: out.append(cli(*args, cwd=tmp_path)), daemon=True)
    try:
        worker.start()
        worker.join(10)
    finally:
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK)) if worker.is_alive() else None
    assert out, "eval --offline waited on the FIFO"
    assert out[0].code == 1 and "not in the cache (--offline)" in out[0].out


def test_an_answer_cache_entry_outside_the_cache_folder_is_a_miss(tmp_path: Path) -> None:
    entry, (registry, url), cache = _cached_entry(tmp_path)
    folder = entry.parent  # the entry's two-letter folder, swapped for a link out
    outside = tmp_path / "elsewhere"
    shutil.copytree(folder, outside)
    shutil.rmtree(folder)
    folder.symlink_to(outside, target_is_directory=True)
    s = settings(url, runs=1, offline=True)
    assert plan(registry, [LiveCase("q", [])], s, {}, cache).calls == 1
    folder.unlink()
    folder.mkdir()
    (folder / entry.name).symlink_to(outside / entry.name)  # the entry itself a link
    assert plan(registry, [LiveCase("q", [])], s, {}, cache).calls == 1
    (folder / entry.name).unlink()
    shutil.copy(outside / entry.name, folder / entry.name)  # a regular file: a hit
    assert plan(registry, [LiveCase("q", [])], s, {}, cache).calls == 0
