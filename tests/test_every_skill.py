"""Issue 27 (docs/profiles.md, "Links, every file accounted for, detection"): links
that stay inside the folder opened are followed and a file reached twice is one skill;
every SKILL.md under a path is a skill or named by a note (`unreached`,
`symlink-skipped`); detection reads the whole tree's marks. One fixture per shape,
each with the skills every profile finds and the notes it gives."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import cli, skill_text, write

# the project's note under a profile whose agent loads none of its skills where they sit
PLACEMENT = re.compile(r" (?:loads none of the|does not load the skill) .* runs in the folder")


def skill(base: Path, rel: str, **fields: Any) -> None:
    """A skill folder `rel` (its SKILL.md written) with a valid name and description."""
    name = os.path.basename(rel)
    fields.setdefault("name", name)
    fields.setdefault("description", f"Does {name} things. Use when {name} is asked for.")
    write(base, f"{rel}/SKILL.md", skill_text(**fields))


def lint(path: Path, *extra: str) -> dict[str, Any]:
    run = cli("lint", "--format", "json", str(path), *extra, cwd=path.parent)
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    return data


def names(data: dict[str, Any]) -> list[str]:
    return sorted(str(s["name"]) for s in data["skills"])


def notes(data: dict[str, Any], code: str, base: Path) -> list[tuple[str, str]]:
    """(path relative to `base`, message) of every `code` note; not the project's note
    that its profile's agent loads none of the skills where they sit (an `unreached`
    of its own, tests/test_in_place.py), which these tests of what is read leave out."""
    return [
        (os.path.relpath(d["path"], base), d["message"])
        for d in data["diagnostics"]
        if d["code"] == code and not PLACEMENT.search(d["message"])
    ]


# -- links into .agents/skills from .claude/skills/<name> ---------------------------
def linked_monorepo(tmp_path: Path) -> Path:
    """Skills kept in `.agents/skills`, three of four linked from `.claude/skills`."""
    repo = tmp_path / "mono"
    (repo / ".git").mkdir(parents=True)
    for name in ("alpha", "beta", "gamma", "delta"):
        skill(repo, f".agents/skills/{name}")
    (repo / ".claude/skills").mkdir(parents=True)
    for name in ("alpha", "beta", "gamma"):
        os.symlink(f"../../.agents/skills/{name}", repo / ".claude/skills" / name)
    return repo


EXPECTED = {  # profile (None: detected) -> the skills it finds
    None: ["alpha", "beta", "delta", "gamma"],  # claude-code: .claude/skills and a collection
    "claude-code": ["alpha", "beta", "delta", "gamma"],
    "codex": ["alpha", "beta", "delta", "gamma"],
    "agentskills": ["alpha", "beta", "delta", "gamma"],
}


def test_links_into_agents_skills_load_under_claude_code(tmp_path: Path) -> None:
    """On main claude-code found 0 skills, exited with `no-skills` and called the
    in-repository links "outside the root or back up into it". Every skill is checked
    (the author's view, issue 38): each file once; what Claude Code would not load in
    place is said by `lint --profile all`."""
    repo = linked_monorepo(tmp_path)
    for profile, expected in EXPECTED.items():
        data = lint(repo, *(["--profile", profile] if profile else []))
        assert names(data) == expected, profile
        assert "no-skills" not in {d["code"] for d in data["diagnostics"]}
        assert notes(data, "unreached", repo) == []
        if profile in (None, "claude-code"):  # through its own folder, the rest as a collection
            paths = sorted(os.path.relpath(s["path"], repo) for s in data["skills"])
            assert paths == [
                ".agents/skills/delta/SKILL.md",
                *(f".claude/skills/{n}/SKILL.md" for n in ("alpha", "beta", "gamma")),
            ]
            same = notes(data, "symlink-skipped", repo)
            assert all("same file as" in m for _, m in same) and len(same) == 3
        else:
            assert notes(data, "symlink-skipped", repo) == []
    every = lint(repo, "--profile", "all")
    unreached = notes(every, "unreached", repo)
    assert [where for where, _ in unreached] == [".agents/skills"]
    message = unreached[0][1]
    assert "not loaded by Claude Code" in message and "(delta)" in message
    assert "codex" in message  # Codex reads .agents/skills
    # a save through the link writes the file it leads to (inside), the link stays
    run = cli("set", "alpha", "description=Changed.", "--profile", "claude-code", cwd=repo)
    assert run.code == 0, run.err
    assert (repo / ".claude/skills/alpha").is_symlink()
    assert "description: Changed." in (repo / ".agents/skills/alpha/SKILL.md").read_text()


# -- a root that is a link to a sibling root -----------------------------------------
def test_a_root_linked_to_a_sibling_root_lists_each_skill_once(tmp_path: Path) -> None:
    """`.agents/skills -> ../skills`: Codex lists each skill once. On main: 4 skills of
    2 and a false "ambiguous $one" warning on each."""
    repo = tmp_path / "plugin"
    (repo / ".git").mkdir(parents=True)
    skill(repo, "skills/one")
    skill(repo, "skills/two")
    (repo / ".agents").mkdir()
    os.symlink("../skills", repo / ".agents/skills")
    for profile in ("codex", "agentskills", "claude-code"):
        data = lint(repo, "--profile", profile)
        assert names(data) == ["one", "two"], profile
        assert "duplicate-name" not in {d["code"] for d in data["diagnostics"]}
        assert notes(data, "unreached", repo) == []
    data = lint(repo, "--profile", "codex")
    assert [os.path.relpath(s["path"], repo) for s in data["skills"]] == [
        ".agents/skills/one/SKILL.md",  # the agent's own root, and only it
        ".agents/skills/two/SKILL.md",
    ]
    assert [r["path"] for r in data["roots"]] == [str(repo / ".agents/skills")]
    data = lint(repo, "--profile", "agentskills")  # skills/ is .agents/skills: read once
    assert [r["path"] for r in data["roots"]] == [str(repo / ".agents/skills")]
    assert notes(data, "symlink-skipped", repo) == []


# -- dangling links and links out ------------------------------------------------------
@pytest.mark.parametrize("profile", ["claude-code", "codex", "agentskills"])
def test_a_dangling_link_is_reported_once_with_where_it_points(
    tmp_path: Path, profile: str
) -> None:
    """On main a skill folder that is a link to nothing was dropped without a word."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    root = ".claude/skills" if profile == "claude-code" else ".agents/skills"
    skill(repo, f"{root}/kept")
    os.symlink("../../moved/away", repo / root / "gone")
    elsewhere = tmp_path / "elsewhere"  # and a link out: named, never read
    skill(elsewhere, "outside", description="Handles quokkaoutside requests in reports.")
    os.symlink(elsewhere / "outside", repo / root / "outside")
    run = cli("lint", "--format", "json", str(repo), "--profile", profile, cwd=tmp_path)
    assert "quokkaoutside" not in run.out
    data = run.json
    assert names(data) == ["kept"]
    skipped = notes(data, "symlink-skipped", repo)
    assert [where for where, _ in skipped] == [f"{root}/gone", f"{root}/outside"]
    assert str(repo / "moved/away") in skipped[0][1] and "does not exist" in skipped[0][1]
    assert str(elsewhere / "outside") in skipped[1][1] and "outside" in skipped[1][1]
    assert notes(data, "unreached", repo) == []


# -- a catalogue of categories ----------------------------------------------------------
def catalogue(tmp_path: Path) -> Path:
    """cli-tool/components/skills/<category>/<skill>: one category uses Claude Code
    fields, the others none; a `.claude/commands` folder of the repository's own."""
    repo = tmp_path / "templates"
    (repo / ".git").mkdir(parents=True)
    base = "cli-tool/components/skills"
    skill(repo, f"{base}/dev/lint-fix", **{"when_to_use": "a lint fails"})
    skill(repo, f"{base}/dev/review")
    skill(repo, f"{base}/docs/write-readme")
    skill(repo, f"{base}/data/sql-tune")
    skill(repo, f"{base}/data/etl-plan")
    return repo


def test_a_catalogue_of_categories_is_one_project(tmp_path: Path) -> None:
    """On main each category got its own profile from a sample: dev claude-code, the
    rest agentskills (and their unknown-field errors)."""
    repo = catalogue(tmp_path)
    data = lint(repo / "cli-tool/components/skills")
    assert {r["profile"] for r in data["roots"]} == {"claude-code"}
    assert len(data["roots"]) == 3
    assert names(data) == ["etl-plan", "lint-fix", "review", "sql-tune", "write-readme"]
    reason = data["roots"][0]["profile_reason"]
    assert "when_to_use" in reason and "dev/lint-fix/SKILL.md" in reason
    assert notes(data, "unreached", repo) == []


def test_a_catalogue_beside_the_agents_own_folder_is_checked_whole(
    tmp_path: Path,
) -> None:
    """Claude Code reads `.claude/commands` here, not the catalogue: lint checks the
    catalogue all the same (issue 38, the author's view) and `lint --profile all` names
    it, one `unreached` per category folder with Claude Code's real folders. On main:
    the commands alone, and "Claude Code reads skills only from .claude/commands"."""
    repo = catalogue(tmp_path)
    write(repo, ".claude/commands/ship.md", "Ship it.\n")
    data = lint(repo)
    assert names(data) == ["etl-plan", "lint-fix", "review", "ship", "sql-tune", "write-readme"]
    assert notes(data, "unreached", repo) == []
    every = lint(repo, "--profile", "all")
    unreached = notes(every, "unreached", repo)
    assert [where for where, _ in unreached] == [
        f"cli-tool/components/skills/{c}" for c in ("data", "dev", "docs")
    ]
    data_note = unreached[0][1]
    assert "2 SKILL.md files here are not loaded by Claude Code" in data_note
    assert "(etl-plan, sql-tune)" in data_note
    assert "it reads .claude/skills, .claude/commands, plugins" in data_note
    assert all(n["severity"] == "info" for n in every["diagnostics"] if n["code"] == "unreached")
    standard = lint(repo, "--profile", "agentskills")
    assert len(standard["skills"]) == 5 and notes(standard, "unreached", repo) == []


# -- a marketplace whose folder also holds unlisted skills --------------------------
def test_skills_a_marketplace_does_not_list_are_checked(tmp_path: Path) -> None:
    """On main Claude Code read the listed plugin and named the 3 others `unreached`:
    now they are checked (collections of the repository), and the in-place view says
    Claude Code would not load them."""
    repo = tmp_path / "market"
    write(
        repo,
        ".claude-plugin/marketplace.json",
        '{"name": "m", "owner": {"name": "o"}, "plugins": '
        '[{"name": "p", "source": "./plugins/p"}]}',
    )
    skill(repo, "plugins/p/skills/listed")
    for name in ("aa", "bb", "cc"):
        skill(repo, f"composio-skills/{name}")
    data = lint(repo)
    assert {r["profile"] for r in data["roots"]} == {"claude-code"}
    assert names(data) == ["aa", "bb", "cc", "p:listed"]
    assert notes(data, "unreached", repo) == []
    every = lint(repo, "--profile", "all")
    unreached = notes(every, "unreached", repo)
    assert [where for where, _ in unreached] == ["composio-skills"]
    assert "3 SKILL.md files here are not loaded by Claude Code" in unreached[0][1]
    assert every["agents_found"]["claude-code"] == 1
    standard = lint(repo, "--profile", "agentskills")
    assert names(standard) == ["aa", "bb", "cc", "listed"]
    assert notes(standard, "unreached", repo) == []


def test_one_plugin_of_a_marketplace_is_read_as_the_marketplace_reads_it(
    tmp_path: Path,
) -> None:
    """A plugin without a plugin.json of its own, linted alone: on main it was
    agentskills (and its errors); the marketplace above it says claude-code."""
    repo = tmp_path / "market"
    write(
        repo,
        ".claude-plugin/marketplace.json",
        '{"name": "m", "owner": {"name": "o"}, "plugins": '
        '[{"name": "tools", "source": "./plugins/tools"}]}',
    )
    skill(repo, "plugins/tools/skills/Fix_Things", description="Fixes things.")
    data = lint(repo / "plugins/tools")
    assert {r["profile"] for r in data["roots"]} == {"claude-code"}
    assert "marketplace.json" in data["roots"][0]["profile_reason"]
    assert not [d for d in data["diagnostics"] if d["severity"] == "error"]


# -- .system under a codex home --------------------------------------------------------
def test_a_codex_home_names_its_hidden_system_skills_and_dangling_links(tmp_path: Path) -> None:
    """A clone of ~/.codex/skills: on main `.system/` (2 skills) and the dangling links
    were dropped without a note."""
    home = tmp_path / "home"
    skills = home / ".codex/skills"
    skill(skills, "mine")
    skill(skills, "yours")
    skill(skills, ".system/plan")
    skill(skills, ".system/imagegen")
    os.symlink("../../../nowhere/one", skills / "lost-one")
    os.symlink("../../../nowhere/two", skills / "lost-two")
    data = lint(skills, "--profile", "codex")
    # the author's view (issue 38): .system is checked as a collection of its own
    assert names(data) == ["imagegen", "mine", "plan", "yours"]
    assert notes(data, "unreached", skills) == []
    system = next(r for r in data["roots"] if r["path"] == str(skills / ".system"))
    assert system["collection"] and "none is here" not in system["profile_reason"]
    every = lint(skills, "--profile", "all")
    ((where, message),) = notes(every, "unreached", skills)
    assert where == ".system" and "(imagegen, plan)" in message
    assert "not loaded by Codex CLI" in message and "in a hidden folder it skips" in message
    dangling = sorted(notes(data, "symlink-skipped", skills))
    assert [where for where, _ in dangling] == ["lost-one", "lost-two"]
    assert str(tmp_path / "nowhere/one") in dangling[0][1]
    auto = lint(skills)  # the home's own `.codex/` folder holds skills: codex
    assert {r["profile"] for r in auto["roots"]} == {"codex"}
    assert names(auto) == ["imagegen", "mine", "plan", "yours"]


# -- nested and hidden SKILL.md ---------------------------------------------------------
def test_a_skill_nested_in_a_skill_is_read_by_codex_and_named_by_the_others(
    tmp_path: Path,
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skill(repo, ".agents/skills/outer")
    skill(repo, ".agents/skills/outer/examples/inner")
    codex = lint(repo, "--profile", "codex")
    assert names(codex) == ["inner", "outer"] and notes(codex, "unreached", repo) == []
    standard = lint(repo, "--profile", "agentskills")
    assert names(standard) == ["outer"]
    unreached = notes(standard, "unreached", repo)
    assert [where for where, _ in unreached] == [".agents/skills/outer/examples"]
    assert "it lies 3 folders below the root .agents/skills" in unreached[0][1]
    assert "codex" in unreached[0][1]


# -- detection: an empty agent folder is no mark ---------------------------------------
def test_an_agent_folder_without_skills_is_no_mark(tmp_path: Path) -> None:
    """On main an empty `.claude/` made `.agents/skills` claude-code, which Claude Code
    never reads (0 skills)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo, ".claude/settings.json", "{}\n")
    skill(repo, ".agents/skills/plain")
    data = lint(repo)
    assert {r["profile"] for r in data["roots"]} == {"agentskills"}
    assert names(data) == ["plain"]


def test_detection_reads_every_skill_not_a_sample(tmp_path: Path) -> None:
    """On main 10 skills per root were looked at: the twelfth skill's Claude Code field
    went unseen and the root was agentskills."""
    repo = tmp_path / "repo"
    for index in range(11):
        skill(repo, f"skills/s{index:02d}")
    skill(repo, "skills/s11", **{"when_to_use": "a file changes"})
    data = lint(repo)
    assert {r["profile"] for r in data["roots"]} == {"claude-code"}
    assert "'when_to_use' in skills/s11/SKILL.md" in data["roots"][0]["profile_reason"]


FRONTMATTERS = [
    "name: a\ndescription: b\n",
    "name: a\ntriggers:\n  - x\n  - y\npriority: 3\n",
    "triggers:\n- x\n- y\nname: a\n",  # a list at the key's own indentation
    "triggers:\n  keywords: [a]\n  verbs:\n    - b\n",
    "description: >\n  folded\n  text\nmetadata: {a: 1}\ntools: [a, b]\n",
    "# a comment\nname: a  # trailing\nempty:\nafter: 1\n",
    '"quoted key": 1\nname: a\n',  # the lexical reading gives way to the parser
    "name: &x a\nalias: *x\n",
    "argument-hint: '[file]'\nallowed-tools: Read, Grep\n",
]


@pytest.mark.parametrize("text", FRONTMATTERS)
def test_the_lexical_shape_of_a_frontmatter_agrees_with_yaml(tmp_path: Path, text: str) -> None:
    import yaml

    from skillstudio.core.reading.inventory import frontmatter_shape

    path = write(tmp_path, "s/SKILL.md", f"---\n{text}---\nBody.\n")
    shape = frontmatter_shape(path, str(tmp_path))
    data = yaml.safe_load(text)
    assert shape is not None
    assert list(shape) == [str(k) for k in data]
    for key, value in data.items():
        kind = shape[str(key)]
        if isinstance(value, dict):
            assert kind == {}, key
        elif isinstance(value, list):
            assert kind == [], key
        else:
            assert kind in ("", None), key


def test_a_plugins_skills_folder_linked_inside_the_repository_is_read(tmp_path: Path) -> None:
    """A plugin's `skills/` that is a link to another folder of the repository: on main
    it was refused as a link out of the plugin."""
    repo = tmp_path / "market"
    write(
        repo,
        ".claude-plugin/marketplace.json",
        '{"name": "m", "owner": {"name": "o"}, "plugins": '
        '[{"name": "p", "source": "./plugins/p"}]}',
    )
    skill(repo, "shared/skills/common")
    (repo / "plugins/p").mkdir(parents=True)
    os.symlink("../../shared/skills", repo / "plugins/p/skills")
    data = lint(repo, "--profile", "claude-code")
    assert names(data) == ["p:common"]
    assert notes(data, "symlink-skipped", repo) == []
    assert notes(data, "unreached", repo) == []  # read through the plugin's link


def test_links_out_or_to_nothing_in_a_folder_no_agent_reads_are_one_note(
    tmp_path: Path,
) -> None:
    """Links in another agent's folder (`.gemini/skills`) that Claude Code does not read:
    one `unreached` for the folder, naming each target; nothing outside is read."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    (repo / ".git").mkdir(parents=True)
    skill(repo, ".claude/skills/own")
    skill(elsewhere, "ext", description="Handles quokkaoutside requests in reports.")
    (repo / ".gemini/skills").mkdir(parents=True)
    os.symlink(elsewhere / "ext", repo / ".gemini/skills/ext")
    os.symlink("../../gone/away", repo / ".gemini/skills/lost")
    run = cli("lint", "--format", "json", str(repo), cwd=tmp_path)
    assert "quokkaoutside" not in run.out
    data = run.json
    assert names(data) == ["own"]
    unreached = notes(data, "unreached", repo)
    assert [where for where, _ in unreached] == [".gemini/skills"]
    message = unreached[0][1]
    assert "2 links here are not followed" in message
    assert f"ext -> {elsewhere / 'ext'}" in message
    assert f"lost -> {repo / 'gone/away'} (missing)" in message
