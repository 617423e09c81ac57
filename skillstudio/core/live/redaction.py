"""The key kept out of everything shown or kept, always before a text is cut to length
(a cut first could leave a prefix of the key behind); an answer's JSON is redacted
string by string before anything reads it (its pick, its text, what the cache keeps).
A key a header cannot carry (a line break, another control character, a non-ASCII
character) is refused before anything is sent, without being shown.

The rule: any MIN_RUN (12) characters of the key in a row are replaced by `[key]`,
wherever they stand and however they are written:
- as they are (the whole key, the key without its last character, a piece of it);
- escaped, one character at a time, in any mix: percent-encoding in either case
  (`%2f`, `%2F`, or every character `%73%6B...`), HTML entities named and numeric
  (`&amp;`, `&#43;`, `&#x2B;`), JSON and Python escapes (`\\/`, `\\u002b`, `\\x2b`,
  `\\\\`, `\\"`). A text holding `%`, `&` or `\\` is read once more with each escape
  decoded to its character, and a run found there is masked in the text as written;
- as hex of its bytes (lower or upper case: 24 digits in a row, or more);
- inside base64 (15 characters in a row of the key's own bits, at any alignment,
  standard or URL-safe alphabet: `Authorization: Basic` carries the key so).
A key shorter than 12 characters is masked only whole (in the same forms); one shorter
than MIN_KEY is not masked (it would mask ordinary words).

How: the key's pieces of 6 characters (starting at 0, 6, 12...: any 12 in a row hold
one whole) are found with `str.find`, in C, and each find is grown both ways as far as
text and key agree; hex and base64 the same way with their own pieces. A text with
more than MAX_HITS finds is a flood (4 MB of the key's pieces, say): its pieces
themselves are masked, which leaves no run whole. 4 MB of text take about 0.15 s,
a short string a few microseconds (one regex search for any piece).

The cost, by design: a text quoting 12 characters in a row of a key's public prefix
(`sk-ant-api03-` is 13) shows `[key]` there; escapes are decoded one level (`%252F`
is not read as `/`); hex is read in one case throughout, not mixed. A text of more
than MAX_ESCAPES escapes is not shown at all (decoding each costs a microsecond, and
no answer or message holds that many): a note with their count stands in its place.
"""

from __future__ import annotations

import base64
import html.entities
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MASK = "[key]"
MIN_KEY = 4  # a shorter "key" would mask ordinary words: not redacted
MIN_RUN = 12  # characters of the key in a row masked wherever they occur
MIN_BASE64_RUN = 15  # base64 characters made of 12 of the key's bytes, at any alignment
MAX_HITS = 10_000  # finds of the key's pieces in one text grown one by one (more: a flood)
MAX_ESCAPES = 20_000  # escapes decoded in one text (more: the text is not shown)
SHORT = 4096  # characters of a text probed for the key's pieces by one regex search

_ESCAPE = re.compile(
    r"%([0-9A-Fa-f]{2})"  # 1: percent-encoding
    r"|&#([0-9]{1,8});?"  # 2: an HTML decimal entity
    r"|&#[xX]([0-9A-Fa-f]{1,8});?"  # 3: an HTML hex entity
    r"|&([A-Za-z][A-Za-z0-9]{1,31});"  # 4: an HTML named entity
    r"|\\u([0-9A-Fa-f]{4})"  # 5: a JSON or Python escape
    r"|\\x([0-9A-Fa-f]{2})"  # 6: a Python escape
    r"|\\([\\/\"'])"  # 7: an escaped backslash, slash or quote
)
_NAMED = {  # HTML's named entities of one ASCII character: `amp;` -> "&"
    name: char
    for name, char in html.entities.html5.items()
    if name.endswith(";") and len(char) == 1 and char.isascii()
}
_OTHER = "\ufffd"  # what an escape of a character no key holds decodes to


