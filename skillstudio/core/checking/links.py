"""The links of a skill's body, as a markdown reader finds them (markdown-it-py).

A link in inline code, an indented or fenced code block, an HTML comment or
block is no link, a footnote `[^1]: …` is no reference definition, and a
destination may hold balanced parentheses (`file_(1).md`). Each link comes with
the offset the diagnostic points at: the `[` (or `![`) of an inline link or
image, the line of a reference definition.

The parse costs 25-40 µs per block or link (a body of 100,000 links: 4 s), so the
link check looks at a bounded part of a body (`checked_part`: at most
LINKS_CHECKED links in the first LINK_CHARS characters) and a parse is kept for the
next call with the same text (every profile's check of one document, the
portability line's eight, `lint --profile all`).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from ..model.paths import is_inside
from ..reading.looked import looked_at

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token


@dataclass(frozen=True, slots=True)
class Link:
    offset: int  # in the body: the link's '[' or '![', or its definition line's start
    target: str  # the destination as written (as markdown reads it)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin

    return MarkdownIt("commonmark").enable("table").use(footnote_plugin)


LINKS_CHECKED = 1_000  # link-like `](`/`]:` a body's check looks at, in text order ...
LINK_CHARS = 100_000  # ... in its first this many characters (a parse of 0.03-0.6 s)
# What follows every `](` and `]:`: a superset of the links' first words, cheap to
# find (a literal first character lets the regex engine skip ahead).
_CANDIDATE = re.compile(r"\](?:\([ \t]*<?([^)\s>]+)|:[ \t]*<?([^\s>]+))")


@dataclass(frozen=True, slots=True)
class CheckedPart:
    """The part of a body the link check covers, and where what it leaves begins."""

    end: int  # the part is body[:end]: whole lines
    targets: list[str]  # the first word after each `](` / `]:` in it
    rest_at: int  # the offset of the first `](` / `]:` left out, or -1 when none is


def checked_part(body: str) -> CheckedPart:
    """At most LINKS_CHECKED link-like places within the first LINK_CHARS characters;
    the part ends at a line end when one is near (a destination never spans lines)."""
    end = len(body)
    if end > LINK_CHARS:
        end = body.rfind("\n", 0, LINK_CHARS) + 1 or LINK_CHARS
    targets: list[str] = []
    last = -1
    for match in _CANDIDATE.finditer(body, 0, end):
        at = match.start()
        if len(targets) == LINKS_CHECKED:
            line_start = body.rfind("\n", 0, at) + 1
            end = line_start if line_start > last else at
            break
        targets.append(match.group(1) or match.group(2))
        last = at
    rest = _CANDIDATE.search(body, end)
    return CheckedPart(end, targets, rest.start() if rest else -1)


def body_links(body: str) -> list[Link]:
    """Inline links and images in text order, then reference definitions."""
    if "](" not in body and "]:" not in body:
        return []
    return list(_parsed(body))


@lru_cache(maxsize=8)
def _parsed(body: str) -> tuple[Link, ...]:
    """body_links, kept for the next call with the same text (a few texts at a time:
    one document's profiles and the portability line ask in a row)."""
    env: dict[str, Any] = {}
    tokens = _parser().parse(body, env)
    starts = line_starts(body)
    out: list[Link] = []
    for token in tokens:
        if token.type == "inline" and token.map and token.children:
            out.extend(_inline_links(body, starts, token))
    out.sort(key=lambda link: link.offset)  # footnote bodies are parsed after the text
    for ref in env.get("references", {}).values():
        line = ref.get("map", [0])[0]
        out.append(Link(starts[min(line, len(starts) - 1)], unquote(ref["href"])))
    return tuple(out)


def line_starts(body: str) -> list[int]:
    """The offset of each line's first character."""
    starts = [0]
    index = body.find("\n")
    while index >= 0:
        starts.append(index + 1)
        index = body.find("\n", index + 1)
    return starts


def _inline_links(body: str, starts: list[int], token: Token) -> list[Link]:
    """The inline links and images of one paragraph (or cell, heading), placed at the
    `](` that introduces their destination; links written by reference are left to
    their definition."""
    first, last = token.map or (0, 0)
    begin = starts[first]
    end = starts[last] if last < len(starts) else len(body)
    out: list[Link] = []
    cursor = begin
    for child in token.children or []:
        if child.type not in ("link_open", "image"):
            continue
        href = str(child.attrs.get("href" if child.type == "link_open" else "src", ""))
        found = _destination(body, href, cursor, end)
        if found is None:
            continue  # a reference link or an autolink: no inline destination
        close, written = found
        cursor = close + 2
        out.append(Link(_bracket(body, close, begin), written))
    return out


def _destination(body: str, href: str, cursor: int, end: int) -> tuple[int, str] | None:
    """(offset of `]`, the destination as written) of the next `](` whose destination
    is `href`, from `cursor` to `end`."""
    wanted = (href, unquote(href))
    at = body.find("](", cursor, end)
    while at >= 0:
        start = at + 2
        while start < end and body[start] in " \t\n":
            start += 1
        if body.startswith("<", start):
            start += 1
        for written in wanted:
            if written and body.startswith(written, start):
                return at, written
        at = body.find("](", at + 2, end)
    return None


def _bracket(body: str, close: int, begin: int) -> int:
    """The link text's opening `[` (or the `!` of an image) on the line of `]`."""
    line_start = max(begin, body.rfind("\n", 0, close) + 1)
    bracket = body.rfind("[", line_start, close)
    if bracket < 0:
        return close
    return bracket - 1 if bracket > line_start and body[bracket - 1] == "!" else bracket


# Placeholders agents put in front of a skill's own files; each names the folder the
# link is relative to (Claude Code's `${CLAUDE_SKILL_DIR}` and `${CLAUDE_PLUGIN_ROOT}`,
# the `{baseDir}` of several agents' docs). Common across agents: read in every profile.
SKILL_DIR_PLACEHOLDERS = ("{baseDir}", "${CLAUDE_SKILL_DIR}")
PLUGIN_ROOT_PLACEHOLDERS = ("${CLAUDE_PLUGIN_ROOT}",)
PLUGIN_MARK = ".claude-plugin"
PLUGIN_SEARCH_LEVELS = 4  # plugin/skills/<skill>/SKILL.md: two levels up; a little slack


def plugin_root(skill_folder: str) -> str:
    """The nearest folder at or above the skill's that holds `.claude-plugin/` (a few
    levels at most), else the skill folder itself."""
    folder = skill_folder
    for _ in range(PLUGIN_SEARCH_LEVELS + 1):
        looked_at(os.path.join(folder, PLUGIN_MARK))
        if os.path.isdir(os.path.join(folder, PLUGIN_MARK)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return skill_folder


def expand_placeholder(
    target: str, skill_folder: str, plugin: str | None = None
) -> tuple[str, str] | None:
    """(folder the link may reach, path relative to it) for a link that starts with a
    placeholder (`{baseDir}/references/x.md`), else None. `plugin` is the skill's plugin
    folder where its profile knows it (else the nearest `.claude-plugin/` above)."""
    for marks, base in ((SKILL_DIR_PLACEHOLDERS, False), (PLUGIN_ROOT_PLACEHOLDERS, True)):
        for mark in marks:
            if target.startswith(mark):
                folder = (plugin or plugin_root(skill_folder)) if base else skill_folder
                return folder, target[len(mark) :].lstrip("/")
    return None


class Resolver:
    """Where relative link targets lead, for one check: a target must resolve (links
    followed) inside its base folder to a regular file or a folder. The folders on
    the way are looked at once per check (`lstat`); a target with a symbolic link on
    its way is resolved in full (`realpath`): 1,000 targets take 2-4 ms, not 40."""

    def __init__(self) -> None:
        self.real: dict[str, str] = {}  # base folder -> its real path
        self.plain: dict[tuple[str, str], bool] = {}  # (base, folder) -> real folders to it

    def status(self, base: str, relative: str) -> str | None:
        resolved = os.path.normpath(os.path.join(base, relative))
        if not is_inside(resolved, base):
            return "outside"
        looked_at(resolved)
        try:
            st = os.lstat(resolved)
            if stat.S_ISLNK(st.st_mode) or not self._plain_folders(base, resolved):
                real = os.path.realpath(resolved, strict=True)
                real_base = self.real.get(base) or self.real.setdefault(
                    base, os.path.realpath(base)
                )
                looked_at(real, real_base)
                if not is_inside(real, real_base):
                    return "outside"
                st = os.stat(real)
        except (OSError, ValueError):  # missing, a loop, a NUL in the name
            return "missing"
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            return "special"
        return None

    def _plain_folders(self, base: str, resolved: str) -> bool:
        """Whether every folder from `base` (excluded) down to `resolved`'s is a real
        folder, not a link."""
        folder = os.path.dirname(resolved)
        if not is_inside(folder, base) or folder == base:
            return True
        known = self.plain.get((base, folder))
        looked_at(folder)
        if known is None:
            try:
                known = stat.S_ISDIR(os.lstat(folder).st_mode)
            except OSError:
                known = False
            known = known and self._plain_folders(base, folder)
            self.plain[base, folder] = known
        return known
