"""`skillstudio suggest` against a loopback fake endpoint (tests/live_fake.py): the drafts
read from the model's JSON, leaks and duplicates marked, --write appending a suite that
`test` loads, the cost shown before anything is sent, the key never printed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.projects.suggest import SuggestError, read_drafts

from .helpers import cli, write
from .live_fake import FakeModel
from .test_leaks import project

SECRET = "sk-test-suggest-0123456789abcdef"

DRAFTS: list[dict[str, Any]] = [
    {
        "text": "my scanned tax paperwork needs the boxes completed",
        "kind": "should",
        "expect": "pdf-forms",
    },
    {"text": "flatten the AcroForm before I send it", "kind": "should", "expect": "pdf-forms"},
    {"text": "use pdf-forms on invoice.pdf", "kind": "should", "expect": "pdf-forms"},
    {
        "text": "My scanned tax paperwork needs the boxes completed!",
        "kind": "should",
        "expect": "pdf-forms",
    },
    {
        "text": "my scanned tax paperwork needs boxes completed",
        "kind": "should",
        "expect": "pdf-forms",
    },
    {"text": "tidy the rows of this spreadsheet export", "kind": "near", "expect": "csv-clean"},
    {"text": "convert a word file to markdown", "kind": "near", "expect": None},
    {"text": "what is the capital of peru", "kind": "out", "expect": None},
    {"text": "a request for a skill that is not a neighbour", "kind": "near", "expect": "nope"},
    {"text": 42, "kind": "should", "expect": "pdf-forms"},
]


def answer(drafts: list[Any] = DRAFTS, fenced: bool = True) -> str:
    text = json.dumps({"requests": drafts})
    return f"Here you are:\n```json\n{text}\n```" if fenced else text


def run_suggest(base: Path, url: str, *extra: str, api: str = "anthropic") -> Any:
    return cli(
        "suggest",
        "pdf-forms",
        "--model",
        "m",
        "--endpoint",
        url,
        "--api",
        api,
        "--key-env",
        "SUGGEST_KEY",
        *extra,
        cwd=base,
    )


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SUGGEST_KEY", SECRET)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return project(tmp_path / "repo")


def test_drafts_are_read_leaks_and_duplicates_marked(base: Path) -> None:
    with FakeModel([("text", answer())]) as fake:
        run = run_suggest(base, fake.url, "--yes", "--format", "json")
    assert run.code == 0, run.out + run.err
    data = run.json
    drafts = {d["query"]: d for d in data["drafts"]}
    assert len(data["drafts"]) == 8 and data["refused"] == 2  # the unknown name, the number
    first = drafts["my scanned tax paperwork needs the boxes completed"]
    assert first["kept"] and first["leak"] is None and first["expect"] == "pdf-forms"
    assert drafts["flatten the AcroForm before I send it"]["leak"]["kind"] == "rare-words"
    named = drafts["use pdf-forms on invoice.pdf"]
    assert named["leak"]["kind"] == "name" and not named["kept"]
    # the same text normalised, and a near duplicate, repeat the first
    for query in (
        "My scanned tax paperwork needs the boxes completed!",
        "my scanned tax paperwork needs boxes completed",
    ):
        assert drafts[query]["duplicate"] == first["query"] and not drafts[query]["kept"]
    assert drafts["tidy the rows of this spreadsheet export"]["expect"] == "csv-clean"
    assert drafts["what is the capital of peru"]["kind"] == "out"
    assert "csv-clean" in data["neighbours"] and "pdf-forms" not in data["neighbours"]
    assert data["input_tokens"] > 0 and data["key"] == "expect_model"
    # what was sent: names and descriptions only, never a body; the key in its header
    ((path, headers, raw),) = fake.received
    assert path.endswith("/messages") and headers.get("x-api-key") == SECRET
    sent = json.loads(raw)
    prompt = sent["messages"][0]["content"]
    assert "AcroForm fields of PDF documents" in prompt and "csv-clean" in prompt
    assert "Open the file" not in raw.decode() and "# Steps" not in raw.decode()
    assert '"requests"' in prompt  # the schema asked for


def test_write_appends_the_kept_drafts_as_a_suite_test_loads(base: Path) -> None:
    write(
        base,
        "suite.yaml",
        "profile: claude-code\nroots: [.claude/skills]\ncases:\n"
        '  - query: "what is the capital of peru"\n    expect_model: none\n',
    )
    with FakeModel([("text", answer(fenced=False))]) as fake:
        run = run_suggest(base, fake.url, "--yes", "--write", "suite.yaml", api="openai")
    assert run.code == 0, run.out + run.err
    assert "LEAK: names the skill pdf-forms" in run.out
    assert "3 cases appended to suite.yaml (expect_model)" in run.out
    text = (base / "suite.yaml").read_text()
    assert text.count("- query:") == 4  # the old case and three kept; peru repeats the old one
    assert "expect_model: csv-clean" in text and "use pdf-forms" not in text
    tested = cli("test", "suite.yaml", "--format", "json", cwd=base)
    assert tested.code == 0, tested.out + tested.err
    assert tested.json["model_only"] == 4  # expect_model: eval's to judge
    leaks = cli("test", "--leaks", "suite.yaml", cwd=base)
    assert leaks.code == 0, leaks.out


def test_the_cost_is_shown_before_anything_is_sent(base: Path) -> None:
    with FakeModel([("text", answer())]) as fake:
        refused = run_suggest(base, fake.url, "--price", "3,15")
        assert refused.code == 2 and "add --yes" in refused.err
        assert "About to send 1 request to m at" in refused.err
        assert "input tokens" in refused.err and "$" in refused.err
        assert fake.received == []  # nothing without a yes
        sent = run_suggest(base, fake.url, "--yes")
    assert sent.code == 0 and sent.err.startswith("About to send 1 request")
    assert len(fake.received) == 1


@pytest.mark.parametrize(
    "step",
    [
        ("text", "I cannot help with that."),
        ("text", '{"requests": "none"}'),
        ("text", '{"requests": [' + "[" * 100 + "]"),
        ("raw", b"<html>not json</html>"),
        ("error", 401, f"bad key {SECRET}"),
    ],
)
def test_a_malformed_answer_or_an_error_is_a_plain_message_never_the_key(
    base: Path, step: tuple[Any, ...]
) -> None:
    with FakeModel([step]) as fake:
        run = run_suggest(base, fake.url, "--yes", "--timeout", "5")
    assert run.code == 1, run.out + run.err
    assert run.err.count("skillstudio: suggest: ") == 1 and "Traceback" not in run.err
    assert SECRET not in run.out + run.err


def test_an_unknown_skill_and_bad_options(base: Path) -> None:
    run = cli(
        "suggest", "nope", "--model", "m", "--yes", "--endpoint", "http://127.0.0.1:9/v1", cwd=base
    )
    assert run.code == 1 and "no active skill named 'nope'" in run.err
    assert cli("suggest", "pdf-forms", cwd=base).code == 2  # no --model
    run = cli("suggest", "pdf-forms", "--model", "m", "--per-kind", "0", cwd=base)
    assert run.code == 2 and "--per-kind" in run.err


def test_read_drafts_bounds_and_shapes() -> None:
    drafts, refused = read_drafts(answer(), "pdf-forms", ["csv-clean"])
    assert len(drafts) == 8 and refused == 2
    with pytest.raises(SuggestError, match="no 'requests' list"):
        read_drafts('{"other": []}', "pdf-forms", [])
    with pytest.raises(SuggestError, match="not the JSON asked for"):
        read_drafts("{" + '"a":' * 200 + "1" + "}" * 200, "pdf-forms", [])
    many = [{"text": f"request {i}", "kind": "out", "expect": None} for i in range(150)]
    drafts, refused = read_drafts(json.dumps({"requests": many}), "pdf-forms", [])
    assert len(drafts) == 100 and refused == 50


class Terminal:
    """stdin as a terminal with these lines typed."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = [line + "\n" for line in lines]

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.lines.pop(0) if self.lines else ""


