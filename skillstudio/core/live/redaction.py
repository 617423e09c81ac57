"""The key kept out of everything shown or kept: every form a server may echo it in
(as sent, escaped by repr() or JSON, URL-encoded, inside base64 as in a Basic
`Authorization` header) is replaced by `[key]`, always before a text is cut to length
(a cut first could leave a prefix of the key behind); an answer's JSON is redacted
string by string before anything reads it (its pick, its text, what the cache keeps).
A key a header cannot carry (a line break, another control character, a non-ASCII
character) is refused before anything is sent, without being shown.
"""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from typing import Any
from urllib.parse import quote, quote_plus

MASK = "[key]"
MIN_KEY = 4  # a shorter "key" would mask ordinary words: not redacted
MIN_BASE64 = 8  # characters of a base64 form that depend on the key alone


def _base64_forms(raw: bytes) -> set[str]:
    """The part of any base64 text holding `raw` that depends on `raw` alone, for each
    of its three alignments (what precedes it, such as `user:` in Basic auth, shifts
    it), in the standard and the URL-safe alphabet."""
    forms: set[str] = set()
    for lead in range(3):
        encoded = base64.b64encode(b"\0" * lead + raw).decode("ascii")
        start = -(-lead * 8 // 6)  # the first character made of the key's bits only
        end = (lead + len(raw)) * 8 // 6  # past the last one
        middle = encoded[start:end]
        if len(middle) >= MIN_BASE64:
            forms.add(middle)
            forms.add(middle.replace("+", "-").replace("/", "_"))
    return forms


@lru_cache(maxsize=8)
def key_forms(key: str) -> tuple[str, ...]:
    """Every form of `key` to mask, longest first (a longer form holding a shorter one
    is masked whole)."""
    forms = {
        key,
        repr(key)[1:-1],
        json.dumps(key)[1:-1],
        json.dumps(key, ensure_ascii=False)[1:-1],
        quote(key, safe=""),
        quote_plus(key, safe=""),
    }
    forms |= _base64_forms(key.encode("utf-8"))
    return tuple(sorted((f for f in forms if len(f) >= MIN_KEY), key=len, reverse=True))


def redact(text: str, key: str | None) -> str:
    """`text` with every form of the key replaced by `[key]`."""
    if not key or len(key) < MIN_KEY:
        return text
    for form in key_forms(key):
        if form in text:
            text = text.replace(form, MASK)
    return text


def shown(text: str, key: str | None, limit: int) -> str:
    """`text` redacted, then cut to `limit` characters (in that order)."""
    text = redact(text, key)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def redact_json(data: Any, key: str | None) -> Any:
    """Decoded JSON with the key redacted from every string, object keys included;
    containers are changed in place (no recursion: a deep answer cannot overflow)."""
    if not key or len(key) < MIN_KEY:
        return data
    if isinstance(data, str):
        return redact(data, key)
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, str):
                    node[i] = redact(value, key)
                elif isinstance(value, list | dict):
                    stack.append(value)
        elif isinstance(node, dict):
            for name in list(node):
                value = node[name]
                if isinstance(value, str):
                    value = redact(value, key)
                elif isinstance(value, list | dict):
                    stack.append(value)
                masked = redact(name, key) if isinstance(name, str) else name
                if masked != name:
                    del node[name]
                node[masked] = value
    return data


def key_problem(key: str | None, where: str) -> str | None:
    """Why `key` cannot be sent in a header (None: it can), never showing it: a line
    break, another control character or a non-ASCII character (`where` says where it
    came from)."""
    if key is None:
        return None
    for position, char in enumerate(key, 1):
        if char in "\r\n":
            what = "a line break"
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            what = f"a control character (U+{ord(char):04X})"
        elif ord(char) > 0x7E:
            what = f"a non-ASCII character (U+{ord(char):04X})"
        else:
            continue
        return (
            f"the key in {where} holds {what} at character {position}: a request header "
            "cannot carry it, so nothing was sent; set the key again without it"
        )
    return None
