"""Tests of gui/models/skill_tree_model.py (SkillTreeModel: projects' roots → skills →
supporting files, over core registries)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from skillstudio.core.projects.project import project_from_folder, projects_for_path
from skillstudio.gui.models import skill_tree_model
from skillstudio.gui.models.skill_tree_model import KIND_ROLE, PATH_ROLE, SkillTreeModel
from skillstudio.gui.window.main_window import MainWindow

from ...benchmarks.synth import generate
from ...helpers import SAMPLES, skill_text, write
from ..parts import TreeParts, skill_names, skill_path


def test_a_root_row_tooltip_starts_with_its_full_path(tree_parts: TreeParts) -> None:
    model = tree_parts.tree_model
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        tip = index.data(Qt.ItemDataRole.ToolTipRole)
        assert tip.split("\n")[0] == index.data(PATH_ROLE) and os.path.isabs(tip.split("\n")[0])


def test_tree_model_passes_qtmodeltester(qapp: object, qtmodeltester: object) -> None:
    projects = projects_for_path(SAMPLES, None)
    registries = []
    for project in projects:
        registry = project.registry()
        registry.scan()
        registries.append(registry)
    model = SkillTreeModel()
    model.set_registries(registries, [p.base for p in projects])
    skill = model.index(0, 0, model.index(0, 0))
    model.fetchMore(skill)
    qtmodeltester.check(model)  # type: ignore[attr-defined]
    roots = [model.index(r, 0) for r in range(model.rowCount())]
    assert len(roots) == 24  # the samples' roots: 14 over the eight first profiles, one per agent
    labels = [r.data() for r in roots]
    assert "pegasus · data/skills · user · wins over builtin" in labels
    assert "pegasus · skills · builtin · yields to user" in labels
    # nothing shadows in codex: its roots get no precedence words
    assert {"codex · .agents/skills · repository", "codex · home/.agents/skills · user"} <= set(
        labels
    )


def test_filtered_tree_passes_qtmodeltester(
    tree_parts: TreeParts, qtbot: QtBot, qtmodeltester: object
) -> None:
    tree_parts.tree_model.set_filter("review")
    assert set(skill_names(tree_parts)) == {
        "code-review",
        "sql-review",
        "review-kit:security-review",
        "review-kit:style-review",
        "api-review",
    }
    qtmodeltester.check(tree_parts.tree_model)  # type: ignore[attr-defined]


def test_tree_sync_repaints_only_the_rows_that_changed(qapp: object) -> None:
    """After a refresh, dataChanged covers the re-read skills only: on main it covered
    every row of every root, and a tree view asks hasChildren of each row in a range
    (at 10,000 skills, 50-100 ms per file changed on disk)."""
    projects = projects_for_path(SAMPLES, None)
    registries = []
    for project in projects:
        registry = project.registry()
        registry.scan()
        registries.append(registry)
    bases = [p.base for p in projects]
    model = SkillTreeModel()
    model.set_registries(registries, bases)
    ranges: list[tuple[str, int, int]] = []
    model.dataChanged.connect(
        lambda first, last, *_: ranges.append((first.parent().data(), first.row(), last.row()))
    )
    registry = next(r for r in registries if r.profile.name == "oasis")
    path = next(s.path for s in registry.skills if s.name == "commit")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    registry.reparse(path, text.replace("id: commit", "id: commit-helper"))
    assert model.sync(registries, bases)  # the rows stay; one changed
    row = model.index_of(path)
    assert [(r[1], r[2]) for r in ranges] == [(row.row(), row.row())]
    assert ranges[0][0] == row.parent().data()
    assert row.data() == "commit-helper"
    ranges.clear()
    assert model.sync(registries, bases)
    assert ranges == []  # nothing re-read, nothing repainted


def test_a_large_root_is_handed_to_the_tree_a_page_at_a_time(
    tmp_path: Path, qtbot: QtBot, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tree view lays out every row of a root it opens: at 10,000 skills opening the
    root took 110-370 ms. The view gets ROOT_PAGE skills, the next page as the user
    scrolls to the last; a skill asked for by path (the current tab) is handed over."""
    monkeypatch.setattr(skill_tree_model, "ROOT_PAGE", 40)  # (1,000: pages of 40 here)
    page = skill_tree_model.ROOT_PAGE
    generate(str(tmp_path), page * 2 + 15)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(900, 600)
    win.show()
    with qtbot.waitSignal(win.scan_finished, timeout=60_000):
        assert win.open_path(str(tmp_path))
    model, tree = win.tree_model, win.tree
    root = model.index(0, 0)
    assert model.skill_count(root) == page * 2 + 15
    assert model.rowCount(root) == page  # (expanded: under AUTO_EXPAND_MAX)
    assert tree.isExpanded(root) and not model.canFetchMore(root)
    for _ in range(3):  # the user scrolls to the end, twice
        tree.scrollToBottom()
        qtbot.wait(20)
    qtbot.waitUntil(lambda: model.rowCount(root) == page * 2 + 15)
    assert not model.more_skills(root)
    model.set_filter("x")
    model.set_filter("")  # rows handed over again from the first page
    assert model.rowCount(root) == page
    last = sorted(
        s.path for s in win.context.registries[0].skills if s.root.path == root.data(PATH_ROLE)
    )
    index = model.index_of(last[-1])
    assert index.isValid() and index.row() == page * 2 + 14 and model.rowCount(root) > index.row()


