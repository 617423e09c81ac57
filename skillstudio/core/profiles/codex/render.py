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
        return self.cost(line + "\n")

    def less(self, used: int) -> Budget:
        return Budget(max(self.limit - used, 0), self.tokens)


def budget_for(window: int | None) -> Budget:
    """`default_skill_metadata_budget`: 2 % of a known window (at least 1 token)."""
    if window is not None and window > 0:
        return Budget(max(window * WINDOW_PERCENT // 100, 1), True)
    return Budget(UNKNOWN_WINDOW_CHARACTERS, False)


@dataclass(frozen=True, slots=True, eq=False)
class Entry:
    """One skill as the listing sees it. `root` is the root it was found under ('':
    none; '/' separators), `roots` order (`render`) says which alias it gets."""

    name: str
    description: str
    path: str  # the SKILL.md, '/' separators
    scope: int  # SCOPE_RANK
    root: str = ""


def sort_key(entry: Entry) -> tuple[int, str, tuple[bool, tuple[str, ...]]]:
    """System first, then by name, then by path compared folder by folder (Rust's
    Path order: `a/b/c` before `a/b-c`)."""
    parts = tuple(p for p in entry.path.split("/") if p not in ("", "."))
    return entry.scope, entry.name, (not entry.path.startswith("/"), parts)


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

    @property
    def lines(self) -> list[str]:
        return [
            line(e.name, e.description[:n], p)
            for e, p, n in zip(self.entries, self.paths, self.shown, strict=True)
            if n is not None
        ]

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
    ordered = sorted(entries, key=sort_key)
    absolute = _fit(ordered, [e.path for e in ordered], budget)
    if absolute.omitted == 0 and absolute.cut_chars == 0:
        return absolute
    aliased = _aliased(ordered, roots, budget)
    if aliased is not None and _better(aliased, absolute):
        return aliased
    return absolute


def _fit(ordered: list[Entry], paths: list[str], budget: Budget) -> Listing:
    """`render_skill_lines_from_lines`: whole, else shortened, else bare and in order."""
    out = Listing(budget, ordered, paths, [len(e.description) for e in ordered])
    pairs = list(zip(ordered, paths, strict=True))
    full = sum(budget.line_cost(line(e.name, e.description, p)) for e, p in pairs)
    if full <= budget.limit:
        return out
    bare = [line(e.name, "", p) for e, p in pairs]
    least = sum(budget.line_cost(text) for text in bare)
    if least <= budget.limit:
        descriptions = [e.description for e in ordered]
        out.shown = list(_round_robin(budget, bare, descriptions, budget.limit - least))
        return out
    used = 0
    shown: list[int | None] = []
    for text in bare:
        cost = budget.line_cost(text)
        if used + cost <= budget.limit:
            used += cost
            shown.append(0)
        else:
            shown.append(None)
    out.shown = shown
    return out


class _Costs:
    """What the first k characters of one description add to its bare line's cost
    (with the space before them): Codex's `DescriptionBudgetLine.extra_costs`."""

    __slots__ = ("base", "chars", "prefix", "size", "tokens")

    def __init__(self, budget: Budget, bare: str, description: str) -> None:
        self.tokens = budget.tokens
        self.chars = len(bare) + 1
        self.size = utf8_length(bare) + 1
        self.base = budget.cost_of(self.chars, self.size)
        self.prefix: list[int] | None = None  # UTF-8 bytes of the first k characters
        if self.tokens and not description.isascii():
            sizes = [0]
            for ch in description:
                sizes.append(sizes[-1] + utf8_length(ch))
            self.prefix = sizes

    def extra(self, k: int) -> int:
        if k == 0:
            return 0
        if not self.tokens:
            return k + 1
        size = self.prefix[k] if self.prefix is not None else k
        return -(-(self.size + size + 1) // BYTES_PER_TOKEN) - self.base


def _round_robin(budget: Budget, bare: list[str], descriptions: list[str], room: int) -> list[int]:
    """`render_lines_with_description_budget`: one character per description per round,
    in order, each taken while its cost fits what is left; rounds until none is taken.

    Computed in jumps, with the same result: as many whole rounds at once as fit (a
    round that fits whole is taken whole whatever the order), then one round step by
    step, in which at least one description stops for good (its next character costs
    more than is left, and what is left only shrinks)."""
    costs = [_Costs(budget, b, d) for b, d in zip(bare, descriptions, strict=True)]
    lengths = [len(d) for d in descriptions]
    given = [0] * len(descriptions)
    going = [i for i, n in enumerate(lengths) if n]
    left = room

    def whole_rounds(going: list[int], r: int) -> int:
        return sum(
            costs[i].extra(min(given[i] + r, lengths[i])) - costs[i].extra(given[i]) for i in going
        )

    while going:
        low, high = 0, max(lengths[i] - given[i] for i in going)
        while low < high:  # the most whole rounds that fit
            mid = (low + high + 1) // 2
            if whole_rounds(going, mid) <= left:
                low = mid
            else:
                high = mid - 1
        if low:
            left -= whole_rounds(going, low)
            for i in going:
                given[i] = min(given[i] + low, lengths[i])
            going = [i for i in going if given[i] < lengths[i]]
        still: list[int] = []
        for i in going:
            step = costs[i].extra(given[i] + 1) - costs[i].extra(given[i])
            if step <= left:
                left -= step
                given[i] += 1
                if given[i] < lengths[i]:
                    still.append(i)
        going = still
    return given


def _aliased(ordered: list[Entry], roots: Sequence[str], budget: Budget) -> Listing | None:
    """`build_aliased_available_skills`: the listing with `rN/...` paths, or None when
    no skill has a root or the table alone takes the whole budget."""
    found = [e.root for e in ordered if e.root]
    seen = set(found)
    used = [r for r in dict.fromkeys(roots) if r in seen]
    if not used:
        return None
    per_version = Counter(v for r in found if (v := _plugin_version(r)) is not None)
    alias_of = {r: _alias_root(r, per_version) for r in used}
    alias_roots = list(dict.fromkeys(alias_of[r] for r in used))
    names = {root: f"r{i}" for i, root in enumerate(alias_roots)}
    root_lines = [f"- `r{i}` = `{root}`" for i, root in enumerate(alias_roots)]
    table = max(budget.cost(body(root_lines, [])) - budget.cost(body([], [])), 0)
    if table >= budget.limit:
        return None
    paths = [_short_path(e, alias_of, names) for e in ordered]
    out = _fit(ordered, paths, budget.less(table))
    out.budget, out.root_lines, out.table_cost = budget, root_lines, table
    return out


def _short_path(entry: Entry, alias_of: dict[str, str], names: dict[str, str]) -> str:
    alias_root = alias_of.get(entry.root)
    if alias_root is None:
        return entry.path
    try:
        rest = PurePosixPath(entry.path).relative_to(alias_root)
    except ValueError:
        return entry.path
    return f"{names[alias_root]}/{rest}"


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


def _alias_root(root: str, per_version: Counter[str]) -> str:
    """A plugin version holding one skill is aliased at its marketplace (one alias for
    many small plugins); any other root at itself."""
    version = _plugin_version(root)
    if version is None or per_version[version] > 1:
        return root
    return _marketplace(root) or root
