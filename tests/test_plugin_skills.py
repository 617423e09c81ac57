"""Skills in plugins (issue 27): a plugin's prefix is no word of a skill's name, links to
files inside the same plugin, plugin and nested commands, and lint's overlap summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.editing.skill_ops import new_skill_places, place_of
from skillstudio.core.projects.agent_reach import agent_reach, place_loaders
from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.core.ranking.overlap import overlap_report
from skillstudio.core.scanning.registry import Registry

from .helpers import skill_text, write

# Two plugins of one marketplace; the names share words with their plugins' names, as
# real plugins' do ("plugin-dev" holding "plugin-settings").
PLUGINS: dict[str, dict[str, str]] = {
    "plugin-dev": {
        "plugin-settings": "Configure per-project settings files with local overrides and a "
        "YAML frontmatter block.",
        "plugin-structure": "Lay out the folders, manifest and components of a new package.",
        "hook-development": "Write event hooks that run before or after tool calls to "
        "validate commands.",
    },
    "sentry-skills": {
        "code-review": "Review a pull request for bugs and security problems before merging.",
        "find-bugs": "Find bugs and security holes in the changes of the current branch.",
        "commit": "Write a commit message in the conventional commit style for staged changes.",
        "sentry-setup": "Set up error monitoring with Sentry in a web application.",
    },
}
REQUESTS = [
    "plugin settings for my project",
    "review my pull request",
    "write a commit message",
    "set up sentry skills",
    "develop a plugin hook",
    "find bugs in this branch",
]


def _marketplace(base: Path) -> None:
    """A Claude Code marketplace listing both plugins."""
    listed = [{"name": p, "source": f"./plugins/{p}"} for p in PLUGINS]
    write(
        base,
        ".claude-plugin/marketplace.json",
        json.dumps({"name": "demo", "owner": {"name": "Demo"}, "plugins": listed}),
    )
    for plugin, skills in PLUGINS.items():
        write(base, f"plugins/{plugin}/.claude-plugin/plugin.json", json.dumps({"name": plugin}))
        for name, description in skills.items():
            text = skill_text(name=name, description=description)
            write(base, f"plugins/{plugin}/skills/{name}/SKILL.md", text)


def _codex_plugins(base: Path) -> None:
    """Codex plugins: a `.codex-plugin/plugin.json` above the skills in `.agents/skills`."""
    for plugin, skills in PLUGINS.items():
        folder = f".agents/skills/{plugin}"
        write(base, f"{folder}/.codex-plugin/plugin.json", json.dumps({"name": plugin}))
        for name, description in skills.items():
            write(base, f"{folder}/{name}/SKILL.md", skill_text(name=name, description=description))


def _plain(base: Path, root: str) -> None:
    """The same skills copied into one agent's own folder."""
    for skills in PLUGINS.values():
        for name, description in skills.items():
            write(base, f"{root}/{name}/SKILL.md", skill_text(name=name, description=description))


def _registry(folder: Path, profile: str) -> Registry:
    (folder / ".git").mkdir(exist_ok=True)
    registry = project_from_folder(str(folder), profile).registry()
    registry.scan()
    return registry


def _own(name: str) -> str:
    return name.rsplit(":", 1)[-1]


LAYOUTS = {
    "claude-code": (_marketplace, ".claude/skills"),
    "codex": (_codex_plugins, ".agents/skills"),
}


@pytest.mark.parametrize("profile", list(LAYOUTS))
def test_a_plugin_prefix_is_no_word_of_the_name(tmp_path: Path, profile: str) -> None:
    """Before: the plugin's name counted as words of every skill's name, "dev plugin" and
    "sentry skills" were shared terms, plugin-settings ~ plugin-structure scored 0.50 as
    plugin skills and 0.23 copied into the agent's folder; pairs came and went with the
    prefix. Now overlap and the likely ranking are the same in both layouts, names aside."""
    as_plugins, root = LAYOUTS[profile]
    as_plugins(tmp_path / "plugins")
    _plain(tmp_path / "plain", root)
    plugged = _registry(tmp_path / "plugins", profile)
    plain = _registry(tmp_path / "plain", profile)
    assert sorted(plugged.active) == sorted(
        f"{plugin}:{name}" for plugin, skills in PLUGINS.items() for name in skills
    )
    assert sorted(plain.active) == sorted(n for skills in PLUGINS.values() for n in skills)

    def pairs(registry: Registry) -> list[tuple[Any, ...]]:
        return [
            (
                tuple(sorted((_own(p.a.name), _own(p.b.name)))),
                round(p.score, 6),
                tuple(term for term, _ in p.shared),
            )
            for p in overlap_report(registry, 0.05).pairs
        ]

    found = pairs(plugged)
    assert found == pairs(plain)
    assert found  # the two layouts have pairs to compare
    shared = {term for _, _, terms in found for term in terms}
    assert not shared & {"dev", "sentry", "skills", "dev plugin", "sentry skills"}
    for request in REQUESTS:

        def ranking(registry: Registry, request: str = request) -> list[tuple[Any, ...]]:
            result = likely(registry, request)
            return [(_own(c.name), round(c.score, 6), c.band) for c in result.candidates]

        assert ranking(plugged) == ranking(plain), request


