"""Red-team scenarios for the recording of read-only commands (cli/replay.py): each one
an author could hit, where a recording was served that should not have been (a stale or
foreign answer), was kept when the command said not to, or the cache broke the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import test_replay
from .test_replay import Runs, recordings

# the fixtures of test_replay.py (a project, a cache folder of the test's own, `run`)
project = test_replay.project
cache_home = test_replay.cache_home
run = test_replay.run


@pytest.mark.parametrize("flag", ["--no-cach", "--no-ca", "--no"], ids=lambda flag: flag)
def test_an_abbreviated_no_cache_neither_reads_nor_writes_a_recording(
    project: Path, run: Runs, cache_home: Path, flag: str
) -> None:
    """argparse takes any unambiguous prefix of an option (`--no-ca` is --no-cache)."""
    run("lint", "--format", "json")  # a recording of the same words without the flag
    run("lint", "--format", "json", flag)
    run("lint", "--format", "json", flag)
    assert run.ran == 3
    assert len(recordings(cache_home)) == 1
