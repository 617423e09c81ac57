"""Sending the APIs a captured Codex or Gemini CLI request speaks (issue 37): a Codex
template (`openai-responses`) replayed through the Responses client, a Gemini template
and the reconstruction sent as a `generateContent` request (the model in the URL, the
key in `x-goog-api-key`), answers read from their `function_call` items and
`functionCall` parts (a ghost name, a prose answer, an error status, a malformed
answer, a later turn), and the cache keyed by the model Gemini names only in the URL.
Everything against tests/live_fake.py on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.live.cache import AnswerCache
from skillstudio.core.live.endpoints import endpoint_for
from skillstudio.core.live.locate import locate
from skillstudio.core.live.planning import LiveError, plan
from skillstudio.core.live.probe import probe
from skillstudio.core.live.run import execute
from skillstudio.core.live.stats import LiveCase
from skillstudio.core.live.templates import Template, encode_template
from skillstudio.core.live.turns import STUB

from .helpers import cli
from .live_fake import FakeModel, Script
from .test_live import registry_for, settings

KEY = "AIzaSyFAKE-gemini-key-0123456789abcdefXYZ"
CAPTURED_CODEX_LISTING = (
    "<skills_instructions>\n## Skills\n- captured-deploy: Ship it. (file: /x/SKILL.md)\n"
    "</skills_instructions>"
)


def codex_template() -> Template:
    """A Codex request as `capture` records it (the Responses API's shape), located."""
    body: dict[str, Any] = {
        "model": "gpt-5-codex",
        "instructions": "You are Codex (a stand-in for the captured base instructions).",
        "input": [
            _message("developer", "<permissions instructions>read-only</permissions instructions>"),
            _message("developer", CAPTURED_CODEX_LISTING),
            _message("user", "<environment_context>/work</environment_context>", "deploy it"),
        ],
        "tools": [
            {
                "type": "function",
                "name": "shell_command",
                "description": "Runs a shell command.",
                "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
                "strict": False,
            },
            {"type": "function", "name": "update_plan", "parameters": {"type": "object"}},
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": False,
        "reasoning": {"effort": "medium"},
    }
    found = locate("codex", "openai-responses", body)
    assert found is not None and found.request == "deploy it"
    return Template("captured", "openai-responses", "codex", "0.63.0", found.body, found.listing)


def _message(role: str, *texts: str) -> dict[str, Any]:
    parts = [{"type": "input_text", "text": t} for t in texts]
    return {"type": "message", "role": role, "content": parts}


def gemini_template() -> Template:
    """A Gemini CLI request as `capture` records it, located (the enum becomes NAMES)."""
    body: dict[str, Any] = {
        "systemInstruction": {
            "parts": [
                {
                    "text": "Core mandates.\n\n# Available Agent Skills\n\nUse them.\n\n"
                    "<available_skills>\n  <skill><name>ghost-skill</name></skill>\n"
                    "</available_skills>\n\nWorkflows."
                }
            ]
        },
        "contents": [{"role": "user", "parts": [{"text": "make a chart"}]}],
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "read_file", "parametersJsonSchema": {"type": "object"}},
                    {
                        "name": "activate_skill",
                        "description": "Activates a skill.",
                        "parametersJsonSchema": {
                            "type": "object",
                            "properties": {"name": {"type": "string", "enum": ["ghost-skill"]}},
                            "required": ["name"],
                        },
                    },
                ]
            }
        ],
        "generationConfig": {"temperature": 1, "thinkingConfig": {"includeThoughts": True}},
    }
    found = locate("gemini", "gemini", body)
    assert found is not None and found.request == "make a chart"
    return Template("captured", "gemini", "gemini", "0.20.0", found.body, found.listing)


