"""The agent's harness's own rules: a request that names a skill (`/name args`, `$name`,
`use <name> skill`) is resolved by the harness before any model sees it. Claude Code
expands `/commit-message T-12` itself; Codex injects a `$deploy` skill directly, even
one whose `allow_implicit_invocation: false` keeps it out of the listing. A live check
does the same: such a request is never sent, its runs are the harness's pick.

Which requests those are is the engine's explicit-invocation rule for the profile
(core/ranking/matching.py `match`: its `explicit` form selecting an active skill, by
the profile's own rules, Codex's `$name` and `[$name](path)` mentions included). A form
naming no skill (`/tmp is full`) or one the profile blocks is put to the model as
written.
"""

from __future__ import annotations

from typing import Any

from ..model.matches import explicit_form, explicit_invocation
from ..ranking.match_index import MatchIndex
from ..ranking.matching import match
from ..scanning.registry import Registry


class Harness:
    """The harness of one registry's agent; its match index is built at the first
    request that could name a skill."""

    def __init__(self, registry: Registry, options: dict[str, Any] | None = None) -> None:
        self.registry = registry
        self.options = options or {}
        self._index: MatchIndex | None = None

    def pick(self, query: str) -> str | None:
        """The skill the harness invokes for `query` without a model (its name as
        listed: the key of a nested one), or None: the request is put to the model."""
        if "$" not in query and explicit_invocation(query) is None:
            return None  # no explicit form is in it (the index is not built for it)
        if self._index is None:
            self._index = MatchIndex(self.registry)
        result = match(self.registry, query, index=self._index, options=self.options)
        if not result.explicit or not result.selected:
            return None
        chosen = result.selected[0]  # Codex: every mention selects; the first is reported
        registry = self.registry
        skill = registry.active.get(chosen) or registry.by_path.get(chosen)
        return (skill.key or skill.name) if skill is not None else chosen


# the harness's rules in words (matches.explicit_form's forms), for `--show-request`
RULES = {
    "slash": "`/name`: a slash command, which the agent's harness expands itself",
    "mention": "`$name`: a skill mention, which the agent's harness injects directly",
    "use": "`use <name> skill`: the request names the skill, and the harness invokes it",
}


def rule_of(query: str) -> str:
    """The rule by which the harness resolved `query` (one Harness.pick resolved), in
    words; a mention in a Markdown link (`[$name](path)`) counts as a `$name`."""
    return RULES[explicit_form(query) or "mention"]
