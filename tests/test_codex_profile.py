"""The codex profile (docs/profiles.md): one test per rule, on trees built here.

The user, admin and system scopes come from settings (HOME, CODEX_HOME,
SKILLSTUDIO_CODEX_ADMIN); every test points them into its own folder, so the
real home and /etc are never read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles.codex.files import MAX_FOLDERS
from skillstudio.core.profiles.codex.shipped import SYSTEM_SKILLS
from skillstudio.core.projects.project import detect_profile

from .helpers import cli, codes, codex_machine, diag, lint_json, write


@pytest.fixture(autouse=True)
def scopes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME, CODEX_HOME and the admin folder under this test's own folder."""
    machine: Path = codex_machine(tmp_path / "machine", monkeypatch)
    return machine


def skill(base: Path | str, rel: str, name: str | None, description: str, extra: str = "") -> str:
    head = f"name: {name}\n" if name is not None else ""
    return write(
        base, f"{rel}/SKILL.md", f"---\n{head}description: {description}\n{extra}---\n\nDo it.\n"
    )


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in data["skills"]}


def listing(*args: str, cwd: Path | None = None) -> dict[str, Any]:
    run = cli("prompt", "--tier", "2", "--profile", "codex", "--format", "json", *args, cwd=cwd)
    assert run.code == 0, run.err
    data: dict[str, Any] = run.json
    return data


SYSTEM = [s.name for s in SYSTEM_SKILLS]


def mine(data: dict[str, Any]) -> list[str]:
    """The skills listed after Codex's own system skills (which come first)."""
    assert data["listed"][: len(SYSTEM)] == SYSTEM
    return list(data["listed"][len(SYSTEM) :])