# -- Codex: a captured Responses request, replayed -------------------------------------
def test_a_template_captured_for_codex_is_replayed_through_the_responses_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On main `eval --template` refused it: the template says `openai-responses`, the
    endpoint `responses`, and only anthropic and openai were sendable."""
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    registry_for(tmp_path / "cx", "codex")
    template_file = tmp_path / "codex.json"
    template_file.write_bytes(encode_template(codex_template()))
    path = str(tmp_path / "cx/.agents/skills/pdf-forms/SKILL.md")
    ask = ["eval", str(tmp_path / "cx"), "--profile", "codex", "--model", "test-model"]
    ask += ["--template", str(template_file)]
    ask += ["--request", "fill in the PDF form", "--expect", "pdf-forms", "--runs", "3"]
    with FakeModel([("tool", "shell_command", {"command": f"sed -n 1,200p {path}"})]) as fake:
        run = cli(*ask, "--endpoint", fake.url, "--api", "responses", "--yes", "--format", "json")
        refused = cli(*ask, "--endpoint", fake.url, "--api", "openai", "--yes")
        sent = [(p, json.loads(raw)) for p, _, raw in fake.received]
    assert run.code == 0, run.err
    report = run.json["reports"][0]
    assert report["cases"][0]["verdict"] == "pass"
    assert report["template"].startswith("captured codex 0.63.0 template (openai-responses)")
    assert len(sent) == 3 and all(p == "/v1/responses" for p, _ in sent)
    body = sent[0][1]
    original = codex_template().body
    assert body["instructions"] == original["instructions"]
    assert body["tools"] == original["tools"] and body["reasoning"] == {"effort": "medium"}
    assert body["model"] == "test-model"
    listing = body["input"][1]["content"][0]["text"]
    assert listing == render_listing(registry_for(tmp_path / "cx", "codex")[0], {}).text
    assert path in listing and "captured-deploy" not in json.dumps(body)
    assert body["input"][2]["content"][1]["text"] == "fill in the PDF form"
    # the other API at the same URL is refused before anything is sent, naming the fix
    assert refused.code == 2 and "--api responses" in refused.err
    assert len(sent) == 3


# -- Gemini: generateContent, from a template and from the reconstruction --------------
def test_a_gemini_template_is_sent_as_generate_content_with_the_key_in_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("GEMINI_TEST_KEY", KEY)
    registry, _ = registry_for(tmp_path / "g", "agentskills")
    template_file = tmp_path / "gemini.json"
    template_file.write_bytes(encode_template(gemini_template()))
    ask = ["eval", str(tmp_path / "g"), "--api", "gemini", "--model", "gemini-2.5-flash"]
    ask += ["--template", str(template_file), "--key-env", "GEMINI_TEST_KEY", "--runs", "3"]
    ask += ["--request", "fill in the PDF form", "--expect", "pdf-forms"]
    with FakeModel([("tool", "activate_skill", {"name": "pdf-forms"})]) as fake:
        run = cli(*ask, "--endpoint", fake.url, "--yes", "--format", "json", cwd=tmp_path)
        received = list(fake.received)
    assert run.code == 0, run.err
    assert len(received) == 3
    path, headers, raw = received[0]
    assert path == "/v1/models/gemini-2.5-flash:generateContent"  # the model in the URL
    assert headers["x-goog-api-key"] == KEY and "authorization" not in headers
    body = json.loads(raw)
    assert "model" not in body  # not in the body: Gemini takes it from the URL
    declared = body["tools"][0]["functionDeclarations"][1]
    assert declared["parametersJsonSchema"]["properties"]["name"]["enum"] == [
        "code-review",
        "pdf-forms",
    ]
    system = body["systemInstruction"]["parts"][0]["text"]
    assert render_listing(registry, {}).text in system and "ghost-skill" not in system
    assert system.startswith("Core mandates.\n\n") and system.endswith("\n\nWorkflows.")
    assert body["contents"] == [{"role": "user", "parts": [{"text": "fill in the PDF form"}]}]
    assert body["generationConfig"]["thinkingConfig"] == {"includeThoughts": True}
    report = run.json["reports"][0]
    assert report["endpoint"]["api"] == "gemini"
    assert report["cases"][0]["verdict"] == "pass"
    first = report["cases"][0]["runs"][0]
    assert first["reported_model"] == "test-gemini-001"
    assert (first["input_tokens"], first["output_tokens"]) == (120, 8)
    # the key is in no report and no cached answer
    assert KEY not in run.out + run.err
    cached = [p.read_text() for p in (tmp_path / "cache").rglob("*.json")]
    assert cached and not any(KEY in text for text in cached)


def gemini_check(tmp_path: Path, script: Script, **kw: Any) -> Any:
    """The reconstruction (agentskills: Gemini CLI's style) asked at a Gemini endpoint."""
    registry, _ = registry_for(tmp_path, "agentskills")
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"])]
    with FakeModel(script) as fake:
        checked = plan(registry, cases, settings(fake.url, "gemini", runs=1, **kw), {})
        report = execute(checked)
        sent = [(p, json.loads(raw)) for p, _, raw in fake.received]
    return checked, report.results[0].answers, sent


def test_the_reconstruction_speaks_generate_content(tmp_path: Path) -> None:
    checked, answers, sent = gemini_check(
        tmp_path, [("tool", "activate_skill", {"name": "pdf-forms"})]
    )
    assert answers[0].pick == "pdf-forms" and not answers[0].unlisted
    ((path, body),) = sent
    assert path == "/v1/models/test-model:generateContent"
    listing = checked.items[0].question.listing
    assert body["systemInstruction"] == {"parts": [{"text": listing}]}
    assert body["contents"] == [{"role": "user", "parts": [{"text": "fill in the PDF form"}]}]
    (declared,) = body["tools"][0]["functionDeclarations"]
    assert declared["name"] == "activate_skill"
    assert declared["parametersJsonSchema"]["properties"]["name"]["enum"] == [
        "code-review",
        "pdf-forms",
    ]
    assert body["generationConfig"] == {"temperature": 1.0} and "model" not in body


@pytest.mark.parametrize(
    ("step", "pick", "unlisted", "error"),
    [
        (("tool", "activate_skill", {"name": "ghost"}), "ghost", True, ""),
        (("text", "I would use the pdf-forms skill."), None, False, ""),
        (("error", 400, "API key not valid. Please pass a valid API key."), None, False,
         "HTTP 400: API key not valid. Please pass a valid API key."),
        (("raw", b'{"promptFeedback": {}}'), None, False, "no 'candidates' in the answer"),
    ],
)  # fmt: skip
def test_gemini_answers_are_read_as_the_agent_reads_them(
    tmp_path: Path, step: tuple[Any, ...], pick: str | None, unlisted: bool, error: str
) -> None:
    """A ghost name (one a server let past the enum) is an unlisted pick; prose is no
    skill, its words kept; an error status and a malformed answer are the run's error."""
    _, (answer,), _ = gemini_check(tmp_path, [step])
    assert (answer.pick, answer.unlisted, answer.error) == (pick, unlisted, error)
    if step[0] == "text":
        assert answer.text == "I would use the pdf-forms skill."


def test_a_later_gemini_turn_sends_the_models_parts_back_whole(tmp_path: Path) -> None:
    script: Script = [
        ("tool", "read_file", {"path": "README.md"}),
        ("tool", "activate_skill", {"name": "pdf-forms"}),
    ]
    _, (answer,), sent = gemini_check(tmp_path, script, turns=2)
    assert (answer.pick, answer.turn) == ("pdf-forms", 2)
    assert (answer.input_tokens, answer.output_tokens) == (240, 16)
    first, second = (body for _, body in sent)
    model, results = second["contents"][len(first["contents"]) :]
    assert model["role"] == "model"  # as it came: the thought and its signature kept
    assert model["parts"][1] == {
        "functionCall": {"name": "read_file", "args": {"path": "README.md"}},
        "thoughtSignature": "c2ln",
    }
    assert results == {
        "role": "user",
        "parts": [{"functionResponse": {"name": "read_file", "response": {"output": STUB}}}],
    }


def test_the_gemini_cache_key_holds_the_model_and_the_api(tmp_path: Path) -> None:
    """The model is not in Gemini's bytes: two models ask the same bytes, and must not
    share answers; the same URL asked through another API must not either."""
    registry, _ = registry_for(tmp_path, "agentskills")
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"])]
    url = "http://127.0.0.1:9/v1"
    one = plan(registry, cases, settings(url, "gemini"), {}).items[0]
    s = settings(url, "gemini")
    s.model = "other-model"
    two = plan(registry, cases, s, {}).items[0]
    assert one.content == two.content and one.keys[0] != two.keys[0]
    openai = plan(registry, cases, settings(url, "openai"), {}).items[0]
    assert openai.keys[0] not in (one.keys[0], two.keys[0])
    # answered once, replayed offline for that model only
    cache = AnswerCache(str(tmp_path / "cache"))
    with FakeModel([("tool", "activate_skill", {"name": "pdf-forms"})]) as fake:
        execute(plan(registry, cases, settings(fake.url, "gemini", runs=1), {}, cache), cache)
        again = plan(registry, cases, settings(fake.url, "gemini", runs=1), {}, cache)
        s = settings(fake.url, "gemini", runs=1)
        s.model = "other-model"
        other = plan(registry, cases, s, {}, cache)
    assert len(again.cached) == 1 and not other.cached


def test_endpoints_take_gemini_and_refuse_a_template_of_another_api(tmp_path: Path) -> None:
    preset = endpoint_for("gemini")
    assert (preset.api, preset.key_env) == ("gemini", "GEMINI_API_KEY")
    assert preset.url_for("gemini-2.5-pro") == (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent"
    )
    google = endpoint_for("https://generativelanguage.googleapis.com/v1beta")
    assert google.api == "gemini" and google.key_env == "GEMINI_API_KEY"
    # a model id never adds a path segment or a query to the URL
    assert preset.url_for("../x?key=1").endswith("/models/..%2Fx%3Fkey%3D1:generateContent")
    registry, _ = registry_for(tmp_path, "agentskills")
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"])]
    s = settings("http://127.0.0.1:9/v1", "anthropic", template=gemini_template())
    with pytest.raises(LiveError, match=r"speaks the gemini API .* \(--api gemini\)"):
        plan(registry, cases, s, {})


def test_the_connection_test_speaks_gemini(tmp_path: Path) -> None:
    fast = settings("http://127.0.0.1:9/v1").limits
    with FakeModel([("text", "pong")]) as fake:
        result = probe(endpoint_for(fake.url, "gemini"), "gemini-2.5-flash", fast, environ={})
        ((path, _, raw),) = fake.received
    assert result.ok and result.model == "test-gemini-001"
    assert path == "/v1/models/gemini-2.5-flash:generateContent"
    assert json.loads(raw)["contents"][0]["parts"] == [{"text": "ping"}]


def test_a_gemini_error_quoting_the_key_never_shows_it(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "agentskills")
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"])]
    with FakeModel([("error", 400, f"API key {KEY} not valid")]) as fake:
        s = settings(fake.url, "gemini", runs=1)
        s.endpoint = endpoint_for(fake.url, "gemini", key_env="GEMINI_TEST_KEY")
        report = execute(plan(registry, cases, s, {}), environ={"GEMINI_TEST_KEY": KEY})
        ((_, headers, _),) = fake.received
    (answer,) = report.results[0].answers
    assert headers["x-goog-api-key"] == KEY
    assert answer.error.startswith("HTTP 400: API key [key]") and KEY not in answer.error
    assert KEY not in json.dumps(report.to_json())
