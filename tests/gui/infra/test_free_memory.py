"""Tests of gui/infra/free_memory.py (freed memory given back to the system)."""

from __future__ import annotations

import sys
import threading

import pytest

from skillstudio.gui.infra.free_memory import return_free_memory


def _resident_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_memory_a_worker_freed_leaves_the_process() -> None:
    """A worker thread's 40 MB of 2 KB blocks, freed but for one block in 64 (so its
    heap cannot shrink from the top, as after a scan's work): the process stays that
    large until the free pages are given back, then it is at least 20 MB smaller."""
    kept: list[bytes] = []

    def work() -> None:
        blocks = [bytes(2048) for _ in range(20_000)]  # (larger than Python's own pools)
        kept.extend(blocks[::64])
        del blocks

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    held = _resident_kb()
    if not return_free_memory():
        pytest.skip("no malloc_trim in this C library")
    assert held - _resident_kb() > 20_000
    assert len(kept) == 313
