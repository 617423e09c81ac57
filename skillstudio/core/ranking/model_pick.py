"""Likely candidates: an estimate of which skills the model would pick for a request.

For the profiles where the model chooses (docs/commands.md), skills are ranked by
BM25F, an information-retrieval weighting over a few fields: the name (split on
hyphens and underscores, weighted up), the description, what else the profile's
listing shows (`Profile.listing_texts`: when to use it, its triggers, an argument
hint), the name's phrases (pairs of adjacent words), plus the body's gist (its most
frequent words, core/reading/skill_words.py) at a low weight: the model does not read the
body when it chooses, but the body's vocabulary is what it knows of the
skill's domain, and requests worded unlike the description reach the skill
through it. Term weights (IDF) come from the registry itself, so a word most
skills use counts little; words are stemmed with the Snowball English stemmer
(PyStemmer), so "testing" meets "tests". Each candidate gets a band (likely,
possible, unlikely) from a cut-off calibrated on an evaluation set
(tests/eval), so a request no skill serves shows no likely skill. It is an
estimate: it never selects; only explicit invocation does (core/ranking/matching.py).

The index keeps, per term, each skill's saturated field-weighted frequency in
flat arrays; one added, removed or changed skill updates it without a rebuild
(document counts and field lengths are running sums; the weights are
recomputed only when an average field length drifts by more than `DRIFT`), so
the app can re-rank on every keystroke.
"""

from __future__ import annotations

import heapq
import math
import sys
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import compress

from ..model.matches import MAX_QUERY_CHARS, STOPWORDS
from ..model.skills import Skill
from ..model.text import normalize
from ..profile import Profile, default_listing_texts
from ..reading.skill_words import (
    COVER_MIN_WORDS,
    STEMS,
    covers,
    gist_counts,
    stem,
    terms,
    with_phrases,
)
from ..scanning.registry import Registry
from .estimate import (
    LIKELY_MODEL,
    Band,
    IgnoredWord,
    LikelyCandidate,
    LikelyResult,
    Model,
    TermWeight,
)
from .exclusions import clause_holding, listing_without_exclusions

SHOWN_KEPT = 1024  # skills whose shown terms a ranking keeps (`LikelyIndex._shown`; ~2 KB each)
# At most this many words a request has in skills' exclusions are reported
MAX_IGNORED = 10

# Words of a request that say nothing about which skill it needs (beside the
# description stop words): fillers of chat requests. Written for this project.
REQUEST_STOPWORDS = STOPWORDS | frozenset(
    """
    please pls hey hi hello thanks thank ok okay want wants wanted need needs needed
    like would could can help me im ive id dont doesnt cant isnt whats thats lets
    something anything thing things stuff kind sort bit lot really actually maybe
    just also one s t re ve ll d m e g eg ie vs etc gonna wanna
    """.split()
)

# A request's word found in more than half of the skills counts nothing (in a
# collection of 20 or more; unless the request has no other): its weight is below
# log 2 for every skill alike, and skipping it halves the work at 10,000 skills
# (measured: 34,000 → 16,000 postings read per request of the benchmark).
COMMON_SHARE = 0.5
COMMON_MIN_SKILLS = 20
COMPACT_MIN = 256  # empty slots before they are numbered afresh (see `_compact`)
DRIFT = 0.1  # recompute cached weights when an average field length moves by 10 %


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


_NO_POSTINGS: tuple[array[int], array[float]] = (array("i"), array("d"))


