"""The cache of what was read (core/scanning/state_cache.py, issue 27): a second `lint`
or `match` of an unchanged tree reads no SKILL.md, and nothing changed is ever served
stale: an edited, swapped or moved file, a link target gone, a manifest or
agents/openai.yaml changed, the bundled markdown of a gist. A corrupt or hostile cache
file is ignored and written again; --no-cache neither reads nor writes it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.reading import cache_files as cache_format
from skillstudio.core.scanning import state_cache

from .helpers import cli, skill_text, write


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own; files count as settled at once (RACY_NS 0)."""
    home = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(state_cache, "RACY_NS", 0, raising=False)
    return home / "skillstudio"


def tree(base: Path) -> Path:
    """Three agentskills skills; `alpha` links to a reference file."""
    write(
        base,
        "skills/alpha/SKILL.md",
        skill_text(
            name="alpha",
            description="Summarise quarterly sales figures into a short table.",
            _body="# Alpha\n\nSee [the guide](references/guide.md).\n",
        ),
    )
    write(base, "skills/alpha/references/guide.md", "# Guide\n\nSales words.\n")
    write(base, "skills/beta/SKILL.md", skill_text(name="beta", description="Plan a trip."))
    write(base, "skills/gamma/SKILL.md", skill_text(name="gamma", description="Fix typos."))
    return base / "skills"


def lint(base: Path, *extra: str) -> dict[str, Any]:
    run = cli("lint", "skills", "--format", "json", *extra, cwd=base)
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    return data


def names(paths: list[str]) -> list[str]:
    return sorted(os.path.basename(os.path.dirname(p)) for p in paths)


