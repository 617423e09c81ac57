"""The likely ranking's parameters and results (core/ranking/likely_ranking.py ranks).

`Model` holds the weights, saturation and band cut-offs (`LIKELY_MODEL` the tuned
one, `FIELDS_MODEL` without the body, `PLAIN_BM25` the textbook baseline);
`LikelyResult` is one request's answer: its candidates best first, each with a
band and the request's words that scored for it, and `likely_text` prints it.
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model.skills import Skill
from .explanations import first_error

Band = Literal["likely", "possible", "unlikely"]
# The roles of what a listing shows (`Profile.listing_texts` keys); the body is the gist's.
FIELDS = ("name", "description", "use_when", "triggers", "hint")


@dataclass(frozen=True, slots=True)
class Model:
    """The ranking's parameters. `LIKELY_MODEL` is the tuned one; `PLAIN_BM25` the
    textbook baseline (one field, no stemming, no weights) it is measured against."""

    weights: tuple[tuple[str, float], ...] = (
        ("name", 2.0),
        ("description", 1.0),
        ("use_when", 1.0),  # when to use it (Claude Code's `when_to_use`)
        ("triggers", 1.0),
        # the description's trigger clauses ("Use when …", core/ranking/trigger_clauses.py)
        # again, on top of the description's weight (issue 43)
        ("trigger", 1.0),
        ("hint", 0.3),  # what to pass it (`argument-hint`)
        # the body's most frequent words (its gist, core/reading/skill_words.py); 0.6 before
        # issue 43 (with the trigger clause at 1.0: even half's right-first-and-likely
        # 110 either way, each collection alone no likely skill 502 → 507 of 552)
        ("body", 0.45),
    )
    k1: float = 2.0
    b: float = 0.5  # (0.6 before the body caps of issue 28; 0.75 before bundled markdown)
    stem: bool = True
    single_field: bool = False  # every field's words in one field, weight 1
    # the fields whose pairs of adjacent words ("code review") count as terms of
    # their own: the name only (in the description too they added 0.6 points of
    # top-1 and top-3 on the tuning half but 35 MB at 10,000 skills, most of them
    # phrases one skill has)
    phrases: tuple[str, ...] = ("name",)
    # Bands, on the score divided by the IDF of a word only one skill has (about
    # "how many distinctive words matched"), calibrated in tests/eval (0.8 before
    # the gist took in bundled markdown: then 3 of 18 no-skill requests were likely)
    likely: float = 0.8  # (1.0 before the body's caps, issue 28)
    possible: float = 0.4
    likely_ratio: float = 0.6  # and at least this share of the best score
    # or a request holding this share of the words of the skill's description (it says
    # what the description says: copies of one description made its words weigh little)
    covered: float = 0.8
    # the words of a description's exclusion clauses ("Not for …", "(for X use Y)",
    # core/ranking/exclusions.py) are no evidence for the skill (issue 28)
    exclusions: bool = True
    # What a term brings from the body (the model sees the description, not the body;
    # issue 28): at most `body_cap` times what the same count of it in the description
    # would bring, and, if `body_one` is set, at most that share of what one mention
    # there brings. Tuned on corpus_requests (top-1 / top-3 / likely band; before:
    # 78.4 / 86.1 / 70.7): body_cap 0.45 gave 77.3 / 83.2 / 59.1, 0.6 76.4 / 84.9 /
    # 65.1, 0.8 77.3 / 84.9 / 70.5; body_one alone at 0.45 71.3 / 81.5, 0.7 75.0 /
    # 83.0, 1.0 77.8 / 84.9; both (0.8, 1.0), with the likely cut-off at 0.8 (the
    # caps lower strengths; 0.75 and 0.9 gave 72.7 and 65.3 in band, 100 % no likely
    # skill where none serves): 77.8 / 84.7 / 70.7; then b 0.5 and body_cap 0.9 (of
    # k1 1.2-3.0, b 0.45-0.75, body weight 0.6-1.5, body_cap 0.8-1.0): 78.1 / 85.2 /
    # 70.2. body_one keeps a word the body alone has below one mention of it in the
    # description, whatever its count (the same-count cap alone let 8 mentions in the
    # body beat 1 in the description). A request's two words in one skill's body alone
    # still outweigh one in another's description unless body_one is below about 0.5.
    # None: no cap.
    body_cap: float | None = 0.9
    body_one: float | None = 1.0
    # Bands as probabilities (issue 36): a logistic model of whether the candidate is
    # the skill the request needs, over its `Evidence` (see `probability`); fitted by
    # tests/eval/calibrate.py on the tuning halves of the labelled sets. `likely`: the
    # model would pick it in most runs (p >= likely_p); `possible`: p >= possible_p.
    # None: the cut-offs above (`likely`, `possible`, `likely_ratio`, `covered`).
    calibration: tuple[float, ...] | None = None
    likely_p: float = 0.5
    possible_p: float = 0.2
    # A candidate whose listing (name, description, trigger clause: what the model
    # chooses from) explains none of the request, only its body and bundled files do,
    # is likely only with at least this chance (issue 43: a Bazel skill was likely for
    # "write a Dockerfile …" by words of its references/ alone). Chosen on the even
    # half of corpus_requests.yaml: the highest bar (0.6-0.9, or never) that kept its
    # right likely calls within 2 points (110 → 107 of 176; never: 106) while each
    # collection alone showed no likely skill more often (507 → 518 of 552; never: 525).
    unlisted_p: float = 0.75

    def weight(self, name: str) -> float:
        return dict(self.weights).get(name, 0.0)


# Fitted by tests/eval/calibrate.py (--none-weight 3 --collections 0.05) on the
# even-numbered cases of tests/eval/corpus_requests.yaml, ranked over the whole corpus
# and within each of its four collections alone (where a request whose skill lies in
# another one is a request no skill serves): constant, log strength, log lead, shown
# share, body share, covers, log lead × both shares, unknown share (docs/performance.md,
# "Bands as probabilities"; before issue 43's trigger clauses, abbreviations and body
# weight 0.45: (-1.199, 1.4, 1.805, 2.176, 1.636, 0.0, 2.755, -1.901); before the shares
# weighed words by information and the collections were ranked alone:
# (-1.443, 1.567, 2.087, 2.616, 1.869, 0.0, 2.339)).
CALIBRATION = (-1.303, 1.47, 1.52, 2.016, 2.19, 0.0, 2.993, -1.969)
LIKELY_MODEL = Model(calibration=CALIBRATION)
# The same without the body: what the model itself reads when choosing (overlap.py's
# model too, whose cut-offs were set with b 0.6: kept there, as the body's caps that
# moved b to 0.5 do not concern it).
FIELDS_MODEL = Model(
    weights=tuple(w for w in LIKELY_MODEL.weights if w[0] not in ("body", "trigger")), b=0.6
)
PLAIN_BM25 = Model(
    weights=(("text", 1.0),),
    b=0.75,  # the textbook value
    stem=False,
    single_field=True,
    phrases=(),
    covered=0.0,  # (the textbook's bands: from the scores alone)
    exclusions=False,
)


LEAD_CAP = 8.0  # a lead counts at most this (and at least its inverse)
# A lead is measured against the best other skill's strength, or this one when that is
# lower: a candidate alone with a weak match (half a distinctive word) is no winner
LEAD_FLOOR = 0.5


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a candidate's band reads: its strength (score in units of one distinctive
    word), its lead (its strength over the best strength of another skill, or over
    LEAD_FLOOR when that is lower: above 1 for a clear first), the shares of the
    request it explains with what the listing shows of it and with its body alone (the
    model does not see the body), whether the request says what its description says,
    and the share of the request in words no skill of the collection has (`unknown`:
    what it asks for is likely none of theirs). Shares are of the request's content
    words weighed by their information (IDF, `request_information`): a word most skills
    have ("make") explains little of a request, one no skill has ("spreadsheet") much."""

    strength: float
    lead: float
    shown: float
    hidden: float
    covers: bool
    unknown: float = 0.0

    def features(self) -> tuple[float, ...]:
        """The calibration's inputs: a constant, log strength, log lead, the two shares,
        covers, log lead × both shares and the unknown share."""
        lead = min(max(self.lead, 1 / LEAD_CAP), LEAD_CAP)
        return (
            1.0,
            math.log(max(self.strength, 0.01)),
            math.log(lead),
            self.shown,
            self.hidden,
            1.0 if self.covers else 0.0,
            math.log(lead) * (self.shown + self.hidden),
            self.unknown,
        )

    @classmethod
    def of(cls, features: tuple[float, ...]) -> Evidence:
        """The evidence `features` were made of (for the calibration script)."""
        strength, lead, shown, hidden, covers = features[1:6]
        unknown = features[7]
        return cls(math.exp(strength), math.exp(lead), shown, hidden, bool(covers), unknown)


