"""A wrapped text value edited in its own layout: plain or quoted over several lines,
folded (`>`) or literal (`|`). The new text is wrapped at the width the old one was
wrapped at, with the same indentation, block style and chomping where the text allows,
and every old line the edit did not reach is kept byte for byte.

The width is the longest old line, counted from column 0 (a first line that shares
the key's line counts the key). A value that was never wrapped (one line of a
block scalar) has no width of its own: DEFAULT_WIDTH is the least then. A plain
text that can no longer be plain (a ': ' or ' #' in it) is written single-quoted,
else double-quoted, at the same width. Every region is read back before it is
used; one that does not read back as the text gives None, and the caller writes
the entry anew.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import yaml

from ..reading import yaml_io
from ..reading.yaml_io import PLAIN_START_BAD, double_quoted, single_quoted

DEFAULT_WIDTH = 80
_HEADER = re.compile(r"([|>])([-+0-9]*)")
_BREAK = re.compile(r"(?<=\S) (?=\S)")  # a single space between two words


def rewrap(node: yaml.Node, value: Any, region: list[str], first: int) -> list[str] | None:
    """The entry's new lines (`region`: its old lines, starting at line `first`), or
    None when the value is not a wrapped text this can write in its style."""
    if not isinstance(node, yaml.ScalarNode) or not isinstance(value, str) or not value:
        return None
    start, end = node.start_mark.line - first, node.end_mark.line - first
    if node.style in ("|", ">"):
        out = _block(node, value, region, start)
    elif start != end and end < len(region):
        out = _flow(node, value, region, start, end)
    else:
        return None
    return out if out is not None and _reads_back(out, value) else None


def _paragraphs(value: str) -> list[tuple[str, int]] | None:
    """Each run of text with the number of line breaks after it; None when a line
    starts or ends with white space or the text ends with a break (folding would
    not keep them)."""
    out: list[tuple[str, int]] = []
    for chunk in re.split(r"(\n+)", value):
        if chunk.startswith("\n"):
            if not out:
                return None
            out[-1] = (out[-1][0], len(chunk))
        elif chunk:
            if chunk != chunk.strip() or "\t" in chunk:
                return None
            out.append((chunk, 0))
    return out if out and out[-1][1] == 0 else None


def _fill(text: str, room: list[int], old: list[str]) -> list[str]:
    """`text` in lines, the first `room[0]` wide and the rest `room[1]`, filled
    greedily; a line at least half full that can end where an old line began, the
    rest of the text being exactly the old lines from there, ends there and the old
    lines are kept."""
    words = _BREAK.split(text) if text else []
    per_line = [_BREAK.split(line) for line in old]
    old_words = [word for line in per_line for word in line]
    common = 0  # the words the new text ends with as the old one did
    while common < min(len(words), len(old_words)) and words[-1 - common] == old_words[-1 - common]:
        common += 1
    tails: dict[int, int] = {}  # word index -> the old line that starts there
    size = len(old_words)
    for begin, line_words in enumerate(per_line):
        if size <= common:
            tails.setdefault(len(words) - size, begin)
        size -= len(line_words)
    out: list[str] = []
    index = 0
    while index < len(words):
        if index in tails and (out or len(old[tails[index]]) <= room[0]):
            return out + old[tails[index] :]
        width = room[0] if not out else room[1]
        line = words[index]
        index += 1
        while index < len(words) and len(line) + 1 + len(words[index]) <= width:
            if index in tails and len(line) >= width // 2:
                break  # the rest are old lines: end here (not too short) and keep them
            line += " " + words[index]
            index += 1
        out.append(line)
    return out


def _keep_prefix(text: str, old: list[str]) -> list[str]:
    """The old lines, all but the paragraph's last, that still begin `text` at a
    word break: they stay as they were."""
    kept: list[str] = []
    at = 0
    for line in old[:-1]:
        stop = at + len(line)
        if text[at:stop] == line and _BREAK.match(text, stop) is not None:
            kept.append(line)
            at = stop + 1
        else:
            break
    return kept


def _wrap(paras: list[tuple[str, int]], room: list[int], old: list[list[str]]) -> list[str]:
    """Paragraphs wrapped (old lines kept where the text still has them), the n line
    breaks after a paragraph written as n blank lines."""
    lines: list[str] = []
    for index, (text, breaks) in enumerate(paras):
        width = room if not lines else [room[1], room[1]]
        before = old[index] if index < len(old) else []
        kept = _keep_prefix(text, before)
        rest = text[sum(len(k) + 1 for k in kept) :]
        lines += kept + _fill(rest, width if not kept else [room[1], room[1]], before[len(kept) :])
        lines += [""] * breaks
    return lines


def _old_paragraphs(contents: list[str]) -> list[list[str]]:
    """The old content lines (indentation off) grouped by paragraph."""
    groups: list[list[str]] = [[]]
    for line in contents:
        if line.strip():
            groups[-1].append(line.strip())
        elif groups[-1]:
            groups.append([])
    return [g for g in groups if g]


def _width(old: list[list[str]], lines: list[str]) -> int:
    """The width the old lines were wrapped at (DEFAULT_WIDTH at least when they
    never were)."""
    longest = max((len(line.rstrip()) for line in lines), default=0)
    return longest if any(len(group) > 1 for group in old) else max(longest, DEFAULT_WIDTH)


def _block(node: yaml.ScalarNode, value: str, region: list[str], start: int) -> list[str] | None:
    head = region[start]
    found = _HEADER.match(head, node.start_mark.column)
    if found is None or "+" in found.group(2) or value.endswith("\n\n"):
        return None  # kept trailing blank lines: the entry's region does not hold them
    new_head = head  # the chomping changes only when the text's last line break does
    if ("-" in found.group(2)) == value.endswith("\n"):
        digits = found.group(2).replace("-", "")
        new_head = head[: found.start(2)] + digits + ("" if value.endswith("\n") else "-")
        new_head += head[found.end(2) :]
    old = region[start + 1 :]
    filled = [line for line in old if line.strip()]
    if not filled:
        return None
    indent = filled[0][: len(filled[0]) - len(filled[0].lstrip())]
    if not indent or any(not line.startswith(indent) for line in filled):
        return None
    text = value[:-1] if value.endswith("\n") else value
    if node.style == "|":  # a literal's line breaks are its text: nothing to rewrap
        rows = [indent + line if line else "" for line in text.split("\n")]
        rows = [
            old[i] if i < len(old) and not row and not old[i].strip() else row
            for i, row in enumerate(rows)
        ]
        return [*region[:start], new_head, *rows]
    paras = _paragraphs(text)
    contents = [line[len(indent) :] if line.strip() else "" for line in old]
    if paras is None or any(line.startswith((" ", "\t")) for line in contents):
        return None  # more-indented lines keep their breaks: not ours to rewrap
    before = _old_paragraphs(contents)
    width = _width(before, old) - len(indent)
    rows = _wrap(paras, [width, width], before)
    return [*region[:start], new_head, *[indent + r if r else "" for r in rows]]


def _flow(
    node: yaml.ScalarNode, value: str, region: list[str], start: int, end: int
) -> list[str] | None:
    """A plain or quoted text over several lines (the first may share the key's)."""
    prefix = region[start][: node.start_mark.column]
    suffix = region[end][node.end_mark.column :]
    rest = [line for line in region[start + 1 : end + 1] if line.strip()]
    paras = _paragraphs(value)
    if not rest or paras is None:
        return None
    indent = rest[0][: len(rest[0]) - len(rest[0].lstrip())]
    if not indent:
        return None
    old_lines = [region[start][node.start_mark.column :]]
    old_lines += [line.strip() for line in region[start + 1 : end + 1]]
    old_lines[-1] = old_lines[-1][: len(old_lines[-1]) - len(suffix)].rstrip()
    old = _old_paragraphs(old_lines)
    width = _width(old, region[start : end + 1])
    was = {"'": "'", '"': '"'}.get(node.style or "", "")
    quote = was
    if not was and not _plain_ok(paras):
        quote = "'" if single_quoted(value) is not None else '"'
    if quote == "'":
        paras = [(t.replace("'", "''"), n) for t, n in paras]
    elif quote == '"':
        paras = [(double_quoted(t)[1:-1], n) for t, n in paras]
    if was and old:
        old[0][0], old[-1][-1] = old[0][0][1:], old[-1][-1][:-1]
        old = [[line for line in group if line] for group in old]
    rows = _wrap(paras, [width - len(prefix) - len(quote), width - len(indent)], old)
    out = [*region[:start], prefix + quote + rows[0]]
    out += [indent + r if r else "" for r in rows[1:]]
    out[-1] += quote + suffix
    return out


def _plain_ok(paras: list[tuple[str, int]]) -> bool:
    for text, _ in paras:
        if not yaml_io.plain_ok(text) and not _plain_words_ok(text):
            return False
    first = paras[0][0]
    return first[0] not in PLAIN_START_BAD and yaml_io.plain_ok(first.split(" ")[0])


def _plain_words_ok(text: str) -> bool:
    """A paragraph that is not plain on its own only because it reads as a number or
    such is still plain in a longer text; ': ', ' #' never are."""
    return not (": " in text or " #" in text or text.endswith(":") or text.startswith("#"))


def _reads_back(lines: list[str], value: str) -> bool:
    text = textwrap.dedent("\n".join(lines)) + "\n"
    try:
        loaded = yaml_io.load(text, yaml_io.FRONTMATTER)
    except (yaml.YAMLError, yaml_io.YamlRefused):
        return False
    return isinstance(loaded, dict) and len(loaded) == 1 and list(loaded.values()) == [value]