def test_a_second_lint_reads_nothing_and_says_the_same(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    tree(tmp_path)
    first = lint(tmp_path)
    assert names(reads) == ["alpha", "beta", "gamma"]
    reads.clear()
    second = lint(tmp_path)
    assert reads == []  # every skill served from the cache
    assert second == first
    match = cli("match", "summarise the sales table", "skills", "--format", "json", cwd=tmp_path)
    # lint recorded no gist; match needs one: only the gist is worked out, nothing parsed
    assert reads == []
    fresh = cli(
        "match",
        "summarise the sales table",
        "skills",
        "--format",
        "json",
        "--no-cache",
        cwd=tmp_path,
    )
    assert match.json == fresh.json  # the same answer as from files read afresh
    reads.clear()
    again = cli("match", "summarise the sales table", "skills", "--format", "json", cwd=tmp_path)
    assert reads == [] and again.json == match.json
    assert lint(tmp_path) == first and reads == []  # (a state with a gist serves lint too)


def test_where_the_rules_select_lint_and_match_share_what_was_read(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    """oasis works out no gist: a state lint read serves match (and back)."""
    write(
        tmp_path,
        "skills/review/SKILL.md",
        "---\nid: review\nname: review\ndescription: Review a diff.\ntriggers: [review]\n"
        "priority: 1\n---\nReview.\n",
    )
    assert cli("lint", "skills", "--profile", "oasis", cwd=tmp_path).code == 0
    reads.clear()
    run = cli("match", "review this", "skills", "--profile", "oasis", cwd=tmp_path)
    assert run.code == 0 and "selected: review" in run.out
    assert reads == []


def test_an_edited_file_of_the_same_size_is_read_again(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    root = tree(tmp_path)
    lint(tmp_path)
    reads.clear()
    beta = root / "beta" / "SKILL.md"
    before = beta.stat()
    text = beta.read_text(encoding="utf-8").replace("Plan a trip.", "Plan a walk.")
    beta.write_text(text, encoding="utf-8")
    os.utime(beta, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
    assert beta.stat().st_size == before.st_size
    data = lint(tmp_path)
    assert names(reads) == ["beta"]
    shown = {
        s["name"]: s for s in cli("list", "skills", "--format", "json", cwd=tmp_path).json["skills"]
    }
    assert shown["beta"]["description"] == "Plan a walk."
    assert data["summary"]["skills"] == 3


def test_a_file_swapped_for_another_with_the_same_size_and_times_is_read_again(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    root = tree(tmp_path)
    lint(tmp_path)
    reads.clear()
    beta = root / "beta" / "SKILL.md"
    before = beta.stat()
    other = tmp_path / "other.md"
    text = beta.read_text(encoding="utf-8").replace("Plan a trip.", "Plan a hike.")
    other.write_text(text, encoding="utf-8")
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, beta)  # same path, size and modification time: another inode
    after = beta.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert after.st_ino != before.st_ino
    lint(tmp_path)
    assert names(reads) == ["beta"]
    listed = cli("list", "skills", "--format", "json", cwd=tmp_path).json["skills"]
    assert {s["name"]: s["description"] for s in listed}["beta"] == "Plan a hike."


def test_a_moved_skill_is_read_at_its_new_place_and_the_old_one_forgotten(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    root = tree(tmp_path)
    lint(tmp_path)
    reads.clear()
    os.rename(root / "gamma", root / "delta")
    data = lint(tmp_path)
    assert names(reads) == ["delta"]
    assert sorted(s["path"].split(os.sep)[-2] for s in data["skills"]) == [
        "alpha",
        "beta",
        "delta",
    ]
    assert "name-dir-mismatch" in [d["code"] for d in data["diagnostics"]]  # gamma in delta/
    (cache_file,) = cache_files(cache_home)
    assert not any("gamma" in path for path in entries(cache_file))


def test_a_link_target_removed_is_reported_although_its_skill_did_not_change(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    root = tree(tmp_path)
    assert "link-broken" not in codes_of(lint(tmp_path))
    reads.clear()
    os.remove(root / "alpha" / "references" / "guide.md")
    data = lint(tmp_path)
    assert names(reads) == ["alpha"]
    assert "link-broken" in codes_of(data)


def test_a_plugin_manifest_added_renames_the_skills_below_it(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    skill = skill_text(name="review", description="Review a pull request.")
    write(tmp_path, "kit/skills/review/SKILL.md", skill)
    run = cli("list", "kit/skills", "--profile", "claude-code", "--format", "json", cwd=tmp_path)
    assert [s["name"] for s in run.json["skills"]] == ["review"]
    write(tmp_path, "kit/.claude-plugin/plugin.json", '{"name": "kit"}')
    reads.clear()
    run = cli("list", "kit/skills", "--profile", "claude-code", "--format", "json", cwd=tmp_path)
    assert [s["name"] for s in run.json["skills"]] == ["kit:review"]
    assert names(reads) == ["review"]


def test_agents_openai_yaml_changed_is_read_again(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    write(tmp_path, ".codex/skills/ship/SKILL.md", skill_text(name="ship", description="Ship."))
    write(tmp_path, ".codex/skills/dock/SKILL.md", skill_text(name="dock", description="Dock."))
    policy = write(tmp_path, ".codex/skills/ship/agents/openai.yaml", "policy: {}\n")
    scope = ("--project", ".", "--profile", "codex", "--format", "json")
    first = cli("show", "ship", *scope, cwd=tmp_path).json
    assert first["fields"]["allow_implicit_invocation"] is True
    assert names(reads) == ["dock", "ship"]
    reads.clear()
    Path(policy).write_text("policy:\n  allow_implicit_invocation: false\n", encoding="utf-8")
    second = cli("show", "ship", *scope, cwd=tmp_path).json
    assert second["fields"]["allow_implicit_invocation"] is False
    assert names(reads) == ["ship"]


def test_the_gist_follows_the_bundled_markdown(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    root = tree(tmp_path)
    query = ("match", "zeppelin maintenance", "skills", "--format", "json")
    cli(*query, cwd=tmp_path)
    guide = root / "alpha" / "references" / "guide.md"
    guide.write_text("# Guide\n\nZeppelin maintenance, zeppelin hangars.\n", encoding="utf-8")
    reads.clear()
    data = cli(*query, cwd=tmp_path).json
    assert names(reads) == ["alpha"]
    assert [c["skill"] for c in data["likely"]][:1] == ["alpha"]


def test_a_file_changed_moments_ago_is_not_kept(
    tmp_path: Path, cache_home: Path, reads: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writes in one tick of the file system's clock leave the same times: a file
    changed less than RACY_NS before it was read is read again next time."""
    monkeypatch.setattr(state_cache, "RACY_NS", 3600 * 10**9)
    tree(tmp_path)
    lint(tmp_path)
    reads.clear()
    lint(tmp_path)
    assert names(reads) == ["alpha", "beta", "gamma"]  # changed within the hour: not kept

    class Later:  # two hours on: settled, kept
        @staticmethod
        def time_ns() -> int:
            return time.time_ns() + 7200 * 10**9

        @staticmethod
        def time() -> float:
            return time.time() + 7200

    monkeypatch.setattr(state_cache, "time", Later)
    lint(tmp_path)
    reads.clear()
    lint(tmp_path)
    assert reads == []


def test_no_cache_neither_reads_nor_writes_it(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    tree(tmp_path)
    first = lint(tmp_path, "--no-cache")
    assert not cache_home.exists() or cache_files(cache_home) == []
    lint(tmp_path)  # fills it
    reads.clear()
    assert lint(tmp_path, "--no-cache") == first
    assert len(reads) == 3
    for command in (["list"], ["match", "trip"], ["prompt"], ["overlap"], ["show", "beta"]):
        assert cli(*command, "skills", "--no-cache", cwd=tmp_path).code == 0, command


def test_the_commands_that_write_never_use_the_cache(
    tmp_path: Path, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree(tmp_path)
    opened: list[str] = []
    real = state_cache.StateCache.open

    def spy(folder: str | None = None) -> Any:
        opened.append("open")
        return real(folder)

    monkeypatch.setattr(state_cache.StateCache, "open", spy)
    lint(tmp_path)
    assert opened == ["open"]  # (the reading commands do)
    opened.clear()
    run = cli("set", "beta", "description=Plan a long trip.", "--root", "skills", cwd=tmp_path)
    assert run.code == 0, run.err
    assert cli("new", "delta", "--root", "skills", cwd=tmp_path).code == 0
    assert opened == []
    from skillstudio.cli.main import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    options = {
        name: {o for action in parser._actions for o in action.option_strings}
        for name, parser in sub.choices.items()  # type: ignore[union-attr]
    }
    assert "--no-cache" not in options["set"] | options["new"]
    assert "--no-cache" in options["list"] & options["match"] & options["test"]


def test_the_folder_and_its_files_are_private(tmp_path: Path, cache_home: Path) -> None:
    tree(tmp_path)
    cache_home.parent.mkdir(parents=True)
    cache_home.mkdir(mode=0o755)
    os.chmod(cache_home, 0o755)  # (an older or careless one: closed again)
    lint(tmp_path)
    assert stat.S_IMODE(cache_home.stat().st_mode) == 0o700
    files = sorted(cache_home.iterdir())
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert not [f for f in files if f.name.endswith(".tmp")]


def test_a_cache_folder_that_is_a_link_is_not_used(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    tree(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache_home.parent.mkdir(parents=True)
    cache_home.symlink_to(elsewhere)
    first = lint(tmp_path)
    reads.clear()
    assert lint(tmp_path) == first
    assert len(reads) == 3 and list(elsewhere.iterdir()) == []
    cache_home.unlink()  # a folder of its own: used
    lint(tmp_path)
    reads.clear()
    assert lint(tmp_path) == first and reads == []


HOSTILE = {
    "garbage": b"\x00\xff not a cache at all",
    "truncated": None,  # the real file cut in half
    "forged": None,  # the real file with one entry's types changed, MAC unchanged
    "signed": None,  # the same, signed with the folder's own key (stolen, or another version)
    "deep": b"skillstudio-cache 1\n" + b"0" * 64 + b"\n" + b"[" * 200_000 + b"]" * 200_000,
    "huge": None,  # over MAX_CACHE_BYTES (made sparse)
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_corrupt_or_hostile_cache_is_ignored_and_written_again(
    tmp_path: Path, cache_home: Path, reads: list[str], kind: str
) -> None:
    tree(tmp_path)
    first = lint(tmp_path)
    (cache_file,) = cache_files(cache_home)
    data = cache_file.read_bytes()
    if kind == "truncated":
        cache_file.write_bytes(data[: len(data) // 2])
    elif kind in ("forged", "signed"):
        head, payload = data[:85], json.loads(data[85:])
        for number, entry in enumerate(payload["entries"].values()):
            entry[7][3] = 12345  # the name: a number
            entry[7][(6, 9, 11)[number % 3]] = "not a mapping, a list of diagnostics, a doc"
        body = json.dumps(payload).encode()
        if kind == "signed":
            key = (cache_home / "key").read_bytes()
            mac = hmac.new(key, body, hashlib.sha256).hexdigest().encode()
            head = cache_format.MAGIC + mac + b"\n"
        cache_file.write_bytes(head + body)
    elif kind == "huge":
        with open(cache_file, "r+b") as fh:
            fh.truncate(cache_format.MAX_CACHE_BYTES + 1)
    else:
        cache_file.write_bytes(HOSTILE[kind] or b"")
    reads.clear()
    assert lint(tmp_path) == first
    assert len(reads) == 3  # nothing served from it
    reads.clear()
    assert lint(tmp_path) == first
    assert reads == []  # and written again, whole
    assert cache_file.stat().st_size < 10 * 2**20


def test_a_corrupt_key_is_replaced(tmp_path: Path, cache_home: Path, reads: list[str]) -> None:
    tree(tmp_path)
    first = lint(tmp_path)
    (cache_home / "key").write_bytes(b"short")
    reads.clear()
    assert lint(tmp_path) == first and len(reads) == 3
    assert len((cache_home / "key").read_bytes()) == cache_format.KEY_BYTES
    reads.clear()
    assert lint(tmp_path) == first and reads == []


def test_other_code_or_another_profile_reads_its_own(
    tmp_path: Path, cache_home: Path, reads: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tree(tmp_path)
    lint(tmp_path)
    reads.clear()
    lint(tmp_path)
    assert reads == []
    lint(tmp_path, "--profile", "claude-code")
    assert len(reads) == 3
    reads.clear()
    monkeypatch.setattr(state_cache, "tool_key", lambda: "another version")
    lint(tmp_path)
    assert len(reads) == 3


def test_the_profile_key_names_settings_not_addresses() -> None:
    from skillstudio.core.profiles import PROFILE_NAMES, get_profile

    for name in PROFILE_NAMES:
        one, two = get_profile(name), get_profile(name)
        key = state_cache.profile_key(one)
        assert key == state_cache.profile_key(two)
        assert " at 0x" not in key, (name, key)
    upload = get_profile("claude-code")
    upload.upload = True
    assert state_cache.profile_key(upload) != state_cache.profile_key(get_profile("claude-code"))


def test_cache_folder_follows_xdg() -> None:
    assert cache_format.cache_folder({"XDG_CACHE_HOME": "/x/cache"}) == "/x/cache/skillstudio"
    home = os.path.expanduser("~")
    default = os.path.join(home, ".cache", "skillstudio")
    assert cache_format.cache_folder({"XDG_CACHE_HOME": "relative"}) == default
    assert cache_format.cache_folder({}) == default


# -- helpers ------------------------------------------------------------------------------
def cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(".cache"))


def entries(cache_file: Path) -> dict[str, Any]:
    data = cache_file.read_bytes()
    found: dict[str, Any] = json.loads(data[data.index(b"\n", 20) + 1 :])["entries"]
    return found


def codes_of(data: dict[str, Any]) -> list[str]:
    return [d["code"] for d in data["diagnostics"]]


def test_list_and_show_after_a_lint_parse_nothing_again(
    tmp_path: Path, cache_home: Path, reads: list[str]
) -> None:
    """One recorded result for lint, list, show and match (issue 38): the states lint
    recorded without gists serve list and show, which add the gists alone."""
    tree(tmp_path)
    lint(tmp_path)
    reads.clear()
    listed = cli("list", "skills", "--format", "json", cwd=tmp_path)
    shown = cli("show", "alpha", "skills", "--format", "json", cwd=tmp_path)
    assert listed.code == 0 and shown.code == 0
    assert reads == []
    fresh = cli("show", "alpha", "skills", "--format", "json", "--no-cache", cwd=tmp_path)
    assert shown.json == fresh.json