# -- links inside a plugin -------------------------------------------------------------
LINKS_BODY = """# Settings

See [the structure](../plugin-structure/SKILL.md),
[the hooks](${CLAUDE_PLUGIN_ROOT}/skills/hook-development/SKILL.md)
and [the readme](../../README.md).
Not there: [gone](../nowhere/SKILL.md);
another plugin: [theirs](../../../sentry-skills/skills/commit/SKILL.md);
a link in the plugin that leads out of it: [escape](../../escape.md).
"""


def _links(data: dict[str, Any], code: str) -> dict[str, str]:
    return {
        d["message"].split("'")[1]: d["severity"]
        for d in data["diagnostics"]
        if d["code"] == code and d["path"].endswith("plugin-settings/SKILL.md")
    }


@pytest.mark.parametrize("manifests", [True, False])
def test_links_to_files_of_the_same_plugin_are_not_broken(tmp_path: Path, manifests: bool) -> None:
    """Before: every link to a sibling skill or a file of the plugin was `link-broken`
    ("points outside the skill folder; copy the file into it"), and without a plugin.json
    `${CLAUDE_PLUGIN_ROOT}` resolved to the skill folder ("does not exist"). Now a file
    inside the same plugin is a `link-plugin` note (info); the rest stays broken."""
    from .helpers import lint_json

    _marketplace(tmp_path)
    write(tmp_path, "plugins/plugin-dev/README.md", "# Plugin dev\n")
    write(tmp_path, "outside.md", "# Not in the plugin\n")
    (tmp_path / "plugins/plugin-dev/escape.md").symlink_to(tmp_path / "outside.md")
    settings = "plugins/plugin-dev/skills/plugin-settings/SKILL.md"
    text = skill_text(name="plugin-settings", description="S.", _body=LINKS_BODY)
    write(tmp_path, settings, text)
    if not manifests:  # plugins listed by the marketplace with no plugin.json of their own
        for plugin in PLUGINS:
            (tmp_path / f"plugins/{plugin}/.claude-plugin/plugin.json").unlink()
            (tmp_path / f"plugins/{plugin}/.claude-plugin").rmdir()
    data = lint_json(str(tmp_path), "--profile", "claude-code")
    assert _links(data, "link-plugin") == {
        "../plugin-structure/SKILL.md": "info",
        "../../README.md": "info",
    }
    note = next(d for d in data["diagnostics"] if d["code"] == "link-plugin")
    assert "plugin 'plugin-dev'" in note["message"]
    assert "installed as part of its plugin" in note["message"]
    assert note["line"] == 8 and note["column"] == 5  # the link's '[' (after 4 frontmatter lines)
    broken = {
        d["message"].split("'")[1]: d["message"]
        for d in data["diagnostics"]
        if d["code"] == "link-broken"
    }
    assert set(broken) == {
        "../nowhere/SKILL.md",
        "../../../sentry-skills/skills/commit/SKILL.md",
        "../../escape.md",
    }
    assert "does not exist" in broken["../nowhere/SKILL.md"]
    assert "outside" in broken["../../../sentry-skills/skills/commit/SKILL.md"]
    assert "outside" in broken["../../escape.md"]  # confined: a link out of the plugin

    # the same skills copied out of their plugin: the links are broken there
    for name in ("plugin-settings", "plugin-structure"):
        source = (tmp_path / "plugins/plugin-dev/skills" / name / "SKILL.md").read_text()
        write(tmp_path / "copy", f".claude/skills/{name}/SKILL.md", source)
    (tmp_path / "copy/.git").mkdir()
    copied = lint_json(str(tmp_path / "copy"), "--profile", "claude-code")
    assert "link-plugin" not in {d["code"] for d in copied["diagnostics"]}
    # there, a sibling skill of the same root: works only with both installed
    assert _links(copied, "link-sibling") == {"../plugin-structure/SKILL.md": "warning"}
    assert "../plugin-structure/SKILL.md" not in _links(copied, "link-broken")


