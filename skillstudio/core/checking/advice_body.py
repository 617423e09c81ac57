"""Authoring advice on a skill's body and folder (core/checking/advice.py runs it).

- `reference-depth`: a file the body links to that links on to another of the skill's
  markdown files (an agent may read only part of a file reached through another);
- `path-backslash`: a Windows `\\` path in the text (a fix turns it into `/`). Read as
  Markdown reads it: outside code spans a backslash before ASCII punctuation is an
  escape (`config\\_loader.py` is `config_loader.py`), never a separator; inside a code
  span every backslash is itself. A name after the blanks of a Windows path with
  spaces (`C:\\Program Files\\Tool\\x.exe`) is part of that path, not a path of its own;
- `path-absolute`: a path into one person's home folder (works on one machine only);
- `skill-too-large`: a folder over the Skills API's upload size.

Everything read is bounded and confined to the skill folder: at most MAX_REFERENCES
linked files, each up to REFERENCE_BYTES, and a walk of at most MAX_WALKED entries
that follows no link. Each path looked at is named for the cache of what was read.
"""

from __future__ import annotations

import os
import re
import stat
import string
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.document import Document
from ..model.explanations import ADVICE
from ..model.fixes import FixPlan, TextEdit
from ..model.paths import is_inside
from ..model.text import counted
from ..profile import Checker
from ..reading.looked import looked_at
from ..reading.safefs import OPEN_FLAGS
from .fix_plans import register

