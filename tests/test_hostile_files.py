"""Hostile input, third round (issue 25 items 2, 9, 10, 13, 15): archive names, files
swapped between a check and the read, reader processes of a killed CLI, private
recovery files, secrets in `pack`, configured roots, UTF-16 and CR-only files."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from skillstudio.core.editing.archive import ArchiveError, pack, unpack
from skillstudio.core.editing.skill_ops import BadName, OperationError, new_skill, rename_skill
from skillstudio.core.model.filenames import folder_name_problem
from skillstudio.core.model.paths import FileRefused
from skillstudio.core.model.scan import Found
from skillstudio.core.model.skills import Root
from skillstudio.core.profiles import get_profile
from skillstudio.core.reading import safefs
from skillstudio.core.reading.skill_files import skill_body
from skillstudio.core.scanning.parallel import Workers
from skillstudio.core.scanning.registry import Registry

from . import hostile
from .helpers import cli, skill_text, write

# -- item 2: a name is a name only if it is usable ----------------------------------------

UNUSABLE = [
    *hostile.TOP_NAMES.values(),
    "",
    ".",
    "..",
    "a/b",
    ".hidden",
    ".git.",  # Windows drops the dot: .git
    "x\x00y",
    "x\x7fy",  # DEL
    "x\x9by",  # C1 CSI
    "x\u2066y",  # bidi isolate
    "x\ufeffy",  # byte-order mark
    "x\u2028y",  # line separator
    "x\udcffy",  # a byte that is not UTF-8 (os.listdir's surrogateescape)
    "x ",
    "c:x",  # a drive on Windows: unpack reads 'c:x/SKILL.md' as an absolute path
]
USABLE = ["pdf-tools", "x", "My Skill", "café", "数据", "a.b", "v1.2", "_private", "a-"]


@pytest.mark.parametrize("name", UNUSABLE)
def test_unusable_folder_names_are_refused_with_a_reason(name: str) -> None:
    problem = folder_name_problem(name)
    assert problem and problem.startswith(("it ", "'")), problem


@pytest.mark.parametrize("name", USABLE)
def test_usable_folder_names_pass(name: str) -> None:
    assert folder_name_problem(name) is None


def _skill_folder(base: Path, name: str) -> Path:
    folder = base / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_bytes(hostile.SKILL_BYTES)
    return folder


@pytest.mark.parametrize("name", ["-rf", ".git", "x\ny", "x\x1b[2Jy", "x\u202ey"])
def test_pack_refuses_a_folder_whose_name_unpack_would_refuse(tmp_path: Path, name: str) -> None:
    folder = _skill_folder(tmp_path / "src", name)
    with pytest.raises(ArchiveError, match="not a usable skill folder name"):
        pack(str(folder), str(tmp_path / "out.skill"))
    assert not list(tmp_path.glob("out.skill*"))


def test_new_rename_and_unpack_share_the_rule(tmp_path: Path) -> None:
    profile = get_profile("agentskills")
    for name in ("-rf", ".git", "a\nb", "a\u202eb"):
        with pytest.raises(BadName):
            new_skill(profile, str(tmp_path), name)
    made = os.path.dirname(new_skill(profile, str(tmp_path), "plain"))
    with pytest.raises(OperationError):
        rename_skill(profile, made, ".claude")
    assert sorted(os.listdir(tmp_path)) == ["plain"]


def test_the_git_top_folder_of_the_issue_plants_nothing(tmp_path: Path) -> None:
    """The archive of the issue: one top folder `.git` with a `core.fsmonitor` that the
    next `git status` in the root would run."""
    archives = hostile.make_archives(str(tmp_path / "archives"))
    root = tmp_path / "root"
    for case in [*hostile.TOP_NAMES, "nested-git", "nested-escape"]:
        with pytest.raises(ArchiveError) as refused:
            unpack(archives[case], str(root))
        assert "\n" not in repr(str(refused.value))
    assert not root.exists() or os.listdir(root) == []


# -- item 9: what was opened is checked, not what the path named before ------------------


def _swap_after_discovery(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str
) -> tuple[Root, str]:
    """Skills a-e in a root, and a skill outside it; discovery runs, then b's SKILL.md
    (or b's whole folder) becomes a link to the one outside, before anything is read."""
    for name in "abcde":
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description="Inside."))
    write(
        tmp_path,
        "outside/secret/SKILL.md",
        skill_text(name="b", description="OUTSIDE-SECRET text from elsewhere."),
    )
    victim = tmp_path / "skills" / "b"
    discover = Registry._discover

    def discover_then_swap(self: Registry) -> list[tuple[Root, Found]]:
        found = discover(self)
        if how == "file":
            (victim / "SKILL.md").unlink()
            (victim / "SKILL.md").symlink_to(tmp_path / "outside/secret/SKILL.md")
        else:  # a folder above the file: O_NOFOLLOW on the last name would not see it
            victim.rename(tmp_path / "moved")
            victim.symlink_to(tmp_path / "outside/secret")
        return found

    monkeypatch.setattr(Registry, "_discover", discover_then_swap)
    return Root(str(tmp_path / "skills"), "skills", 0), str(victim / "SKILL.md")