def test_codex_links_inside_a_plugin_are_not_broken(tmp_path: Path) -> None:
    from .helpers import lint_json

    _codex_plugins(tmp_path)
    (tmp_path / ".git").mkdir()
    write(
        tmp_path,
        ".agents/skills/plugin-dev/plugin-settings/SKILL.md",
        skill_text(
            name="plugin-settings",
            description="S.",
            _body="See [the structure](../plugin-structure/SKILL.md) and [x](../none.md).\n",
        ),
    )
    data = lint_json(str(tmp_path), "--profile", "codex")
    assert _links(data, "link-plugin") == {"../plugin-structure/SKILL.md": "info"}
    assert set(_links(data, "link-broken")) == {"../none.md"}


# -- commands ----------------------------------------------------------------------------
def _command(description: str, body: str = "Do it.\n") -> str:
    return f"---\ndescription: {description}\n---\n\n{body}"


def test_nested_and_plugin_commands_are_named_as_claude_code_names_them(tmp_path: Path) -> None:
    """Before: `.claude/commands/git/commit.md` and a plugin's `commands/*.md` were not
    read at all. Now `git/commit.md` is /git:commit, a plugin's `commands/x.md` is
    /plugin:x (folders joined by ':'), its manifest's `commands` paths add to them, and
    of a command and a skill with one name the skill wins."""
    from .helpers import cli, lint_json

    (tmp_path / ".git").mkdir()
    write(tmp_path, ".claude/commands/review.md", _command("Review the diff."))
    write(tmp_path, ".claude/commands/git/commit.md", _command("Commit.", "Commit $ARGUMENTS.\n"))
    write(tmp_path, ".claude/commands/git/.hidden/x.md", _command("Hidden."))
    write(tmp_path, ".claude/commands/git/notes.txt", "not a command\n")
    (tmp_path / ".claude/commands/git/loop").symlink_to(tmp_path / ".claude/commands")
    # a link out of the folder opened is not read (one inside it is, as any link is)
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    write(outside, "out.md", _command("Outside."))
    (tmp_path / ".claude/commands/away").symlink_to(outside)
    write(tmp_path, ".claude/commands/guide/SKILL.md", skill_text(description="A guide."))
    write(tmp_path, ".claude/commands/guide/reference.md", "# The guide's own notes\n")
    data = lint_json(str(tmp_path), "--profile", "claude-code")
    assert sorted(s["name"] for s in data["skills"]) == ["git:commit", "guide", "review"]
    run = cli("activate", "git:commit", "now", "--project", str(tmp_path))
    assert run.code == 0 and run.out == "Commit now.\n\n"

    kit = tmp_path / "kit"
    write(
        kit,
        ".claude-plugin/plugin.json",
        json.dumps({"name": "kit", "commands": ["./extra/deploy.md", "./more"]}),
    )
    write(kit, "commands/build.md", _command("Build."))
    write(kit, "commands/db/migrate.md", _command("Migrate."))
    write(kit, "commands/check.md", _command("The command."))
    write(kit, "skills/check/SKILL.md", skill_text(name="check", description="The skill."))
    write(kit, "extra/deploy.md", _command("Deploy."))
    write(kit, "more/release/tag.md", _command("Tag."))
    data = lint_json(str(kit), "--profile", "claude-code")
    statuses = {(s["name"], s["status"], s["path"].endswith("SKILL.md")) for s in data["skills"]}
    assert statuses == {
        ("kit:build", "active", False),
        ("kit:db:migrate", "active", False),
        ("kit:deploy", "active", False),
        ("kit:release:tag", "active", False),
        ("kit:check", "shadowed", False),
        ("kit:check", "active", True),
    }
    assert cli("activate", "kit:db:migrate", "--project", str(kit)).out == "Do it.\n\n"


def test_commands_load_only_where_the_agent_reads_commands(tmp_path: Path) -> None:
    """Before: `lint --profile all` said a legacy command "loads in pegasus, claude-code,
    codex"; neither pegasus nor Codex reads `.claude/commands`."""
    from .helpers import cli

    (tmp_path / ".git").mkdir()
    write(tmp_path, ".claude/commands/review.md", _command("Review the diff."))
    write(tmp_path, ".claude/skills/notes/SKILL.md", skill_text(name="notes", description="N."))
    run = cli("lint", str(tmp_path), "--profile", "all", "--format", "json")
    entries = {e["path"].rsplit("/", 2)[-2]: e for e in run.json["portability"]}
    assert entries["commands"]["loads"] == ["claude-code"]
    assert "not read by" in entries["commands"]["summary"]
    assert "codex" in entries["notes"]["loads"]  # a SKILL.md is judged as before
    show = cli("show", "review", "--project", str(tmp_path), "--profile", "claude-code")
    where = next(line for line in show.out.splitlines() if "as written" in line)
    assert "loads in claude-code; not read by" in where and "rejected by" not in where
    assert "codex" in where.split("not read by")[1]