def probability(model: Model, evidence: Evidence) -> float:
    """The calibrated chance that the candidate is the request's skill (model without
    a calibration: nan)."""
    weights = model.calibration
    if weights is None:
        return math.nan
    z = math.fsum(map(operator.mul, weights, evidence.features()))
    return 1 / (1 + math.exp(-min(max(z, -50.0), 50.0)))


def likely_chance(model: Model, evidence: Evidence, p: float) -> bool:
    """Whether the chance `p` makes the candidate likely: at least `likely_p`, and at
    least `unlisted_p` when its listing explains none of the request."""
    return p >= (model.likely_p if evidence.shown > 0 else max(model.likely_p, model.unlisted_p))


def band_of(
    model: Model, evidence: Evidence, ratio: float = 1.0, chance: float | None = None
) -> Band:
    """The band of a candidate: calibrated where the model is (`chance`: its
    `probability`, when worked out already), else by cut-offs (`ratio`: its score over
    the request's best)."""
    if model.calibration is not None:
        p = probability(model, evidence) if chance is None else chance
        # a request that says what the description says (copies of one description tie:
        # each is what was asked for) is likely, as before the calibration: the sets
        # have too few such requests for the fit to weigh it (its weight came out 0)
        if likely_chance(model, evidence, p) or (evidence.covers and ratio >= model.likely_ratio):
            return "likely"
        return "possible" if p >= model.possible_p else "unlikely"
    if ratio >= model.likely_ratio and (evidence.strength >= model.likely or evidence.covers):
        return "likely"
    return "possible" if evidence.strength >= model.possible else "unlikely"


