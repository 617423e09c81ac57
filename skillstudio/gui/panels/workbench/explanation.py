"""Try a Request's explanation: the chosen skill's points under the request as typed."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from ....core.model.matches import MatchResult
from ....core.model.text import counted, normalize
from ....core.ranking.estimate import LikelyCandidate, LikelyResult
from ....core.ranking.explanations import error_note, mark_words, why_not
from ....core.ranking.likely_explanation import (
    LikelyExplained,
    caveat,
    explain_candidate,
)
from ....core.ranking.likely_explanation import why_not_likely as explain_why_not
from ....core.ranking.likely_index import LikelyIndex
from ....core.reading.skill_words import stem
from ....core.scanning.registry import Registry
from ...infra.theme import colour

_WORD = re.compile(r"[^\W_]+")
_EDGES = re.compile(r"^([\W_]*)(.*?)([\W_]*)$", re.DOTALL)  # punctuation, word, punctuation
JOINERS = set(" -_/.'’+")  # one of these between two marked words is marked with them


def marked_request(query: str, normalized: str, terms: list[str]) -> list[tuple[str, bool]]:
    """The request as typed, in pieces, each with whether it is a matched word.

    The engine matches the normalized words (lowercase, punctuation removed); each
    typed word is lined up with the normalized word(s) it became, so "/code-review
    src/app.py" stays as typed. Marked words one space or joining character apart
    (Code Review, code-review, app.py) are marked as one; a comma between ("pdf,forms")
    or punctuation that ends a word is not."""
    words = mark_words(normalized, terms)
    marks = [hit for _word, hit in words]
    pieces: list[tuple[str, bool]] = []
    pos = done = 0
    for found in _WORD.finditer(query):
        count = len(normalize(found.group()).split())
        hit = any(marks[done : done + count])
        done += count
        gap = query[pos : found.start()]
        if gap:
            joined = hit and pieces and pieces[-1][1] and gap in JOINERS
            pieces.append((gap, bool(joined)))
        pieces.append((found.group(), hit))
        pos = found.end()
    if done != len(marks):  # typed and normalized words do not line up: show the latter
        pieces = []
        for number, (word, hit) in enumerate(words):
            pieces += [(" ", False), (word, hit)] if number else [(word, hit)]
        return pieces
    if query[pos:]:
        pieces.append((query[pos:], False))
    merged: list[tuple[str, bool]] = []
    for piece, hit in pieces:
        if merged and merged[-1][1] == hit:
            merged[-1] = (merged[-1][0] + piece, hit)
        else:
            merged.append((piece, hit))
    return merged


def explanation_html(
    result: MatchResult, registry: Registry, row: str | None, picked: str | None
) -> str:
    """The chosen skill's points as one list, under the request as typed with the
    matched words marked; a skill `picked` in "Why not" is explained instead, once."""
    if not result.query.strip():
        return ""
    parts: list[str] = []
    name = picked or row
    if picked and picked not in result.selected:
        parts.append(
            f"<p><b>Why not {html.escape(picked)}?</b> "
            f"{html.escape(why_not(result, registry, picked))}</p>"
        )
    cand = result.candidate(name) if name else None
    if cand is None:
        if not picked:
            parts.append("<p>No skill scored for this request.</p>")
        return "".join(parts)
    terms = [r.term for r in cand.reasons]
    state = "selected" if cand.name in result.selected else "not selected"
    heuristic = " (heuristic)" if cand.heuristic else ""
    parts.append(
        f"<h3>{html.escape(cand.name)}: {counted(cand.score, 'point')}{heuristic}, {state}</h3>"
    )
    parts.append("<p><b>Request:</b> " + _marked(result.query, result.normalized, terms))
    shown = cand.reasons[:40]
    parts.append(
        "<ul>"
        + "".join(
            f"<li>+{r.points} {html.escape(r.rule)} <code>{html.escape(r.term)}</code></li>"
            for r in shown
        )
        + (f"<li>… {len(cand.reasons) - len(shown)} more</li>" if cand.reasons[40:] else "")
        + "</ul>"
    )
    skill = cand.skill
    phrases = registry.profile.trigger_texts(skill, patterns=True)
    if phrases:
        parts.append(
            "<p><b>Triggers:</b> "
            + ", ".join(_highlight(p) if p in terms else html.escape(p) for p in phrases)
            + "</p>"
        )
    parts.append("<p><b>Description:</b> " + _marked_text(skill.description, terms) + "</p>")
    if result.notes:
        parts.append("".join(f"<p><i>{html.escape(n)}</i></p>" for n in result.notes))
    return "".join(parts)


def _highlight(text: str) -> str:
    return f'<span style="background:{colour("match_bg")}">{html.escape(text)}</span>'


def typed(term: str) -> str:
    """What the request said for a reason's word: "PR" for "pull (pr)" (an abbreviation
    the estimate read as the words it stands for, core/reading/skill_words.py), the
    first wording that said an intent word for "bug (from 'crashes')" (request_intents.py)."""
    word, _, said = term.partition(" (")
    if said.startswith("from '"):
        return intent_wordings(term)[0]
    return said.removesuffix(")") if said.endswith(")") else word if not said else term


def intent_wordings(term: str) -> list[str]:
    """The request's wordings that said an intent word, normalized as the request's
    words are ("bug (from 'randomly', "doesn't work")": randomly, doesn t work), or []
    for another reason's word."""
    said = term.partition(" (from ")[2]
    quoted = re.findall(r"'([^']*)'|\"([^\"]*)\"", said) if said else []
    return [normalize(single or double) for single, double in quoted]


def _marked(query: str, normalized: str, terms: list[str]) -> str:
    return "".join(
        _highlight(piece) if hit else html.escape(piece)
        for piece, hit in marked_request(query, normalized, terms)
    )


def _marked_text(text: str, terms: list[str]) -> str:
    """The description with every word that is a matched term (or in one) marked."""
    words = {w for term in terms for w in term.lower().split()}
    return " ".join(_mark_word(word, lambda bare: bare.lower() in words) for word in text.split())


def _mark_word(word: str, hit: Callable[[str], bool]) -> str:
    """A word of a text, marked when `hit` says so of it without the punctuation around
    it, which stays unmarked ("pdf," was marked with its comma)."""
    found = _EDGES.match(word)
    lead, bare, tail = found.groups() if found else ("", word, "")
    if not bare or not hit(bare):
        return html.escape(word)
    return html.escape(lead) + _highlight(bare) + html.escape(tail)


def likely_html(
    result: MatchResult, cand: LikelyCandidate, index: LikelyIndex | None, first: bool
) -> str:
    """A likely candidate's band and its words' weights (term, where in the skill,
    weight), under the request with those words marked; labelled an estimate (`first`:
    it ranks first)."""
    return _explained_html(result, explain_candidate(cand, index, first), index)


def _explained_html(
    result: MatchResult, explained: LikelyExplained, index: LikelyIndex | None
) -> str:
    """A candidate as core/ranking/likely_explanation.py explains it (the lines `match
    --why` writes), in HTML."""
    cand = explained.candidate
    assert cand is not None
    rows = [
        f"<tr><td><code>{html.escape(r.term)}</code></td>"
        f"<td>{html.escape(', '.join(r.fields))}</td>"
        f'<td align="right">{r.weight:.2f}</td></tr>'
        for r in explained.terms
    ]
    said = [w for r in cand.reasons for w in intent_wordings(r.term) or [typed(r.term)]]
    parts = [
        f"<h3>{html.escape(cand.name)}: {cand.band} "
        f'<span style="font-weight:normal">(an estimate, {cand.strength:.2f})</span></h3>',
        f"<p><i>{html.escape(caveat(result.selects), quote=False)}</i></p>",
        *(
            [f"<p><b>Why {cand.band}:</b> {html.escape(explained.why)}</p>"]
            if explained.why
            else []
        ),
        *([f"<p><b>Listing:</b> {html.escape(cand.listing)}</p>"] if cand.listing else []),
        "<p><b>Request:</b> " + _marked(result.query, result.normalized, said) + "</p>",
    ]
    if rows:
        parts.append(
            '<table cellspacing="0" cellpadding="3" border="1" style="border-collapse:collapse">'
            "<tr><th>term</th><th>field</th><th>weight</th></tr>" + "".join(rows) + "</table>"
        )
    stems = {r.stem for r in cand.reasons}
    parts.append("<p><b>Description:</b> " + _seen_description(cand, index, stems) + "</p>")
    return "".join(parts)


def _seen_description(cand: LikelyCandidate, index: LikelyIndex | None, stems: set[str]) -> str:
    """The description with the request's words marked in what the listing shows of
    it; what the listing leaves out is greyed, never marked (the model does not see it)."""
    description = cand.skill.description
    view, name = (index.view if index is not None else None), cand.skill.name
    kept = len(description)
    if view is not None and view.shows(name) != "whole":
        kept = view.cut.get(name, 0)
    seen, unseen = description[:kept], description[kept:]
    out = _marked_stems(seen, stems) if seen else ""
    if unseen:
        out += f' <span style="color:{colour("muted")}">{html.escape(unseen)}</span>'
    return out


def likely_row_html(
    result: MatchResult, cand: LikelyCandidate, index: LikelyIndex | None, first: bool
) -> str:
    """A likely candidate's explanation, led by the error it is ranked in spite of."""
    note = error_note(result.profile, cand.skill)
    lead = f"<p><b>{html.escape(note, quote=False)}</b></p>" if note else ""
    return lead + likely_html(result, cand, index, first)


def why_not_likely(
    result: MatchResult,
    likely: LikelyResult,
    name: str,
    index: LikelyIndex | None,
    registry: Registry,
) -> str:
    """ "Why not X?" where the model chooses (core/ranking/likely_explanation.py, as
    `match --why X` says it): whether the agent loads and lists X, where it ranks, then
    X's words and weights (an estimate)."""
    explained = explain_why_not(likely, name, index, registry)
    head = f"<p><b>Why not {html.escape(name)}?</b> {html.escape(explained.lead, quote=False)}</p>"
    if explained.candidate is None:
        return head
    return head + _explained_html(result, explained, index)


def _marked_stems(text: str, stems: set[str]) -> str:
    """The text with every word whose stem is one of `stems` marked."""
    return " ".join(
        _mark_word(word, lambda bare: any(stem(w) in stems for w in normalize(bare).split()))
        for word in text.split()
    )