class LikelyIndex:
    """BM25F postings over the active skills of a registry, kept current per skill."""

    def __init__(
        self,
        registry: Registry | None = None,
        model: Model = LIKELY_MODEL,
        profile: Profile | None = None,
    ) -> None:
        self.registry = registry
        self.model = model
        # what each skill shows the model, as its profile says (the registry's, or the
        # one given for an index built from a list of skills)
        profile = profile or (registry.profile if registry is not None else None)
        self.texts = profile.listing_texts if profile is not None else default_listing_texts
        # a skill its profile keeps out of the listing (user-only) is not the model's pick
        self.omits = profile.listing_omission if profile is not None else lambda _s: None
        self._weights = dict(model.weights)
        self.docs: dict[str, _Doc] = {}  # path -> doc
        self.df: Counter[str] = Counter()
        self.body_only: Counter[str] = Counter()  # skills with a term in the body only
        # term -> paths of the skills that have it only in their exclusions (exclusions.py)
        self.excluded: dict[str, set[str]] = {}
        self._shown_kept: dict[str, tuple[Skill, frozenset[str]]] = {}  # see `_shown`
        self.length_sums: Counter[str] = Counter()
        # term -> (slots, weights): each skill's IDF × saturated tf, in two flat
        # arrays (12 bytes a posting; dicts took 70 bytes, 70 MB more at 10,000
        # skills with their bodies' words). Slots number the skills, so that a
        # request adds up scores in a list. A term's IDF is brought up to date
        # when a request reads it (`_bucket`): an edit changes a few document
        # counts, read once after.
        self.postings: dict[str, tuple[array[int], array[float]]] = {}
        self._idf_used: dict[str, float] = {}
        self.slots: list[_Doc | None] = []
        self._free = 0  # slots of removed skills (numbers are not reused, see `_compact`)
        self._avg_used: dict[str, float] = {}
        self._synced = -1
        if registry is not None:
            self._synced = registry.version
            self.add_all(registry.active.values())

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
        if weights.get("body", 0.0) > 0 and skill.gist:
            body: Counter[str] = Counter()
            get, known = body.get, STEMS.get
            for word, count in gist_counts(skill.gist):
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
        count = len(self.docs)
        return (self.length_sums[name] / count) if count else 1.0

    def _saturated(self, doc: _Doc, fields: dict[str, Counter[str]]) -> dict[str, float]:
        """term -> the doc's saturated field-weighted frequency (BM25F)."""
        k1, cap = self.model.k1, self.model.body_cap or 0.0
        tf: dict[str, float] = {}
        get = tf.get
        body = fields.get("body") if self.model.body_cap is not None else None
        for name, counts in fields.items():
            if counts is body:
                continue
            factor = self._factor(doc, name)
            for term, count in counts.items():
                tf[term] = get(term, 0.0) + factor * count
        out = {term: x / (k1 + x) for term, x in tf.items()}
        if body is None:
            return out
        # what the body adds to a term's saturated weight: at most `cap` times what the
        # same count of it in the description would bring, and (if set) at most
        # `body_one` times what one mention there brings (issue 28)
        factor, one = self._factor(doc, "body"), self._factor(doc, "description")
        limit = self.model.body_one
        most = limit * one / (k1 + one) if limit is not None else math.inf
        for term, count in body.items():
            x = tf.get(term, 0.0)
            y, d = x + factor * count, one * count
            gain = min(y / (k1 + y) - x / (k1 + x), cap * d / (k1 + d), most)
            out[term] = out.get(term, 0.0) + gain
        return out

    def _factor(self, doc: _Doc, name: str) -> float:
        """What one mention in the field `name` of `doc` adds (its weight, length-normalised)."""
        b = self.model.b
        avg = self._avg_used.get(name) or 1.0
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
        for term, (slots, values) in self.postings.items():
            self.postings[term] = (array("i", [renumber[s] for s in slots]), values)

    def _post(self, doc: _Doc, fields: dict[str, Counter[str]]) -> None:
        slot, postings, idf_used = doc.slot, self.postings, self._idf_used
        for term, value in self._saturated(doc, fields).items():
            bucket = postings.get(term)
            if bucket is None:
                bucket = postings[term] = (array("i"), array("d"))
                idf_used[term] = self.idf(term)
            bucket[0].append(slot)
            bucket[1].append(idf_used[term] * value)

    def _count(self, skill: Skill, fields: dict[str, Counter[str]]) -> None:
        self.df.update(_term_set(fields))
        self.body_only.update(_body_only(fields))
        for term in self.listing(skill)[1]:
            self.excluded.setdefault(term, set()).add(skill.path)

    def add_all(self, skills: Iterable[Skill]) -> None:
        """Counts and lengths, then postings: words worked out twice, not kept (-43 MB)."""
        built = []
        for skill in (s for s in skills if self.omits(s) is None):
            fields = self.fields(skill)
            doc = self._doc(skill, fields)
            self.docs[skill.path] = doc
            self._count(skill, fields)
            built.append(doc)
        self._avg_used = {name: self._avg(name) for name in self.length_sums}
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
                self.postings.pop(term, None)
                self._idf_used.pop(term, None)
                continue
            bucket = self.postings.get(term)
            if bucket is not None:
                at = bisect_left(bucket[0], slot)
                if at < len(bucket[0]) and bucket[0][at] == slot:
                    del bucket[0][at]
                    del bucket[1][at]
        self._compact()
        self._check_drift()

    def _check_drift(self) -> bool:
        """Reweigh (and say so) when an average field length moved by DRIFT."""
        for name in self.length_sums:
            used, now = self._avg_used.get(name), self._avg(name)
            if used is None or (now and abs(now - used) > DRIFT * used):
                self.reweigh()
                return True
        return False

    def reweigh(self) -> None:
        """Recompute every weight with the current average field lengths."""
        self._avg_used = {name: self._avg(name) for name in self.length_sums}
        self.postings.clear()
        self._idf_used.clear()
        for doc in self.slots:
            if doc is not None:
                self._post(doc, self.fields(doc.skill))

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
            if doc is None or new is doc.skill:
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

    # ---------------------------------------------------------------- ranking
    def idf(self, term: str) -> float:
        count = len(self.docs)
        df = self.df.get(term, 0)
        return math.log(1 + (count - df + 0.5) / (df + 0.5))

    def unit(self) -> float:
        """The weight of a word only one skill has, fully matched: the band unit."""
        count = len(self.docs)
        return math.log(1 + (count - 0.5) / 1.5) or 1.0

    def query_terms(self, query: str) -> dict[str, str]:
        """stem -> the request's first word with that stem (of its first
        MAX_QUERY_CHARS characters, as the matcher reads it)."""
        out: dict[str, str] = {}
        last: tuple[str, str] | None = None
        for word in normalize(query[:MAX_QUERY_CHARS]).split():
            if word in REQUEST_STOPWORDS or len(word) < 2:
                continue
            key = stem(word) if self.model.stem else word
            if key not in self.df and self.model.stem:
                parts = self._split(word)  # "dataframe": "data" + "frame"
                if parts:
                    for part in parts:
                        out.setdefault(part, word)
                    last = None
                    continue
            out.setdefault(key, word)
            if last is not None and self.model.phrases and last[0] != key:
                out.setdefault(f"{last[0]} {key}", f"{last[1]} {word}")
            last = (key, word)
        return out

    def _split(self, word: str) -> tuple[str, str] | None:
        """A word no skill has, as two words skills have (decompounding: the first
        split from the left whose halves, three letters or more, are both known)."""
        if len(word) < 6 or not word.isalpha():
            return None
        for cut in range(3, len(word) - 2):
            head, tail = stem(word[:cut]), stem(word[cut:])
            if head in self.df and tail in self.df:
                return head, tail
        return None

    def common(self, term: str) -> bool:
        """Whether `term` is in too many skills to count (see COMMON_SHARE)."""
        count = len(self.docs)
        return count >= COMMON_MIN_SKILLS and self.df.get(term, 0) > count * COMMON_SHARE

    def _bucket(self, term: str) -> tuple[array[int], array[float]]:
        """The postings of `term` (slots, weights), weighted with its current IDF."""
        bucket = self.postings.get(term)
        if bucket is None:
            return _NO_POSTINGS
        idf, used = self.idf(term), self._idf_used[term]
        if idf != used:
            factor = idf / used
            bucket = self.postings[term] = (bucket[0], array("d", [v * factor for v in bucket[1]]))
            self._idf_used[term] = idf
        return bucket

    def weight(self, term: str, slot: int) -> float:
        """What `term` scores for the skill in `slot` (0.0 when it lacks the word)."""
        slots, values = self._bucket(term)
        at = bisect_left(slots, slot)
        return values[at] if at < len(slots) and slots[at] == slot else 0.0

    def counted(self, query_terms: Iterable[str]) -> list[str]:
        """The request's terms that count: those skills have, but not most of them (see
        COMMON_SHARE), or all it has when each is in most (copies of one description)."""
        known = [term for term in query_terms if term in self.postings]
        return [term for term in known if not self.common(term)] or known

    def _accumulate(self, query_terms: Iterable[str]) -> list[float]:
        """Each slot's score for the request's terms."""
        scores = [0.0] * len(self.slots)
        for term in self.counted(query_terms):
            slots, values = self._bucket(term)
            for slot, value in zip(slots, values, strict=True):
                scores[slot] += value
        return scores

    def scores(self, query: str) -> dict[str, float]:
        """path -> score, for every skill with a word of `query`."""
        scores = self._accumulate(self.query_terms(query))
        return {
            doc.skill.path: scores[doc.slot]
            for doc in self.slots
            if doc is not None and scores[doc.slot] > 0
        }

    def rank(self, query: str, top: int = 30) -> LikelyResult:
        """The best `top` skills for `query`, banded and with their term weights."""
        query_terms = self.query_terms(query)
        scores = self._accumulate(query_terms)
        # the top-th score from the floats alone, then the slots at or above it, in C
        values = heapq.nlargest(top, scores)
        cutoff = max(values[-1], sys.float_info.min) if values else 1.0
        best = list(compress(range(len(scores)), map(cutoff.__le__, scores)))
        if len(best) > top:  # ties at the cut-off
            best = heapq.nlargest(top, best, key=scores.__getitem__)
        unit = self.unit()
        model = self.model
        # the bar is the request's best score (`values` is best first; `best` is in
        # slot order, and its first slot set the bar before: bands moved with `top`)
        first = values[0] if values else 0.0
        counted = set(self.counted(query_terms))
        live = [(t, w, *self._bucket(t)) for t, w in query_terms.items() if t in counted]
        out: list[LikelyCandidate] = []
        for slot in best:
            doc = self.slots[slot]
            assert doc is not None  # a free slot scores 0
            score = scores[slot]
            strength = score / unit
            reasons = []
            for term, word, holders, weights in live:
                at = bisect_left(holders, slot)
                if at < len(holders) and holders[at] == slot and weights[at]:
                    reasons.append(TermWeight(word, term, weights[at]))
            if reasons and self._weights.get("body", 0.0) > 0:
                shown = self._shown(doc.skill)
                for reason in reasons:
                    reason.body = reason.stem not in shown
            reasons.sort(key=lambda r: -r.weight)
            band: Band = "unlikely"
            if score >= model.likely_ratio * first and (
                strength >= model.likely or self._covers(doc.skill, query_terms, len(reasons))
            ):
                band = "likely"
            elif strength >= model.possible:
                band = "possible"
            out.append(LikelyCandidate(doc.skill, score, strength, band, reasons))
        out.sort(key=lambda c: (-c.score, c.name))
        result = LikelyResult(query, out, len(scores) - scores.count(0.0))
        result.ignored = self._ignored(query_terms)
        return result

    def _shown(self, skill: Skill) -> frozenset[str]:
        """The terms of what the listing shows of `skill` (every field but the body;
        the last SHOWN_KEPT skills' kept: the app re-ranks the same ones per keystroke)."""
        kept = self._shown_kept.get(skill.path)
        if kept is not None and kept[0] is skill:
            return kept[1]
        model, out = self.model, set[str]()
        for name, text in self.listing(skill)[0].items():
            if self._weights.get(name, 0.0) > 0:
                out.update(with_phrases(terms(text, model.stem), name in model.phrases))
        if len(self._shown_kept) >= SHOWN_KEPT:
            del self._shown_kept[next(iter(self._shown_kept))]  # the oldest
        self._shown_kept[skill.path] = (skill, frozenset(out))
        return self._shown_kept[skill.path][1]

    def _ignored(self, query_terms: dict[str, str]) -> list[IgnoredWord]:
        """The request's words skills have only in their exclusions, with the clause."""
        out: list[IgnoredWord] = []
        for term, word in query_terms.items():
            for path in sorted(self.excluded.get(term, ())):
                if len(out) < MAX_IGNORED:
                    out.append(
                        IgnoredWord(self.docs[path].skill.name, word, self._clause(path, term))
                    )
        return out

    def _clause(self, path: str, term: str) -> str:
        """The exclusion clause of the skill at `path` that holds `term`."""
        skill = self.docs[path].skill
        return clause_holding(self.texts(skill), skill.own_name, term, self.model.stem)

    def _covers(self, skill: Skill, query_terms: dict[str, str], matched: int) -> bool:
        """Whether the request says what the skill's description says (`matched`: how
        many of the request's counted terms the skill has)."""
        share = self.model.covered
        if not share or matched < COVER_MIN_WORDS:
            return False
        description = self.listing(skill)[0].get("description", "")
        return covers(description, query_terms, share, self.model.stem)

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
            slots, values = self._bucket(term)
            for slot, value in zip(slots, values, strict=True):
                out[slot][term] = value
        return out


def likely(registry: Registry, query: str, index: LikelyIndex | None = None) -> LikelyResult:
    """Rank `registry`'s active skills for `query` (builds an index when none is given)."""
    index = index or LikelyIndex(registry)
    index.sync()
    return index.rank(query)
