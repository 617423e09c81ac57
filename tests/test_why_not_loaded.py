"""Why not X, when the agent does not load X, or loads it in spite of an error
(ranking/explanations.py: not_loaded, error_note, why_not)."""

from __future__ import annotations

from typing import Any

from skillstudio.core.projects.project import project_from_folder
from skillstudio.core.ranking.estimate import likely_text
from skillstudio.core.ranking.explanations import error_note, not_loaded, why_not
from skillstudio.core.ranking.likely_index import LikelyIndex
from skillstudio.core.ranking.likely_ranking import likely
from skillstudio.core.ranking.matching import match
from skillstudio.core.scanning.registry import Registry
from tests.helpers import skill_text, write

LONG = "Reviews SQL queries and migrations for correctness and locking risks. " * 17


def registry_of(tmp_path: Any, profile: str, skills: dict[str, str]) -> Registry:
    for name, description in skills.items():
        write(tmp_path, f"skills/{name}/SKILL.md", skill_text(name=name, description=description))
    registry = project_from_folder(str(tmp_path / "skills"), profile).registry()
    registry.scan()
    return registry


def test_a_skill_with_an_empty_description_is_said_not_loaded_before_any_word(
    tmp_path: Any,
) -> None:
    skills = {"api-review": "", "changelog": "Write the changelog of a pull request."}
    for profile in ("codex", "agentskills"):
        registry = registry_of(tmp_path / profile, profile, skills)
        result = match(registry, "review my pull request")
        why = why_not(result, registry, "api-review")
        agent = registry.profile.the_agent
        assert why.startswith(f"{agent} does not load api-review: its 'description'"), why
        assert "empty" in why  # the error that skips it, not only "cannot be used"
        assert "api-review" not in [c.name for c in likely(registry, "review").candidates]
        assert not_loaded(registry, "changelog") is None


def test_an_over_long_description_under_agentskills_is_ranked_and_its_error_said(
    tmp_path: Any,
) -> None:
    registry = registry_of(tmp_path, "agentskills", {"sql-review": LONG.strip()})
    skill = registry.get("sql-review")
    assert skill is not None and skill.status == "active"
    assert not_loaded(registry, "sql-review") is None
    assert [c.name for c in likely(registry, "review sql").candidates] == ["sql-review"]
    note = error_note(registry.profile.name, skill)
    assert note is not None
    assert note.startswith("agentskills rejects sql-review: 'description' is 1189 characters")
    assert "still listed and ranked" in note


def test_why_not_leads_with_the_error_a_ranked_skill_loads_in_spite_of(tmp_path: Any) -> None:
    registry = registry_of(tmp_path, "agentskills", {"sql-review": LONG.strip()})
    why = why_not(match(registry, "review my pull request"), registry, "sql-review")
    assert why.startswith("agentskills rejects sql-review: 'description' is 1189 characters")
    assert "selects only on explicit invocation" in why


def test_match_marks_a_likely_skill_ranked_in_spite_of_an_error(tmp_path: Any) -> None:
    registry = registry_of(
        tmp_path, "agentskills", {"sql-review": LONG.strip(), "lint": "Lint SQL files."}
    )
    ranked = likely(registry, "review sql migrations")
    by_name = {c.name: c.to_json() for c in ranked.candidates}
    assert by_name["sql-review"]["error"].startswith("'description' is 1189 characters")
    assert "error" not in by_name.get("lint", {})
    text = likely_text(ranked)
    assert "error, still listed and ranked: 'description' is 1189 characters" in text


def test_a_skill_kept_out_of_the_listing_is_never_the_models_likely_pick(tmp_path: Any) -> None:
    """A user-only skill (pegasus's disable-model-invocation) is not listed to the model,
    so it cannot be its pick: the likely ranking left it in ("deploy" likely for a
    deploy request). Made model-invocable by an edit, it is ranked again."""
    write(
        tmp_path,
        "skills/deploy/SKILL.md",
        skill_text(
            name="deploy",
            description="Deploy the app to production with a rollback plan.",
            **{"disable-model-invocation": True},
        ),
    )
    write(
        tmp_path,
        "skills/notes/SKILL.md",
        skill_text(name="notes", description="Write release notes for the app."),
    )
    registry = project_from_folder(str(tmp_path / "skills"), "pegasus").registry()
    registry.scan()
    assert registry.profile.listing_omission(registry.active["deploy"]) is not None
    index = LikelyIndex(registry)
    request = "deploy the app to production"
    assert "deploy" not in [c.name for c in likely(registry, request, index=index).candidates]
    path = registry.active["deploy"].path
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    assert "disable-model-invocation: true" in text
    registry.reparse(path, text.replace("disable-model-invocation: true", "version: 1"))
    index.sync()  # the edit reaches the index kept current per skill
    assert likely(registry, request, index=index).candidates[0].name == "deploy"
    registry.reparse(path, text)  # and back: out again
    index.sync()
    assert "deploy" not in [c.name for c in likely(registry, request, index=index).candidates]
