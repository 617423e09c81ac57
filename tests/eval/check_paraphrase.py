"""Check tests/eval/corpus_requests.yaml against the shared skills corpus.

Stand-alone script (not collected by pytest). Run:
    python tests/eval/check_paraphrase.py [path/to/set.yaml]

It checks only the rules the file was written under and runs no ranking:
  * every name in expect_likely is a frontmatter `name` in the corpus;
  * kind is direct | paraphrase | none, and none <=> expect_likely: none;
  * a `paraphrase` request shares at most one content word with the
    name + description of EACH skill it lists (stop words ignored, words
    compared after a crude suffix strip; a stem that is a prefix of the
    other, both at least 5 letters, also counts as shared: strict on purpose);
  * no duplicate queries.
It exits non-zero on any violation and prints counts.
"""

from __future__ import annotations

import collections
import pathlib
import re
import sys
from typing import Any

import yaml

STOP = set(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do
    does doesn't doing don't down during each few for from further had hadn't has hasn't
    have haven't having he he'd he'll he's her here here's hers herself him himself his how
    how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most
    mustn't my myself no nor not of off on once only or other ought our ours ourselves out
    over own same shan't she she'd she'll she's should shouldn't so some such than that
    that's the their theirs them themselves then there there's these they they'd they'll
    they're they've this those through to too under until up very was wasn't we we'd we'll
    we're we've were weren't what what's when when's where where's which while who who's
    whom why why's will with won't would wouldn't you you'd you'll you're you've your yours
    yourself yourselves
    also just get got go going gonna wanna want wants need needs please pls hey hi thanks
    thx ok okay like use used using uses one two etc e g ie eg vs via im ive dont doesnt
    isnt whats thats u ur let lets s t re ve ll d m really actually something anything
    thing things way kind sort bit lot
    """.split()
)

SUFFIXES = (
    "ational", "ations", "ation", "ities", "ity", "ments", "ment", "ings", "ing",
    "ers", "er", "ies", "ied", "ed", "es", "ly", "s",
)  # fmt: skip


def stem(w: str) -> str:
    for suf in SUFFIXES:
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)]
            if suf in ("ies", "ied"):
                w += "y"
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def words(text: str) -> set[str]:
    toks = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())
    return {stem(t) for t in toks if t not in STOP and len(t) > 1}


def shared(a: set[str], b: set[str]) -> set[str]:
    out = set()
    for x in a:
        for y in b:
            if x == y or (min(len(x), len(y)) >= 5 and (x.startswith(y) or y.startswith(x))):
                out.add(x)
    return out


def load_corpus(root: pathlib.Path) -> dict[str, list[tuple[str, str]]]:
    """name -> [(collection, description)], one entry per SKILL.md with that name."""
    skills: dict[str, list[tuple[str, str]]] = {}
    for p in sorted(root.rglob("SKILL.md")):
        t = p.read_text(encoding="utf-8").replace("\r\n", "\n")
        m = re.match(r"^---\n(.*?)\n---", t, re.S)
        fm = (yaml.safe_load(m.group(1)) if m else None) or {}
        coll = p.relative_to(root).parts[0]
        skills.setdefault(str(fm.get("name")), []).append((coll, str(fm.get("description") or "")))
    return skills


def check(data: dict[str, Any], skills: dict[str, list[tuple[str, str]]]) -> int:
    bad: list[str] = []
    kinds: collections.Counter[str] = collections.Counter()
    covered: dict[str, set[str]] = collections.defaultdict(set)
    seen: set[str] = set()
    for i, case in enumerate(data["cases"]):
        q, exp, kind = case["query"], case["expect_likely"], case["kind"]
        kinds[kind] += 1
        if q.strip().lower() in seen:
            bad.append(f"#{i} duplicate query: {q!r}")
        seen.add(q.strip().lower())
        if kind not in ("direct", "paraphrase", "none"):
            bad.append(f"#{i} bad kind {kind!r}")
        if (exp == "none") != (kind == "none"):
            bad.append(f"#{i} kind/expect mismatch: {q!r}")
        if exp == "none":
            continue
        if not isinstance(exp, list) or not exp:
            bad.append(f"#{i} expect_likely must be a non-empty list or none")
            continue
        for name in exp:
            if name not in skills:
                bad.append(f"#{i} unknown skill name {name!r}")
                continue
            for coll, desc in skills[name]:
                covered[coll].add(name)
                if kind == "paraphrase":
                    sh = shared(words(q), words(name.replace("-", " ") + " " + desc))
                    if len(sh) > 1:
                        bad.append(
                            f"#{i} paraphrase shares {sorted(sh)} with {name} ({coll}): {q!r}"
                        )
    for line in bad:
        print(line)
    per_coll = collections.Counter(c for entries in skills.values() for c, _ in entries)
    print(
        f"total {sum(kinds.values())}: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    )
    print(
        "distinct skills covered: "
        + ", ".join(f"{c} {len(v)}/{per_coll[c]}" for c, v in sorted(covered.items()))
    )
    print("violations:", len(bad))
    return 1 if bad else 0


def main() -> int:
    here = pathlib.Path(__file__).resolve().parent
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "corpus_requests.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    root = (path.parent / data["corpus"]).resolve()
    if not root.is_dir():
        print(f"corpus not found at {root}; nothing to check")
        return 0
    return check(data, load_corpus(root))


if __name__ == "__main__":
    sys.exit(main())
