"""Reading in worker processes (core/scanning/parallel.py): the same skills as one thread
reads, in order, whatever the workers do (`fork` as the CLI starts them, `spawn`
as the app does); gists worked out after the scan."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skillstudio.core.model.skills import Root
from skillstudio.core.profiles import get_profile
from skillstudio.core.reading.skill_files import skill_body
from skillstudio.core.scanning import parallel
from skillstudio.core.scanning.parallel import Workers, fill_gists
from skillstudio.core.scanning.registry import Registry

from .helpers import skill_text, write

LOOPED = 45
COUNT = LOOPED + 1  # skills with a body (one with a BOM and CRLF; one more does not parse)


def _skills(tmp_path: Path) -> Root:
    for index in range(LOOPED):
        extra = {"license": 5} if index % 7 == 0 else {}
        body = f"# Step {index}\n\nParse the invoices and reconcile ledgers {index}.\n"
        if index % 5 == 0:
            body += "[gone](missing.md)\n"
        text = skill_text(
            name=f"s{index:02d}", description=f"Does job {index}.", _body=body, **extra
        )
        write(tmp_path, f"skills/s{index:02d}/SKILL.md", text)
        if index % 3 == 0:
            write(tmp_path, f"skills/s{index:02d}/references/notes.md", "Ledger notes, audit.\n")
    write(tmp_path, "skills/broken/SKILL.md", "---\nname: [\n---\n")
    bom = "\ufeff" + skill_text(name="bom", description="d", _body="Épée fencing drills.\n" * 3)
    write(tmp_path, "skills/bom/SKILL.md", bom.replace("\n", "\r\n").encode("utf-8"))
    return Root(str(tmp_path / "skills"), "skills", 0)


def _same(serial: Registry, other: Registry, gists: bool = True) -> None:
    assert [s.path for s in other.skills] == [s.path for s in serial.skills]
    for a, b in zip(serial.skills, other.skills, strict=True):
        assert (a.name, a.status, a.fields, a.diagnostics) == (
            b.name,
            b.status,
            b.fields,
            b.diagnostics,
        )
        assert a.doc.positions() == b.doc.positions()
        assert skill_body(a) == skill_body(b)
        if gists:
            assert a.gist == b.gist
    assert other.diagnostics == serial.diagnostics


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from skillstudio.core.scanning import registry as registry_module

    monkeypatch.setattr(registry_module, "PARALLEL_MIN_FILES", 2)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_GISTS", 2)
    monkeypatch.setattr(parallel, "CHUNK_FILES", 4)


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_a_scan_read_by_worker_processes_equals_one_thread(
    tmp_path: Path, small_chunks: None, method: str
) -> None:
    root = _skills(tmp_path)
    profile = get_profile("agentskills")
    serial = Registry(profile, [root])
    serial.scan()
    assert sum(bool(s.gist) for s in serial.skills) == COUNT  # (they have bodies)
    seen: list[tuple[int, int]] = []
    other = Registry(profile, [root])
    with Workers(2, method, steal="never") as workers:
        other.scan(lambda done, total: seen.append((done, total)), workers, defer_gists=True)
        assert not any(s.gist for s in other.skills)  # deferred
        _same(serial, other, gists=False)
        assert fill_gists(other.skills, workers) == COUNT
        assert workers.answered == [2 * 12, 0]  # 12 chunks of 4 files each time
    _same(serial, other)
    assert seen[-1] == (COUNT + 1, COUNT + 1)
    assert "épée" in other.by_path[str(tmp_path / "skills/bom/SKILL.md")].gist.split()
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def _die(*args: object) -> list[int]:
    os._exit(3)  # a worker killed mid-chunk (out of memory, say)


def test_chunks_of_a_worker_that_dies_are_read_here() -> None:
    chunks = [[1, 2], [3], [4, 5, 6]]
    results: list[tuple[int, object]] = []
    with Workers(2, "spawn") as workers:
        workers.map_chunks(
            _die, (), chunks, lambda c: [x * 10 for x in c], lambda i, r: results.append((i, r))
        )
    assert results == [(0, [10, 20]), (1, [30]), (2, [40, 50, 60])]
    assert workers.answered == [0, 3]


def test_without_processes_this_thread_reads_everything(tmp_path: Path, small_chunks: None) -> None:
    root = _skills(tmp_path)
    profile = get_profile("agentskills")
    serial = Registry(profile, [root])
    serial.scan()
    other = Registry(profile, [root])
    workers = Workers(0, "spawn")  # (no processes: a machine where they cannot start)
    assert workers.pool is None
    other.scan(lambda done, total: None, workers, defer_gists=True)
    fill_gists(other.skills, workers)
    _same(serial, other)
    assert workers.answered == [0, 24]


def test_this_thread_takes_chunks_from_the_end_while_workers_start() -> None:
    results: list[int] = []
    with Workers(1, "spawn") as workers:
        chunks = [[n] for n in range(40)]
        workers.map_chunks(_slowly, (), chunks, lambda c: c, lambda i, r: results.extend(r))
    assert results == list(range(40))  # in order, whoever read them
    assert workers.answered[0] >= 1 and workers.answered[1] >= 1


def _slowly(chunk: list[int]) -> list[int]:
    import time

    time.sleep(0.02)
    return chunk


def test_a_stop_asked_for_ends_the_work(tmp_path: Path) -> None:
    results: list[int] = []
    Workers(0, "spawn").map_chunks(
        _die,
        (),
        [[1], [2], [3]],
        lambda c: c,
        lambda i, r: results.append(i),
        lambda: bool(results),
    )
    assert results == [0]


def test_a_file_changed_after_the_scan_gets_no_stale_gist(tmp_path: Path) -> None:
    root = _skills(tmp_path)
    registry = Registry(get_profile("agentskills"), [root])
    registry.scan(defer_gists=True)
    changed = registry.by_path[str(tmp_path / "skills/s01/SKILL.md")]
    with open(changed.path, "a", encoding="utf-8") as fh:
        fh.write("\nAnother paragraph about tax forms.\n")
    fill_gists(registry.skills, None)
    assert changed.gist == ""  # the refresh that reads the new text works it out
    assert registry.by_path[str(tmp_path / "skills/s02/SKILL.md")].gist
    registry.refresh()
    assert "tax" in registry.by_path[changed.path].gist.split()


def test_a_skill_file_swapped_for_a_fifo_or_a_link_out_after_the_scan_is_not_read(
    tmp_path: Path,
) -> None:
    root = _skills(tmp_path)
    registry = Registry(get_profile("agentskills"), [root])
    registry.scan(defer_gists=True)
    fifo = registry.by_path[str(tmp_path / "skills/s03/SKILL.md")]
    linked = registry.by_path[str(tmp_path / "skills/s04/SKILL.md")]
    os.remove(fifo.path)
    os.mkfifo(fifo.path)  # opened, a FIFO would block a plain read forever
    os.remove(linked.path)
    os.symlink("/dev/zero", linked.path)
    outside = registry.by_path[str(tmp_path / "skills/s06/SKILL.md")]
    elsewhere = tmp_path / "elsewhere.md"  # the same size and time: only the link tells
    os.rename(outside.path, elsewhere)
    os.symlink(elsewhere, outside.path)
    fill_gists(registry.skills, None)  # returns (a hang fails the run's time limit)
    assert fifo.gist == "" and linked.gist == "" and outside.gist == ""
    assert registry.by_path[str(tmp_path / "skills/s05/SKILL.md")].gist


def test_no_process_starts_for_a_small_folder(tmp_path: Path) -> None:
    """Making a pool starts a helper process of multiprocessing's own (it stalled the
    window's first paint at the start of every scan): only a large scan makes one."""
    root = _skills(tmp_path)
    registry = Registry(get_profile("agentskills"), [root])
    with Workers(2, "spawn") as workers:
        registry.scan(lambda done, total: None, workers, defer_gists=True)
        fill_gists(registry.skills, workers)
        assert workers.pool is None and workers.answered == [0, 0]  # (none went through it)
    assert sum(bool(s.gist) for s in registry.skills) == COUNT
