"""Captured templates (PRODUCT.md 12, "Captured templates"; docs/live.md "Templates"):
a captured request is replayed with this project's listing and none of the captured
one; keys and headers are never saved; `capture` records a request a local client
posts and answers it with an end-of-turn reply; the cache key changes with the
template; `capture --compare` diffs the listings. Local servers only (127.0.0.1)."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from skillstudio.core.delivery.tiers import render_listing
from skillstudio.core.live.capture import CaptureServer, agent_version, capture_agent, reply
from skillstudio.core.live.locate import locate
from skillstudio.core.live.planning import plan
from skillstudio.core.live.questions import TEMPLATE, question, read_answer
from skillstudio.core.live.replay import reading
from skillstudio.core.live.stats import LiveCase
from skillstudio.core.live.templates import (
    LISTING,
    REQUEST,
    Template,
    TemplateError,
    encode_template,
    fill,
    find_template,
    parse_template,
    saved_templates,
)

from .helpers import cli
from .live_fake import FakeModel
from .test_live import registry_for, settings

CAPTURED = Path(__file__).parent / "data" / "captured" / "claude-code-request.json"
KEY = "sk-ant-api03-CAPTUREDKEY0123456789abcdefXYZ"
USER_AGENT = "claude-cli/2.1.239 (external, cli)"


def captured_body() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(CAPTURED.read_text(encoding="utf-8"))
    return data


def captured_template() -> Template:
    located = locate("claude-code", "anthropic", captured_body())
    assert located is not None
    body = {k: v for k, v in located.body.items() if k not in ("stream", "metadata")}
    return Template("captured", "anthropic", "claude-code", "2.1.239", body, located.listing)


def test_the_listing_and_the_request_are_located_the_agents_way() -> None:
    located = locate("claude-code", "anthropic", captured_body())
    assert located is not None
    assert located.listing.startswith("<system-reminder>\nThe following skills are available")
    assert "- captured-deploy:" in located.listing
    assert located.request == "ship the web app to staging"
    blocks = located.body["messages"][-1]["content"]
    # the other reminder is kept as sent; the listing and the request are placeholders
    assert blocks[0]["text"].startswith("<system-reminder>\nAs you answer")
    assert [b["text"] for b in blocks[1:]] == [LISTING, REQUEST]
    assert "captured-deploy" not in json.dumps(located.body)
    # a body without the agent's listing structure: nothing located
    bare = captured_body()
    bare["messages"][-1]["content"].pop(1)
    assert locate("claude-code", "anthropic", bare) is None
    assert locate("codex", "anthropic", captured_body()) is None


def test_a_captured_request_is_replayed_with_this_projects_listing(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "cc", "claude-code")
    ours = render_listing(registry, {}).text
    template_file = tmp_path / "claude.json"
    template_file.write_bytes(encode_template(captured_template()))
    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        run = cli(
            "eval",
            str(tmp_path / "cc"),
            "--endpoint",
            fake.url,
            "--api",
            "anthropic",
            "--model",
            "test-model",
            "--request",
            "fill in the PDF form for me",
            "--expect",
            "pdf-forms",
            "--template",
            str(template_file),
            "--yes",
            "--format",
            "json",
        )
        sent = [json.loads(raw) for _, _, raw in fake.received]
    assert run.code == 0, run.err
    assert len(sent) == 3
    body = sent[0]
    original = captured_body()
    assert body["system"] == original["system"]  # the long system text, as captured
    assert body["tools"] == original["tools"]  # every tool, as captured
    assert [t["name"] for t in body["tools"]][:2] == ["Agent", "Bash"]
    assert body["thinking"] == original["thinking"]
    assert body["max_tokens"] == 32000
    assert body["model"] == "test-model"
    assert "stream" not in body and "metadata" not in body
    blocks = body["messages"][-1]["content"]
    assert blocks[0] == original["messages"][-1]["content"][0]
    assert blocks[1]["text"] == ours  # this project's listing, exactly, in its place
    assert blocks[2]["text"] == "fill in the PDF form for me"
    assert blocks[2]["cache_control"] == {"type": "ephemeral"}
    text = json.dumps(body)
    assert "captured-deploy" not in text and "captured-release-notes" not in text
    assert "ship the web app to staging" not in text
    report = run.json["reports"][0]
    assert report["template"].startswith("captured claude-code 2.1.239 template (anthropic)")
    assert "9 tools" in report["template"]
    assert report["cases"][0]["verdict"] == "pass"


def test_only_the_skill_tool_counts_among_many_tools(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    listing = render_listing(registry, {})
    q = question(registry.profile, listing.text, listing.listed, [], "fill the form")
    q = reading(q, captured_template())
    path = ".claude/skills/pdf-forms/SKILL.md"

    def answer(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
        content = [
            {"type": "tool_use", "id": f"t{i}", "name": name, "input": args}
            for i, (name, args) in enumerate(calls)
        ]
        return {"content": content, "usage": {}}

    read_first = answer(("Read", {"file_path": path}), ("Skill", {"skill": "pdf-forms"}))
    assert read_answer(q, read_first, "anthropic").pick == "pdf-forms"
    assert read_answer(q, answer(("Bash", {"command": f"cat {path}"})), "anthropic").pick is None
    assert read_answer(q, answer(("Read", {"file_path": path})), "anthropic").pick is None


def test_the_cache_key_changes_with_the_template(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"])]
    first = captured_template()
    edited_body = json.loads(json.dumps(first.body))
    edited_body["system"][0]["text"] += " Edited."
    second = Template("captured", "anthropic", "claude-code", "2.1.240", edited_body, first.listing)
    url = "http://127.0.0.1:9/v1"
    keys = {}
    for name, template in (("reconstruction", None), ("first", first), ("second", second)):
        checked = plan(registry, cases, settings(url, "anthropic", template=template), {})
        keys[name] = checked.items[0].keys[0]
        assert checked.items[0].template == (template.version if template else TEMPLATE)
    assert len(set(keys.values())) == 3
    assert first.version.startswith("captured/claude-code@2.1.239/")
    # the same bytes from a template with another version still key apart
    relabelled = Template(
        "captured", "anthropic", "claude-code", "9.9.9", first.body, first.listing
    )
    again = plan(registry, cases, settings(url, "anthropic", template=relabelled), {})
    assert (
        again.items[0].content
        == plan(registry, cases, settings(url, "anthropic", template=first), {}).items[0].content
    )
    assert again.items[0].keys[0] != keys["first"]


def test_a_template_of_another_api_is_refused(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path, "claude-code")
    cases = [LiveCase("fill in the PDF form", ["pdf-forms"])]
    from skillstudio.core.live.planning import LiveError

    with pytest.raises(LiveError, match="speaks the anthropic API but the endpoint speaks openai"):
        plan(
            registry,
            cases,
            settings("http://127.0.0.1:9/v1", "openai", template=captured_template()),
        )


def _post(url: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    for _ in range(100):  # the endpoint may still be starting
        try:
            return httpx.post(url, json=body, headers=headers, timeout=10)
        except httpx.ConnectError:
            time.sleep(0.05)
    raise AssertionError("the capture endpoint never answered")


def test_capture_records_the_template_and_never_a_key_or_header() -> None:
    server = CaptureServer(capture_agent("claude-code"))
    server.start()
    try:
        # a request without a listing (Claude Code's title request): a short valid reply
        quiet = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "hi"}]}
        first = _post(server.url + "/v1/messages", quiet, **{"x-api-key": KEY})
        assert first.status_code == 200 and first.json()["stop_reason"] == "end_turn"
        assert server.result.template is None
        body = captured_body()
        body["system"][0]["text"] += f" (the key leaked into the prompt: {KEY})"
        answered = _post(
            server.url + "/v1/messages",
            body,
            **{"x-api-key": KEY, "authorization": f"Bearer {KEY}", "user-agent": USER_AGENT},
        )
        template = server.wait(5)
    finally:
        server.stop()
    # Claude Code streams: the reply is server-sent events ending the turn
    assert answered.headers["content-type"] == "text/event-stream"
    events = [
        json.loads(line[6:]) for line in answered.text.splitlines() if line.startswith("data: ")
    ]
    assert events[0]["type"] == "message_start"
    assert events[-1]["type"] == "message_stop"
    assert events[-2]["delta"]["stop_reason"] == "end_turn"
    assert template is not None
    assert (template.kind, template.api, template.agent) == ("captured", "anthropic", "claude-code")
    assert template.agent_version == "2.1.239"
    saved = encode_template(template)
    for secret in (KEY, KEY[:20], "x-api-key", "authorization", "Bearer", "claude-cli", "user_id"):
        assert secret.encode() not in saved, secret
    assert parse_template(saved, "saved").body == template.body


def test_the_capture_command_saves_what_a_local_client_posts(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a free port for the command to listen on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    saved = tmp_path / "cc-template.json"
    result: dict[str, Any] = {}

    def run() -> None:
        result["run"] = cli(
            "capture",
            "--agent",
            "claude-code",
            "--port",
            str(port),
            "--save",
            str(saved),
            "--timeout",
            "30",
            cwd=tmp_path,
        )

    thread = threading.Thread(target=run)
    thread.start()
    body = captured_body()
    body["stream"] = False
    answered = _post(f"http://127.0.0.1:{port}/v1/messages", body, **{"user-agent": USER_AGENT})
    thread.join(30)
    run_ = result["run"]
    assert run_.code == 0, run_.err
    assert answered.json()["content"][0]["type"] == "text"
    assert answered.json()["stop_reason"] == "end_turn"
    assert "ANTHROPIC_BASE_URL=http://127.0.0.1:" in run_.err
    template = find_template(str(saved), str(tmp_path))
    assert template.agent_version == "2.1.239" and "captured-deploy" in template.listing
    assert "saved the captured claude-code 2.1.239 template" in run_.out


def test_capture_gives_up_plainly_and_saves_nothing(tmp_path: Path) -> None:
    run = cli(
        "capture",
        "--agent",
        "codex",
        "--save",
        str(tmp_path / "x.json"),
        "--timeout",
        "0.3",
        cwd=tmp_path,
    )
    assert run.code == 1
    assert "nothing captured: no request came within 0.3 s; nothing was saved" in run.err
    assert "OPENAI_BASE_URL=http://127.0.0.1:" in run.err
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("api", ["anthropic", "openai", "openai-responses", "gemini"])
def test_each_api_gets_an_end_of_turn_reply_in_its_shape(api: str) -> None:
    kind, data = reply(api, "m", stream=False)  # type: ignore[arg-type]
    answer = json.loads(data)
    ended = {
        "anthropic": lambda a: a["stop_reason"] == "end_turn",
        "openai": lambda a: a["choices"][0]["finish_reason"] == "stop",
        "openai-responses": lambda a: a["status"] == "completed" and a["output"],
        "gemini": lambda a: a["candidates"][0]["finishReason"] == "STOP",
    }[api]
    assert kind == "application/json" and ended(answer)
    kind, streamed = reply(api, "m", stream=True)  # type: ignore[arg-type]
    assert kind == "text/event-stream"
    last = [line for line in streamed.decode().splitlines() if line.startswith("data: ")][-1]
    if api == "openai":
        assert last == "data: [DONE]"
    elif api == "openai-responses":
        assert json.loads(last[6:])["type"] == "response.completed"
    else:
        assert json.loads(last[6:])["type" if api == "anthropic" else "candidates"]


def test_codex_and_gemini_listings_are_located() -> None:
    codex = {
        "model": "gpt-5",
        "instructions": "You are Codex, a stand-in.",
        "input": [
            {
                "type": "message",
                "role": "developer",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<skills_instructions>\n- a: A. (file: /a/SKILL.md)\n"
                        "</skills_instructions>",
                    }
                ],
            },
            {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<environment_context>cwd</environment_context>",
                    },
                    {"type": "input_text", "text": "review my diff"},
                ],
            },
        ],
        "tools": [{"type": "function", "name": "shell_command"}],
    }
    found = locate("codex", "openai-responses", codex)
    assert found is not None and found.request == "review my diff"
    assert found.body["input"][0]["content"][0]["text"] == LISTING
    gemini = {
        "systemInstruction": {
            "parts": [
                {
                    "text": "Mandates.\n\n# Available Agent Skills\n\nUse them.\n\n"
                    "<available_skills>\n  <skill>x</skill>\n</available_skills>\n\nWorkflows."
                }
            ]
        },
        "contents": [{"role": "user", "parts": [{"text": "make a chart"}]}],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "activate_skill",
                        "parametersJsonSchema": {
                            "type": "object",
                            "properties": {"name": {"type": "string", "enum": ["x"]}},
                        },
                    }
                ]
            }
        ],
    }
    found = locate("gemini", "gemini", gemini)
    assert found is not None
    assert (
        found.body["systemInstruction"]["parts"][0]["text"]
        == f"Mandates.\n\n{LISTING}\n\nWorkflows."
    )
    template = Template("captured", "gemini", "gemini", "0.20.0", found.body, found.listing)
    filled = fill(template, "OURS", ["p", "q"], "draw", "m")
    schema = filled["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"]
    assert schema["properties"]["name"]["enum"] == ["p", "q"]
    assert filled["contents"][0]["parts"][0]["text"] == "draw"


def test_a_placeholder_inside_what_is_put_in_is_not_replaced_again() -> None:
    template = captured_template()
    body = fill(template, "listing with {{skillstudio:request}} inside", [], "asked", "m")
    assert "listing with {{skillstudio:request}} inside" in json.dumps(body)


def test_the_user_agent_gives_the_version() -> None:
    assert agent_version(USER_AGENT) == "2.1.239"
    assert agent_version("GeminiCLI/0.20.0/gemini-2.5-pro (linux; x64; terminal)") == "0.20.0"
    assert agent_version("codex_cli_rs/0.45.0 (Ubuntu 24.4.0; x86_64)") == "0.45.0"
    assert agent_version("") == ""


def test_templates_are_read_as_untrusted_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(TemplateError, match="not a template"):
        find_template(str(bad), str(tmp_path))
    no_placeholder = dict(captured_template().to_json(), body={"messages": []})
    bad.write_text(json.dumps(no_placeholder))
    with pytest.raises(TemplateError, match=r"no .* placeholder"):
        find_template(str(bad), str(tmp_path))
    with pytest.raises(TemplateError, match="no template of that name"):
        find_template("missing-name", str(tmp_path))
    with pytest.raises(TemplateError, match="no such template file"):
        find_template("../outside/x.json", str(tmp_path))
    deep: Any = LISTING
    for _ in range(100):
        deep = [deep]
    bad.write_text(json.dumps(dict(captured_template().to_json(), body={"x": deep})))
    with pytest.raises(TemplateError, match="levels"):
        find_template(str(bad), str(tmp_path))


def test_compare_diffs_the_listings(tmp_path: Path) -> None:
    registry, _ = registry_for(tmp_path / "cc", "claude-code")
    ours = render_listing(registry, {}).text
    same = tmp_path / "same.json"
    base = captured_template()
    same.write_bytes(
        encode_template(Template("captured", "anthropic", "claude-code", "1", base.body, ours))
    )
    run = cli("capture", "--compare", str(same), str(tmp_path / "cc"), cwd=tmp_path)
    assert run.code == 0, run.err
    assert run.out.startswith("same:")
    other = tmp_path / "other.json"
    other.write_bytes(encode_template(base))
    run = cli("capture", "--compare", str(other), str(tmp_path / "cc"), cwd=tmp_path)
    assert run.code == 1, run.err
    assert "\n-- captured-deploy: Deploy" in run.out
    assert "+- pdf-forms: Fill in PDF forms" in run.out


def test_a_saved_captured_template_wins_and_reconstruction_is_labelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    registry_for(tmp_path / "cc", "claude-code")
    ask = ["eval", str(tmp_path / "cc"), "--endpoint", "http://127.0.0.1:9/v1", "--api"]
    ask += ["anthropic", "--model", "m", "--request", "fill the form", "--show-request"]
    ask += ["--format", "json"]

    def shown(*extra: str) -> dict[str, Any]:
        run = cli(*ask, *extra, cwd=tmp_path)
        assert run.code == 0, run.err
        request: dict[str, Any] = run.json["requests"][0]
        return request

    built_in = shown()
    assert built_in["template"] == TEMPLATE
    assert "Skill" in [t["name"] for t in built_in["body"]["tools"]]  # beside Bash and Read
    saved = tmp_path / "config" / "skillstudio" / "templates" / "claude-code.json"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(encode_template(captured_template()))
    captured = shown()  # no --template: the captured one saved for the agent wins
    assert captured["template"] == captured_template().version
    assert len(captured["body"]["tools"]) == 9
    assert shown("--template", "reconstruction")["template"] == TEMPLATE
    assert shown("--template", "claude-code")["template"] == captured_template().version
    # a saved template of another API than the endpoint's is not used by default
    openai = cli(*[a if a != "anthropic" else "openai" for a in ask], cwd=tmp_path)
    assert openai.code == 0, openai.err
    assert openai.json["requests"][0]["template"] == TEMPLATE


def test_an_older_listing_in_the_skill_tools_description_is_located() -> None:
    body = captured_body()
    body["messages"][-1]["content"].pop(1)  # no reminder: the listing is in the tool
    skill = next(t for t in body["tools"] if t["name"] == "Skill")
    skill["description"] += (
        "\n- Call it first.\n<available_skills>\n<skill><name>old</name></skill>\n"
        "</available_skills>\nEnd."
    )
    found = locate("claude-code", "anthropic", body)
    assert found is not None and found.listing.startswith("<available_skills>")
    described = next(t for t in found.body["tools"] if t["name"] == "Skill")["description"]
    assert described.endswith(f"\n- Call it first.\n{LISTING}\nEnd.")  # its bullets kept


def test_capture_refuses_a_body_over_the_bound_or_packed(monkeypatch: pytest.MonkeyPatch) -> None:
    import skillstudio.core.live.capture as capture

    monkeypatch.setattr(capture, "MAX_REQUEST", 1000)
    server = CaptureServer(capture_agent("claude-code"))
    server.start()
    try:
        big = _post(server.url + "/v1/messages", captured_body())  # ~15 kB
        packed = httpx.post(
            server.url + "/v1/messages",
            content=b"\x1f\x8b" + b"0" * 20,
            headers={"content-encoding": "gzip", "content-type": "application/json"},
            timeout=10,
        )
    finally:
        server.stop()
    assert big.status_code == 413 and packed.status_code == 413
    assert server.result.template is None
    assert any("refused" in line for line in server.result.seen)


def test_show_request_names_the_template_in_text(tmp_path: Path) -> None:
    registry_for(tmp_path / "cc", "claude-code")
    template_file = tmp_path / "claude.json"
    template_file.write_bytes(encode_template(captured_template()))
    run = cli(
        "eval", str(tmp_path / "cc"), "--endpoint", "http://127.0.0.1:9/v1", "--api",
        "anthropic", "--model", "m", "--request", "fill the form", "--show-request",
        "--template", str(template_file), cwd=tmp_path,
    )  # fmt: skip
    assert run.code == 0, run.err
    assert f"template: {captured_template().version}\n" in run.out
    assert "captured-deploy" not in run.out and "- pdf-forms: Fill in PDF forms" in run.out


def test_the_saved_templates_are_listed_by_name_each_read_or_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `--template NAME` finds, for the app's Request as: NAMEs only, sorted,
    bounded; a file that cannot be used is listed with why."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert saved_templates() == []  # no folder yet
    folder = tmp_path / "config" / "skillstudio" / "templates"
    folder.mkdir(parents=True)
    for name in ("b-team", "a-claude"):
        (folder / f"{name}.json").write_bytes(encode_template(captured_template()))
    (folder / "zz.json").write_text("[]", encoding="utf-8")
    (folder / "notes.txt").write_text("not a template", encoding="utf-8")
    (folder / ".hidden.json").write_text("{}", encoding="utf-8")
    found = saved_templates()
    assert [name for name, _ in found] == ["a-claude", "b-team", "zz"]
    assert all(isinstance(t, Template) and t.agent == "claude-code" for _, t in found[:2])
    assert isinstance(found[2][1], TemplateError) and "not a template" in str(found[2][1])
    assert [name for name, _ in saved_templates(limit=1)] == ["a-claude"]
