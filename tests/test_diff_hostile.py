"""`skillstudio diff` against a hostile repository: trees made with git's plumbing
(names `..`, `../x`, with `/`, newlines or invalid UTF-8 inside, links out of the
repository, submodules, deep nesting), a config that names programs to run. Each ends
in a plain message or a diagnostic, nothing run, nothing written outside the copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from skillstudio.core.projects.git_tree import MAX_SKIPPED, copy_tree, repository_top, resolve
from tests.test_diff import commit_all, git, run, skill, snapshot

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

SKILL = b"---\nname: evil\ndescription: Use when asked to test hostile trees.\n---\nBody.\n"


def blob(repo: Path, data: bytes) -> bytes:
    done = subprocess.run(
        ["git", "-C", str(repo), "hash-object", "-w", "--stdin"],
        input=data,
        capture_output=True,
        check=True,
    )
    return bytes.fromhex(done.stdout.decode().strip())


def tree(repo: Path, entries: list[tuple[bytes, bytes, bytes]]) -> bytes:
    """A tree object written as given (mode, name, object id): git's checks skipped."""
    raw = b"".join(mode + b" " + name + b"\0" + oid for mode, name, oid in entries)
    done = subprocess.run(
        ["git", "-C", str(repo), "hash-object", "-w", "-t", "tree", "--literally", "--stdin"],
        input=raw,
        capture_output=True,
        check=True,
    )
    return bytes.fromhex(done.stdout.decode().strip())


def commit_tree(repo: Path, root: bytes, ref: str = "refs/heads/evil") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@e",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@e",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), "commit-tree", root.hex(), "-m", "evil"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    git(repo, "update-ref", ref, done.stdout.strip())
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    skill(repo, "plain", "Formats changelogs. Use when the user asks to tidy a changelog.")
    commit_all(repo, "one skill")
    return repo


def outside(tmp_path: Path) -> set[str]:
    return {p.name for p in tmp_path.iterdir()}


def test_a_clean_filter_in_the_repositorys_config_is_never_run(repo: Path, tmp_path: Path) -> None:
    (repo / ".gitattributes").write_text("* filter=evil\n")
    commit_all(repo, "attributes")
    marker = tmp_path / "ran"
    git(repo, "config", "filter.evil.clean", f"sh -c 'touch {marker}; cat'")
    git(repo, "config", "filter.evil.process", f"sh -c 'touch {marker}'")
    git(repo, "config", "core.fsmonitor", f"touch {marker}")
    git(repo, "config", "diff.external", f"touch {marker}")
    git(repo, "config", "core.pager", f"touch {marker}")
    git(repo, "config", "core.hooksPath", str(tmp_path))
    skill(repo, "plain", "Tidies changelog files. Use when the user asks to tidy a changelog.")
    code, out, err = run(repo)
    assert code == 0 and "changed (1): plain" in out, err
    run(repo, "HEAD", "HEAD", "--format", "json")
    assert not marker.exists()


def _names(repo: Path, names: list[bytes]) -> None:
    """Each name a folder holding a SKILL.md, beside the tree's own skill."""
    text = blob(repo, SKILL)
    inner = tree(repo, [(b"100644", b"SKILL.md", text)])
    commit_tree(repo, tree(repo, [(b"40000", name, inner) for name in names]))


@pytest.mark.parametrize(
    "names",
    [
        [b".."],
        [b"../x"],
        [b"/abs"],
        [b"a/b"],
        [b"."],
        [b"new\nline", b"\x1b[31mred\x1b[0m", b"bad\xff\xfe"],
        [b"x" * 300],
    ],
    ids=["dotdot", "dotdot-x", "absolute", "slash", "dot", "control-bytes", "long-name"],
)
def test_hostile_names_stay_in_the_copy(repo: Path, tmp_path: Path, names: list[bytes]) -> None:
    _names(repo, names)
    before, around = snapshot(repo), outside(tmp_path)
    code, out, err = run(repo, "evil")
    assert code in (0, 1) and "internal error" not in err, err
    assert "\x1b" not in out + err
    assert snapshot(repo) == before and outside(tmp_path) == around