def test_a_tree_shown_as_the_registries_are_is_not_walked_again(qapp: object) -> None:
    """A refresh syncs the tree in a slice of its own, then the views' update asks
    again: with no registry changed since, the 10,000 rows are not compared again."""
    project = projects_for_path(SAMPLES, None)[0]
    registry = project.registry()
    registry.scan()
    model = SkillTreeModel()
    model.set_registries([registry], [project.base])
    assert model.sync([registry], [project.base])

    class Unread(list[Any]):
        def __iter__(self) -> Any:
            raise AssertionError("the skills were walked again")

    shown = registry.skills
    registry.skills = Unread(shown)
    assert model.sync([registry], [project.base])  # nothing moved: nothing to do
    registry.skills = shown
    registry.reparse(shown[0].path)  # a change moves the version: synced again
    assert model.sync([registry], [project.base])
    assert model._by_path[shown[0].path].skill is registry.by_path[shown[0].path]


def test_a_tree_sync_reads_the_skills_in_one_pass(qapp: object) -> None:
    """A burst's tree update compared the rows with three passes over the 10,000
    skills (15-20 ms at 10,000, with the repaint after it 45 ms): one pass finds
    both whether the rows stay and which skills were re-read."""
    project = projects_for_path(SAMPLES, None)[0]
    registry = project.registry()
    registry.scan()
    model = SkillTreeModel()
    model.set_registries([registry], [project.base])
    passes = [0]

    class Counted(list[Any]):
        def __iter__(self) -> Any:
            passes[0] += 1
            return super().__iter__()

    changed = registry.skills[1].path
    registry.reparse(changed)
    registry.skills = Counted(registry.skills)
    changes: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda first, last: changes.append((first.row(), last.row())))
    assert model.sync([registry], [project.base])
    assert passes[0] == 1
    assert model._by_path[changed].skill is registry.by_path[changed]
    assert len(changes) == 1
    registry.skills = Counted(registry.skills[:-1])  # a skill gone: the rows built again
    registry.version += 1
    assert not model.sync([registry], [project.base])
    assert registry.skills[-1].path in model._by_path