MAX_REFERENCES = 20  # linked markdown files read for `reference-depth`
REFERENCE_BYTES = 64 * 1024  # of each, at most
MAX_WALKED = 2_000  # entries of a skill folder `skill-too-large` looks at
UPLOAD_BYTES = 8 * 1024 * 1024  # the Skills API's limit on one skill's files
# a relative path whose parts are joined by backslashes and that ends in a file name
_BACKSLASH = re.compile(
    r"(?<![\w\\/:.$%-])((?:[\w.-]+\\(?=[A-Za-z0-9._]))+[\w.-]*[A-Za-z0-9_]\.[A-Za-z0-9]{1,8})"
    r"(?![\w\\])"
)
# the end of a line's text that leaves off inside an absolute Windows path with blanks
# (`C:\\Program Files\\`, `\\\\server\\my share\\`, `C:\\Program Files\\Notepad++\\My App\\`):
# a drive or share, then names (any character Windows allows in one: `&`, `+`, `'`,
# `,`, brackets) each followed by a backslash or (without a dot: a file name ends the
# path) by blanks (a no-break space too: text copied from a web page)
_WINDOWS_NAME = r"[^\\/:*?\"<>|\s]"
_OPEN_WINDOWS_PATH = re.compile(
    rf"(?:\b[A-Za-z]:\\|\\\\)(?:{_WINDOWS_NAME}+\\|[^\\/:*?\"<>|\s.]+[^\S\n]+)*$"
)
PATH_CHARS = 260  # of a line before a match looked at for an open Windows path
_PUNCTUATION = frozenset(string.punctuation)  # CommonMark's ASCII punctuation
_TICKS = re.compile(r"`+")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)", re.M)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_HOME = re.compile(r"(?<![\w/.~-])(?:/Users/|/home/|[A-Za-z]:[\\/]Users[\\/])[^\s/\\`'\")\]]+")
_MD_LINK = re.compile(r"\]\(\s*<?([^)\s>]+\.md)(?:#[^)\s>]*)?>?(?:\s[^)]*)?\)", re.I)
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _severity(code: str) -> Any:
    return ADVICE[code].severity


def prose_spans(body: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the body outside fenced code blocks (a fence: ``` or ~~~
    after at most three blanks at a line start, closed by the same mark)."""
    # (one pass over the lines: a long line of backticks costs no search back per mark)
    marks = [(m.start(), m.group(1)) for m in _FENCE.finditer(body)]
    if not marks:
        return [(0, len(body))] if body else []
    spans: list[tuple[int, int]] = []
    start = 0
    fence: str | None = None
    for line, mark in sorted(marks):
        if fence is None:
            spans.append((start, line))
            fence = mark
        elif mark == fence:
            fence = None
            end = body.find("\n", line)
            start = len(body) if end < 0 else end + 1
    if fence is None:
        spans.append((start, len(body)))
    return [(a, b) for a, b in spans if b > a]


class Prose:
    """A text's matches outside fenced code, the fences found only once a match is;
    and whether a place is in an inline code span (found once asked)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._spans: list[tuple[int, int]] = []
        self._code: list[tuple[int, int]] | None = None
        self._code_starts: list[int] = []

    def holds(self, offset: int) -> bool:
        if self._starts is None:
            self._spans = prose_spans(self.text)
            self._starts = [a for a, _ in self._spans]
        index = bisect_right(self._starts, offset) - 1
        return index >= 0 and offset < self._spans[index][1]

    def finditer(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        for match in pattern.finditer(self.text):
            if self.holds(match.start()):
                yield match

    def in_code(self, offset: int) -> bool:
        """Whether `offset` lies in an inline code span of the prose."""
        if self._code is None:
            self.holds(0)
            self._code = [s for a, b in self._spans for s in code_spans(self.text, a, b)]
            self._code_starts = [a for a, _ in self._code]
        index = bisect_right(self._code_starts, offset) - 1
        return index >= 0 and offset < self._code[index][1]


def code_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) of each inline code span of `text[start:end]`, as CommonMark reads
    them: a run of backticks opens one, closed by the next run of the same length in
    the same paragraph; a backslash before the first backtick of an opening run escapes
    that backtick (inside a span a backslash is itself)."""
    end = len(text) if end is None else end
    breaks = [m.start() for m in _BLANK_LINE.finditer(text, start, end)]
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text, start, end)]
    by_length: dict[int, list[int]] = {}
    for index, (a, b) in enumerate(runs):
        by_length.setdefault(b - a, []).append(index)
    spans: list[tuple[int, int]] = []
    after = start  # text before this offset is inside a span found already
    for index, (a, b) in enumerate(runs):
        if a < after:
            continue
        slashes = 0
        while a - slashes - 1 >= after and text[a - slashes - 1] == "\\":
            slashes += 1
        opens = a + slashes % 2
        if opens == b:
            continue
        paragraph_end = next_break(breaks, opens, end)
        candidates = by_length.get(b - opens, [])
        at = bisect_right(candidates, index)
        if at < len(candidates) and runs[candidates[at]][0] < paragraph_end:
            close = runs[candidates[at]][1]
            spans.append((opens, close))
            after = close
    return spans


def next_break(breaks: list[int], offset: int, end: int) -> int:
    """The first paragraph break at or after `offset` (or `end`)."""
    index = bisect_right(breaks, offset)
    return breaks[index] if index < len(breaks) else end


def _position(body: str, starts: list[int], offset: int) -> tuple[int, int]:
    line = bisect_right(starts, offset) - 1
    return line, offset - starts[line] + 1


def _line_starts(body: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", body))
    return starts


def backslash_paths(body: str, prose: Prose | None = None) -> list[tuple[int, str]]:
    """(offset in the body, path) of each `a\\b.ext` path outside fenced code, as
    Markdown reads it: not one whose backslash is an escape, nor a piece of a Windows
    path with blanks."""
    if "\\" not in body:
        return []
    prose = prose or Prose(body)
    out: list[tuple[int, str]] = []
    for match in prose.finditer(_BACKSLASH):
        start, path = match.start(1), match.group(1)
        if _escapes(path) and not prose.in_code(start):
            continue
        if _continues_a_path(body, start):
            continue
        out.append((start, path))
    return out


def _escapes(path: str) -> bool:
    """Whether a backslash of `path` stands before ASCII punctuation (an escape in
    Markdown's text)."""
    return any(path[i + 1] in _PUNCTUATION for i, ch in enumerate(path[:-1]) if ch == "\\")


def _continues_a_path(body: str, start: int) -> bool:
    """Whether the path at `start` follows the blanks of an absolute Windows path that
    goes on through them (`Files\\Tool\\x.exe` of `C:\\Program Files\\Tool\\x.exe`)."""
    if start == 0 or not body[start - 1].isspace() or body[start - 1] == "\n":
        return False
    line = body.rfind("\n", 0, start) + 1
    before = body[max(line, start - PATH_CHARS) : start]
    return "\\" in before and _OPEN_WINDOWS_PATH.search(before) is not None


BODY_LINES = 500  # "Keep SKILL.md body under 500 lines" (the standard, Anthropic's guide)
BODY_TOKENS = 5000  # "Instructions (< 5000 tokens recommended)" (the standard)


def body_length(c: Checker, body: str) -> None:
    """One body-too-long diagnostic that names every limit the body is over: the
    standard's advice, which Anthropic's authoring guide gives Claude Code's authors
    too (docs/agents.md "A body's length"); the profiles that give it call this."""
    lines = body.count("\n") + 1 if body else 0
    tokens = len(body) // 4
    over = []
    if lines > BODY_LINES:
        over.append(f"{counted(lines, 'line')} (advised: under {BODY_LINES})")
    if tokens > BODY_TOKENS:
        advised = f"(advised: under {BODY_TOKENS:,})"
        over.append(f"about {counted(tokens, 'token')}, characters / 4 {advised}")
    if over:
        c.emit(
            "body-too-long",
            f"The instructions are {' and '.join(over)}; move detail into referenced files.",
            line=c.doc.body_line,
            column=1,
        )


def body_advice(c: Checker) -> None:
    body = c.doc.body
    starts: list[int] = []
    own_folder = os.path.basename(c.skill.path) in c.profile.skill_files
    prose = Prose(body)
    paths = backslash_paths(body, prose)
    if paths:
        for offset, path in paths[:1]:
            starts = starts or _line_starts(body)
            line, column = _position(body, starts, offset)
            more = len(paths) - 1
            also = f" ({counted(more, 'more path')} below)" if more else ""
            c.emit(
                "path-backslash",
                f"'{path}' is written with backslashes{also}: agents run on Linux and macOS "
                "too, where '\\' is no folder separator. Write '/' ("
                f"'{path.replace(chr(92), '/')}'); it works on Windows as well.",
                line=c.doc.body_line + line,
                column=column,
                severity=_severity("path-backslash"),
            )
    home = None
    if "/Users/" in body or "/home/" in body or "Users" in body:
        home = next(prose.finditer(_HOME), None)
    if home is not None:
        starts = starts or _line_starts(body)
        line, column = _position(body, starts, home.start())
        c.emit(
            "path-absolute",
            f"'{home.group(0)}' is a path into one person's home folder: on any other machine "
            "it does not exist. Refer to the skill's own files relatively, or by "
            "${CLAUDE_SKILL_DIR} or {baseDir} where the agent supports them.",
            line=c.doc.body_line + line,
            column=column,
            severity=_severity("path-absolute"),
        )
    if own_folder:  # (a legacy command file shares its folder with others)
        if ".md" in body or ".MD" in body:
            _reference_depth(c, body, prose)
        _folder_size(c)


def _local_md(folder: str, base: str, target: str) -> str | None:
    """The path inside `folder` a relative markdown link from a file in `base` names."""
    if _SCHEME.match(target) or target.startswith(("/", "#", "~", "$", "{")):
        return None
    path = os.path.normpath(os.path.join(base, target.split("#", 1)[0]))
    return path if is_inside(path, folder) and path != folder else None


def _reference_depth(c: Checker, body: str, prose: Prose) -> None:
    folder = c.skill.folder
    own = os.path.normpath(c.skill.path)
    seen: set[str] = set()
    starts: list[int] = []
    for match in prose.finditer(_MD_LINK):
        first = _local_md(folder, folder, match.group(1))
        if first is None or first == own or first in seen:
            continue
        seen.add(first)
        if len(seen) > MAX_REFERENCES:
            return
        nested = _links_on(folder, first, own)
        if nested is None:
            continue
        starts = starts or _line_starts(body)
        line, column = _position(body, starts, match.start())
        rel_first = os.path.relpath(first, folder)
        rel_next = os.path.relpath(nested, folder)
        c.emit(
            "reference-depth",
            f"'{rel_first}' links on to '{rel_next}': an agent may read only part of a "
            "file it reaches through another one. Link every reference file from "
            "SKILL.md itself (one level deep).",
            line=c.doc.body_line + line,
            column=column,
            severity=_severity("reference-depth"),
        )


def _links_on(folder: str, path: str, own: str) -> str | None:
    """The first other markdown file of the skill that the file `path` links to."""
    looked_at(path)
    data = _read_below(folder, path)
    if data is None:
        return None
    text = data.decode("utf-8", "replace")
    base = os.path.dirname(path)
    if "](" not in text:
        return None
    for match in Prose(text).finditer(_MD_LINK):
        target = _local_md(folder, base, match.group(1))
        if target is None or target in (own, path):
            continue
        looked_at(target)
        if os.path.isfile(target):
            return target
    return None


def _read_below(folder: str, path: str) -> bytes | None:
    """The first REFERENCE_BYTES of `path`, a regular file below `folder` reached through
    no link: each folder on the way is looked at (lstat) and the file is opened without
    following a link, so nothing outside the skill folder is read (a linked reference
    is not followed: the advice is left out for it)."""
    where = folder
    for part in os.path.relpath(path, folder).split(os.sep)[:-1]:
        where = os.path.join(where, part)
        looked_at(where)
        try:
            if not stat.S_ISDIR(os.lstat(where).st_mode):
                return None
        except OSError:
            return None
    try:
        if NO_FOLLOW == 0 and os.path.islink(path):
            return None
        fd = os.open(path, OPEN_FLAGS | NO_FOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return os.read(fd, REFERENCE_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)


def _folder_size(c: Checker) -> None:
    total = 0
    entries = 0
    stack = [c.skill.folder]
    while stack and entries < MAX_WALKED and total <= UPLOAD_BYTES:
        folder = stack.pop()
        looked_at(folder)
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    entries += 1
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in (".git", "node_modules"):
                            stack.append(entry.path)
                        continue
                    looked_at(entry.path)
                    total += entry.stat(follow_symlinks=False).st_size
                    if entries >= MAX_WALKED or total > UPLOAD_BYTES:
                        break
        except OSError:
            continue
    if total > UPLOAD_BYTES:
        c.emit(
            "skill-too-large",
            f"The skill's folder holds more than {UPLOAD_BYTES // (1024 * 1024)} MB: the "
            "Skills API and claude.ai refuse a skill that large, and an agent copies it "
            "whole. Keep large data outside the skill and fetch or generate it.",
            line=1,
            column=1,
            severity=_severity("skill-too-large"),
        )


@register("path-backslash")
def _plan_backslash(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    """Every backslash path of the body, with '/' (the diagnostic names the first)."""
    base = doc.body_offset
    edits = tuple(
        TextEdit(base + offset, base + offset + len(path), path.replace("\\", "/"))
        for offset, path in backslash_paths(doc.body)
    )
    if not edits:
        return []
    return [FixPlan("Write the paths with '/'", safe=True, edits=edits)]