@dataclass(frozen=True, slots=True)
class _Forms:
    """What to look for in a text: each target with the run of it that is masked
    (plain), the key's own runs (also looked for in the decoded text), the length
    below which a text cannot hold any of them, and a pattern of every target's pieces
    (for a short text, one search says whether any piece is there)."""

    plain: tuple[tuple[str, int], ...]
    decoded: tuple[tuple[str, int], ...]
    shortest: int
    probe: re.Pattern[str]


@lru_cache(maxsize=8)
def _forms(key: str) -> _Forms:
    run = min(MIN_RUN, len(key))
    own = [(key, run)]
    if " " in key:  # a form-encoded space
        own.append((key.replace(" ", "+"), run))
    hexed = key.encode("utf-8").hex()
    plain = [*own, (hexed, 2 * run), (hexed.upper(), 2 * run)]
    plain += [(m, min(MIN_BASE64_RUN, len(m))) for m in _base64_middles(key.encode("utf-8"))]
    pieces = {piece for target, n in plain for piece, _ in _pieces(target, n)}
    probe = re.compile("|".join(re.escape(p) for p in sorted(pieces, key=len, reverse=True)))
    return _Forms(tuple(plain), tuple(own), min(n for _, n in plain), probe)


def _base64_middles(raw: bytes) -> set[str]:
    """The part of any base64 text holding `raw` that depends on `raw` alone, for each
    of its three alignments (what precedes it, such as `user:` in Basic auth, shifts
    it), in the standard and the URL-safe alphabet."""
    forms: set[str] = set()
    for lead in range(3):
        encoded = base64.b64encode(b"\0" * lead + raw).decode("ascii")
        start = -(-lead * 8 // 6)  # the first character made of the key's bits only
        end = (lead + len(raw)) * 8 // 6  # past the last one
        middle = encoded[start:end]
        if len(middle) >= MIN_KEY:
            forms.add(middle)
            forms.add(middle.replace("+", "-").replace("/", "_"))
    return forms


def redact(text: str, key: str | None) -> str:
    """`text` with every run of the key (module docstring) replaced by `[key]`."""
    if not key or len(key) < MIN_KEY:
        return text
    forms = _forms(key)
    if len(text) < forms.shortest:
        return text
    spans: list[tuple[int, int]] = []
    if "%" in text or "&" in text or "\\" in text:
        escapes = _ESCAPE.subn("", text)[1]  # counted in C, nothing decoded yet
        if escapes > MAX_ESCAPES:
            return f"[a text of {escapes:,} escapes, not shown: they may hide the key]"
        if escapes:
            decoded, found = _decoded_runs(text, forms)
            if found is None:  # a flood of escaped pieces: shown decoded, pieces masked
                return _pieces_masked(decoded, forms.plain)
            spans += found
    found, flooded = _all_runs(text, forms.plain, forms)
    text = _masked(text, spans + found) if spans or found else text
    return _pieces_masked(text, flooded) if flooded else text


def _all_runs(
    text: str, targets: tuple[tuple[str, int], ...], forms: _Forms
) -> tuple[list[tuple[int, int]], list[tuple[str, int]]]:
    """(the spans of the targets' runs in `text`, the targets whose pieces flood it)."""
    if len(text) <= SHORT and forms.probe.search(text) is None:
        return [], []
    spans: list[tuple[int, int]] = []
    flooded = []
    for target, run in targets:
        found = _runs(text, target, run)
        if found is None:
            flooded.append((target, run))
        else:
            spans += found
    return spans, flooded


@lru_cache(maxsize=64)
def _pieces(target: str, run: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Target's pieces of `step` characters starting at multiples of `step`, with
    where they start in it; every run of `run` characters holds one (run >= 2 * step - 1)."""
    step = (run + 1) // 2
    starts: dict[str, list[int]] = {}
    for start in range(0, len(target) - step + 1, step):
        starts.setdefault(target[start : start + step], []).append(start)
    return tuple((piece, tuple(where)) for piece, where in starts.items())


def _runs(text: str, target: str, run: int) -> list[tuple[int, int]] | None:
    """The spans of `text` equal to `run` or more characters in a row of `target`: its
    pieces are found with str.find, and each find is grown both ways as far as text
    and target agree. None when the pieces occur more than MAX_HITS times (growing
    each would take seconds: the caller masks the pieces themselves)."""
    pieces = _pieces(target, run)
    if sum(text.count(piece) for piece, _ in pieces) > MAX_HITS:
        return None
    spans: list[tuple[int, int]] = []
    for piece, starts in pieces:
        at = text.find(piece)
        while at != -1:
            for start in starts:
                left = _agree_back(text, at, target, start)
                right = _agree(text, at, target, start)
                if left + right >= run:
                    spans.append((at - left, at + right))
            at = text.find(piece, at + 1)
    return spans


def _pieces_masked(text: str, targets: Iterable[tuple[str, int]]) -> str:
    """`text` with every piece of the targets replaced by MASK: coarser than their runs
    (a piece is half a run), never less (no run keeps a piece whole)."""
    for target, run in targets:
        for piece, _ in _pieces(target, run):
            text = text.replace(piece, MASK)
    return text


def _agree(text: str, at: int, target: str, start: int) -> int:
    """How many characters of text from `at` equal target's from `start`."""
    low, high = 0, min(len(target) - start, len(text) - at)
    while low < high:  # a binary search of startswith() calls, each in C
        middle = (low + high + 1) // 2
        if text.startswith(target[start : start + middle], at):
            low = middle
        else:
            high = middle - 1
    return low


def _agree_back(text: str, at: int, target: str, start: int) -> int:
    """How many characters of text before `at` equal target's before `start`."""
    low, high = 0, min(start, at)
    while low < high:
        middle = (low + high + 1) // 2
        if text.endswith(target[start - middle : start], 0, at):
            low = middle
        else:
            high = middle - 1
    return low


@lru_cache(maxsize=4096)
def _decoded_escape(escape: str) -> str:
    """One escape's character (_OTHER for one no key holds)."""
    match = _ESCAPE.fullmatch(escape)
    which = match.lastindex if match is not None else None
    if match is None or which is None:
        return _OTHER
    value = match.group(which)
    if which == 4:
        return _NAMED.get(value + ";", _OTHER)
    if which == 7:
        return value
    code = int(value, 10 if which == 2 else 16)
    return chr(code) if code < 0x80 else _OTHER  # a key is ASCII (key_problem)


def _decode(match: re.Match[str]) -> str:
    return _decoded_escape(match.group())


def _decoded_runs(text: str, forms: _Forms) -> tuple[str, list[tuple[int, int]] | None]:
    """(the text with its escapes decoded, the key's runs found there as spans of `text`
    itself; None: a flood of them). Each escape decodes to one character, so a position
    in the decoded text maps back by the lengths of the escapes before it."""
    decoded = _ESCAPE.sub(_decode, text)
    found, flooded = _all_runs(decoded, forms.decoded, forms)
    if flooded:
        return decoded, None
    if not found:
        return decoded, []
    points = sorted({point for span in found for point in span})
    where: dict[int, int] = {}
    shift = 0  # characters the escapes so far are longer than what they decode to
    next_point = 0
    for match in _ESCAPE.finditer(text):
        decoded_at = match.start() - shift
        while next_point < len(points) and points[next_point] <= decoded_at:
            where[points[next_point]] = points[next_point] + shift
            next_point += 1
        if next_point == len(points):
            break
        shift += match.end() - match.start() - 1
    for point in points[next_point:]:
        where[point] = point + shift
    return decoded, [(where[start], where[end]) for start, end in found]


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the spans replaced by MASK, overlapping or touching ones by one."""
    joined: list[list[int]] = []
    for start, end in sorted(spans):
        if joined and start <= joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], end)
        else:
            joined.append([start, end])
    out: list[str] = []
    done = 0
    for start, end in joined:
        out += [text[done:start], MASK]
        done = end
    out.append(text[done:])
    return "".join(out)


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
