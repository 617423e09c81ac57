"""The planners of fixes, by diagnostic code: what each fixable rule proposes.

A planner reads the document (and the diagnostic, for its field and place) and
returns the plans it can offer, or none when the case is not mechanical. Rules
register their planner next to their check (`register`); a profile's rules do
the same from the profile's module, so this table never names a profile.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model.diagnostics import Diagnostic
from ..model.document import Document
from ..model.fixes import FixPlan

Planner = Callable[[Document, Diagnostic], list[FixPlan]]

PLANNERS: dict[str, Planner] = {}


def register(code: str) -> Callable[[Planner], Planner]:
    """Decorator: `planner` proposes the fixes of diagnostics of `code`."""

    def wrap(planner: Planner) -> Planner:
        PLANNERS[code] = planner
        return planner

    return wrap


def fixable(code: str) -> bool:
    return code in PLANNERS


def plans_for(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    """The plans for `diagnostic` in `doc` (none for a code no rule fixes)."""
    planner = PLANNERS.get(diagnostic.code)
    if planner is None or not doc.text:
        return []
    return planner(doc, diagnostic)
