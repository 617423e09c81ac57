"""The likely index: BM25F postings over a registry's skills, kept current per skill.

The likely ranking (likely_ranking.py) reads skills by BM25F, an information-retrieval
weighting over a few fields: the name (split on hyphens and underscores, weighted up),
the description, what else the profile's listing shows (`Profile.listing_texts`: when
to use it, its triggers, an argument hint), the name's phrases (pairs of adjacent
words), plus the body's gist (its most frequent words, core/reading/skill_words.py)
at a low weight: the model does not read the body when it chooses, but the body's
vocabulary is what it knows of the skill's domain, and requests worded unlike the
description reach the skill through it. Term weights (IDF) come from the registry
itself, so a word most skills use counts little; words are stemmed with the Snowball
English stemmer (PyStemmer), so "testing" meets "tests". The words of a
description's exclusion clauses are left out (core/ranking/exclusions.py).

The index keeps, per term, each skill's saturated field-weighted frequency in
flat arrays; one added, removed or changed skill updates it without a rebuild
(document counts and field lengths are running sums; IDF is brought up to date
per term when read). The average field lengths the weights use are snapped to a
grid (`snapped`, steps of `GRID`), and the weights are recomputed whenever a
snapped average changes: so an index kept current through any order of edits,
additions and removals scores exactly as a fresh build over the same skills (the
app's Try a Request and the CLI's `match` agree), while a sync stays cheap (one
edit among 10,000 skills moves an average far less than a step).

That recomputation takes 1.3 s at 10,000 skills. An index with `defer_reweigh` (the
app's) does not pay it in a sync: it goes on with the weights it has and says
`reweigh_due`; `weights_job()` is the recomputation as work for another thread and
`take_weights` puts its outcome in, unless the index changed meanwhile. From then on
it scores as a fresh build again.
"""

from __future__ import annotations

import math
import sys
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..model.delivered import ListingView
from ..model.fields import is_placeholder_description
from ..model.skills import Skill
from ..profile import Profile, default_listing_texts
from ..reading.skill_words import STEMS, gist_counts, stem, terms, unfolded, with_phrases
from ..scanning.registry import Registry
from .estimate import LIKELY_MODEL, Model
from .exclusions import listing_without_exclusions
from .postings import Bucket, Postings
from .trigger_clauses import trigger_text
from .trigger_phrases import Phrases, phrases_of

SHOWN_KEPT = 1024  # skills whose shown terms the index keeps (`shown_terms`; ~2 KB each)
COMPACT_MIN = 256  # empty slots before they are numbered afresh (see `_compact`)
GRID = 0.005  # the step of the average field lengths the weights use (0.5 %, see `snapped`)


def snapped(avg: float) -> float:
    """`avg` on a geometric grid of GRID steps: the same for a fresh build and for an
    index whose sums were kept through edits (a float's last bits aside: the sums
    are of whole numbers, exact), and unchanged by most edits, so weights seldom need
    recomputing."""
    if avg <= 0:
        return 1.0
    return math.exp(round(math.log(avg) / math.log1p(GRID)) * math.log1p(GRID))


def _term_set(fields: dict[str, Counter[str]]) -> set[str]:
    return set().union(*fields.values())


def _body_only(fields: dict[str, Counter[str]]) -> set[str]:
    """Terms in the body's gist and in no other field (rivals.py's document counts)."""
    return set(fields.get("body", ())).difference(*(c for n, c in fields.items() if n != "body"))


@dataclass(slots=True)
class _Doc:
    skill: Skill
    lengths: dict[str, int]  # field -> words
    index: LikelyIndex
    slot: int = -1  # its number in the index (postings are keyed by it)

    @property
    def tf(self) -> dict[str, dict[str, int]]:
        """field -> term -> count (worked out again from the skill: not kept, for memory)."""
        return {name: dict(counts) for name, counts in self.index.fields(self.skill).items()}