def test_a_plain_folder_root_is_named_after_the_folder(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "team-pdf"
    for name in ("pdf-filler", "pdf-reader"):
        write(folder, f"{name}/SKILL.md", skill_text(name=name, description=f"Use {name}."))
    win = TreeParts(qtbot, folder)
    labels = [win.tree_model.index(r, 0).data() for r in range(win.tree_model.rowCount())]
    assert labels and "root" not in labels[0].split(" · ")[0], labels
    assert labels[0].startswith("team-pdf"), labels


def test_plugins_are_listed_a_to_z(qtbot: QtBot, samples: Path) -> None:
    project = samples / "claude-code"
    shutil.copytree(project / "plugins" / "review-kit", project / "plugins" / "zeta-kit")
    manifest = project / "plugins" / "zeta-kit" / ".claude-plugin" / "plugin.json"
    manifest.write_text(json.dumps({"name": "zeta-kit", "description": "Z."}))
    market = project / ".claude-plugin" / "marketplace.json"
    data = json.loads(market.read_text())
    data["plugins"].append({"name": "zeta-kit", "source": "./plugins/zeta-kit"})
    market.write_text(json.dumps(data))
    win = TreeParts(qtbot, project)
    labels = [win.tree_model.index(r, 0).data() for r in range(win.tree_model.rowCount())]
    plugins = [label for label in labels if label.startswith("plugin:")]
    assert len(plugins) == 2, labels
    assert plugins == sorted(plugins), labels


def test_an_asset_folder_is_one_closed_row(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "skills"
    write(folder, "canvas/SKILL.md", skill_text(name="canvas", description="Draw posters."))
    for number in range(30):
        write(folder, f"canvas/fonts/Font-{number:02}-Regular.ttf", "x")
    write(folder, "canvas/LICENSE.txt", "x")
    win = TreeParts(qtbot, folder)
    model = win.tree_model
    root = model.index(0, 0)
    skill = model.index(0, 0, root)
    win.tree.expand(skill)
    qtbot.waitUntil(lambda: model.rowCount(skill) > 0, timeout=3000)
    rows = [
        (model.index(r, 0, skill).data(), model.index(r, 0, skill).data(KIND_ROLE))
        for r in range(model.rowCount(skill))
    ]
    assert rows == [("fonts/", "folder"), ("LICENSE.txt", "file")], rows
    fonts = model.index(0, 0, skill)
    assert not win.tree.isExpanded(fonts)
    assert model.rowCount(fonts) == 30
    assert model.index(0, 0, fonts).data() == "Font-00-Regular.ttf"


def _root_labels(folder: str) -> tuple[list[str], dict[str, str]]:
    """The tree's root labels for a folder, and each skill's status by path."""
    projects = projects_for_path(folder, None)
    registries = []
    for project in projects:
        registry = project.registry()
        registry.scan()
        registries.append(registry)
    model = SkillTreeModel()
    model.set_registries(registries, [p.base for p in projects])
    labels = [model.index(r, 0).data() for r in range(model.rowCount())]
    status: dict[str, str] = {s.path: str(s.status) for r in registries for s in r.skills}
    return labels, status


def test_collections_neither_yield_to_nor_win_over_each_other(qapp: object, tmp_path: Path) -> None:
    """Issue 38: two collections of a repository were labelled "yields to / wins over"
    each other although collections never shadow each other and both skills are active.
    Only the roots of one agent's precedence order get the words."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for collection in ("composio-skills", "document-skills"):
        text = skill_text(name="pdf", description=f"Reads PDF files for {collection}.")
        write(repo, f"{collection}/pdf/SKILL.md", text)
    labels, status = _root_labels(str(repo))
    assert len(labels) == 2 and not any("wins over" in x or "yields to" in x for x in labels)
    assert set(status.values()) == {"active"} and len(status) == 2
    # beside an agent's own folders (.claude/skills and a personal one would shadow):
    # the collections still get no words, and are named in nobody's
    write(repo, ".claude/skills/notes/SKILL.md", skill_text(name="notes", description="N."))
    labels, status = _root_labels(str(repo))
    assert set(status.values()) == {"active"} and len(status) == 3
    assert not any("composio" in x.split(" · ")[-1] for x in labels if "wins over" in x)
    words = [x for x in labels if "composio" in x or "document" in x]
    assert len(words) == 2 and not any("wins over" in x or "yields to" in x for x in words)


def test_the_tree_of_a_catalogue_holds_every_skill(qapp: object, tmp_path: Path) -> None:
    """Issue 38's author's view in the app: a catalogue of categories beside the
    repository's `.claude/commands` (tests/data/i38_catalogue) shows every skill, each
    category a root; on main the tree held the one command."""
    data = Path(__file__).parents[2] / "data" / "i38_catalogue" / "templates"
    repo = tmp_path / "templates"
    shutil.copytree(data, repo)
    labels, status = _root_labels(str(repo))
    assert len(status) == 7 and set(status.values()) == {"active"}
    assert len(labels) == 6  # the commands and five folders of skill folders
    categories = [x for x in labels if "commands" not in x]
    assert not any("wins over" in x or "yields to" in x for x in categories)


def test_skills_are_listed_by_the_name_shown_case_insensitive_numbers_by_value(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """The scan goes by folder; the rows go by the name they show (a folder `b-…`
    named `alpha` came after `a-…` named `zeta`), `Beta` among the lower case,
    `step-2` before `step-10`."""
    folder = tmp_path / "team"
    for rel, name in (
        ("a-tool", "zeta-tool"),
        ("b-tool", "alpha-tool"),
        ("c-tool", "Beta-tool"),
        ("d-tool", "step-10"),
        ("e-tool", "step-2"),
    ):
        text = skill_text(name=name, description="Use it.")
        write(folder, f".agents/skills/{rel}/SKILL.md", text)
    parts = TreeParts(qtbot, folder)
    assert skill_names(parts) == ["alpha-tool", "Beta-tool", "step-2", "step-10", "zeta-tool"]


def test_a_refresh_keeps_the_rows_of_collections_listed_a_to_z(
    qapp: object, tmp_path: Path
) -> None:
    """The tree lists a repository's collections A to Z; its sync compared the rows
    with the roots in precedence order, found them "moved" and built every row again
    at each change (a model reset: the view's selection, scroll and open roots lost,
    and at 10,000 skills a full layout per file saved)."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    for collection in ("alpha-skills", "beta-skills", "gamma-skills"):
        text = skill_text(name="pdf", description=f"Reads PDF files for {collection}.")
        write(repo, f"{collection}/pdf/SKILL.md", text)
    projects = projects_for_path(str(repo), None)
    registries = []
    for project in projects:
        registry = project.registry()
        registry.scan()
        registries.append(registry)
    bases = [p.base for p in projects]
    model = SkillTreeModel()
    model.set_registries(registries, bases)
    labels = [model.index(r, 0).data() for r in range(model.rowCount())]
    assert labels == sorted(labels, key=str.lower) and len(labels) == 3
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    path = str(repo / "beta-skills" / "pdf" / "SKILL.md")
    registry = next(r for r in registries if path in r.by_path)
    registry.reparse(path, skill_text(name="pdf", description="Reads and fills PDF forms."))
    assert model.sync(registries, bases) and resets == []
    assert model._by_path[path].skill is registry.by_path[path]


@pytest.mark.parametrize(("profile", "disabled"), [("cursor", True), ("gemini", False)])
def test_a_skill_the_agent_keeps_from_the_model_has_the_disabled_icon(
    qapp: object, samples: Path, profile: str, disabled: bool
) -> None:
    """`disable-model-invocation: true` in the cursor sample: Cursor keeps it out of the
    listing (the tree says so, as tier 2 does), Gemini CLI ignores the field."""
    project = samples / "cursor"
    (project / "skillstudio.yaml").write_text(f"profile: {profile}\nroots: [.cursor/skills]\n")
    found = project_from_folder(str(project))
    registry = found.registry()
    registry.scan()
    model = SkillTreeModel()
    model.set_registries([registry], [found.base])
    tips = {Path(path).parent.name: model._tooltip(node) for path, node in model._by_path.items()}
    story = tips["component-story"].splitlines()
    assert story[0].startswith("component-story — disabled") is disabled, story
    assert ("disable-model-invocation: true" in tips["component-story"]) is disabled
    assert "disabled" not in tips["css-cleanup"].splitlines()[0]


def shown_paths(model: SkillTreeModel) -> set[str]:
    return {
        model.index(row, 0, model.index(top, 0)).data(PATH_ROLE)
        for top in range(model.rowCount())
        for row in range(model.rowCount(model.index(top, 0)))
    }


@pytest.mark.parametrize("text", ["zzqx-none", "review", "e"])
def test_a_filtered_tree_follows_a_change_an_add_and_a_delete_on_disk(
    window: MainWindow, samples: Path, qtbot: QtBot, text: str
) -> None:
    """With a filter that hid every root ("zzz"), a change on disk failed the refresh
    (IndexError: the roots left out kept the count of rows they showed before) and the
    views stayed stale until F5; with one that hid some roots, after a save too."""
    model = window.tree_model
    window.filter_box.setText(text)
    qtbot.waitUntil(lambda: model.filter_text == text, timeout=3000)
    every = {s.path for r in window.context.registries for s in r.skills}
    matched = shown_paths(model)
    # the filter matches none, some (leaving roots out), all of the samples' skills
    assert len(matched) == {"zzqx-none": 0, "review": 7, "e": len(every)}[text]

    def refreshed(change: Callable[[], object]) -> None:
        with qtbot.waitSignal(window.refresh_finished, timeout=10_000):
            change()
        assert not [d.message for d in window.problems_model.shown() if d.code == "internal"]

    path = skill_path(samples, "sql-review")
    refreshed(lambda: path.write_text(path.read_text().replace("correctness", "bugs")))
    assert shown_paths(model) == matched
    if text != "e":  # a skill in a root the filter leaves out (the reviewer's save)
        shown_roots = {model.index(top, 0).data(PATH_ROLE) for top in range(model.rowCount())}
        hidden = next(
            Path(s.path)
            for r in window.context.registries
            for s in r.skills
            if s.root.path not in shown_roots
        )
        refreshed(lambda: hidden.write_text(hidden.read_text() + "\nMore.\n"))
        assert shown_paths(model) == matched
    registry = window.context.registry_for(str(path))
    assert registry is not None and "for bugs" in registry.by_path[str(path)].description
    added = samples / "mvp/skills/review-newest/SKILL.md"
    added.parent.mkdir()
    refreshed(lambda: added.write_text(skill_text(name="review-newest", description="Reviews e.")))
    expect = matched | ({str(added)} if text != "zzqx-none" else set())
    assert shown_paths(model) == expect
    refreshed(added.unlink)
    assert shown_paths(model) == matched
    window.filter_box.clear()
    qtbot.waitUntil(lambda: model.filter_text == "", timeout=3000)
    assert shown_paths(model) == every


def test_a_roots_label_names_its_folder_in_every_profile(qapp: object, tmp_path: Path) -> None:
    """The tree's root was "project" under claude-code and ".claude/skills" under codex,
    agentskills or gemini: the same folder, two names, flipping with the profile."""
    write(
        tmp_path / "shop/.claude/skills",
        "deploy/SKILL.md",
        skill_text(name="deploy", description="Deploys."),
    )
    labels = {}
    for profile in ("claude-code", "codex", "agentskills", "gemini", "cursor"):
        projects = projects_for_path(str(tmp_path / "shop"), profile)
        registries = [p.registry() for p in projects]
        for registry in registries:
            registry.scan()
        roots, _ = skill_tree_model.tree_nodes(registries, [p.base for p in projects])
        labels[profile] = [root.label for root in roots]
    assert all(found == [found[0]] for found in labels.values()), labels
    assert {found[0].split(" · ")[0] for found in labels.values()} == {".claude/skills"}
    assert labels["claude-code"] == [".claude/skills · project"]  # and the agent's word
