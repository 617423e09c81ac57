"""`reference-missing`: a file of the skill that the body tells the agent to read or run
(`references/api.md`, `scripts/run.py`, `{baseDir}/scripts/fill.py`) and that is not
there. advice_body.py runs it on a skill in its own folder.

Which paths count (docs/commands.md, "Authoring advice", lists the rule):
- a relative path of a folder and a file with an extension, in plain text or an inline
  code span, whose first folder is one a skill bundles (`references/`, `reference/`,
  `scripts/`, `assets/`, `templates/`, `resources/`) or one the skill folder holds; a
  path after a placeholder for the skill's or its plugin's folder (`{baseDir}/`,
  `${CLAUDE_SKILL_DIR}/`, `${CLAUDE_PLUGIN_ROOT}/`) whatever its first folder;
- in a fenced code block only where the block is a shell session (```bash, sh, shell,
  zsh, console, powershell, cmd): a command line runs what it names. Any other block
  (python, json, markdown, an example tree, no language) is an example, not an
  instruction to load;
- not: a Markdown link's destination (`link-broken` checks those, validate.py), a URL
  or a piece of one, an absolute path, a glob (`references/*.md`), a placeholder
  (`scripts/<name>.py`, `references/{topic}.md`, `path/to/file.md`,
  `references/your-file.md`), a path the sentence says is the user's or the project's
  ("edit the user's src/app.py", "your scripts/deploy.sh"), nor one it says to make
  ("save the chart to assets/out.png", "create scripts/new.py"; "output" only as the
  verb right before the path, "outputs assets/out.png", never the noun: "output
  formats: see references/output-patterns.md" counts).
A path counts as there when it resolves (Resolver, checking/links.py, as the links do)
inside the skill folder, its plugin's folder, or a folder above it up to the folder
opened (a path the project itself holds is the project's). At most MAX_REPORTED paths
are reported per skill, each once (its first place), with the line and column.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from ..model.explanations import ADVICE
from ..model.paths import is_within
from ..model.skills import Root
from ..profile import Checker
from ..reading.looked import looked_at
from .advice_body import Prose, prose_spans
from .links import Resolver, expand_placeholder, line_starts

MAX_REPORTED = 10  # missing paths reported per skill (the last says how many more)
MAX_PLACES = 2_000  # candidate places looked at per body
MAX_PATH_CHARS = 260  # a longer "path" is no file name a message repeats
BUNDLED = frozenset("references reference scripts assets templates resources".split())
SHELL = frozenset("bash sh shell zsh console terminal shell-session powershell ps1 cmd".split())
# (placeholder)? then folder/.../file.ext; not after a character that makes it part of
# a URL, an absolute or Windows path, a variable, a domain or a longer word
_PATH = re.compile(
    r"(?<![\w/.~$%@:\\*-])"
    r"(\{baseDir\}/|\$\{CLAUDE_SKILL_DIR\}/|\$\{CLAUDE_PLUGIN_ROOT\}/|\./)?"
    r"((?:[A-Za-z0-9_][\w.-]*/)+[A-Za-z0-9_][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})"
    r"(?![\w/*{<\\-]|\.[A-Za-z0-9])"
)
_DEFINITION = re.compile(r"[ \t]{0,3}\[[^\]\n]+\]:")  # a link reference definition
PLACEHOLDER_WORDS = frozenset(
    "path to your my some foo bar baz xxx example file filename name something".split()
)
_PLACEHOLDER_STEM = re.compile(r"^(?:your|my|some|example|sample)[-_]|^x+$|^\.\.\.")
# whose file it is, or what is done to it, said just before it in the sentence
_USERS = re.compile(
    r"\b(?:user'?s?|users'|your|their|the project'?s?|project|repo(?:sitory)?'?s?|codebase|"
    r"working (?:directory|tree|copy)|workspace|app(?:lication)?'?s)\b[^.!?\n]{0,40}$",
    re.I,
)
_MAKES = re.compile(
    r"\b(?:create[sd]?|creating|write|writes|writing|written|generate[sd]?|generating|"
    r"save[sd]?|saving|produce[sd]?|export(?:s|ed)?|add(?:s|ed)?|"
    r"make[s]?|touch|mkdir|rename[sd]?|move[sd]?|into|to a file|named|called)\b"
    r"[^.!?\n]{0,40}$",
    re.I,
)
# "output" makes the path only as a verb right before it ("outputs assets/out.png",
# "output the chart to assets/out.png"); the noun ("**Specific output formats**: See
# references/output-patterns.md") says nothing of whose the file is
_OUTPUTS = re.compile(
    r"\boutput(?:s|ted)?\b(?:[^.!?\n]{0,40}\b(?:to|into|as|at|in|under)\b)?[\s`'\"(]*$", re.I
)
# a path given as an example of what a skill may hold, not as this skill's file
_EXAMPLE = re.compile(r"\b(?:e\.g\.|for example|for instance|such as)\b[^.!?\n]{0,60}$", re.I)
_EXAMPLE_LINE = re.compile(r"\W*examples?\W*:", re.I)  # `- **Examples**: ...`
_HYPOTHETICAL = re.compile(
    r"^[`'\"]?\s*(?:file\s+)?[^.!?\n]{0,60}\b(?:would|could|might) be\b", re.I
)
BEFORE_CHARS = 80  # of the sentence before a path read for whose it is
AFTER_CHARS = 80  # of the text after it read for a hypothesis ("... would be helpful")
LEVELS_UP = 8  # folders above a skill looked in for a project's own file
SIBLINGS = 500  # other skill folders of the root looked in for a path (another skill's)


def _severity() -> Any:
    return ADVICE["reference-missing"].severity


def missing_references(c: Checker, body: str) -> None:
    """`reference-missing` for each path of the body (as above) that is not there."""
    if "/" not in body:
        return
    folder = c.skill.folder
    package = c.profile.package_folder(c.skill)
    places = ([package] if package else []) + _above(folder, c.skill.root)
    resolver = Resolver()
    missing: list[tuple[int, str, str]] = []  # (offset, path as written, where looked)
    for offset, mark, rel in _places(body, _listing(folder)):
        target = mark + rel
        base, path = folder, rel
        placed = expand_placeholder(target, folder, package) if mark != "./" else None
        if placed is not None:
            base, path = placed
        if resolver.status(base, path) != "missing":
            continue
        if placed is None and any(resolver.status(p, path) is None for p in places):
            continue  # the plugin's, the root's or the project's own file
        if placed is None and _siblings_hold(resolver, c.skill.root.path, folder, path):
            continue  # another skill's file ("`other-skill`'s references/x.md")
        where = "its plugin's folder" if base != folder else "the skill folder"
        missing.append((offset, target, where))
    _report(c, body, missing)


@lru_cache(maxsize=8)
def _above(folder: str, root: Root) -> list[str]:
    """The folders from the skill folder's parent up to the folder opened (else its
    root), at most LEVELS_UP: a path one of them holds is the project's own
    (`scripts/release.sh` of a repository whose `.agents/skills/deploy` runs it)."""
    top = os.path.normpath(root.base or root.path)
    out: list[str] = []
    current = os.path.dirname(folder)
    for _ in range(LEVELS_UP):
        if not is_within(current, top):
            break
        out.append(current)
        if current == top:
            break
        current = os.path.dirname(current)
    return out


def _places(body: str, listed: frozenset[str]) -> tuple[tuple[int, str, str], ...]:
    """(offset, placeholder or "", path) of each distinct path of the body that counts
    (`_counts`), first places first; kept for the next call with the same text (each
    profile's advice on one document, `lint --profile all`)."""
    prose = Prose(body)
    fences = _fences(body)
    seen: set[str] = set()
    out: list[tuple[int, str, str]] = []
    for count, match in enumerate(_PATH.finditer(body)):
        if count >= MAX_PLACES:
            break
        mark, rel = match.group(1) or "", match.group(2)
        target = mark + rel
        if len(target) > MAX_PATH_CHARS or target in seen or _in_url_or_link(body, match.start()):
            continue
        if _counts(body, match, mark, rel, listed, prose, fences):
            seen.add(target)
            out.append((match.start(), mark, rel))
    return tuple(out)


def _in_url_or_link(body: str, start: int) -> bool:
    """Whether the place is in a URL (`https://x.org/?f=references/a.md`), a Markdown
    link's destination (`link-broken`'s) or a link reference definition."""
    line_start = body.rfind("\n", 0, start) + 1
    before = body[max(line_start, start - MAX_PATH_CHARS) : start]
    word = before[max(before.rfind(" "), before.rfind("\t")) + 1 :]
    if "://" in word or word.lower().startswith("www."):
        return True
    opened = before.rfind("](")
    if opened >= 0 and ")" not in before[opened:]:
        return True
    return _DEFINITION.match(body, line_start, start) is not None


def _listing(folder: str) -> frozenset[str]:
    """The names of the skill folder's folders (a path into one is the skill's)."""
    looked_at(folder)  # (a folder added changes the folder's own times)
    try:
        with os.scandir(folder) as found:
            return frozenset(e.name for e in found if e.is_dir(follow_symlinks=False))
    except OSError:
        return frozenset()


def _siblings_hold(resolver: Resolver, root: str, folder: str, path: str) -> bool:
    """Whether another skill folder of the root holds `path` (at most SIBLINGS looked
    at)."""
    looked_at(root)
    try:
        with os.scandir(root) as found:
            for count, entry in enumerate(found):
                if count >= SIBLINGS:
                    return False
                if (
                    entry.path != folder
                    and entry.is_dir(follow_symlinks=False)
                    and resolver.status(entry.path, path) is None
                ):
                    return True
    except OSError:
        return False
    return False


def _fences(body: str) -> tuple[list[int], list[tuple[int, str]]]:
    """(the start of each fenced block's opening line, (that offset, its language))."""
    spans = prose_spans(body)
    opens: list[tuple[int, str]] = []
    previous_end = 0
    for start, end in [*spans, (len(body) + 1, len(body) + 1)]:
        if start > previous_end:  # a fenced block from previous_end to start
            line_end = body.find("\n", previous_end)
            first = body[previous_end : line_end if line_end >= 0 else len(body)]
            info = first.strip().lstrip("`~").strip().split()
            opens.append((previous_end, info[0].lower().strip("{}.") if info else ""))
        previous_end = end
    return [a for a, _ in opens], opens


def _counts(
    body: str,
    match: re.Match[str],
    mark: str,
    rel: str,
    listed: frozenset[str],
    prose: Prose,
    fences: tuple[list[int], list[tuple[int, str]]],
) -> bool:
    """Whether the path at `match` is one the body tells the agent to read or run."""
    start = match.start()
    parts = rel.split("/")
    first = parts[0]
    if not mark.startswith(("{", "$")) and first not in BUNDLED and first not in listed:
        return False
    stem = os.path.splitext(parts[-1])[0].lower()
    if stem in PLACEHOLDER_WORDS or _PLACEHOLDER_STEM.search(stem):
        return False
    if any(part.lower() in PLACEHOLDER_WORDS for part in parts[:-1]):
        return False
    if not prose.holds(start):
        starts, opens = fences
        index = bisect_right(starts, start) - 1
        if index < 0 or opens[index][1] not in SHELL:
            return False
    line_start = body.rfind("\n", 0, start) + 1
    before = body[max(line_start, start - BEFORE_CHARS) : start]
    sentence = re.split(r"[.!?](?:\s|$)", before)[-1]
    if _USERS.search(sentence) or _MAKES.search(sentence) or _OUTPUTS.search(sentence):
        return False
    if _EXAMPLE.search(sentence):
        return False
    if _EXAMPLE_LINE.match(body, line_start, start):
        return False
    after = body[match.end() : match.end() + AFTER_CHARS]
    return not _HYPOTHETICAL.search(after)


def _report(c: Checker, body: str, missing: list[tuple[int, str, str]]) -> None:
    if not missing:
        return
    starts = line_starts(body)
    shown = missing[:MAX_REPORTED]
    for number, (offset, target, where) in enumerate(shown, 1):
        line = bisect_right(starts, offset) - 1
        more = len(missing) - MAX_REPORTED if number == MAX_REPORTED else 0
        also = f" ({more} more missing files below)" if more > 0 else ""
        c.emit(
            "reference-missing",
            f"The body points the agent to '{target}', which is not in {where}{also}: an "
            "agent told to read or run it finds nothing. Add the file, or correct the path.",
            line=c.doc.body_line + line,
            column=offset - starts[line] + 1,
            severity=_severity(),
        )
