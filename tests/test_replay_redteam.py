"""Red-team scenarios for the recording of read-only commands (cli/replay.py): each one
an author could hit, where a recording was served that should not have been (a stale or
foreign answer), was kept when the command said not to, or the cache broke the command."""

from __future__ import annotations

import errno
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from skillstudio.cli import entry, replay
from skillstudio.cli import recorder as recording
from skillstudio.cli.main import main
from skillstudio.core.reading.cache_files import CacheFolder
from skillstudio.core.scanning import state_cache

from . import test_replay
from .helpers import skill_text, write
from .test_replay import Runs, _edit, fresh, recordings

# the fixtures of test_replay.py (a project, a cache folder of the test's own, `run`)
project = test_replay.project
cache_home = test_replay.cache_home
run = test_replay.run
# the functions as they are outside a recording
real_open, real_access, real_readlink = os.open, os.access, os.readlink


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


def test_a_project_inside_the_interpreters_prefix_is_still_recorded(
    project: Path, run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtual environment made in the project folder itself (`python -m venv .`):
    sys.prefix is the project, and its skills are what the command read."""
    monkeypatch.setattr(sys, "prefix", str(project))
    argv = ("lint", "--format", "json")
    run(*argv)
    assert len(recordings(cache_home)) == 1
    _edit(project)
    assert run(*argv) == fresh(*argv) and run.ran == 2


def test_a_recording_under_another_commands_name_is_not_served(
    project: Path, run: Runs, cache_home: Path
) -> None:
    """A recording is the answer of one command line: copied or renamed to another's
    name (a synced or restored cache folder, a hand-made copy), it is refused."""
    run("list")
    (listed,) = recordings(cache_home)
    run("lint")
    (linted,) = [path for path in recordings(cache_home) if path != listed]
    linted.write_bytes(listed.read_bytes())
    code, out, err = run("lint")
    assert run.ran == 3
    assert (code, out, err) == fresh("lint")


def test_a_folder_name_that_is_not_utf8_does_not_break_the_command(
    project: Path, run: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A virtual environment under a folder whose name is not UTF-8 (an old archive's
    Latin-1 name): the key is made of bytes, never a UnicodeEncodeError."""
    place = os.path.join(sys.prefix, "lib-\udce9t\udce9")
    monkeypatch.setattr(sys, "path", [*sys.path, place])
    first = run("lint", "--format", "json")
    assert first == fresh("lint", "--format", "json")
    assert run("lint", "--format", "json") == first and run.ran == 1


class Shared(io.StringIO):
    """A terminal: standard output and error written to the same place."""


def test_output_and_errors_are_served_in_the_order_they_were_written(
    project: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`activate` writes its notes (stderr) before the content (stdout): in a terminal,
    the served answer reads as the run did."""
    argv = ["activate", "alpha", "a.pdf --short", "--profile", "codex"]
    seen = []
    for _ in range(2):
        both = Shared()
        monkeypatch.setattr(sys, "stdout", both)
        monkeypatch.setattr(sys, "stderr", both)
        replay.run(argv, entry._command_line)
        seen.append(both.getvalue())
    assert len(recordings(cache_home)) == 1
    assert seen[0].startswith("note: Codex has no $ARGUMENTS")
    assert seen[1] == seen[0]


def test_a_read_that_failed_for_a_passing_reason_is_not_recorded(
    project: Path, run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SKILL.md that could not be read for a reason of the moment (an I/O error of a
    network file system, too many open files): the answer says so, but the file did not
    change, so a recording would serve that answer until it does."""
    real_open = os.open
    alpha = os.path.join("alpha", "SKILL.md")

    def failing(path: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).endswith(alpha):
            raise OSError(errno.EIO, os.strerror(errno.EIO), path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", failing)
    failed = run("lint", "--format", "json")
    assert os.strerror(errno.EIO) in failed[1]
    monkeypatch.setattr(os, "open", real_open)
    assert run("lint", "--format", "json") == fresh("lint", "--format", "json")
    assert run.ran == 2


def test_a_path_through_a_link_and_up_is_looked_at_as_the_system_resolves_it(
    project: Path, run: Runs
) -> None:
    """`lint .claude/skills/alpha/../beta`, alpha a link: the system resolves `..` from
    the link's target (.agents/skills/beta), not from the name's text
    (.claude/skills/beta); what is recorded is what the system was asked."""
    write(project, ".claude/skills/beta/SKILL.md", skill_text(name="beta", description="B."))
    argv = ("lint", ".claude/skills/alpha/../beta")
    run(*argv)
    shutil.rmtree(project / ".agents/skills/beta")
    after = run(*argv)
    assert run.ran == 2 and after == fresh(*argv)
    assert after[0] == 2  # the PATH given is not there any more


def test_a_folder_listed_through_a_descriptor_makes_the_run_unrecordable(
    tmp_path: Path,
) -> None:
    """`os.listdir(fd)` names no folder: the run cannot tell what it listed."""
    recorder = recording.Recorder(str(tmp_path / "cache"))
    fd = os.open(tmp_path, os.O_RDONLY)
    recorder.start()
    try:
        os.listdir(fd)
    finally:
        recorder.stop()
        os.close(fd)
    assert not recorder.complete


@pytest.mark.parametrize("call", ["readlink", "access", "open_at"])
def test_what_a_call_without_an_audit_event_looked_at_is_recorded(
    tmp_path: Path, call: str
) -> None:
    """os.readlink and os.access raise no audit event; os.open's names the file, not
    the folder it is opened from (dir_fd): each is recorded, or the run is not."""
    link = tmp_path / "link"
    os.symlink("target", link)
    (tmp_path / "plain").write_text("x")
    recorder = recording.Recorder(str(tmp_path / "cache"))
    fd = os.open(tmp_path, os.O_RDONLY)
    recorder.start()
    try:
        if call == "readlink":
            os.readlink(link)
        elif call == "access":
            os.access(link, os.R_OK)
        else:
            os.close(os.open("plain", os.O_RDONLY, dir_fd=fd))
    finally:
        recorder.stop()
        os.close(fd)
    if call == "open_at":
        assert not recorder.complete
    else:
        assert (str(link), call == "access") in recorder.seen
    assert (os.open, os.access, os.readlink) == (real_open, real_access, real_readlink)


def test_a_module_changed_under_its_old_time_changes_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SkillStudio's code, an editable install: a module replaced by another of the same
    size with its old modification time kept (`cp -p`, `tar x`, `rsync -a` of another
    version) is other code; its inode and change time say so."""
    package = tmp_path / "src/skillstudio"
    write(package, "cli/replay.py", "# the module\n")
    module = Path(write(package, "core/rules.py", "LIMIT = 1024\n"))
    monkeypatch.setattr(replay, "__file__", str(package / "cli/replay.py"))
    folder = CacheFolder(str(tmp_path / "cache"), b"k" * 32)
    before = replay.Plan(["lint"], str(tmp_path), folder).name
    st = module.stat()
    other = tmp_path / "rules.py"
    other.write_text("LIMIT = 4096\n")
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, module)
    assert module.stat().st_mtime_ns == st.st_mtime_ns
    assert replay.Plan(["lint"], str(tmp_path), folder).name != before


def test_a_run_that_rewrote_the_state_cache_is_recorded(
    project: Path, run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state cache writes its file (and lists the cache folder to prune it) in the
    run after an edit: that says nothing of the answer, and that run is recorded."""
    monkeypatch.setattr(state_cache, "RACY_NS", 0)  # (the skills just written are kept)
    first = run("lint", "--format", "json")
    states = [path for path in cache_home.glob("*.cache") if path not in recordings(cache_home)]
    assert states  # the state cache kept what it read
    assert len(recordings(cache_home)) == 1
    assert run("lint", "--format", "json") == first and run.ran == 1


def test_a_folder_refused_then_allowed_by_a_new_group_runs_again(
    project: Path, run: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user added to the group that may read a shared skills folder (`usermod -aG`, a
    new login): nothing in the folder changed, what the process may read did."""
    if not hasattr(os, "getgroups"):
        pytest.skip("no groups here")
    groups = os.getgroups()
    run("lint", "--format", "json")
    assert run("lint", "--format", "json") and run.ran == 1  # (recorded, and served)
    monkeypatch.setattr(os, "getgroups", lambda: [*groups, 424242])
    run("lint", "--format", "json")
    assert run.ran == 2


def test_a_read_refused_by_the_system_not_the_file_is_not_recorded(
    project: Path, run: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EPERM (macOS's privacy settings refusing a terminal a folder, a sandbox): access
    granted later changes nothing in the file."""
    real_open = os.open
    alpha = os.path.join("alpha", "SKILL.md")

    def refused(path: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path).endswith(alpha):
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    failed = run("lint", "--format", "json")
    assert os.strerror(errno.EPERM) in failed[1]
    monkeypatch.setattr(os, "open", real_open)
    assert run("lint", "--format", "json") == fresh("lint", "--format", "json")
    assert run.ran == 2


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no /dev/shm here")
def test_a_project_in_shared_memory_is_recorded(
    run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/dev/shm is a folder of files (a scratch tree kept in memory), not a device."""
    base = Path(tempfile.mkdtemp(dir="/dev/shm", prefix="skillstudio-test-"))
    try:
        write(base, "skills/beta/SKILL.md", skill_text(name="beta", description="Plan a trip."))
        monkeypatch.chdir(base)
        run("lint", "--format", "json")
        assert len(recordings(cache_home)) == 1
        write(base, "skills/beta/SKILL.md", skill_text(name="Beta", description="Plan a trip."))
        assert run("lint", "--format", "json") == fresh("lint", "--format", "json")
        assert run.ran == 2
    finally:
        shutil.rmtree(base)


def test_a_recording_is_not_served_to_a_closed_stdout(
    project: Path, run: Runs, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`skillstudio lint >&-`: Python has no sys.stdout; the command says what is wrong
    (as it does without a recording), never a traceback."""
    run("lint")
    assert len(recordings(cache_home)) == 1
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", err)
    code = replay.run(["lint"], entry._command_line)
    assert code == 2 and "internal error" in err.getvalue()


class Clock:
    """replay's `time`, at a moment the test sets."""

    def __init__(self, now: int) -> None:
        self.now = now

    def time_ns(self) -> int:
        return self.now


def test_a_file_changed_just_before_a_long_run_read_it_is_not_recorded(
    project: Path, run: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file saved just before a run read it, and again (the same size, in place)
    within the same tick of the file system's clock (a formatter run on save; a 1 s
    clock): its times cannot tell the two writes apart. The run took longer than
    SETTLED_NS, so the file looked old by its end; what counts is how old it was when
    it was looked at."""
    monkeypatch.setattr(replay, "SETTLED_NS", 2 * 10**9)
    tick = time.time_ns() + 10 * 10**9  # the clock's tick of both writes (the test's own)
    real_signature = replay.signature

    def coarse(path: str, follow: bool) -> Any:  # what a clock of one tick says
        sig = real_signature(path, follow)
        if isinstance(sig, list) and path.endswith(os.path.join("alpha", "SKILL.md")):
            sig[4] = sig[5] = tick
        return sig

    monkeypatch.setattr(replay, "signature", coarse)
    monkeypatch.setattr(recording, "signature", coarse)
    clock = Clock(tick + 10**9 // 2)  # the run starts half a second after the save
    monkeypatch.setattr(replay, "time", clock)
    real_command = entry._command_line

    def long_run(words: list[str]) -> int:
        code = real_command(words)
        clock.now = tick + 3 * 10**9  # three seconds later, it ends
        return code

    monkeypatch.setattr(entry, "_command_line", long_run)
    skill = project / ".agents/skills/alpha/SKILL.md"
    run("lint", "--format", "json")
    with open(skill, "r+b") as fh:  # the second write: in place, the same size
        data = fh.read()
        fh.seek(0)
        fh.write(data.replace(b"name: alpha", b"name: Alpha"))
    assert run("lint", "--format", "json") == fresh("lint", "--format", "json")
    assert run.ran == 2


def test_the_state_cache_settles_a_file_by_when_the_scan_started(
    project: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same rule in the state cache a recording is made from (scanning/
    state_cache.py): a SKILL.md saved half a second before a scan that took three is
    not kept (a second write in its clock tick would be served the first's state)."""
    skill = project / ".agents/skills/alpha/SKILL.md"
    st = skill.stat()
    saved = max(st.st_mtime_ns, st.st_ctime_ns)
    clock = Clock(saved + 10**9 // 2)  # the scan starts half a second after the save
    monkeypatch.setattr(state_cache, "time", clock)
    scans: list[state_cache.ScanCache] = []
    real_store = state_cache.ScanCache.store

    def long_scan(self: state_cache.ScanCache, *args: Any) -> None:
        clock.now = saved + 3 * 10**9  # and ends three seconds after it
        scans.append(self)
        real_store(self, *args)

    monkeypatch.setattr(state_cache.ScanCache, "store", long_scan)
    main(["lint", "--format", "json"], out=io.StringIO(), err=io.StringIO())  # (no replay)
    (scan,) = scans
    payload = scan.cache.read(scan.name) or {}
    kept = [path for path in payload.get("entries", {}) if path.endswith("SKILL.md")]
    assert not any(os.path.samefile(path, skill) for path in kept)


def test_a_file_read_from_the_cache_counts_as_used_when_it_is_pruned(tmp_path: Path) -> None:
    """The cache keeps its 200 most recently used files: a recording served every day,
    or a project's state read by every lint, is used, not the oldest written (a string
    of `match` queries, each a recording of its own, pushed them out)."""
    folder = CacheFolder.open(str(tmp_path / "cache"))
    assert folder is not None
    folder.write("replay-used.cache", {"n": 1})
    folder.write("replay-other.cache", {"n": 2})
    used, other = (
        tmp_path / "cache" / name for name in ("replay-used.cache", "replay-other.cache")
    )
    os.utime(used, ns=(1, 10**18))  # written long ago
    os.utime(other, ns=(1, 15 * 10**17))  # written after it, but not used since
    assert folder.read("replay-used.cache") == {"n": 1}
    folder.prune(keep=1)
    assert used.exists() and not other.exists()