def test_on_a_terminal_each_draft_is_accepted_edited_or_dropped(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drafts = [DRAFTS[0], DRAFTS[2], DRAFTS[5], DRAFTS[7]]
    # accept; edit the leaking one (then accept it); drop; Enter takes the default (a)
    typed = ["a", "e", "fill the boxes of the lease I got", "a", "d", ""]
    monkeypatch.setattr("sys.stdin", Terminal(typed))
    with FakeModel([("text", answer(drafts))]) as fake:
        run = run_suggest(base, fake.url, "--yes", "--write", "s.yaml")
    assert run.code == 0, run.out + run.err
    assert run.out.count("accept, edit or drop? [a/e/d]") == 5
    assert "(d)" in run.out  # a leaking draft is dropped unless accepted
    text = (base / "s.yaml").read_text()
    queries = [line.split('"')[1] for line in text.splitlines() if "- query:" in line]
    assert queries == [DRAFTS[0]["text"], "fill the boxes of the lease I got", DRAFTS[7]["text"]]
    assert "3 cases appended to s.yaml" in run.out


def test_a_remote_endpoint_without_a_key_is_refused_before_the_cost_question(
    base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SUGGEST_KEY")
    monkeypatch.setenv("SKILLSTUDIO_NO_KEYRING", "1")
    run = cli(
        "suggest",
        "pdf-forms",
        "--model",
        "m",
        "--endpoint",
        "https://example.test/v1",
        "--key-env",
        "SUGGEST_KEY",
        cwd=base,
    )
    assert run.code == 2 and "no key for" in run.err and "About to send" not in run.err


def test_write_to_another_tools_format_is_refused_before_sending(base: Path) -> None:
    write(base, "eval_set.json", '[{"query": "fill my form", "should_trigger": true}]')
    with FakeModel([("text", answer())]) as fake:
        run = run_suggest(base, fake.url, "--yes", "--write", "eval_set.json")
    assert run.code == 2 and "SkillStudio suites only" in run.err
    assert fake.received == []
