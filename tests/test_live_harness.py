"""The harness's own rules in live checks (issue 37): `/name`, `$name` and `use <name>
skill` are resolved as the agent's harness resolves them, with no model call (the fake
server counts the requests); a nested name is credited as listed (`apps/web:deploy`);
a Codex read counts only as a read command of a listed SKILL.md's exact path; Gemini
CLI's `activate_skill` names an enum of the listed names, and no skill tool is declared
beside an empty listing. Nothing here reaches a network (tests/live_fake.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.planning import NothingToAsk, Settings, plan
from skillstudio.core.live.questions import STYLES, Question, body
from skillstudio.core.live.run import execute
from skillstudio.core.live.stats import LiveCase, Rule
from skillstudio.core.projects.project import resolve_projects
from skillstudio.core.scanning.registry import Registry

from .helpers import cli, skill_text, write
from .live_fake import FakeModel, Script
from .test_claude_settings import monorepo
from .test_live import registry_for, settings


def registry_at(base: Path, roots: list[str], profile: str | None) -> Registry:
    project = resolve_projects([] if roots else [str(base)], roots, None, profile, str(base))[0]
    registry = project.registry()
    registry.scan()
    return registry


# -- /name, $name, use <name> skill: the harness's, never sent --------------------------
def test_explicit_requests_are_resolved_by_the_harness_without_a_model_call(
    tmp_path: Path,
) -> None:
    """On main `/pdf-forms T-12` was put to the model: 3 calls, and a model that
    answered in prose failed a request Claude Code expands itself."""
    registry, _ = registry_for(tmp_path, "claude-code")
    cases = [
        LiveCase("/pdf-forms T-12", ["pdf-forms"]),
        LiveCase("please use the code-review skill on this diff", ["code-review"]),
        LiveCase("fill in the tax form", ["pdf-forms"]),
        LiveCase("/tmp is full, clean it up", []),  # names no skill: asked as written
    ]
    with FakeModel([("text", "I would use the pdf-forms skill.")]) as fake:
        checked = plan(registry, cases, settings(fake.url, "anthropic", runs=3), {})
        assert checked.calls == 6 and checked.to_json()["harness"] == 2
        assert [item.harness for item in checked.items] == [
            "pdf-forms",
            "code-review",
            None,
            None,
        ]
        report = execute(checked)
    assert len(fake.received) == 6  # 2 requests x 3 runs; the explicit ones never sent
    sent = [json.loads(raw)["messages"][-1]["content"][-1]["text"] for _, _, raw in fake.received]
    assert sorted(set(sent)) == ["/tmp is full, clean it up", "fill in the tax form"]
    explicit, used, asked, slash = report.results
    assert [(a.pick, a.harness, a.cached) for a in explicit.answers] == [
        ("pdf-forms", True, False)
    ] * 3
    assert explicit.passed(Rule()) and used.passed(Rule())  # 3 of 3 answered runs
    assert all(a.pick == "code-review" and a.harness for a in used.answers)
    assert [(a.pick, a.harness) for a in asked.answers] == [(None, False)] * 3
    assert not any(a.harness for a in slash.answers)
    data = report.to_json()
    assert data["harness_runs"] == 6
    assert [r["harness"] for r in data["cases"][0]["runs"]] == [True] * 3
    assert data["tokens"]["input"] == 6 * 120  # only the runs asked report tokens


def test_codex_dollar_name_selects_a_skill_kept_out_of_the_listing_without_a_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`$deploy` of an `allow_implicit_invocation: false` skill: Codex injects it; on
    main it was put to a model that never sees the skill, so it could never pass (and a
    project holding only such skills was refused as having nothing to ask)."""
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    write(
        tmp_path,
        ".agents/skills/deploy/SKILL.md",
        skill_text(name="deploy", description="Ship it."),
    )
    write(
        tmp_path,
        ".agents/skills/deploy/agents/openai.yaml",
        "policy:\n  allow_implicit_invocation: false\n",
    )
    registry = registry_at(tmp_path, [".agents/skills"], "codex")
    with FakeModel([("text", "ok")]) as fake:
        s = settings(fake.url, runs=3)
        checked = plan(registry, [LiveCase("$deploy to staging", ["deploy"])], s, {})
        assert checked.calls == 0
        report = execute(checked)
        assert fake.received == []
        offline = Settings(s.endpoint, s.model, runs=3, offline=True)
        replayed = execute(plan(registry, [LiveCase("$deploy", ["deploy"])], offline, {}))
        with pytest.raises(NothingToAsk):  # a request for the model: nothing listed to ask
            plan(registry, [LiveCase("ship it to staging", ["deploy"])], s, {})
    assert report.results[0].passed(Rule()) is True
    assert [a.pick for a in report.results[0].answers] == ["deploy"] * 3
    assert not any(a.error for a in replayed.results[0].answers)  # no cache needed


