"""An answer's body, read raw and unpacked here, counted against its bound as it
arrives: a few hundred bytes marked `Content-Encoding: gzip, gzip, gzip` must not
become a gigabyte before the bound is looked at.

httpx's decoded reading (`iter_bytes`) unpacks each layer whole; here the raw bytes
(`iter_raw`) go through one zlib stream asked for at most the room left under the
bound, so memory stays near the bound whatever the ratio. One encoding at most, and
only the ones this client asks for (`Accept-Encoding: gzip, deflate`): a body packed
twice, or in an encoding not asked for, is refused before a byte of it is read.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable

from ..model.text import counted

ACCEPT_ENCODING = "gzip, deflate"  # what requests say they read (nothing else is)
_GZIP = 16 + zlib.MAX_WBITS
_WBITS = {"gzip": _GZIP, "x-gzip": _GZIP, "deflate": zlib.MAX_WBITS}
PIECE = 256 * 1024  # bytes unpacked at a time


class BodyRefused(Exception):
    """An answer that is not read: too large, packed more than once or in an unknown
    way, or damaged. The message may hold a header's text: redact it before showing."""


def over(limit: int) -> str:
    return f"the answer is over {counted(limit, 'byte')}"


def content_coding(values: Iterable[str]) -> str | None:
    """The one encoding of a body from its `Content-Encoding` values (None: as is)."""
    names = [v.strip().lower() for v in values]
    names = [n for n in names if n and n != "identity"]
    if len(names) > 1:
        raise BodyRefused(
            f"the answer is packed {len(names)} times over "
            f"(Content-Encoding: {', '.join(names)}); at most once is read"
        )
    if not names:
        return None
    if names[0] not in _WBITS:
        raise BodyRefused(
            f"the answer is packed as {names[0]!r}, which is not read here (gzip or deflate)"
        )
    return names[0]


def read_body(
    chunks: Iterable[bytes],
    coding: str | None,
    limit: int,
    tick: Callable[[], None],
    observe: Callable[[bytes], None] | None = None,
) -> bytes:
    """The body from its raw chunks, unpacked by `coding`, at most `limit` bytes either
    way (more: BodyRefused); `tick` runs before each chunk (a deadline or a cancel
    raises there), `observe` sees each piece as it is unpacked (its error ends the
    reading: answer_json.py counts an answer's values so)."""
    out = bytearray()
    received = 0
    inflater = zlib.decompressobj(_WBITS[coding]) if coding is not None else None
    for chunk in chunks:
        tick()
        received += len(chunk)
        if received > limit:
            raise BodyRefused(over(limit))
        if inflater is None:
            if observe is not None:
                observe(chunk)
            out += chunk
            continue
        data = chunk
        while data and not inflater.eof:  # what follows the end is left, as httpx does
            room = min(PIECE, limit + 1 - len(out))  # a bomb's megabytes come a piece a time
            try:
                piece = inflater.decompress(data, room)
            except zlib.error:
                if coding == "deflate" and not out and received == len(chunk):
                    inflater = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, no header
                    coding = "raw deflate"
                    continue
                raise BodyRefused("the answer's packed data is damaged") from None
            if observe is not None and piece:
                observe(piece)
            out += piece
            if len(out) > limit:
                raise BodyRefused(over(limit))
            data = inflater.unconsumed_tail
    if inflater is not None:
        try:
            rest = inflater.flush()
        except zlib.error:
            raise BodyRefused("the answer's packed data is damaged") from None
        if observe is not None and rest:
            observe(rest)
        out += rest
        if len(out) > limit:
            raise BodyRefused(over(limit))
    return bytes(out)