def _idf(count: int, df: int) -> float:
    return math.log(1 + (count - df + 0.5) / (df + 0.5))


@dataclass(slots=True)
class Weights:
    """Every posting's weight under the average field lengths `avgs` (`weights_job`),
    worked out when the index had made `changes` changes."""

    changes: int
    avgs: dict[str, float]
    postings: Postings = field(default_factory=Postings)


class LikelyIndex:
    """BM25F postings over the active skills of a registry, kept current per skill."""

    def __init__(
        self,
        registry: Registry | None = None,
        model: Model = LIKELY_MODEL,
        profile: Profile | None = None,
        view: ListingView | None = None,
    ) -> None:
        self.registry = registry
        self.model = model
        # what each skill shows the model, as its profile says (the registry's, or the
        # one given for an index built from a list of skills)
        profile = profile or (registry.profile if registry is not None else None)
        self._texts = profile.listing_texts if profile is not None else default_listing_texts
        # a skill its profile keeps out of the listing (user-only) is not the model's pick
        self._omits = profile.listing_omission if profile is not None else lambda _s: None
        # what the agent's listing shows of each skill at the set's budget (None: every
        # skill whole), and where to read it again when the registry changes
        self.view = view
        self._listing_of: Callable[[], ListingView | None] | None = None
        # the agent's own skills listed beside the user's (Profile.agent_skills: Claude
        # Code's bundled skills, Codex's system skills), by path: competitors the model
        # sees too, kept apart from the registry's (a sync never drops them)
        self.own: dict[str, Skill] = {}
        self._weights = dict(model.weights)
        self.docs: dict[str, _Doc] = {}  # path -> doc
        self.df: Counter[str] = Counter()
        self.body_only: Counter[str] = Counter()  # skills with a term in the body only
        # term -> paths of the skills that have it only in their exclusions (exclusions.py)
        self.excluded: dict[str, set[str]] = {}
        self._shown_kept: dict[str, tuple[Skill, frozenset[str], Phrases]] = {}  # `shown_terms`
        self.length_sums: Counter[str] = Counter()
        # term -> (slots, weights): each skill's IDF × saturated tf, in flat arrays
        # (core/ranking/postings.py; dicts took 70 bytes a posting, 70 MB more at
        # 10,000 skills with their bodies' words). Slots number the skills, so that
        # a request adds up scores in a list. A term's IDF is brought up to date
        # when a request reads it (`bucket`): an edit changes a few document
        # counts, read once after.
        self.postings = Postings()
        self.slots: list[_Doc | None] = []
        self._free = 0  # slots of removed skills (numbers are not reused, see `_compact`)
        self._avg_used: dict[str, float] = {}
        self._synced = -1
        # a sync that moves a snapped average leaves the recomputation to the caller
        # (`reweigh_due`, `weights_job`) instead of doing it (the app: off its thread)
        self.defer_reweigh = False
        self.reweigh_due = False
        self._changes = 0  # skills added and removed so far (`take_weights` checks it)
        if registry is not None:
            self._synced = registry.version
            self.add_all(registry.active.values())

    # ---------------------------------------------------------------- the listing
    def texts(self, skill: Skill) -> dict[str, str]:
        """What the listing shows of `skill`, by role (`Profile.listing_texts`), as the
        listing's budget leaves it (`view`): a bare name, or its description cut."""
        texts = self._texts(skill)
        if is_placeholder_description(texts.get("description")):
            # New Skill's placeholder is not the skill's words (model/fields.py)
            texts = {role: text for role, text in texts.items() if role != "description"}
        view = self.view
        shown = view.shows(skill.name) if view is not None else "whole"
        if shown == "whole" or shown == "out":
            return texts
        if shown == "name":
            return {"name": texts["name"]} if "name" in texts else {}
        assert view is not None
        roles = ("description", "use_when")  # (Claude Code cuts the two as one text)
        told = " ".join(texts[role] for role in roles if texts.get(role))
        out = {role: text for role, text in texts.items() if role not in roles}
        out["description"] = told[: view.cut[skill.name]]
        return out

    def omits(self, skill: Skill) -> str | None:
        """Why the model cannot pick `skill` (its profile's rule, or the budget left it
        out of the listing), or None."""
        reason = self._omits(skill)
        if reason is None and self.view is not None and self.view.shows(skill.name) == "out":
            return self.view.note(skill.name)
        return reason

    def shows(self, skill: Skill) -> str:
        """What the listing shows of `skill` in words, when not its whole entry ("")."""
        return self.view.note(skill.name) if self.view is not None else ""

    def add_own(self, skills: Iterable[Skill]) -> None:
        """Index the agent's own skills (`own`) beside the registry's, in place of any
        added before."""
        for path in list(self.own):
            self.remove(path)
        self.own = {skill.path: skill for skill in skills}
        for skill in self.own.values():
            self.add(skill)

    def follow_listing(self, listing_of: Callable[[], ListingView | None]) -> None:
        """Read the listing's view with `listing_of` now and at every sync (the set's
        budget is shared: one skill's edit can cut another's description)."""
        self._listing_of = listing_of
        self._apply_view(listing_of())

    def _apply_view(self, view: ListingView | None) -> None:
        """Take `view`, indexing again the skills it shows otherwise than the last."""
        old, self.view = self.view, view
        if old == view or self.registry is None:
            return

        def shown(v: ListingView | None, name: str) -> tuple[str, int | None]:
            return ("whole", None) if v is None else (v.shows(name), v.cut.get(name))

        for skill in [*self.registry.active.values(), *self.own.values()]:
            if shown(old, skill.name) != shown(view, skill.name):
                self.remove(skill.path)
                self.add(skill)

    # ---------------------------------------------------------------- building
    def listing(self, skill: Skill) -> tuple[dict[str, str], set[str]]:
        """What the listing shows of `skill` as this model reads it, its exclusions left
        out, and the terms only they had (core/ranking/exclusions.py)."""
        texts = self.texts(skill)
        if not self.model.exclusions:
            return texts, set()
        return listing_without_exclusions(texts, skill.own_name, self.model.stem)

    def fields(self, skill: Skill) -> dict[str, Counter[str]]:
        """field -> term -> count, for the fields this model reads (the body's
        words from the skill's gist, core/reading/skill_words.py; neither has the
        words of the description's exclusions)."""
        model = self.model
        texts, excluded = self.listing(skill)
        if model.single_field:
            counts = Counter(terms(" ".join(texts.values()), model.stem))
            return {"text": counts} if counts else {}
        weights = self._weights
        out = {
            name: with_phrases(terms(text, model.stem), name in model.phrases)
            for name, text in texts.items()
            if weights.get(name, 0.0) > 0
        }
        told = texts.get("description") if weights.get("trigger", 0.0) > 0 else None
        if told:  # the description's trigger clauses again, as a field of their own
            out["trigger"] = Counter(terms(trigger_text(told), model.stem))
        name_only = self.view is not None and self.view.shows(skill.name) == "name"
        if weights.get("body", 0.0) > 0 and skill.gist and not name_only:
            body: Counter[str] = Counter()
            get, known = body.get, STEMS.get
            for short, count in gist_counts(skill.gist):
                for word in unfolded([short]):  # (a gist has lost the punctuation)
                    key = (known(word) or stem(word)) if model.stem else sys.intern(word)
                    body[key] = get(key, 0) + count
            for term in excluded:  # what the description excludes, the body cannot bring
                body.pop(term, None)
            out["body"] = body
        return {name: counts for name, counts in out.items() if counts}

    def name_terms(self, skill: Skill) -> list[str]:
        """The terms of the skill's name field (its words and phrases; not its namespace)."""
        return list(
            with_phrases(terms(skill.own_name, self.model.stem), "name" in self.model.phrases)
        )

    def _avg(self, name: str) -> float:
        """The average length of the field `name`, snapped (`snapped`)."""
        count = len(self.docs)
        return snapped(self.length_sums[name] / count) if count else 1.0

    def _avgs(self) -> dict[str, float]:
        return {name: self._avg(name) for name, size in self.length_sums.items() if size}

    def _saturated(
        self, doc: _Doc, fields: dict[str, Counter[str]], avgs: dict[str, float]
    ) -> dict[str, float]:
        """term -> the doc's saturated field-weighted frequency (BM25F) under the
        average field lengths `avgs`."""
        k1, cap = self.model.k1, self.model.body_cap or 0.0
        tf: dict[str, float] = {}
        get = tf.get
        body = fields.get("body") if self.model.body_cap is not None else None
        for name, counts in fields.items():
            if counts is body:
                continue
            factor = self._factor(doc, name, avgs)
            for term, count in counts.items():
                tf[term] = get(term, 0.0) + factor * count
        out = {term: x / (k1 + x) for term, x in tf.items()}
        if body is None:
            return out
        # what the body adds to a term's saturated weight: at most `cap` times what the
        # same count of it in the description would bring, and (if set) at most
        # `body_one` times what one mention there brings (issue 28)
        factor, one = self._factor(doc, "body", avgs), self._factor(doc, "description", avgs)
        limit = self.model.body_one
        most = limit * one / (k1 + one) if limit is not None else math.inf
        for term, count in body.items():
            x = tf.get(term, 0.0)
            y, d = x + factor * count, one * count
            gain = min(y / (k1 + y) - x / (k1 + x), cap * d / (k1 + d), most)
            out[term] = out.get(term, 0.0) + gain
        return out

    def _factor(self, doc: _Doc, name: str, avgs: dict[str, float]) -> float:
        """What one mention in the field `name` of `doc` adds (its weight, length-normalised)."""
        b = self.model.b
        avg = avgs.get(name) or 1.0
        return self._weights.get(name, 0.0) / (1 - b + b * doc.lengths.get(name, 0) / avg)

    def _take_slot(self, doc: _Doc) -> None:
        """A new slot, after every other: each term's slots stay in ascending order,
        so that one is found by bisection when its skill changes."""
        doc.slot = len(self.slots)
        self.slots.append(doc)

    def _compact(self) -> None:
        """Number the slots afresh once removed skills left a quarter of them empty
        (the order is kept, so each term's slots stay ascending)."""
        if self._free <= max(COMPACT_MIN, len(self.slots) // 4):
            return
        renumber = [0] * len(self.slots)
        live: list[_Doc | None] = []
        for slot, doc in enumerate(self.slots):
            if doc is not None:
                renumber[slot] = doc.slot = len(live)
                live.append(doc)
        self.slots, self._free = live, 0
        self.postings.renumber(renumber)

    def _post(self, doc: _Doc, fields: dict[str, Counter[str]]) -> None:
        weights = Weights(self._changes, self._avg_used, self.postings)
        self._post_into(weights, doc, fields, self.df, len(self.docs))

    def _post_into(
        self,
        weights: Weights,
        doc: _Doc,
        fields: dict[str, Counter[str]],
        df: dict[str, int],
        count: int,
    ) -> None:
        """Add `doc`'s postings to `weights` (the document counts `df` of `count` skills)."""
        slot, postings = doc.slot, weights.postings
        used, add = postings.idf_used, postings.add
        for term, value in self._saturated(doc, fields, weights.avgs).items():
            idf = used(term)
            if idf is None:
                idf = _idf(count, df.get(term, 0))
            add(term, slot, idf * value, idf)

    def _count(self, skill: Skill, fields: dict[str, Counter[str]]) -> None:
        self.df.update(_term_set(fields))
        self.body_only.update(_body_only(fields))
        for term in self.listing(skill)[1]:
            self.excluded.setdefault(term, set()).add(skill.path)

    def add_all(self, skills: Iterable[Skill]) -> None:
        """Index many skills at once: document counts and field lengths first, then
        the postings. Each skill's words are worked out twice rather than kept
        between the passes: kept, 10,000 skills' word counts (about 10 KB each)
        left the process 43 MB larger for good (measured: +81 MB resident for the
        index instead of +38 MB), for 25 % of the build time."""
        built = []
        for skill in (s for s in skills if self.omits(s) is None):
            fields = self.fields(skill)
            doc = self._doc(skill, fields)
            self.docs[skill.path] = doc
            self._count(skill, fields)
            built.append(doc)
        self._avg_used = self._avgs()
        for doc in built:
            self._take_slot(doc)
            self._post(doc, self.fields(doc.skill))

    def _doc(self, skill: Skill, fields: dict[str, Counter[str]]) -> _Doc:
        lengths = {name: sum(counts.values()) for name, counts in fields.items()}
        for name, size in lengths.items():
            self.length_sums[name] += size
        return _Doc(skill, lengths, self)

    def add(self, skill: Skill) -> None:
        if skill.path in self.docs:
            self.remove(skill.path)
        if self.omits(skill) is not None:
            return
        self._changes += 1
        fields = self.fields(skill)
        doc = self._doc(skill, fields)
        self.docs[skill.path] = doc
        self._count(skill, fields)
        self._take_slot(doc)
        if not self._check_drift():
            self._post(doc, fields)

    def remove(self, path: str) -> None:
        doc = self.docs.pop(path, None)
        if doc is None:
            return
        self._changes += 1
        for name, size in doc.lengths.items():
            self.length_sums[name] -= size
        self.slots[doc.slot] = None
        self._free += 1
        slot, df, fields = doc.slot, self.df, self.fields(doc.skill)
        self.body_only.subtract(_body_only(fields))  # (a zero left is as good as none)
        for term in self.listing(doc.skill)[1]:
            holders = self.excluded.get(term)
            if holders is not None:
                holders.discard(path)
                if not holders:
                    del self.excluded[term]
        for term in _term_set(fields):
            df[term] -= 1
            if df[term] <= 0:
                del df[term]
                self.postings.drop(term)
                continue
            self.postings.unpost(term, slot)
        self._compact()
        self._check_drift()

    def _check_drift(self) -> bool:
        """Reweigh (and say so) when a snapped average field length changed; with
        `defer_reweigh`, say `reweigh_due` instead (and that it is no longer, when
        the averages came back)."""
        self.reweigh_due = self._avgs() != self._avg_used
        if self.reweigh_due and not self.defer_reweigh:
            self.reweigh()
            return True
        return False

    def reweigh(self) -> None:
        """Recompute every weight with the current average field lengths."""
        self.take_weights(self.weights_job()())

    def weights_job(self) -> Callable[[], Weights]:
        """The recomputation of every weight with the current average field lengths,
        as work another thread can do: it reads the skills (never writes them), the
        index's entries as listed now (their slots and lengths change only with a
        skill added or removed, which `take_weights` refuses the outcome for; an entry
        given a skill with the same words reads the same) and a copy of the document
        counts."""
        docs = [d for d in self.slots if d is not None]
        df, count = dict(self.df), len(self.docs)
        changes, avgs = self._changes, self._avgs()

        def work() -> Weights:
            weights = Weights(changes, avgs)
            for doc in docs:
                self._post_into(weights, doc, self.fields(doc.skill), df, count)
            return weights

        return work

    def take_weights(self, weights: Weights) -> Postings | None:
        """Put in the weights a `weights_job` worked out, unless a skill was added or
        removed since it started (None: ask for another). The postings replaced are
        returned, for the caller to free where it suits (at 10,000 skills, freeing
        them holds the interpreter 10-30 ms)."""
        if weights.changes != self._changes:
            return None
        old = self.postings
        self.postings, self._avg_used = weights.postings, weights.avgs
        self.reweigh_due = self._avgs() != self._avg_used
        return old

    def _unchanged(self, old: Skill, new: Skill) -> bool:
        """The same words to index, and still listed (an edit elsewhere in the file)."""
        return old.gist == new.gist and self.texts(old) == self.texts(new) and not self.omits(new)

    def sync(self) -> None:
        """Bring the index in line with its registry, touching only changed skills."""
        all(True for _ in self.sync_steps())

    def sync_steps(self) -> Iterator[None]:
        registry = self.registry
        if registry is None or registry.version == self._synced:
            return
        version = registry.version
        paths, current, _only = registry.to_sync(self._synced, self.docs)  # (an edit: its skill)
        for path in paths:
            doc, new = self.docs.get(path), current.get(path)
            if doc is None or new is doc.skill or path in self.own:
                continue
            if new is not None and self._unchanged(doc.skill, new):
                doc.skill = new
                continue
            self.remove(path)
            yield
        for path, skill in current.items():
            if path not in self.docs:
                self.add(skill)
                yield
        if registry.version == version:
            self._synced = version
            if self._listing_of is not None:
                self._apply_view(self._listing_of())

    # ---------------------------------------------------------------- lookups
    def idf(self, term: str) -> float:
        return _idf(len(self.docs), self.df.get(term, 0))

    def bucket(self, term: str) -> Bucket:
        """The postings of `term` (slots, weights), weighted with its current IDF."""
        return self.postings.read(term, self.idf(term))

    def weight(self, term: str, slot: int) -> float:
        """What `term` scores for the skill in `slot` (0.0 when it lacks the word)."""
        slots, values = self.bucket(term)
        at = bisect_left(slots, slot)
        return values[at] if at < len(slots) and slots[at] == slot else 0.0

    def shown_terms(self, skill: Skill) -> frozenset[str]:
        """The terms of what the listing shows of `skill` (every field but the body)."""
        return self._shown(skill)[1]

    def said_phrases(self, skill: Skill) -> Phrases:
        """The phrases of `skill`'s listed name and trigger clauses (trigger_phrases.py)."""
        return self._shown(skill)[2]

    def _shown(self, skill: Skill) -> tuple[Skill, frozenset[str], Phrases]:
        """`shown_terms` and `said_phrases` of `skill`, its listing read once for both
        (the last SHOWN_KEPT skills' kept: the app re-ranks the same ones per keystroke)."""
        kept = self._shown_kept.get(skill.path)
        if kept is not None and kept[0] is skill:
            return kept
        model, out = self.model, set[str]()
        texts = self.listing(skill)[0]
        for name, text in texts.items():
            if self._weights.get(name, 0.0) > 0:
                out.update(with_phrases(terms(text, model.stem), name in model.phrases))
        said = phrases_of(skill.own_name, texts.get("description", ""), model.stem)
        if len(self._shown_kept) >= SHOWN_KEPT:
            del self._shown_kept[next(iter(self._shown_kept))]  # the oldest
        kept = self._shown_kept[skill.path] = (skill, frozenset(out), said)
        return kept

    # ---------------------------------------------------------------- vectors
    def vector(self, path: str) -> dict[str, float]:
        """A skill's weight per term: what each word would score for it as a request."""
        doc = self.docs[path]
        seen: set[str] = set()
        for counts in self.fields(doc.skill).values():
            seen.update(counts)
        return {term: self.weight(term, doc.slot) for term in seen}

    def vectors(self) -> dict[int, dict[str, float]]:
        """slot -> `vector` of its skill, for every skill, in one pass over the postings."""
        out: dict[int, dict[str, float]] = {d.slot: {} for d in self.slots if d is not None}
        for term in list(self.postings):
            slots, values = self.bucket(term)
            for slot, value in zip(slots, values, strict=True):
                out[slot][term] = value
        return out
