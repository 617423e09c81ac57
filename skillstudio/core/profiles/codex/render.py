"""Codex's rules for its skills listing, ported from its source (docs/agents.md,
"Codex": openai/codex codex-rs/core-skills/src/render.rs @ 0899b7c42bf1, read
2026-12-02). Pure: entries in, the listing's lines and what it left out back.

- The budget: 2 % of the model's context window in tokens, a token being the
  UTF-8 bytes / 4 rounded up (codex-rs/utils/string `approx_token_count`), or
  8,000 characters when the window is unknown. Each line counts with its newline.
- The order: system, admin, repository, user; then name; then path.
- Every description whole if that fits. Otherwise, if the lines without their
  descriptions fit, description characters are handed out one at a time, round
  robin in listing order, while the next one's cost fits what is left (a short
  description drops out and leaves the rest to the longer ones); no ellipsis. If
  even those lines do not fit, every description is removed and lines are kept in
  order while they fit (a line that does not fit is skipped, the next tried).
- When the listing with full paths is cut at all, the same is tried with each
  path written `rN/...` after a `### Skill roots` table (whose cost, against the
  text with full paths, comes off the budget first), and kept if it lists more
  skills, else cuts fewer description characters, else costs less.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import NamedTuple

from . import shipped

BYTES_PER_TOKEN = 4
WINDOW_PERCENT = 2  # of the context window, in tokens
UNKNOWN_WINDOW_CHARACTERS = 8000
WARN_AVERAGE_CUT = 100  # characters cut per skill on average before Codex warns
SCOPE_RANK = {"system": 0, "admin": 1, "repository": 2, "user": 3}


def utf8_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Budget:
    """Codex's SkillMetadataBudget: a limit in tokens (a known window) or characters."""

    limit: int
    tokens: bool

    @property
    def unit(self) -> str:
        return "tokens" if self.tokens else "characters"

    def cost(self, text: str) -> int:
        return self.cost_of(len(text), utf8_length(text) if self.tokens else 0)

    def cost_of(self, chars: int, size: int) -> int:
        """The cost of a text of `chars` characters and `size` UTF-8 bytes."""
        return -(-size // BYTES_PER_TOKEN) if self.tokens else chars

    def line_cost(self, line: str) -> int:
        """The cost of a line with its newline."""
        if not self.tokens:
            return len(line) + 1
        size = len(line) if line.isascii() else utf8_length(line)
        return (size + BYTES_PER_TOKEN) // BYTES_PER_TOKEN  # ceil((size + 1) / 4)

    def less(self, used: int) -> Budget:
        return Budget(max(self.limit - used, 0), self.tokens)


def budget_for(window: int | None) -> Budget:
    """`default_skill_metadata_budget`: 2 % of a known window (at least 1 token)."""
    if window is not None and window > 0:
        return Budget(max(window * WINDOW_PERCENT // 100, 1), True)
    return Budget(UNKNOWN_WINDOW_CHARACTERS, False)


class Entry(NamedTuple):
    """One skill as the listing sees it. `root` is the root it was found under ('':
    none; '/' separators), `roots` order (`render`) says which alias it gets."""

    name: str
    description: str
    path: str  # the SKILL.md, '/' separators
    scope: int  # SCOPE_RANK
    root: str = ""


def sort_key(entry: Entry) -> tuple[int, str, bool, str]:
    """System first, then by name, then by path compared folder by folder as Rust's
    Path orders (`a/b/c` before `a/b-c`, absolute before relative): with the `/`
    written as NUL, below every character a name can hold, one string comparison
    does it (paths are normalized: no empty or `.` folders)."""
    path = entry.path
    return entry.scope, entry.name, not path.startswith("/"), path.replace("/", "\0")


def ordered(entries: Sequence[Entry]) -> list[Entry]:
    return sorted(entries, key=sort_key)


def line(name: str, description: str, path: str) -> str:
    if description:
        return f"- {name}: {description} (file: {path})"
    return f"- {name}: (file: {path})"


def body(root_lines: Sequence[str], skill_lines: Sequence[str]) -> str:
    """`render_available_skills_body`: what goes between the tags."""
    lines = ["## Skills"]
    if root_lines:
        lines += [shipped.INTRO_ALIASES, "### Skill roots", *root_lines]
    else:
        lines.append(shipped.INTRO_ABSOLUTE)
    lines += ["### Available skills", *skill_lines, "### How to use skills"]
    lines.append(shipped.HOW_TO_USE_ALIASES if root_lines else shipped.HOW_TO_USE_ABSOLUTE)
    return "\n" + "\n".join(lines) + "\n"


@dataclass(slots=True)
class Listing:
    """What `render` gives: the lines, and per ordered entry what was shown."""

    budget: Budget
    entries: list[Entry]  # in listing order: every entry
    paths: list[str]  # each entry's path as written (an alias or the full path)
    shown: list[int | None]  # description characters shown; None: left out
    root_lines: list[str] = field(default_factory=list)
    table_cost: int = 0  # what the roots table costs against the budget
    # per entry, its line's cost with the whole description and without one
    whole_costs: list[int] = field(default_factory=list)
    bare_costs: list[int] = field(default_factory=list)
    _lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = [
                line(e.name, e.description[:n], p)
                for e, p, n in zip(self.entries, self.paths, self.shown, strict=True)
                if n is not None
            ]
        return self._lines

    @property
    def text(self) -> str:
        return shipped.OPEN_TAG + body(self.root_lines, self.lines) + shipped.CLOSE_TAG

    @property
    def included(self) -> int:
        return sum(n is not None for n in self.shown)

    @property
    def omitted(self) -> int:
        return len(self.shown) - self.included

    @property
    def cut_chars(self) -> int:
        """Description characters not shown (of left-out entries too)."""
        pairs = zip(self.entries, self.shown, strict=True)
        return sum(len(e.description) - (n or 0) for e, n in pairs)

    @property
    def used(self) -> int:
        """What the budget counts: the lines with their newlines, and the roots table."""
        return self.table_cost + sum(self.budget.line_cost(text) for text in self.lines)

    @property
    def warning(self) -> str | None:
        """What Codex tells the user (not the model) when the listing is cut."""
        if self.omitted:
            head = "Exceeded skills context budget"
            head += " of 2%." if self.budget.tokens else "."
            one = self.omitted == 1
            return (
                f"{head} All skill descriptions were removed and {self.omitted} additional "
                f"{'skill was' if one else 'skills were'} not included in the model-visible "
                "skills list."
            )
        total = len(self.entries)
        if total and -(-self.cut_chars // total) > WARN_AVERAGE_CUT:
            share = "the 2% skills" if self.budget.tokens else "the skills"
            return (
                f"Skill descriptions were shortened to fit {share} context budget. Codex can "
                "still see every skill, but some descriptions are shorter. Disable unused "
                "skills or plugins to leave more room for the rest."
            )
        return None


def render(entries: Sequence[Entry], budget: Budget, roots: Sequence[str] = ()) -> Listing:
    """The listing of `entries` (those Codex lets the model invoke) at `budget`;
    `roots` in Codex's scan order (`SkillLoadOutcome.skill_roots`) number the aliases."""
    listed = ordered(entries)
    sizes = _Sizes(listed)
    absolute = _fit(listed, sizes, [e.path for e in listed], budget)
    if absolute.omitted == 0 and absolute.cut_chars == 0:
        return absolute
    aliased = _aliased(listed, sizes, roots, budget)
    if aliased is not None and _better(aliased, absolute):
        return aliased
    return absolute


class _Sizes:
    """The entries' names and descriptions, in characters and UTF-8 bytes (counted once:
    a line's cost is worked out from them, not from the line written out)."""

    __slots__ = ("description_bytes", "descriptions", "name_bytes", "names")

    def __init__(self, entries: list[Entry]) -> None:
        names = [e.name for e in entries]
        descriptions = [e.description for e in entries]
        self.names = [len(t) for t in names]
        self.name_bytes = [len(t) if t.isascii() else utf8_length(t) for t in names]
        self.descriptions = [len(t) for t in descriptions]
        self.description_bytes = [len(t) if t.isascii() else utf8_length(t) for t in descriptions]


LINE_FRAME = len(line("", "", ""))  # "- " ": " "(file: " ")": 12 characters, ASCII


def _fit(listed: list[Entry], sizes: _Sizes, paths: list[str], budget: Budget) -> Listing:
    """`render_skill_lines_from_lines`: whole, else shortened, else bare and in order."""
    out = Listing(budget, listed, paths, list(sizes.descriptions))
    # each bare line's characters and bytes (without its newline)
    chars = [n + len(p) + LINE_FRAME for n, p in zip(sizes.names, paths, strict=True)]
    if budget.tokens:
        size = [
            n + (len(p) if p.isascii() else utf8_length(p)) + LINE_FRAME
            for n, p in zip(sizes.name_bytes, paths, strict=True)
        ]
        out.bare_costs = [(b + BYTES_PER_TOKEN) // BYTES_PER_TOKEN for b in size]
        with_space = BYTES_PER_TOKEN + 1  # the newline's rounding, and the space
        out.whole_costs = [
            (b + d + with_space) // BYTES_PER_TOKEN if d else c
            for b, d, c in zip(size, sizes.description_bytes, out.bare_costs, strict=True)
        ]
    else:
        size = chars
        out.bare_costs = [c + 1 for c in chars]
        out.whole_costs = [
            c + d + 1 if d else c for d, c in zip(sizes.descriptions, out.bare_costs, strict=True)
        ]
    if sum(out.whole_costs) <= budget.limit:
        return out
    least = sum(out.bare_costs)
    if least <= budget.limit:
        descriptions = [e.description for e in listed]
        bare = list(zip(chars, size, strict=True))
        out.shown = list(_round_robin(budget, bare, descriptions, budget.limit - least))
        return out
    used = 0
    shown: list[int | None] = []
    for cost in out.bare_costs:
        if used + cost <= budget.limit:
            used += cost
            shown.append(0)
        else:
            shown.append(None)
    out.shown = shown
    return out


def _round_robin(
    budget: Budget, bare: list[tuple[int, int]], descriptions: list[str], room: int
) -> list[int]:
    """`render_lines_with_description_budget`: one character per description per round,
    in listing order, each taken while its cost fits what is left; rounds until none is
    taken. `bare`: each line's characters and UTF-8 bytes without its description.

    The cost of a description's first k characters on its line is Codex's
    `extra_costs[k]`: 0 for none, else the line's cost with them (and the space before
    them) less its cost without. Computed in jumps, with the same result: as many
    whole rounds at once as fit (a round that fits whole is taken whole whatever the
    order), then one round step by step, in which at least one description stops for
    good (its next character costs more than is left, and what is left only shrinks).
    Every description still going has had the same number of characters (`given`)."""
    n = len(descriptions)
    lengths = [len(d) for d in descriptions]
    # tokens: extra(k) = (top + bytes of the first k characters) // 4 - base, where top =
    # the line's bytes + its newline + the space + 3 (rounding up) and base = its cost
    base = [(b + BYTES_PER_TOKEN) // BYTES_PER_TOKEN for _, b in bare]
    top = [b + 1 + 1 + BYTES_PER_TOKEN - 1 for _, b in bare]
    prefix: list[list[int] | None] = [None] * n  # bytes of the first k characters
    if budget.tokens:
        for i, text in enumerate(descriptions):
            if not text.isascii():
                sizes = [0]
                for ch in text:
                    sizes.append(sizes[-1] + utf8_length(ch))
                prefix[i] = sizes

    def extra(i: int, k: int) -> int:
        if k == 0:
            return 0
        if not budget.tokens:
            return k + 1
        bytes_k = k if (p := prefix[i]) is None else p[k]
        return (top[i] + bytes_k) // BYTES_PER_TOKEN - base[i]

    given = 0
    going = [i for i in range(n) if lengths[i]]
    shown = [0] * n
    left = room
    while going:
        # what the going descriptions cost with k characters each (or all they have)
        caps = [lengths[i] for i in going]
        plain = [(top[i], lengths[i]) for i in going if prefix[i] is None]
        plain_base = sum(base[i] for i in going if prefix[i] is None)
        wide = [i for i in going if prefix[i] is not None]

        def spent(
            k: int,
            caps: list[int] = caps,
            plain: list[tuple[int, int]] = plain,
            plain_base: int = plain_base,
            wide: list[int] = wide,
        ) -> int:
            if k == 0:
                return 0
            if not budget.tokens:
                return sum(k if k < c else c for c in caps) + len(caps)
            four = BYTES_PER_TOKEN
            total = sum((t + (k if k < c else c)) // four for t, c in plain) - plain_base
            return total + sum(extra(i, min(k, lengths[i])) for i in wide)

        now = spent(given)
        low, high = given, max(caps)
        while low < high:  # the most characters each that whole rounds reach
            mid = (low + high + 1) // 2
            if spent(mid) - now <= left:
                low = mid
            else:
                high = mid - 1
        if low > given:
            left -= spent(low) - now
            given = low
            for i in going:
                shown[i] = min(given, lengths[i])
            going = [i for i in going if lengths[i] > given]
        still: list[int] = []
        for i in going:
            step = extra(i, given + 1) - extra(i, given)
            if step <= left:
                left -= step
                shown[i] = given + 1
                if lengths[i] > given + 1:
                    still.append(i)
        going, given = still, given + 1
    return shown


def _aliased(
    listed: list[Entry], sizes: _Sizes, roots: Sequence[str], budget: Budget
) -> Listing | None:
    """`build_aliased_available_skills`: the listing with `rN/...` paths, or None when
    no skill has a root or the table alone takes the whole budget."""
    found = [e.root for e in listed if e.root]
    seen = set(found)
    used = [r for r in dict.fromkeys(roots) if r in seen]
    if not used:
        return None
    per_root = Counter(found)
    version_of = {r: _plugin_version(r) for r in per_root}
    per_version: Counter[str] = Counter()
    for r, n in per_root.items():
        if (version := version_of[r]) is not None:
            per_version[version] += n
    alias_of = {r: _alias_root(r, version_of[r], per_version) for r in used}
    alias_roots = list(dict.fromkeys(alias_of[r] for r in used))
    names = {root: f"r{i}" for i, root in enumerate(alias_roots)}
    root_lines = [f"- `r{i}` = `{root}`" for i, root in enumerate(alias_roots)]
    table = max(budget.cost(body(root_lines, [])) - budget.cost(body([], [])), 0)
    if table >= budget.limit:
        return None
    # each root's path as written below it ("/" ended) and the alias that replaces it
    heads = {r: (alias_of[r].rstrip("/") + "/", names[alias_of[r]] + "/") for r in used}
    paths = []
    for e in listed:
        head = heads.get(e.root)
        if head is not None and e.path.startswith(head[0]):
            paths.append(head[1] + e.path[len(head[0]) :])
        else:
            paths.append(e.path)
    out = _fit(listed, sizes, paths, budget.less(table))
    out.budget, out.root_lines, out.table_cost = budget, root_lines, table
    return out


def _better(aliased: Listing, absolute: Listing) -> bool:
    """`aliased_render_is_better`: more skills, else fewer characters cut, else cheaper."""
    if aliased.included != absolute.included:
        return aliased.included > absolute.included
    if aliased.cut_chars != absolute.cut_chars:
        return aliased.cut_chars < absolute.cut_chars
    return aliased.used < absolute.used


def _marketplace(path: str) -> str | None:
    """The folder just below a `plugins/cache` at or above `path` (Codex's plugin cache
    keeps `<marketplace>/<plugin>/<version>/...`), or None."""
    candidate = PurePosixPath(path)
    while candidate.parent != candidate:
        parent = candidate.parent
        if not parent.name:
            return None
        if parent.name == "cache" and parent.parent.name == "plugins":
            return str(candidate)
        candidate = parent
    return None


def _plugin_version(path: str) -> str | None:
    """`<marketplace>/<plugin>/<version>` of a root in Codex's plugin cache, or None."""
    market = _marketplace(path)
    if market is None:
        return None
    parts = PurePosixPath(path).relative_to(market).parts
    return str(PurePosixPath(market, *parts[:2])) if len(parts) >= 2 else None


def _alias_root(root: str, version: str | None, per_version: Counter[str]) -> str:
    """A plugin version holding one skill is aliased at its marketplace (one alias for
    many small plugins); any other root at itself."""
    if version is None or per_version[version] > 1:
        return root
    return _marketplace(root) or root
