"""Check that no request of a set shares six consecutive words with its corpus.

Stand-alone script (not collected by pytest). Run:
    python tests/eval/check_overlap.py tests/eval/heldout_requests.yaml

Every file under the set's `corpus:` folder (SKILL.md files, licences, SOURCES.md)
is cut into lower-case word 6-grams; a request containing any of them was copied
rather than written, and is reported. Exits non-zero on any hit. Runs no ranking.
"""

from __future__ import annotations

import pathlib
import re
import sys

import yaml

N = 6


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def grams(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + N]) for i in range(len(words) - N + 1)}


def main() -> int:
    path = pathlib.Path(sys.argv[1])
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    root = (path.parent / data["corpus"]).resolve()
    if not root.is_dir():
        print(f"corpus not found at {root}; nothing to check")
        return 0
    corpus: set[tuple[str, ...]] = set()
    for file in sorted(root.rglob("*")):
        if file.is_file():
            corpus |= grams(tokens(file.read_text(encoding="utf-8", errors="replace")))
    bad = 0
    for i, case in enumerate(data["cases"]):
        hits = sorted(grams(tokens(case["query"])) & corpus)
        if hits:
            bad += 1
            print(f"#{i} shares {[' '.join(h) for h in hits]}: {case['query']!r}")
    print(f"{len(data['cases'])} requests, {len(corpus)} corpus {N}-grams, {bad} overlapping")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