@pytest.mark.parametrize("how", ["file", "folder"])
@pytest.mark.parametrize("reader", ["here", "fork", "spawn"])
def test_a_link_out_swapped_in_between_discovery_and_the_read_is_not_parsed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str, reader: str
) -> None:
    from skillstudio.core.scanning import registry as registry_module

    root, victim = _swap_after_discovery(monkeypatch, tmp_path, how)
    registry = Registry(get_profile("agentskills"), [root])
    if reader == "here":
        registry.scan()
    else:
        monkeypatch.setattr(registry_module, "PARALLEL_MIN_FILES", 2)
        with Workers(1, reader, steal="never") as workers:
            registry.scan(None, workers)
            assert workers.answered[0] >= 1  # a worker process read it
    skill = registry.by_path[victim]
    assert "OUTSIDE-SECRET" not in repr(skill.doc.text) + repr(skill.fields)
    skipped = [d for d in skill.diagnostics if d.code == "symlink-skipped"]
    assert skipped and "outside" in skipped[0].message, skill.diagnostics
    assert {s.name for s in registry.skills if s.doc.readable} == {"a", "c", "d", "e"}
    registry.reparse(victim)  # the app's reread of one file: the same check
    assert "OUTSIDE-SECRET" not in repr(registry.by_path[victim].fields)


def test_a_link_out_swapped_in_after_the_scan_is_never_delivered(tmp_path: Path) -> None:
    """Activation, tier 3 and `show` read the body again from disk (bodies are not
    kept): a link swapped in after the scan was read and delivered as the skill."""
    from skillstudio.core.delivery.activation import delivered_body

    for name in "ab":
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description="Inside."))
    write(tmp_path, "outside.md", skill_text(name="b", description="d", _body="OUTSIDE-SECRET"))
    registry = Registry(get_profile("agentskills"), [Root(str(tmp_path / "skills"), "s", 0)])
    registry.scan()
    skill = registry.by_path[str(tmp_path / "skills/b/SKILL.md")]
    assert not skill.doc.text  # (not kept: read again when delivered)
    os.unlink(skill.path)
    os.symlink(tmp_path / "outside.md", skill.path)
    assert "OUTSIDE-SECRET" not in skill_body(skill)
    with pytest.raises(OSError, match="outside"):
        delivered_body(skill)