def test_eval_reports_a_harness_resolved_request_in_text_and_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    registry_for(tmp_path, "claude-code")
    with FakeModel([("text", "ok")]) as fake:
        ask = ["eval", "--request", "/pdf-forms T-12", "--expect", "pdf-forms"]
        ask += ["--endpoint", fake.url, "--model", "m", "--runs", "3"]  # (a verdict needs 3)
        text = cli(*ask, cwd=tmp_path)  # no --yes and no terminal: fine, nothing to send
        data = cli(*ask, "--format", "json", cwd=tmp_path)
        assert fake.received == []
    assert text.code == 0, text.err
    assert "About to send" not in text.err
    assert "resolved by the harness, no model call" in text.out
    assert "3 by the harness" in text.out
    assert data.code == 0, data.err
    (report,) = data.json["reports"]
    assert report["harness_runs"] == 3 and report["passed"] == 1
    assert [r["harness"] for r in report["cases"][0]["runs"]] == [True] * 3


# -- nested names: credited as listed ---------------------------------------------------
def test_a_nested_name_is_credited_as_the_listing_shows_it(tmp_path: Path) -> None:
    """The listing shows `apps/web:deploy`; on main that answer was `unlisted`."""
    repo = monorepo(tmp_path)
    registry = registry_at(repo, [], "claude-code")
    script: Script = [
        ("tool", "Skill", {"skill": "apps/web:deploy"}),
        ("tool", "Skill", {"skill": "deploy"}),
        ("tool", "Skill", {"skill": "apps/api:deploy"}),
    ]
    case = LiveCase("deploy the web app", ["apps/web:deploy"])
    with FakeModel(script) as fake:
        checked = plan(registry, [case], settings(fake.url, "anthropic", runs=3, concurrency=1))
        assert "- apps/web:deploy:" in checked.items[0].question.listing
        report = execute(checked)
    answers = report.results[0].answers
    assert [(a.pick, a.unlisted) for a in answers] == [
        ("apps/web:deploy", False),
        ("deploy", False),
        ("apps/api:deploy", True),  # no such entry in the listing
    ]
    assert report.results[0].hits == 1


