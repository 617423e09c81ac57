"""`eval --show-request` (issue 37): every turn a run would send (the first in full,
then what each later turn of `--turns K` appends, labelled, in the form the run really
sends it), and for a case the agent's harness resolves a plain line that nothing is sent
and by which rule, never an empty POST. Nothing is sent (tests/live_fake.py counts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live.turns import STUB

from .helpers import cli
from .live_fake import FakeModel
from .test_live import registry_for


def show(tmp_path: Path, profile: str, *extra: str, form: str = "text") -> Any:
    registry_for(tmp_path, profile)
    with FakeModel([("text", "never asked")]) as fake:
        run = cli(
            "eval", ".", "--profile", profile, "--endpoint", fake.url, "--model", "m",
            *extra, "--show-request", "--format", form, cwd=tmp_path,
        )  # fmt: skip
        assert fake.received == []
    assert run.code == 0, run.out + run.err
    return run


@pytest.mark.parametrize(
    ("profile", "query", "rule"),
    [
        ("claude-code", "/pdf-forms fill in T-12", "`/name`: a slash command"),
        ("codex", "$pdf-forms fill in T-12", "`$name`: a skill mention"),
        ("claude-code", "use the pdf-forms skill on T-12", "`use <name> skill`"),
    ],
)
def test_a_case_the_harness_resolves_says_no_request_is_sent_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str, query: str, rule: str
) -> None:
    """On main it printed `POST …` and "request_sha256:  (0 bytes)" with an empty body."""
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    ask = ["--api", "anthropic", "--request", query, "--request", "fill in the PDF form"]
    text = show(tmp_path, profile, *ask).out
    resolved, asked = text.split("\n\n")[:2]
    assert "no request is sent: the agent's harness resolves it to pdf-forms" in resolved
    assert rule in resolved and "no model is asked" in resolved
    assert "POST" not in resolved and "request_sha256" not in resolved
    assert "POST" in asked and "(0 bytes)" not in text
    tail = "1 request shown (1 resolved by the harness: no request); nothing was sent"
    assert text.rstrip().endswith(tail)
    (first, second) = show(tmp_path, profile, *ask, form="json").json["requests"]
    assert first["sent"] is False and first["harness"] == "pdf-forms"
    assert rule in first["rule"] and "body" not in first and "request_sha256" not in first
    assert second["sent"] is True and len(second["request_sha256"]) == 64


@pytest.mark.parametrize(
    ("api", "field"), [("anthropic", "messages"), ("openai", "messages"),
                       ("responses", "input"), ("gemini", "contents")],
)  # fmt: skip
def test_every_later_turn_is_shown_as_the_run_sends_it(
    tmp_path: Path, api: str, field: str
) -> None:
    """On main only the first turn was shown. Each later turn is labelled and shows
    what it appends; a real run of two turns appends items of the same form."""
    ask = ["--api", api, "--request", "fill in the PDF form", "--turns", "3"]
    text = show(tmp_path, "claude-code", *ask).out
    for label in (
        "turn 1 of up to 3: sent in every run",
        "turn 2 of up to 3: sent only when turn 1's answer calls a tool",
        "turn 3 of up to 3: sent only when turn 2's",
    ):
        assert label in text
    assert text.index("turn 1 of up to 3") < text.index("POST") < text.index("turn 2 of up")
    lines = text.splitlines()
    after = [lines[n + 1] for n, line in enumerate(lines) if line.startswith("turn 2 of up")]
    added_text = json.loads(after[0])  # what turn 2 appends: JSON, on its own line
    (request,) = show(tmp_path, "claude-code", *ask, form="json").json["requests"]
    later = request["later_turns"]
    assert [t["turn"] for t in later] == [2, 3]
    assert all(t["appends_to"] == field for t in later)
    shown = later[0]["added"]
    assert added_text == shown
    # the run, for real: turn 1 calls Bash, turn 2 is sent
    with FakeModel([("tool", "Bash", {"command": "ls"}), ("text", "done")]) as fake:
        run = cli(
            "eval", ".", "--profile", "claude-code", "--endpoint", fake.url, "--model", "m",
            *ask, "--runs", "1", "--yes", cwd=tmp_path,
        )  # fmt: skip
        bodies = [json.loads(raw) for _, _, raw in fake.received]
    assert run.code == 0, run.err
    assert len(bodies) == 2
    appended = bodies[1][field][len(bodies[0][field]) :]
    assert _form(appended) == _form(shown)
    assert STUB in json.dumps(shown)


def _form(items: list[Any]) -> list[Any]:
    """What makes an appended item's form: its role or type, and its parts' types (a
    thought part the model sent is sent back, but is not a placeholder's)."""
    out = []
    for item in items:
        content = item.get("content", item.get("parts"))
        parts = [p for p in content if not p.get("thought")] if isinstance(content, list) else []
        kinds = sorted(
            str(p.get("type") or next(k for k in p if k != "thoughtSignature")) for p in parts
        )
        out.append((item.get("role"), item.get("type"), kinds, "tool_calls" in item))
    return out


def test_one_turn_shows_no_later_turn(tmp_path: Path) -> None:
    text = show(tmp_path, "claude-code", "--api", "anthropic", "--request", "fill the form").out
    assert "turn " not in text and "1 request shown; nothing was sent" in text
