"""The words of skills as the likely ranking reads them: stemming, content words,
phrases, and a skill's body in brief (its gist: its most frequent content
words, with their counts).

The likely-candidates ranking (core/ranking/likely_index.py) reads them as a low-weight
field: the model does not read the body when it chooses, but the body's
vocabulary is what the model knows about the skill's domain, and it reaches
requests worded differently from the description. The skill's own bundled
markdown (its folder's other `.md` files and `references/*.md`, a few and
bounded: `bundled_text`) counts too, at half weight: it is the same domain
knowledge, and on tests/eval it brings 2-3 points of top-1 (see docs/performance.md,
"Likely candidates"). Bodies are not kept in memory, so each skill keeps this
gist instead: at most `GIST_WORDS` stems (each written as its commonest word,
so that reports can show it), taken when the file is read (only for profiles
where the model chooses), about 1-2.5 KB per skill.
"""

from __future__ import annotations

import hashlib
import heapq
import os
import re
import stat
import sys
import threading
from collections import Counter, OrderedDict
from collections.abc import Collection
from itertools import islice, pairwise
from operator import itemgetter

import Stemmer  # type: ignore[import-not-found]  # PyStemmer (C Snowball), no stubs

from ..model.fields import without_template_steps
from ..model.matches import STOPWORDS
from ..model.text import words_of
from .looked import looked_at
from .safefs import OPEN_FLAGS, is_regular

GIST_WORDS = 300  # stems kept (tuned on tests/eval's even half, see docs/performance.md)
GIST_CHARS = 20_000  # of the body, read from its start
BUNDLED_FILES = 4  # bundled markdown files read at most (the folder's, then references/)
BUNDLED_BYTES = 32 * 1024  # of them all together
BUNDLED_ENTRIES = 1_000  # folder entries looked at, per folder (a folder may hold millions)
BUNDLED_WEIGHT = 0.5  # a bundled file's word counts half a body word
REFERENCES = "references"  # the one subfolder read (not walked below)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # (Windows: the entry was checked not to be a link)
GISTS_KEPT = 4_096  # gists kept by the digest of what they were worked out from
_GISTS: OrderedDict[bytes, str] = OrderedDict()
_GISTS_LOCK = threading.Lock()