def test_a_confined_read_checks_the_file_it_opened(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """safefs resolved the path inside the base, then opened the resolved path: a link
    swapped in between the two was followed."""
    base = tmp_path / "skill"
    write(tmp_path, "skill/notes.md", "inside")
    write(tmp_path, "secret.txt", "OUTSIDE-SECRET")
    confine = safefs.confine

    def confine_then_swap(path: str, *args: object) -> str:
        real = confine(path, *args)  # type: ignore[arg-type]
        os.unlink(real)
        os.symlink(tmp_path / "secret.txt", real)
        return real

    monkeypatch.setattr(safefs, "confine", confine_then_swap)
    with pytest.raises(FileRefused, match="outside"):
        safefs.read_bytes(str(base / "notes.md"), str(base))
    # an editor's atomic save between the open and the check: the kernel calls the old
    # file "(deleted)"; it is still the file that was inside, and is read
    monkeypatch.undo()
    path = write(tmp_path, "skill/saved.md", "old text")
    fd = os.open(path, os.O_RDONLY)
    try:
        os.replace(write(tmp_path, "skill/new.md", "new text"), path)
        safefs.opened_inside(fd, path, str(base))
    finally:
        os.close(fd)


# -- item 10: reader processes end with their parent, even after SIGKILL -----------------

SPAWN_DRIVER = """
import threading, time
from skillstudio.core.scanning.parallel import Workers

def scan():  # as the app: spawn, from a thread that is not the main one
    with Workers(1, "spawn", steal="never") as workers:
        workers.map_chunks(time.sleep, (), [120], lambda c: None, lambda i, r: None)

thread = threading.Thread(target=scan)
thread.start()
thread.join()
"""


def _group(pgid: int) -> dict[int, tuple[int, int]]:
    """The live processes of a process group: pid -> (ppid, threads)."""
    found: dict[int, tuple[int, int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, ppid, pgrp, threads = fields[0], int(fields[1]), int(fields[2]), int(fields[17])
        if pgrp == pgid and state not in "ZX":  # a zombie has ended (its reaper is slow)
            found[int(name)] = (ppid, threads)
    return found


@pytest.fixture(scope="module")
def many_skills(tmp_path_factory: pytest.TempPathFactory) -> str:
    from .benchmarks.synth import generate

    return generate(str(tmp_path_factory.mktemp("many")), 4000)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.parametrize("how", ["lint", "spawn"])
def test_reader_processes_end_when_their_parent_is_killed(many_skills: str, how: str) -> None:
    """`skillstudio lint` on 4,000 skills (fork workers, as the CLI), or a scan thread's
    spawn workers (as the app): SIGKILL the parent while its workers run; every process
    it started is gone within a few seconds (they waited for ever on a pipe, ppid 1)."""
    import signal
    import subprocess
    import sys
    import time

    from .helpers import REPO

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if how == "lint":
        args = [sys.executable, "-m", "skillstudio", "lint", many_skills, "--profile", "oasis"]
    else:
        args = [sys.executable, "-c", SPAWN_DRIVER]
    parent = subprocess.Popen(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        workers: dict[int, tuple[int, int]] = {}
        while not workers and parent.poll() is None and time.monotonic() < deadline:
            workers = {p: v for p, v in _group(parent.pid).items() if v[0] == parent.pid}
            time.sleep(0.002)
        assert workers, "no reader process was started"
        if how == "spawn":  # until the worker runs its work (or 3 s: it was never told)
            started = time.monotonic()
            while (
                time.monotonic() - started < 3
                and max(_group(parent.pid).get(p, (0, 9))[1] for p in workers) < 2
            ):
                time.sleep(0.01)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while _group(parent.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _group(parent.pid) == {}, "processes outlived their killed parent"
    finally:
        if parent.poll() is None:
            parent.kill()
        with __import__("contextlib").suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)  # the test's own group: no strays left


# -- item 15: secrets in pack, configured roots, what a file's encoding is ---------------

SECRETS = [
    ".env",
    ".env.local",
    "keys/server.pem",
    "keys/tls.key",
    "sub/id_rsa",
    "sub/id_ed25519.pub",
    ".netrc",
    ".npmrc",
    "credentials.json",
    ".ssh/config",
]


def test_pack_leaves_out_secrets_and_tool_settings_and_says_so(tmp_path: Path) -> None:
    folder = _skill_folder(tmp_path / "src", "tool")
    for rel in [*SECRETS, ".git/config", ".git/HEAD", "sub/.vscode/tasks.json", "run.sh"]:
        write(folder, rel, f"content of {rel}\n")
    out = tmp_path / "out"
    done = cli("pack", str(folder), "-o", f"{out}/", "--format", "json")
    assert done.code == 0, done.err
    with zipfile.ZipFile(done.json["archive"]) as zf:
        assert sorted(zf.namelist()) == ["tool/SKILL.md", "tool/run.sh"]
    said = "\n".join(done.json["left_out"])
    for rel in [*SECRETS, ".git/", "sub/.vscode/"]:
        shown = ".ssh/" if rel.startswith(".ssh/") else rel
        assert f"{shown}: left out" in said, shown
    text = cli("pack", str(folder), "-o", f"{out}/")
    assert ".env: left out, it looks like it holds secrets" in text.err
    assert "--include-secrets" in text.err
    asked = cli("pack", str(folder), "-o", f"{out}/", "--include-secrets", "--format", "json")
    with zipfile.ZipFile(asked.json["archive"]) as zf:
        names = set(zf.namelist())
    assert {f"tool/{rel}" for rel in SECRETS} <= names
    assert not any("/.git/" in n or "/.vscode/" in n for n in names)  # never: unpack refuses
    assert unpack(asked.json["archive"], str(tmp_path / "unpacked"))


def test_a_configured_root_outside_the_project_is_refused_at_its_line(tmp_path: Path) -> None:
    """`roots: ["/"]` put watchers over the whole disk, /proc included."""
    project = tmp_path / "project"
    write(project, "skills/a/SKILL.md", skill_text(name="a", description="Inside."))
    (project / "escape").symlink_to("/")
    write(
        project,
        "skillstudio.yaml",
        'profile: agentskills\nroots:\n  - skills\n  - "/"\n  - {path: escape}\n  - ../..\n',
    )
    data = cli("lint", "--project", str(project), "--format", "json").json
    refused = [d for d in data["diagnostics"] if d["code"] == "config-invalid"]
    assert [(d["line"], d["column"]) for d in refused] == [(4, 6), (6, 5)]
    assert all("outside this project" in d["message"] for d in refused)
    # a root written inside that is a link out is refused as every such root is
    # (docs/profiles.md: symlink-skipped, naming where it leads)
    skipped = [d for d in data["diagnostics"] if d["code"] == "symlink-skipped"]
    assert [d["path"] for d in skipped] == [str(project / "escape")], skipped
    assert {s["root"] for s in data["skills"]} == {str(project / "skills")}


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ("utf-16", "is UTF-16 (it starts with the byte-order mark FF FE); save it as UTF-8"),
        ("utf-16-be-bom", "is UTF-16 (it starts with the byte-order mark FE FF)"),
        ("utf-16-le", "is UTF-16 (every other byte is 0"),
        ("utf-32", "is UTF-32 (it starts with the byte-order mark FF FE 00 00)"),
        ("cr", "uses old Mac line endings (CR only)"),
    ],
)
def test_utf16_and_cr_only_files_are_said_for_what_they_are(
    tmp_path: Path, data: str, says: str
) -> None:
    text = skill_text(name="enc", description="An encoded skill.")
    raw = {
        "utf-16": text.encode("utf-16"),
        "utf-16-be-bom": b"\xfe\xff" + text.encode("utf-16-be"),
        "utf-16-le": text.encode("utf-16-le"),
        "utf-32": text.encode("utf-32"),
        "cr": text.replace("\n", "\r").encode(),
    }[data]
    write(tmp_path, "skills/enc/SKILL.md", raw)
    found = cli("lint", str(tmp_path / "skills"), "--format", "json").json["diagnostics"]
    assert any(says in d["message"] for d in found), found
    assert not any("binary" in d["message"] for d in found)