def lead_text(evidence: Evidence, first: bool) -> str:
    """The candidate's lead in words, true whether it ranks `first` or not: a lead is
    measured against the best other skill's strength or LEAD_FLOOR, whichever is higher,
    so a first candidate weaker than the floor has a lead below 1 without anything
    ahead of it (it read "It ranks first … behind the best skill (0.91×)", issue 43)."""
    if evidence.lead >= 1:  # (measured against half a word at least: "at least")
        return f"at least {evidence.lead:.1f}× the next skill's strength"
    floor = f"under the {LEAD_FLOOR:g} a clear lead is measured from"
    weak = f"strength {evidence.strength:.2f}, {floor}"
    if first:
        return f"ahead of the others but weak ({weak})"
    if evidence.strength / evidence.lead <= LEAD_FLOOR + 1e-9:  # (the best is weak too)
        return f"behind a best skill as weak ({weak})"
    return f"behind the best skill ({evidence.lead:.2f}× its strength)"


def evidence_text(model: Model, evidence: Evidence, first: bool = False) -> str:
    """What a band read, in words: the calibrated chance, the lead over the next skill
    (`first`: the candidate ranks first) and how much of the request it explains."""
    parts = []
    p = probability(model, evidence)
    if not math.isnan(p):
        parts.append(f"chance about {round(100 * p):d} %")
    parts.append(lead_text(evidence, first))
    shown, hidden = round(100 * evidence.shown), round(100 * evidence.hidden)
    said = f"its listing explains {shown} % of the request"
    parts.append(said + (f", its body and bundled files {hidden} % more" if hidden else ""))
    if (
        not evidence.shown
        and hidden
        and not likely_chance(model, evidence, p)
        and p >= model.likely_p
    ):
        bar = round(100 * max(model.likely_p, model.unlisted_p))
        parts.append(f"a skill its listing does not explain needs a chance of {bar} % to be likely")
    unknown = round(100 * evidence.unknown)
    if unknown:
        parts.append(f"{unknown} % of the request is in words no skill here has")
    return "; ".join(parts)


