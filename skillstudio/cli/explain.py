"""`match` in text: a ranked list, or with --explain the points by rule and marked words."""

from __future__ import annotations

from ..core.model.matches import MatchResult
from ..core.model.text import counted
from ..core.ranking.explanations import mark_words
from ..core.scanning.registry import Registry


def mark(normalized: str, terms: list[str]) -> str:
    """The normalized request with each matched run of words wrapped in [brackets]."""
    pairs = mark_words(normalized, terms)
    out: list[str] = []
    for index, (word, marked) in enumerate(pairs):
        opening = marked and (index == 0 or not pairs[index - 1][1])
        closing = marked and (index == len(pairs) - 1 or not pairs[index + 1][1])
        out.append(("[" if opening else "") + word + ("]" if closing else ""))
    return " ".join(out)


KEYWORDS_HEADING = "Keyword heuristic (words of the request in each skill's text; secondary):"


def explain_text(
    result: MatchResult, registry: Registry, explain: bool, likely: str | None = None
) -> str:
    """`match` in text. `likely`: the likely ranking's text, where the model chooses: it
    leads, and the keyword list follows under its own heading (PRODUCT.md section 5)."""
    lines: list[str] = []
    head = "selected: " + (", ".join(result.selected) if result.selected else "none")
    threshold = f", threshold {result.threshold}" if result.threshold is not None else ""
    lines.append(f"{head}  [{result.profile}, tier {result.tier}{threshold}]")
    if likely is not None:
        lines.append(likely)
        lines.append(KEYWORDS_HEADING)
    if result.selected and result.runner_up and result.margin is not None:
        lines.append(
            f"{result.candidates[0].name} wins by {counted(result.margin, 'point')} over "
            f"{result.runner_up}"
        )
    threshold_drawn = False
    for rank, cand in enumerate(result.candidates[:20], start=1):
        if result.threshold is not None and not threshold_drawn and cand.score < result.threshold:
            lines.append(f"  {'-' * 10} threshold {result.threshold} {'-' * 10}")
            threshold_drawn = True
        mark_sel = "*" if cand.name in result.selected else " "
        summary = ", ".join(f"{r.rule} '{r.term}' +{r.points}" for r in cand.reasons[:4])
        more = f", … {len(cand.reasons) - 4} more" if len(cand.reasons) > 4 else ""
        label = " (heuristic)" if cand.heuristic else ""  # an explicit invocation is not
        lines.append(
            f"{mark_sel}{rank:>3}. {cand.name:<24} {cand.score:>4}{label}  {summary}{more}"
        )
        if explain:
            points = cand.points_by_rule().items()
            parts = "  ".join(f"{rule} {value:+d}" for rule, value in points)
            lines.append(f"        points: {parts}")
            lines.append(
                f"        request: {mark(result.normalized, [r.term for r in cand.reasons])}"
            )
    if len(result.candidates) > 20:
        lines.append(f"  … {len(result.candidates) - 20} more candidates")
    if not result.candidates:
        lines.append("  no skill scored above zero")
    for note in result.notes:
        lines.append(f"note: {note}")
    return "\n".join(lines)
