"""The key kept out of what eval shows and keeps, in every form a server may echo it
(issue 34's red team: lower-case and full percent-encoding, JSON's `\\/`, HTML entities,
hex, the key without its last character), by the rule of core/live/redaction.py: any
12 characters of the key in a row, however written, become `[key]`. Servers listen on
127.0.0.1 (tests/live_fake.py).
"""

from __future__ import annotations

import base64
import html
import json
import time
from pathlib import Path

import pytest

from skillstudio.core.live.redaction import MASK, redact, shown

from .live_fake import FakeModel, Script
from .test_live import registry_for
from .test_live_hostile import run_eval

KEY = "sk-live/AbCd+EfGh=IjKl&MnOp<QrSt"  # the red team's: every escaper changes it


def percent(text: str, upper: bool, every: bool) -> str:
    return "".join(
        c if c.isalnum() and not every else (f"%{ord(c):02X}" if upper else f"%{ord(c):02x}")
        for c in text
    )


FORMS = {
    "percent, lower case": percent(KEY, upper=False, every=False),
    "percent, upper case": percent(KEY, upper=True, every=False),
    "percent, every character": percent(KEY, upper=False, every=True),
    "percent, every character, upper case": percent(KEY, upper=True, every=True),
    "JSON, escaped slashes": json.dumps(KEY)[1:-1].replace("/", "\\/"),
    "JSON, \\u escapes": "".join(f"\\u{ord(c):04x}" for c in KEY),
    "HTML, named entities": html.escape(KEY),
    "HTML, numeric entities": "".join(f"&#{ord(c)};" for c in KEY),
    "HTML, mixed": KEY.replace("&", "&amp;").replace("+", "&#43;").replace("<", "&#x3C;"),
    "hex": KEY.encode().hex(),
    "hex, upper case": KEY.encode().hex().upper(),
    "without its last character": KEY[:-1],
    "without its first character": KEY[1:],
    "12 characters from its middle": KEY[9:21],
    "repr": repr(KEY),
    "base64 after user:": base64.b64encode(b"user:" + KEY.encode()).decode(),
    "base64, without its last character": base64.b64encode(KEY[:-1].encode()).decode(),
}


def leaked(text: str, form: str) -> list[str]:
    """The 12-character slices of `form` (and of the key) found in `text`."""
    slices = {form[i : i + 12] for i in range(max(1, len(form) - 11))}
    slices |= {KEY[i : i + 12] for i in range(len(KEY) - 11)}
    return sorted(s for s in slices if s in text)


@pytest.mark.parametrize("name", list(FORMS))
def test_every_form_of_the_key_is_masked(name: str) -> None:
    form = FORMS[name]
    out = redact(f"bad key: {form}. Try again.", KEY)
    assert out.startswith("bad key: ") and out.endswith(". Try again.")
    assert MASK in out and leaked(out, form) == [], out


def test_ordinary_text_is_left_alone_and_short_keys_are_masked_whole() -> None:
    for text in ["100% & \\ fine &amp; %41 \\u0041", "sk-live/AbC", "a" * 5000, ""]:
        assert redact(text, KEY) == text
    assert redact("the key sk-12345 and sk-1234", "sk-12345") == "the key [key] and sk-1234"
    assert redact("sk%2D12345", "sk-12345") == "[key]"
    # masked before the cut: no prefix of the key is left at the end of a cut text
    assert shown("x" * 290 + KEY[:-1], KEY, 300) == "x" * 290 + MASK


def test_redaction_of_4_mb_stays_fast() -> None:
    """Each 4 MB text: plain prose, the key's pieces back to back, the key repeated,
    the key percent-encoded 600 times, hex; a flood of escapes is not shown."""
    texts = {
        "prose": "The quick brown fox jumps over the lazy dog. " * 90_000,
        "pieces": KEY[:6] * 700_000,
        "keys": (KEY + " ") * 120_000,
        "encoded": ((percent(KEY, True, True) + " ") * 600).ljust(4_000_000, "."),
        "hex": KEY.encode().hex() * 60_000,
        "escapes": "&amp;%41\\/" * 400_000,
    }
    for name, text in texts.items():
        start = time.process_time()  # this process's CPU: other work on the machine aside
        out = redact(text, KEY)
        took = time.process_time() - start
        assert took < 1.0, f"{name}: {took:.2f} s"
        assert KEY[:12] not in out and KEY[-12:] not in out, name
    assert redact(texts["prose"], KEY) == texts["prose"]
    assert redact(texts["encoded"], KEY).startswith(f"{MASK} {MASK} ")
    assert redact(texts["escapes"], KEY) == (
        "[a text of 1,200,000 escapes, not shown: they may hide the key]"
    )


def test_eval_shows_and_keeps_no_form_of_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 401 whose message repeats the key in every form, and answers whose text does:
    main printed them in clear, stored them in the cache and the --format json report."""
    registry_for(tmp_path, "claude-code")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("MY_KEY", KEY)
    echo = " | ".join(FORMS.values())
    with FakeModel([("error", 401, echo)]) as fake:
        outputs = run_eval(tmp_path, fake.url, KEY, "--api", "anthropic")
    assert "HTTP 401" in outputs[0] and MASK in outputs[0]
    for name, form in FORMS.items():
        assert [leaked(o, form) for o in outputs] == [[]] * 4, name
    script: Script = [("text", f"Your key: {form}.") for form in FORMS.values()]
    with FakeModel(script) as fake:
        runs = str(len(FORMS))
        outputs = run_eval(tmp_path, fake.url, KEY, "--runs", runs, "--concurrency", "1")
    report = json.loads(outputs[2])["reports"][0]
    texts = [r["text"] for r in report["cases"][0]["runs"]]
    assert len(texts) == len(FORMS) and all(t.startswith("Your key: ") for t in texts)
    cached = [p.read_text() for p in (tmp_path / "cache").rglob("*.json")]
    assert len(cached) == len(FORMS)
    decoded = [json.dumps(json.loads(c), ensure_ascii=False) for c in [*cached, outputs[2]]]
    for name, form in FORMS.items():
        assert [leaked(o, form) for o in outputs + cached + decoded] == [[]] * (
            4 + 2 * len(FORMS) + 1
        ), name