def explained_shares(reasons: list[TermWeight], words: dict[str, float]) -> tuple[float, float]:
    """The shares of the request (its content words' stems -> their information,
    `request_information`) a candidate's reasons hold: with what the listing shows of
    it, and with its body alone."""
    total = math.fsum(words.values())
    if not total:
        return 0.0, 0.0
    shown = {s for r in reasons if " " not in r.stem and not r.body for s in _explains(r)}
    hidden = {s for r in reasons if " " not in r.stem and r.body for s in _explains(r)} - shown
    return (
        math.fsum(words.get(term, 0.0) for term in shown) / total,
        math.fsum(words.get(term, 0.0) for term in hidden) / total,
    )


def _explains(reason: TermWeight) -> tuple[str, ...]:
    """The request's stems a reason explains: its own, or those that said its intent."""
    return reason.source or (reason.stem,)


@dataclass(slots=True)
class TermWeight:
    term: str  # the request's word
    stem: str
    weight: float
    body: bool = False  # the skill has the word only in its body (the model does not see it)
    # "term": a word of the request; "trigger" / "name": a phrase of the skill's trigger
    # clause / name the request says (core/ranking/trigger_phrases.py)
    rule: str = "term"
    # an intent word the request's wording says (core/ranking/request_intents.py): the
    # request's stems that said it, whose share of the request it explains
    source: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.rule,
            "term": self.term,
            "points": round(self.weight, 2),
        }
        if self.body:
            out["from"] = "body"
        return out


@dataclass(frozen=True, slots=True)
class IgnoredWord:
    """A request's word a skill has only in an exclusion clause of its description."""

    skill: str
    term: str  # the request's word
    clause: str

    def to_json(self) -> dict[str, Any]:
        return {"skill": self.skill, "term": self.term, "clause": self.clause}

    def text(self) -> str:
        excludes = f"its description excludes it ({self.clause!r})"
        return f"'{self.term}' not counted for {self.skill}: {excludes}"


@dataclass(slots=True)
class LikelyCandidate:
    skill: Skill
    score: float
    strength: float  # score in units of one distinctive word (see Model.likely)
    band: Band
    reasons: list[TermWeight]
    evidence: Evidence | None = None  # what its band read (see `band_of`)
    # what the agent's listing shows of it when not its whole entry (a bare name, a cut
    # description: ListingView.note), else ""
    listing: str = ""
    chance: float | None = None  # the calibrated chance its band reads (None: not calibrated)

    @property
    def name(self) -> str:
        return self.skill.name

    @property
    def error(self) -> str | None:
        """The first error the skill is ranked in spite of (it loads and is listed
        all the same: docs/guide.md, "Skills the agent does not load"), or None."""
        return first_error(self.skill) if self.skill.status == "active" else None

    def to_json(self) -> dict[str, Any]:
        out = {
            "skill": self.skill.name,
            "score": round(self.score, 3),
            "strength": round(self.strength, 3),
            "band": self.band,
            "reasons": [r.to_json() for r in self.reasons],
        }
        error = self.error
        if error:  # only then: the usual answer keeps its shape
            out["error"] = error
        if self.listing:  # only then, too
            out["listing"] = self.listing
        if self.chance is not None:
            out["chance"] = round(self.chance, 3)
        agent = self.agent
        if agent:  # only then: one of the agent's own skills (no SKILL.md of the author's)
            out["agent"] = agent
        return out

    @property
    def agent(self) -> str:
        """The agent whose own skill this is (Claude Code's bundled ones, Codex's
        system skills: Profile.agent_skills), else ""."""
        return str(self.skill.fields.get("agent_skill") or "")


