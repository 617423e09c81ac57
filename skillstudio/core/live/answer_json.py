"""An answer's JSON, counted as it arrives and parsed only once it is known to be small
in values and depth.

The 4 MB bound on an answer's bytes does not bound what parsing builds: 4 MB of `[],`
is 1.4 million lists (150 MB in Python, and json.loads holds the interpreter for half a
second, so Ctrl+C waits). So the bytes are counted before anything is built, chunk by
chunk as the body is unpacked (body.py): strings, `[`, `{` and `,` outside strings (a
value is a string, a container or follows a comma) at most MAX_ITEMS, nesting at most
MAX_DEPTH. The body stops being read the moment a bound is passed: the million lists
are refused after their first 300 KB. An answer holds a few dozen items.

Counting is in C where it can be (`bytes.find` and `bytes.count` between strings, a
possessive regex across a string); the loop in Python turns once per string and per
bracket, both bounded by MAX_ITEMS. The bytes must be UTF-8 (RFC 8259's rule between
systems): there an ASCII byte is always that character, so counting bytes counts the
JSON. Strings are found left to right as the parser finds them (an unterminated one
runs to the end), so for bytes that are not JSON the count covers at least what
json.loads would build before it fails.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_ITEMS = 100_000  # strings, `[`, `{` and `,` outside strings
MAX_DEPTH = 64  # containers inside containers

# The rest of a string from inside it, up to its closing quote (not included) or the
# end of the chunk; possessive, so a text of escaped quotes is scanned once.
_IN_STRING = re.compile(rb'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_OPEN = frozenset(b"[{")
_QUOTE, _BACKSLASH = ord('"'), ord("\\")


class AnswerRefused(Exception):
    """Bytes that are not parsed: not JSON, or more items or depth than an answer has."""


class JsonBounds:
    """The items and depth of JSON bytes fed in chunks; `feed` raises AnswerRefused the
    moment either passes its bound (or a bracket closes more than was opened)."""

    def __init__(self) -> None:
        self.items = 0
        self.depth = 0
        self.in_string = False
        self.escaped = False  # a chunk ended on a backslash inside a string

    def feed(self, chunk: bytes) -> None:
        position, end = 0, len(chunk)
        while position < end:
            if self.in_string:
                if self.escaped:
                    self.escaped = False
                    position += 1
                    continue
                found = _IN_STRING.match(chunk, position)
                position = found.end() if found is not None else position
                if position == end:
                    break
                if chunk[position] == _BACKSLASH:  # the chunk's last byte: escapes the next
                    self.escaped = True
                else:  # the closing quote
                    self.in_string = False
                position += 1
                continue
            quote = chunk.find(b'"', position)
            stop = end if quote == -1 else quote
            self._outside(chunk, position, stop)
            if quote == -1:
                break
            self.items += 1
            self.in_string = True
            position = quote + 1
        self._check_items()

    def _outside(self, chunk: bytes, start: int, stop: int) -> None:
        """Count the bytes of `chunk[start:stop]`, outside strings."""
        opens = chunk.count(b"[", start, stop) + chunk.count(b"{", start, stop)
        self.items += opens + chunk.count(b",", start, stop)
        self._check_items()
        closes = chunk.count(b"]", start, stop) + chunk.count(b"}", start, stop)
        if not opens and not closes:
            return
        if self.depth + opens <= MAX_DEPTH and self.depth >= closes:
            self.depth += opens - closes  # neither bound can be passed in between
            return
        for byte in chunk[start:stop].translate(None, _NOT_BRACKETS):
            self.depth += 1 if byte in _OPEN else -1
            if self.depth > MAX_DEPTH:
                raise AnswerRefused(f"the answer nests more than {MAX_DEPTH} levels deep: not read")
            if self.depth < 0:
                raise AnswerRefused("the answer is not JSON")

    def _check_items(self) -> None:
        if self.items > MAX_ITEMS:
            raise AnswerRefused(
                f"the answer holds more than {MAX_ITEMS:,} JSON values and separators "
                "(an answer holds a few dozen): not read"
            )


def parse_answer(raw: bytes, counted: JsonBounds | None = None) -> Any:
    """The decoded JSON of an answer's bytes, or AnswerRefused. `counted`: the bounds
    the bytes were fed to as they arrived (else they are counted here first)."""
    if json.detect_encoding(raw) not in ("utf-8", "utf-8-sig"):
        raise AnswerRefused("the answer is not JSON (not UTF-8)")
    if counted is None:
        JsonBounds().feed(raw)
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise AnswerRefused("the answer is not JSON") from None