# -- Codex reads: a read command of a listed SKILL.md's exact path ------------------------
def test_codex_credits_only_a_read_of_the_exact_listed_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On main a read of `b/review/SKILL.md` was credited to the first skill whose
    folder is `review`, and `ls <path>` and `SKILL.md.bak` counted as reads."""
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    base = tmp_path / "p"
    write(base, ".agents/skills/a/review/SKILL.md", skill_text(name="review", description="Code."))
    write(base, ".agents/skills/b/review/SKILL.md", skill_text(name="docs", description="Docs."))
    registry = registry_at(base, [".agents/skills"], "codex")
    a = str(base / ".agents/skills/a/review/SKILL.md")
    b = str(base / ".agents/skills/b/review/SKILL.md")
    system = str(tmp_path / "codex-home/skills/.system/skill-creator/SKILL.md")
    calls: list[tuple[Any, str | None]] = [
        ({"command": ["cat", b]}, "docs"),
        ({"command": ["bash", "-lc", f"cd /tmp && sed -n '1,200p' '{a}' | head -50"]}, "review"),
        ({"command": f"head -n 40 {b}"}, "docs"),  # shell_command: a command line
        ({"cmd": f"FOO=1 cat {a}"}, "review"),  # exec_command
        ({"command": ["sed", "-n", "1,80p", "review/SKILL.md"], "workdir": str(b)[:-15]}, "docs"),
        ({"command": ["ls", "-la", a]}, None),
        ({"command": ["cat", a + ".bak"]}, None),
        ({"command": ["cat", "review/SKILL.md"]}, None),  # relative to nothing known
        ({"command": ["echo", a]}, None),
        ({"command": ["rg", "review", b]}, None),
        ({"command": ["bash", "-lc", "cat 'unclosed"]}, None),
        ({"command": ["cat", system]}, "skill-creator"),  # Codex's own, listed
    ]
    script: Script = [("tool", "shell", arguments) for arguments, _ in calls]
    with FakeModel(script) as fake:
        s = settings(fake.url, runs=len(calls), concurrency=1)
        checked = plan(registry, [LiveCase("review this", ["review"])], s, {})
        assert a in checked.items[0].question.listing and b in checked.items[0].question.listing
        report = execute(checked)
    assert [x.pick for x in report.results[0].answers] == [want for _, want in calls]


# -- Gemini CLI's activate_skill: an enum, and no tool beside no skill --------------------
def test_activate_skill_names_an_enum_of_the_listed_names(tmp_path: Path) -> None:
    """On main its `name` was a free string, so a ghost name could be answered (and
    counted as a wrong pick) where Gemini CLI's enum allows none."""
    from skillstudio.core.profiles.gemini.listing import activate_skill_declaration

    registry, _ = registry_for(tmp_path, "agentskills")
    with FakeModel([("tool", "activate_skill", {"name": "pdf-forms"})]) as fake:
        for api in ("openai", "anthropic"):
            report = execute(
                plan(
                    registry,
                    [LiveCase("fill a pdf", ["pdf-forms"])],
                    settings(fake.url, api, runs=1),
                )
            )
            assert report.results[0].answers[0].pick == "pdf-forms"
    openai, anthropic = (json.loads(raw) for _, _, raw in fake.received)
    declared = activate_skill_declaration(["code-review", "pdf-forms"])
    (tool,) = openai["tools"]
    assert tool["function"]["name"] == "activate_skill"
    assert tool["function"]["parameters"] == declared["parametersJsonSchema"]
    assert tool["function"]["parameters"]["properties"]["name"]["enum"] == [
        "code-review",
        "pdf-forms",
    ]
    assert tool["function"]["description"] == declared["description"]
    assert anthropic["tools"][0]["input_schema"] == declared["parametersJsonSchema"]


@pytest.mark.parametrize("style", ["activate-skill", "skill-tool", "use-skill"])
def test_no_skill_tool_is_declared_beside_an_empty_listing(style: str) -> None:
    from skillstudio.core.live.endpoints import endpoint_for

    empty = Question(STYLES[style], "", "fill a pdf", (), ())
    listed = Question(STYLES[style], "- pdf: x", "fill a pdf", ("pdf",), ())
    for api in ("openai", "anthropic"):
        endpoint = endpoint_for("http://127.0.0.1:9/v1", api)
        # the agent's other tools stay (Claude Code's Bash and Read); its skill tool goes
        declared = [_tool_name(t) for t in body(empty, endpoint, "m", 1.0).get("tools", [])]
        assert STYLES[style].tool not in declared
        assert len(declared) == len(STYLES[style].others)
        listed_tools = body(listed, endpoint, "m", 1.0)["tools"]
        assert _tool_name(listed_tools[0]) == STYLES[style].tool


def test_an_empty_listing_sends_nothing(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    registry = registry_at(tmp_path, ["skills"], "agentskills")
    with FakeModel([("text", "ok")]) as fake:
        with pytest.raises(NothingToAsk):
            plan(registry, [LiveCase("fill a pdf", [])], settings(fake.url), {}, AnswerCache())
        assert fake.received == []


def test_an_answer_cached_for_another_tool_declaration_is_not_replayed(tmp_path: Path) -> None:
    """The enum changed the request: the cache of the free-string tool's answers is not
    its answer."""
    import dataclasses

    from skillstudio.core.live.cache import request_digest
    from skillstudio.core.live.questions import body, encode

    registry, _ = registry_for(tmp_path, "agentskills")
    s = settings("http://127.0.0.1:9/v1", runs=1)
    (item,) = plan(registry, [LiveCase("fill a pdf", [])], s, {}).items
    free = dataclasses.replace(item.question, declared=None)
    # the request bytes differ, so does their digest, the cache's key (cache.py)
    with_enum = encode(body(item.question, s.endpoint, s.model, s.temperature))
    without = encode(body(free, s.endpoint, s.model, s.temperature))
    assert with_enum != without and request_digest(with_enum) != request_digest(without)


def _tool_name(tool: dict[str, Any]) -> str:
    """A declared tool's name, in either API's form."""
    return str(tool["name"] if "name" in tool else tool["function"]["name"])