def gist_of_skill(body: str, skill_file: str) -> str:
    """The gist of a skill's body and bundled markdown, worked out once per content:
    kept (the last GISTS_KEPT) by a digest of the part of the body a gist reads and of
    the bundled text, so that every profile reading one file (`lint --profile all`,
    the portability line, a project read again as another profile) shares one."""
    bundled = bundled_text(skill_file)
    if not body and not bundled:
        return ""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(body[:GIST_CHARS].encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(bundled.encode("utf-8", "surrogatepass"))
    key = digest.digest()
    with _GISTS_LOCK:
        found = _GISTS.get(key)
        if found is not None:
            _GISTS.move_to_end(key)
            return found
    gist = body_gist(body, bundled)
    with _GISTS_LOCK:
        _GISTS[key] = gist
        if len(_GISTS) > GISTS_KEPT:
            _GISTS.popitem(last=False)
    return gist


def body_gist(body: str, bundled: str = "") -> str:
    """`word count word count ...`: the most frequent content stems of the body (and,
    at `BUNDLED_WEIGHT`, of the skill's bundled markdown), most frequent first, each
    written as its commonest word (ties in the order they first appear)."""
    if not body and not bundled:
        return ""
    counts: Counter[str] = Counter(words_of(without_template_steps(body[:GIST_CHARS])))
    if bundled:  # (float counts from here on)
        get = counts.get
        for word, times in Counter(words_of(bundled)).items():
            counts[word] = get(word, 0) + BUNDLED_WEIGHT * times  # type: ignore[assignment]
    totals: dict[str, float] = {}
    shown: dict[str, str] = {}  # stem -> its commonest word
    known, total = STEMS.get, totals.get
    for word, count in counts.items():
        if word in STOPWORDS or len(word) < 2 or word.isdigit():
            continue
        key = known(word) or stem(word)
        before = total(key)
        if before is None:
            totals[key] = count
            shown[key] = word
        else:
            totals[key] = before + count
            if counts[shown[key]] < count:
                shown[key] = word
    top = heapq.nlargest(GIST_WORDS, totals.items(), key=itemgetter(1))
    if bundled:  # (a list joins faster than a generator; round(0.5) is 0: one, then)
        return " ".join([f"{shown[key]} {round(value) or 1}" for key, value in top])
    return " ".join([f"{shown[key]} {value}" for key, value in top])


def bundled_text(skill_file: str) -> str:
    """The text of the skill's bundled markdown: the `.md` files beside its SKILL.md,
    then those in its `references/` folder (by name; no deeper), at most
    `BUNDLED_FILES` of them and `BUNDLED_BYTES` in all. Untrusted, and read for
    every skill of a scan, so without resolving each path (that tripled the cost):
    confined by construction instead, as nothing that is a link is followed (not
    `references/`, not a file, which is opened with O_NOFOLLOW), and a file is read
    only if `fstat` says regular, non-blocking and with a bound. What cannot be read
    is left out: it only feeds an estimate."""
    folder, own = os.path.split(os.path.abspath(skill_file))
    if own.upper() != "SKILL.MD":
        return ""  # a skill file that shares its folder (a legacy command) bundles nothing
    parts: list[str] = []
    left = BUNDLED_BYTES
    for sub in ("", REFERENCES):
        files: list[tuple[str, str]] = []  # (name, path) of the regular *.md files
        deeper = False
        listed = os.path.join(folder, sub) if sub else folder
        looked_at(listed)  # (a file added or removed changes the folder's own times)
        try:
            with os.scandir(listed) as found:
                for entry in islice(found, BUNDLED_ENTRIES):
                    name = entry.name
                    if name.lower().endswith(".md") and name != own and is_regular(entry):
                        files.append((name, entry.path))
                    elif not sub and name == REFERENCES and _is_folder(entry):
                        deeper = True  # a real folder, not a link to one
        except OSError:
            continue
        for _name, path in heapq.nsmallest(BUNDLED_FILES - len(parts), files):
            looked_at(path)
            try:
                data = _read_plain(path, left)
            except OSError:
                continue
            left -= len(data)
            parts.append(data.decode("utf-8", "replace"))
            if left <= 0:
                return "\n".join(parts)
        if not deeper or len(parts) >= BUNDLED_FILES:
            break
    return "\n".join(parts)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _read_plain(path: str, limit: int) -> bytes:
    """Up to `limit` bytes of `path` if it is a regular file and not a link."""
    fd = os.open(path, OPEN_FLAGS | NOFOLLOW)
    try:
        return os.read(fd, limit) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    finally:
        os.close(fd)


def gist_counts(gist: str) -> list[tuple[str, int]]:
    """The (word, count) pairs of a gist."""
    parts = gist.split()
    return [(parts[i], int(parts[i + 1])) for i in range(0, len(parts) - 1, 2)]


STEMMER = Stemmer.Stemmer("english")
STEMS: dict[str, str] = {}

# Forms of one word the Snowball stemmer leaves apart, folded into one stem in skills
# and requests alike (every reader of words goes through `stem`): "my tests started
# failing" meets "test failure" (issue 39, round 4). Kept short: each pair is a form
# a request writes for a situation a skill's "Use when" clause names with the other.
FOLDS: dict[str, str] = {
    "failur": "fail",  # failure(s) / fail, failing, failed
    "debugg": "debug",  # debugger / debug, debugging
    "broken": "break",  # broken / break, breaks, breaking
}


def stem(word: str) -> str:
    found = STEMS.get(word)
    if found is None:
        if len(STEMS) > 200_000:  # bounded: skill files are untrusted
            STEMS.clear()
        found = STEMMER.stemWord(word)
        found = STEMS[word] = sys.intern(FOLDS.get(found, found))
    return found


# Abbreviations and short forms read as the words they stand for, in skills and
# requests alike (the likely ranking, overlap and rivals all read words through
# `terms`; the request's words through `unfolded`): "review my PR" meets "pull
# request". Kept short: each is a form the shared corpus's skills write (times in
# their SKILL.md files, 2026-12-03: PR 63, PRs 7, repo 58, repos 8, k8s 22, e2e 17,
# db 40, config 119, configs 11) beside the long one, and none is also a word of its
# own there ("docs" is not: it means documents as often as documentation).
VARIANTS: dict[str, tuple[str, ...]] = {
    "pr": ("pull", "request"),
    "prs": ("pull", "requests"),
    "repo": ("repository",),
    "repos": ("repositories",),
    "k8s": ("kubernetes",),
    "e2e": ("end", "to", "end"),
    "db": ("database",),
    "config": ("configuration",),
    "configs": ("configurations",),
}


# an abbreviation standing alone: not part of a name or command ("/babysit-prs",
# "pr-notes", "db_url" are left as they are)
_VARIANT = re.compile(r"(?<![\w/.-])(" + "|".join(VARIANTS) + r")(?![\w-])", re.IGNORECASE)


def unfold(text: str) -> str:
    """`text` with each abbreviation of VARIANTS that stands alone written out."""
    return _VARIANT.sub(lambda m: " ".join(VARIANTS[m.group(1).lower()]), text)


def abbreviations(text: str) -> list[str]:
    """The abbreviations of VARIANTS standing alone in `text`, as written."""
    return _VARIANT.findall(text)


def unfolded(words: list[str]) -> list[str]:
    """Words (a gist's: their punctuation is gone) with each abbreviation of VARIANTS
    replaced by the words it stands for."""
    if VARIANTS.keys().isdisjoint(words):
        return words
    out: list[str] = []
    for word in words:
        out.extend(VARIANTS.get(word, (word,)))
    return out


def terms(text: str, stemmed: bool = True, stopwords: frozenset[str] = STOPWORDS) -> list[str]:
    """The content words of `text`, normalized, abbreviations standing alone written out
    (`unfold`), (and stemmed), in order."""
    words = [w for w in words_of(unfold(text)) if w not in stopwords and len(w) > 1]
    if not stemmed:
        return [sys.intern(w) for w in words]
    known = STEMS.get
    return [known(w) or stem(w) for w in words]


COVER_MIN_WORDS = 4  # a description of fewer content words is covered by too much


def covers(description: str, request: Collection[str], share: float, stemmed: bool = True) -> bool:
    """Whether a request's terms (`request`) hold at least `share` of the content
    words of `description`, and COVER_MIN_WORDS of them at least: the request says
    what the description says, however many skills say it too."""
    if len(request) < COVER_MIN_WORDS:
        return False
    words = set(terms(description, stemmed))
    return len(words) >= COVER_MIN_WORDS and len(words.intersection(request)) >= share * len(words)


def with_phrases(words: list[str], phrases: bool) -> Counter[str]:
    """The words' counts, and with `phrases` each pair of adjacent words'."""
    counts = Counter(words)
    if phrases and len(words) > 1:
        # interned: an index counts a skill's terms, then posts them from a second
        # reading, and each reading's phrase was a string of its own (2-3 MB an index
        # at 10,000 skills, most phrases one skill's)
        counts.update(sys.intern(f"{a} {b}") for a, b in pairwise(words) if a != b)
    return counts