# -- overlap in lint ---------------------------------------------------------------------
def test_lint_has_one_overlap_note_per_skill_and_overlap_lists_every_pair(tmp_path: Path) -> None:
    """Before: one `description-overlap` per pair and skill (4 copies: 12 notes; an 838-skill
    marketplace: 12,934). Now one per skill: its strongest rival and how many others."""
    from .helpers import cli

    text = "Turn meeting recordings into minutes with decisions, owners and due dates."
    names = ["minutes-alpha", "minutes-beta", "minutes-gamma", "minutes-delta"]
    for name in names:
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description=text))
    write(tmp_path, "skills/tax/SKILL.md", skill_text(name="tax", description="File taxes."))
    lint = cli("lint", "skills", "--profile", "agentskills", "--format", "json", cwd=tmp_path)
    notes = [d for d in lint.json["diagnostics"] if d["code"] == "description-overlap"]
    assert sorted(d["skill"] for d in notes) == sorted(names)
    for note in notes:
        assert "is the same text as" in note["message"]
        assert "and 2 other skills (`skillstudio overlap` lists them)" in note["message"]
    pairs = cli("overlap", "skills", "--profile", "agentskills", "--format", "json", cwd=tmp_path)
    assert len(pairs.json["pairs"]) == 6


def test_new_skills_go_where_the_agent_loads_them_not_in_the_plugin_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """File › New Skill's places (core): a plugin's `skills/` and its manifest's extra
    skills folder; never the plugin folder, a commands folder or the machine's folders."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    write(tmp_path / "home", ".claude/skills/mine/SKILL.md", skill_text(name="mine"))
    manifest = {"name": "demo", "skills": ["./extra-skills", "./one/solo"]}
    write(tmp_path, "repo/.claude-plugin/plugin.json", json.dumps(manifest))
    write(tmp_path, "repo/skills/alpha/SKILL.md", skill_text(name="alpha"))
    write(tmp_path, "repo/extra-skills/beta/SKILL.md", skill_text(name="beta"))
    write(tmp_path, "repo/one/solo/SKILL.md", skill_text(name="solo"))
    write(tmp_path, "repo/.claude/commands/go.md", "Go.\n")
    project = project_from_folder(str(tmp_path / "repo"), "claude-code")
    places = new_skill_places(project.profile, project.roots)
    repo = tmp_path / "repo"
    assert [p.folder for p in places] == [str(repo / "skills"), str(repo / "extra-skills")]
    assert {p.loaded_by for p in places} == {"claude-code in plugin:demo"}
    assert place_of(places, str(repo / "skills/")) is places[0]
    assert place_of(places, str(repo)) is None


def test_new_skills_places_name_only_the_agents_that_load_them(tmp_path: Path) -> None:
    """Issue 43: a plugin folder with no manifest was offered as '(claude-code,
    plugins/agent-teams/skills)' where Where it loads and `show` say Claude Code does
    not load it; each place names the agents `agent_reach` finds a skill there for."""
    repo = tmp_path / "repo"
    write(repo, ".claude/skills/a/SKILL.md", skill_text(name="a", description="A."))
    write(repo, "plugins/agent-teams/skills/lead/SKILL.md", skill_text(name="lead"))
    project = project_from_folder(str(repo), "claude-code")
    places = place_loaders(new_skill_places(project.profile, reversed(project.roots)))
    by_folder = {Path(p.folder).relative_to(repo).as_posix(): p for p in places}
    assert by_folder["plugins/agent-teams/skills"].loaded_by == "no agent"
    assert by_folder[".claude/skills"].loaded_by.startswith("claude-code, ")
    assert by_folder[".claude/skills"].loaded_by.endswith(" in project")
    registry = project.registry()
    registry.scan()
    for place in places:  # the same answer as Where it loads for a skill already there
        skill = next(s for s in registry.skills if Path(s.path).parent.parent == Path(place.folder))
        found = [
            r.agent for r in agent_reach(skill, str(repo)) if r.found and r.agent != "agentskills"
        ]
        assert list(place.agents or ()) == found, place.folder