@dataclass(slots=True)
class LikelyResult:
    query: str
    candidates: list[LikelyCandidate]  # the top ones, best first
    total: int  # skills scored (those that cannot reach the top may be left out)
    estimate: bool = True  # always: never the model's choice
    notes: list[str] = field(default_factory=list)
    # the request's words skills have only in their exclusions (not counted for them)
    ignored: list[IgnoredWord] = field(default_factory=list)

    @property
    def likely(self) -> list[LikelyCandidate]:
        return [c for c in self.candidates if c.band == "likely"]

    def shared(self) -> set[str]:
        """Names more than one candidate has (an author's skill beside one of the
        agent's own, or two collections' skills): each of those says which it is
        (`which`)."""
        counts = Counter(c.name for c in self.candidates)
        return {name for name, count in counts.items() if count > 1}

    def band_of(self, name: str) -> Band:
        found = next((c for c in self.candidates if c.name == name), None)
        return found.band if found else "unlikely"

    def to_json(self) -> dict[str, Any]:
        shared = self.shared()
        return {
            "query": self.query,
            "estimate": True,
            "total_candidates": self.total,
            "candidates": [
                {**c.to_json(), "which": which(c)} if c.name in shared else c.to_json()
                for c in self.candidates
            ],
            "ignored": [i.to_json() for i in self.ignored],
        }


def which(cand: LikelyCandidate) -> str:
    """Which of several candidates of one name this is: its file, or the agent's own
    (no file of the author's: Profile.agent_skills)."""
    return f"{cand.agent}'s own, built in" if cand.agent else cand.skill.path


def reason_text(reason: TermWeight) -> str:
    """A reason in words: the request's word and its weight, marked when only the
    skill's body or its bundled markdown (references/*.md: the gist holds both, as one)
    has it."""
    if reason.rule != "term":  # a phrase of the skill's trigger clause or name, said
        where = "its trigger clause" if reason.rule == "trigger" else "its name"
        return f"'{reason.term}' ({where}) {reason.weight:.2f}"
    return f"{reason.term} {reason.weight:.2f}" + (
        " from the body or bundled files" if reason.body else ""
    )


def band_text(cand: LikelyCandidate) -> str:
    """A candidate's band and the calibrated chance it reads ("likely · 62 %"): what
    decides the band beside the strength figure, which does not alone (issue 43: two
    rows of the same 1.34, one likely, one possible). `match`'s text and Try a
    Request's Band column both write it so."""
    return cand.band if cand.chance is None else f"{cand.band} · {round(100 * cand.chance)} %"


def likely_text(result: LikelyResult, limit: int = 10) -> str:
    """The bands as lines of text: band (and chance), skill, strength and the weightiest
    words, then the words left out as exclusions."""
    lines = ["Likely candidates (an estimate from the skills' words, not the model's choice):"]
    shown = [c for c in result.candidates if c.band != "unlikely"][:limit]
    shared = result.shared()
    bands = [band_text(c) for c in shown]
    width = max([9, *(len(b) for b in bands)])  # ("possible " without a chance)
    under = " " * (width + 3)  # a row's further lines, under its skill
    for c, band in zip(shown, bands, strict=True):
        words = ", ".join(reason_text(r) for r in c.reasons[:5])
        own = f" ({c.agent}'s own)" if c.agent else ""
        lines.append(f"  {band:<{width}} {c.name}{own}  {c.strength:.2f}  ({words})")
        if c.error:  # ranked in spite of an error under the profile: said, not hidden
            lines.append(f"{under}error, still listed and ranked: {c.error}")
        if c.listing:  # what the model sees of it: ranked by that alone
            lines.append(f"{under}listing: {c.listing}")
        if c.name in shared and not c.agent:  # which of the skills of that name
            lines.append(f"{under}file: {which(c)}")
    if not result.likely:
        lines.append("  no skill is likely for this request")
    lines += [f"  ignored: {i.text()}" for i in result.ignored]
    return "\n".join(lines)