# -- roots and scopes --------------------------------------------------------------
def test_roots_from_the_repository_root_down_to_the_working_folder_and_every_scope(
    tmp_path: Path, scopes: Path
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skill(repo, ".agents/skills/top", "top", "At the repository root.")
    skill(repo, "pkg/.agents/skills/mid", "mid", "In the package.")
    skill(repo, "pkg/app/.agents/skills/low", "low", "In the working folder.")
    skill(repo, "other/.agents/skills/aside", "aside", "Not on the way down.")
    skill(repo, ".codex/skills/legacy-repo", "legacy-repo", "Repository .codex.")
    skill(scopes, "home/.agents/skills/mine", "mine", "The user's.")
    skill(scopes, "codex-home/skills/old", "old", "Deprecated user root.")
    skill(scopes, "codex-home/skills/.system/builtin", "builtin", "Bundled with Codex.")
    skill(scopes, "etc-codex/skills/policy", "policy", "The admin's.")
    data = lint_json("--project", str(repo / "pkg" / "app"), "--profile", "codex")
    skills = by_name(data)
    assert set(skills) == {
        "top", "mid", "low", "legacy-repo", "mine", "old", "builtin", "policy"
    }  # fmt: skip
    assert skills["builtin"]["root"] == str(scopes / "codex-home/skills/.system")
    deprecated = diag(data, "root-deprecated")
    assert "$CODEX_HOME/skills is deprecated" in deprecated["message"]
    assert deprecated["severity"] == "info"
    names = listing("--project", str(repo / "pkg" / "app"))["listed"]
    # system, admin, repository, user; then by name
    assert names == ["builtin", "policy", "legacy-repo", "low", "mid", "top", "mine", "old"]


def test_without_a_git_folder_the_working_folder_is_the_repository(tmp_path: Path) -> None:
    skill(tmp_path, "proj/.agents/skills/here", "here", "Here.")
    skill(tmp_path, ".agents/skills/above", "above", "Above, outside any repository.")
    data = lint_json("--project", str(tmp_path / "proj"), "--profile", "codex")
    assert set(by_name(data)) == {"here"}


def test_a_folder_without_repository_roots_is_read_as_it_is(tmp_path: Path, scopes: Path) -> None:
    skill(scopes, "home/.agents/skills/mine", "mine", "The user's own.")
    skill(tmp_path, "collection/one", "one", "A skill of the collection.")
    data = lint_json("--project", str(tmp_path / "collection"), "--profile", "codex")
    assert set(by_name(data)) == {"one"}


# -- discovery -------------------------------------------------------------------
def test_discovery_is_recursive_to_depth_six(tmp_path: Path) -> None:
    # a Codex root of the project (a folder given as --root that holds deeper skill
    # roots is a repository: each of those is a root of its own, docs/profiles.md)
    root = tmp_path / "proj" / ".agents" / "skills"
    skill(root, "a/b/c/d/e/six", "six", "Six levels down.")
    skill(root, "a/b/c/d/e/f/seven", "seven", "Seven levels down.")
    data = lint_json("--project", str(tmp_path / "proj"), "--profile", "codex")
    assert set(by_name(data)) == {"six"}
    limits = [d for d in data["diagnostics"] if d["code"] == "scan-limit"]
    limit = next(d for d in limits if "6 levels below a root" in d["message"])
    assert limit["severity"] == "warning"


def test_hidden_names_below_the_root_are_skipped(tmp_path: Path) -> None:
    root = tmp_path / ".agents" / "skills"  # the root itself may be hidden
    skill(root, "seen", "seen", "Shown.")
    skill(root, ".hidden/unseen", "unseen", "Under a hidden folder.")
    data = lint_json("--root", str(root), "--profile", "codex")
    # Codex's walk of the root skips the hidden folder; lint checks it all the same as a
    # collection of its own (issue 38, the author's view)
    roots = {r["path"]: r for r in data["roots"]}
    assert roots[str(root)]["skills"] == 1
    assert roots[str(root / ".hidden")]["collection"]
    assert set(by_name(data)) == {"seen", "unseen"}


def test_a_skill_md_that_is_a_link_is_ignored_with_a_warning(tmp_path: Path) -> None:
    root = tmp_path / "root"
    real = skill(tmp_path, "elsewhere", "linked", "A real file elsewhere.")
    (root / "linked").mkdir(parents=True)
    os.symlink(real, root / "linked" / "SKILL.md")
    skill(root, "plain", "plain", "Plain.")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert set(by_name(data)) == {"plain"}
    warned = diag(data, "symlink-skipped")
    assert warned["severity"] == "warning" and warned["path"].endswith("linked/SKILL.md")


def test_the_walk_stops_at_two_thousand_folders_with_a_diagnostic(tmp_path: Path) -> None:
    root = tmp_path / "root"
    for index in range(MAX_FOLDERS + 5):
        (root / f"f{index:05d}").mkdir(parents=True)
    skill(root, "zz-last", "last", "Past the folder limit.")
    skill(root, "f00000/first", "first", "Within the limit.")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert set(by_name(data)) == {"first"}
    assert "at most 2,000 folders" in diag(data, "scan-limit")["message"]


def test_the_walk_stops_at_its_entry_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skillstudio.core.profiles.codex import files as codex_files

    monkeypatch.setattr(codex_files, "MAX_ENTRIES", 30)
    root = tmp_path / "root"
    skill(root, "a-first", "first", "Early.")
    for index in range(40):
        write(root, f"b-files/note{index}.txt", "x")
    skill(root, "c-late", "late", "After the entry limit.")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert set(by_name(data)) == {"first"}
    assert "more than 30 entries" in diag(data, "scan-limit")["message"]


# -- fields ----------------------------------------------------------------------
def test_name_falls_back_to_the_folder_and_is_limited_to_64(tmp_path: Path) -> None:
    root = tmp_path / "root"
    skill(root, "folder-name", None, "No name key.")
    skill(root, "long", "x" * 65, "A long name.")
    data = lint_json("--root", str(root), "--profile", "codex")
    skills = by_name(data)
    assert skills["folder-name"]["status"] == "active"
    assert skills["x" * 65]["status"] == "skipped"
    assert "refuses names over 64" in diag(data, "name-too-long")["message"]


def test_description_is_required_and_non_empty(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "none/SKILL.md", "---\nname: none\n---\nBody.\n")
    write(root, "blank/SKILL.md", "---\nname: blank\ndescription: '  '\n---\nBody.\n")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert {s["status"] for s in data["skills"]} == {"skipped"}
    assert {"field-missing", "description-empty"} <= set(codes(data))


def test_a_long_description_is_a_warning_and_cut_in_what_the_model_sees(tmp_path: Path) -> None:
    root = tmp_path / "root"
    skill(root, "long", "long", "word " * 300)
    data = lint_json("--root", str(root), "--profile", "codex")
    too_long = diag(data, "description-too-long")
    assert too_long["severity"] == "warning" and data["summary"]["errors"] == 0
    assert "shows the first 1,021" in too_long["message"]
    text = listing("--root", str(root))["text"]
    shown = ("word " * 300).strip()[:1021] + "..."
    assert f"- long: {shown} (file: " in text


def test_whitespace_is_collapsed_and_other_keys_are_ignored(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(
        root,
        "tidy/SKILL.md",
        "---\nname: '  tidy   up  '\ndescription: |\n  Tidies   the\n  tree.\n"
        "license: MIT\nmetadata:\n  short-description: 5\n---\nBody.\n",
    )
    data = lint_json("--root", str(root), "--profile", "codex")
    assert [s["name"] for s in data["skills"]] == ["tidy up"]
    unknown = diag(data, "unknown-field")
    assert unknown["severity"] == "info" and unknown["field"] == "license"
    short = diag(data, "field-type")
    assert short["severity"] == "warning" and "short-description" in short["message"]
    assert "- tidy up: Tidies the tree. (file: " in listing("--root", str(root))["text"]


# -- agents/openai.yaml ------------------------------------------------------------
def test_allow_implicit_invocation_false_keeps_a_skill_out_of_the_listing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    skill(root, "deploy", "deploy", "Deploys the service.")
    write(root, "deploy/agents/openai.yaml", "policy:\n  allow_implicit_invocation: false\n")
    skill(root, "lint", "lint", "Lints the code.")
    data = listing("--root", str(root))
    assert mine(data) == ["lint"]
    assert data["omitted"] == [
        {
            "skill": "deploy",
            "reason": "agents/openai.yaml sets policy.allow_implicit_invocation: false "
            "(a $name mention still invokes it)",
        }
    ]
    match = cli("match", "$deploy to staging", "--root", str(root), "--profile", "codex")
    assert "selected: deploy" in match.out


def test_bad_openai_yaml_values_are_reported_at_their_line_and_column(tmp_path: Path) -> None:
    root = tmp_path / "root"
    skill(root, "typed", "typed", "A wrong type.")
    write(
        root,
        "typed/agents/openai.yaml",
        "interface: {}\npolicy:\n  allow_implicit_invocation: 'no'\n",
    )
    skill(root, "broken", "broken", "Broken YAML.")
    write(root, "broken/agents/openai.yaml", "policy: [unclosed\n")
    data = lint_json("--root", str(root), "--profile", "codex")
    found = {
        d["path"].split(os.sep)[-3]: (d["line"], d["column"], d["severity"])
        for d in data["diagnostics"]
        if d["path"].endswith("openai.yaml")
    }
    assert found["typed"] == (3, 30, "warning")
    assert found["broken"][0] == 2 and found["broken"][2] == "warning"
    assert mine(listing("--root", str(root))) == ["broken", "typed"]  # both still listed


# -- duplicates --------------------------------------------------------------------
def test_duplicate_names_are_all_listed_and_an_ambiguous_mention_selects_nothing(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    first = skill(root, "a/review", "review", "Reviews A.")
    second = skill(root, "b/review", "review", "Reviews B.")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert [s["status"] for s in data["skills"]] == ["active", "active"]
    dupes = [d for d in data["diagnostics"] if d["code"] == "duplicate-name"]
    assert len(dupes) == 2 and all(d["severity"] == "warning" for d in dupes)
    assert dupes[0]["message"].startswith("Ambiguous $review:")
    assert mine(listing("--root", str(root))) == ["review", "review"]
    scope = ["--root", str(root), "--profile", "codex", "--format", "json"]
    ambiguous = cli("match", "$review this", *scope).json
    assert ambiguous["selected"] == []
    assert ambiguous["notes"][0].startswith("Ambiguous $review: 2 skills")
    linked = cli("match", f"[$review]({second}) this", *scope).json
    assert linked["selected"] == [second]
    tier3 = cli("prompt", "--query", f"[$review]({first})", *scope).json
    assert tier3["text"].startswith(f"<skill>\n<name>review</name>\n<path>{first}</path>\n")
    refused = cli("activate", "review", *scope)
    assert refused.code == 1 and refused.json["error"]["code"] == "AMBIGUOUS"


# -- plugins -----------------------------------------------------------------------
def test_plugin_skills_are_named_after_the_nearest_manifest(tmp_path: Path) -> None:
    root = tmp_path / "plugins"
    write(root, "discord/.codex-plugin/plugin.json", '{"name": "discord"}')
    skill(root, "discord/skills/access", "access", "Discord access.")
    write(root, "imessage/.claude-plugin/plugin.json", '{"name": "imessage"}')
    skill(root, "imessage/skills/access", "access", "iMessage access.")
    write(root, "broken/.codex-plugin/plugin.json", '{"name": ')
    skill(root, "broken/skills/tool", "tool", "In a plugin with a broken manifest.")
    skill(root, "loose/access", "access", "Not in a plugin.")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert sorted(by_name(data)) == ["access", "broken:tool", "discord:access", "imessage:access"]
    assert "duplicate-name" not in codes(data)
    bad = diag(data, "field-invalid")
    assert bad["path"].endswith("broken/.codex-plugin/plugin.json") and bad["line"] == 1
    match = cli("match", "$discord:access now", "--root", str(root), "--profile", "codex")
    assert "selected: discord:access" in match.out


def test_a_plugin_manifest_linked_from_outside_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "plugins"
    secret = write(tmp_path, "outside/plugin.json", '{"name": "stolen"}')
    (root / "p" / ".codex-plugin").mkdir(parents=True)
    os.symlink(secret, root / "p" / ".codex-plugin" / "plugin.json")
    skill(root, "p/skills/s", "s", "In a plugin whose manifest is a link outside.")
    data = lint_json("--root", str(root), "--profile", "codex")
    assert [s["name"] for s in data["skills"]] == ["p:s"]
    assert "outside" in diag(data, "field-invalid")["message"]


# -- listing -----------------------------------------------------------------------
# Codex's listing rules, byte for byte: tests/test_codex_listing.py.
def test_the_budget_is_two_percent_of_the_context_window_in_tokens(tmp_path: Path) -> None:
    skill(tmp_path / "root", "alpha", "alpha", "A.")
    data = listing("--root", str(tmp_path / "root"), "--context-tokens", "100000")
    assert (data["budget"], data["budget_unit"]) == (2000, "tokens")
    assert listing("--root", str(tmp_path / "root"), "--context-tokens", "50000")["budget"] == 1000
    assert listing("--root", str(tmp_path / "root"))["budget"] == 8000  # characters


def test_without_a_skill_of_ones_own_codex_lists_its_system_skills(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    data = listing("--root", str(tmp_path / "root"))
    assert data["listed"] == SYSTEM and data["omitted"] == []
    assert data["text"].startswith("<skills_instructions>\n## Skills\n")


# -- invocation ----------------------------------------------------------------------
def test_a_mention_injects_the_whole_file_without_substitution(tmp_path: Path) -> None:
    root = tmp_path / "root"
    text = "---\nname: ship\ndescription: Ships it.\n---\n\nRun !`make` with $ARGUMENTS.\n"
    path = write(root, "ship/SKILL.md", text)
    scope = ["--root", str(root), "--profile", "codex", "--format", "json"]
    match = cli("match", "please $ship now, and $missing-one too", *scope).json
    assert match["selected"] == ["ship"] and match["tier"] == 3
    assert "$missing-one is mentioned but no loaded skill has that name." in match["notes"]
    expected = f"<skill>\n<name>ship</name>\n<path>{path}</path>\n{text}\n</skill>"
    tier3 = cli("prompt", "--query", "please $ship now", *scope).json
    assert tier3["text"] == expected
    act = cli("activate", "$ship", "v1.2", *scope).json
    assert act["content"] == expected and act["mode"] == "user_message"
    assert any("no $ARGUMENTS" in note for note in act["notes"])


def test_without_a_mention_nothing_is_selected_and_the_model_chooses(tmp_path: Path) -> None:
    root = tmp_path / "root"
    skill(root, "ship", "ship", "Ships releases to production.")
    match = cli(
        "match", "ship the release", "--root", str(root), "--profile", "codex", "--format", "json"
    ).json
    assert match["selected"] == [] and match["heuristic"] is True
    assert match["candidates"][0]["skill"] == "ship" and "band" in match["candidates"][0]


def test_what_selects_is_said_as_codex_selects_everywhere(tmp_path: Path) -> None:
    """A reviewer typed /ship and 'use the ship skill' because the note said so; under
    codex only a mention selects, and every line that says what selects says that."""
    root = tmp_path / "root"
    skill(root, "ship", "ship", "Ships releases to production.")
    skill(root, "deploy", "deploy", "Deploys releases to staging.")
    args = ("--root", str(root), "--profile", "codex")
    assert cli("match", "/ship the release", *args, "--format", "json").json["selected"] == []
    out = cli("match", "ship the release to staging", *args, "--why", "deploy").out
    mention = "Only a $name or [$name](path) mention selects."
    assert out.count(mention) == 2  # the note and the --why caveat
    assert "use <name> skill" not in out and "/name" not in out
    plain = cli("match", "ship it", "--root", str(root), "--profile", "agentskills").out
    assert "Only /name, $name or 'use <name> skill' selects." in plain


# -- detection ---------------------------------------------------------------------
def test_detection_names_the_codex_mark_it_saw(tmp_path: Path) -> None:
    (tmp_path / "a" / ".codex").mkdir(parents=True)
    assert detect_profile(str(tmp_path / "a"))[0] == "agentskills"  # empty: no mark
    skill(tmp_path, "a/.codex/skills/deploy", "deploy", "Deploys.")
    assert detect_profile(str(tmp_path / "a")) == ("codex", "detected codex: .codex/ folder")
    skill(tmp_path, "b/.agents/skills/deploy", "deploy", "Deploys.")
    write(tmp_path, "b/.agents/skills/deploy/agents/openai.yaml", "policy: {}\n")
    assert detect_profile(str(tmp_path / "b")) == (
        "codex",
        "detected codex: agents/openai.yaml in .agents/skills/deploy/SKILL.md",
    )
    skill(tmp_path, "c/.agents/skills/plain", "plain", "Plain.")
    assert detect_profile(str(tmp_path / "c"))[0] == "agentskills"
    # openai/skills' layout (skills/.curated/NAME, a hidden folder Codex does not load
    # from a repository): the skills' own agents/openai.yaml still says codex
    skill(tmp_path, "d/skills/.curated/gh-fix-ci", "gh-fix-ci", "Fixes CI.")
    write(tmp_path, "d/skills/.curated/gh-fix-ci/agents/openai.yaml", "policy: {}\n")
    assert detect_profile(str(tmp_path / "d")) == (
        "codex",
        "detected codex: agents/openai.yaml in skills/.curated/gh-fix-ci/SKILL.md",
    )


# -- a skill named as one of Codex's own system skills ----------------------------------
def test_a_skill_named_as_a_system_skill_is_noted_named_and_never_picked_by_name(
    tmp_path: Path, scopes: Path
) -> None:
    """openai-skills holds copies of skill-creator and skill-installer: Codex lists them
    beside its own (it drops only a SKILL.md path read twice) and a plain $name selects
    a skill only when one has the name (docs/agents.md). lint notes it, `match` says
    which of the two is which and selects neither on `$skill-creator`, and `prompt`
    says where the system skills come from (a first-time reviewer saw them listed
    twice, from a folder that did not exist, with no note)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    mine = skill(
        repo,
        ".agents/skills/skill-creator",
        "skill-creator",
        "Create a new Codex skill. Use when asked to create a new skill.",
    )
    skill(repo, ".agents/skills/deploy", "deploy", "Deploys the app.")
    data = lint_json("--profile", "codex", str(repo))
    notes = [d for d in data["diagnostics"] if d["code"] == "duplicate-name"]
    assert [(d["path"], d["severity"], d["line"]) for d in notes] == [(mine, "warning", 2)]
    assert "one of Codex's system skills embedded in Codex" in notes[0]["message"]
    assert "a $skill-creator mention selects neither" in notes[0]["message"]
    # `match`: the mention selects neither; a link picks the file; an estimate says which
    plain = cli("match", "$skill-creator please", "--profile", "codex", "--project", str(repo))
    assert plain.out.startswith("selected: none")
    assert "Ambiguous $skill-creator: 'skill-creator' is also the name of one of Codex's" in (
        plain.out
    )
    linked = cli(
        "match", f"[$skill-creator]({mine}) please", "--profile", "codex", "--project", str(repo)
    )
    assert linked.out.startswith("selected: skill-creator")
    asked = cli(
        "match", "create a new skill for codex", "--profile", "codex", "--project", str(repo)
    )
    lines = asked.out.splitlines()
    # the first line naming it: the user's skill-creator ("likely · 71 % skill-creator …")
    author = next(i for i, line in enumerate(lines) if "skill-creator" in line.split())
    assert lines[author + 1].strip() == f"file: {mine}"
    assert any("skill-creator (codex's own)" in line for line in lines)
    estimate = cli(
        "match",
        "create a new skill for codex",
        "--profile",
        "codex",
        "--format",
        "json",
        "--project",
        str(repo),
    ).json["likely"]
    which = {c.get("agent", ""): c.get("which") for c in estimate if c["skill"] == "skill-creator"}
    assert which == {"": mine, "codex": "codex's own, built in"}
    assert all("which" not in c for c in estimate if c["skill"] != "skill-creator")
    # `prompt`: where the system skills come from, and that the folder is not there yet
    run = cli("prompt", "--tier", "2", "--profile", "codex", "--project", str(repo))
    system = scopes / "codex-home" / "skills" / ".system"
    assert (
        "[the agent's own, listed too (5): imagegen, openai-docs, plugin-creator, "
        "skill-creator, skill-installer: system skills embedded in Codex, which writes them "
        f"into $CODEX_HOME/skills/.system (~/.codex/skills/.system) when it starts; {system} "
        "is not there yet on this machine]"
    ) in run.err
    # read from Codex's own folder itself: listed as read, no built-in copy, no note
    skill(scopes, "codex-home/skills/.system/skill-creator", "skill-creator", "Installed.")
    again = lint_json("--profile", "codex", str(repo))
    assert not [d for d in again["diagnostics"] if "system skills embedded" in d["message"]]