def test_a_tree_naming_a_path_twice_or_as_file_and_folder(repo: Path) -> None:
    text = blob(repo, SKILL)
    inner = tree(repo, [(b"100644", b"SKILL.md", text)])
    commit_tree(repo, tree(repo, [(b"100644", b"a", text), (b"40000", b"a", inner)]))
    code, _, err = run(repo, "evil")
    assert code == 0 and "internal error" not in err and "a/SKILL.md" in err
    commit_tree(repo, tree(repo, [(b"100644", b"a", text), (b"100644", b"a", text)]))
    code, _, err = run(repo, "evil")
    assert code == 0 and "internal error" not in err and "warning: a at" in err


def test_two_thousand_levels_of_folders(repo: Path, tmp_path: Path) -> None:
    text = blob(repo, SKILL)
    level = tree(repo, [(b"100644", b"SKILL.md", text)])
    for _ in range(2000):
        level = tree(repo, [(b"40000", b"d", level)])
    commit = commit_tree(repo, level)
    code, _, err = run(repo, "evil")
    assert code == 0 and "internal error" not in err, err
    top = repository_top(str(repo))
    with copy_tree(top, resolve(top, commit), parent=str(tmp_path / "c")) as copy:
        assert copy.files == 0  # deeper than MAX_DEPTH: not written


def test_a_git_folder_in_the_revisions_tree_is_not_written(repo: Path, tmp_path: Path) -> None:
    config = blob(repo, b"[core]\n\tfsmonitor = touch /tmp/owned\n")
    text = blob(repo, SKILL)
    dot_git = tree(repo, [(b"100644", b"config", config), (b"100644", b"SKILL.md", text)])
    inner = tree(repo, [(b"40000", b".GIT", dot_git)])
    commit = commit_tree(repo, tree(repo, [(b"40000", b".git", dot_git), (b"40000", b"s", inner)]))
    top = repository_top(str(repo))
    with copy_tree(top, resolve(top, commit), parent=str(tmp_path / "c")) as copy:
        assert copy.files == 0 and os.listdir(copy.folder) == []


def test_links_and_submodules_are_not_followed(repo: Path, tmp_path: Path) -> None:
    out_link, up_link = blob(repo, b"/etc/passwd"), blob(repo, b"../../x")
    inner = tree(repo, [(b"120000", b"SKILL.md", out_link), (b"120000", b"ref.md", up_link)])
    module = (b"160000", b"mod", bytes.fromhex("aa" * 20))
    commit = commit_tree(repo, tree(repo, [(b"40000", b"ev", inner), module]))
    code, _, err = run(repo, "evil")
    assert code == 0 and "internal error" not in err, err
    top = repository_top(str(repo))
    with copy_tree(top, resolve(top, commit), parent=str(tmp_path / "c")) as copy:
        assert copy.files == 0
        assert not [f for _, _, fs in os.walk(copy.folder) for f in fs]


def test_ctrl_c_while_copying_or_reading_leaves_no_copy(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.projects import change_sides, git_tree

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    copies = tmp_path / "cache" / "skillstudio" / "diff"
    real = git_tree._object

    def interrupted(stream: object) -> bytes:
        real(stream)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(git_tree, "_object", interrupted)
    assert run(repo)[0] == 130
    assert copies.is_dir() and list(copies.iterdir()) == []
    monkeypatch.setattr(git_tree, "_object", real)

    def stopped(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(change_sides, "compare", stopped)
    assert run(repo)[0] == 130
    deadline = time.monotonic() + 10  # (removed by a child process, set aside at once)
    while [p for p in copies.iterdir() if not p.name.endswith(".gone")]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    while list(copies.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(copies.iterdir()) == []


def test_a_tree_of_many_files_names_a_hundred_and_counts_the_rest(
    repo: Path, tmp_path: Path
) -> None:
    one = blob(repo, b"x")
    files = [(b"100644", b"f%06d" % n, one) for n in range(30_000)]
    commit = commit_tree(repo, tree(repo, [(b"40000", b"many", tree(repo, files))]))
    top = repository_top(str(repo))
    with copy_tree(top, resolve(top, commit), parent=str(tmp_path / "c"), max_files=10) as copy:
        assert copy.files == 10
        assert len(copy.skipped) == MAX_SKIPPED and copy.unnamed == 30_000 - 10 - MAX_SKIPPED
    code, _, err = run(repo, "evil")  # (under the command's own bounds)
    assert code == 0 and err == "", err
