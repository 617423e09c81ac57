"""Issue 36: anyone can rerun the evaluation sets of tests/eval.

- Every set names a corpus inside the repository, or the shared corpus beside it
  (../shared/corpus, absent in a fresh clone: those checks skip there).
- Every skill name a set expects is the frontmatter name of a SKILL.md in its corpus.
- The blind corpus (tests/eval/corpora/blind) is its manifest, byte for byte, with a
  licence file beside each collection.
- No tracked file names a path of a particular machine (/work/...), the test fixture
  that makes up a project folder aside.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import re
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
EVAL = ROOT / "tests" / "eval"
SHARED = (ROOT.parent / "shared" / "corpus").resolve()
BLIND = EVAL / "corpora" / "blind"
SETS = sorted(EVAL.glob("*.yaml"))
FRONTMATTER = re.compile(r"^---\n(.*?)\n---", re.S)
# (file, text) pairs allowed to name a /work/ path: a made-up project folder the
# Claude Code activation test passes as an option, not a path this project reads.
FIXTURES = {("tests/test_claude_code.py", "/work/proj")}


def _corpus(set_path: pathlib.Path) -> pathlib.Path:
    data = yaml.safe_load(set_path.read_text(encoding="utf-8"))
    return (set_path.parent / str(data["corpus"])).resolve()


def _expected(set_path: pathlib.Path) -> set[str]:
    data = yaml.safe_load(set_path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for case in data["cases"]:
        if isinstance(case["expect_likely"], list):
            names.update(str(name) for name in case["expect_likely"])
    return names


def _names(corpus: pathlib.Path) -> set[str]:
    names: set[str] = set()
    for path in corpus.rglob("SKILL.md"):
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        match = FRONTMATTER.match(text)
        if match is None:
            continue
        try:
            front = yaml.safe_load(match.group(1))
        except yaml.YAMLError:
            continue
        if isinstance(front, dict) and front.get("name"):
            names.add(str(front["name"]))
    return names


def test_the_sets_are_found() -> None:
    assert {p.name for p in SETS} >= {
        "blind_requests.yaml",
        "corpus_requests.yaml",
        "fresh_requests.yaml",
    }


@pytest.mark.parametrize("set_path", SETS, ids=lambda p: p.name)
def test_a_set_names_a_corpus_in_the_repository_or_the_shared_one(
    set_path: pathlib.Path,
) -> None:
    corpus = _corpus(set_path)
    in_repository = ROOT in corpus.parents
    shared = corpus == SHARED or SHARED in corpus.parents
    assert in_repository or shared, f"{set_path.name}: corpus {corpus} lies outside"
    if in_repository:
        assert corpus.is_dir(), f"{set_path.name}: corpus {corpus} is missing"


@pytest.mark.parametrize("set_path", SETS, ids=lambda p: p.name)
def test_every_expected_name_is_a_skill_of_the_corpus(set_path: pathlib.Path) -> None:
    corpus = _corpus(set_path)
    if not corpus.is_dir() and (corpus == SHARED or SHARED in corpus.parents):
        pytest.skip("../shared/corpus is absent (a fresh clone)")
    missing = _expected(set_path) - _names(corpus)
    assert sorted(missing) == []


def test_the_blind_corpus_is_its_manifest_byte_for_byte() -> None:
    manifest = json.loads((BLIND / "sources.json").read_text(encoding="utf-8"))
    listed = {}
    for entry in manifest["skills"]:
        path = BLIND / entry["repo"].replace("/", "__") / entry["path"]
        listed[path] = entry
        data = path.read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (entry["bytes"], entry["sha256"])
    assert sorted(BLIND.rglob("SKILL.md")) == sorted(listed)
    assert {entry["name"] for entry in listed.values()} == _expected(EVAL / "blind_requests.yaml")
    for repo, collection in manifest["collections"].items():
        assert (BLIND / collection["licence_file"]).is_file(), repo
        assert any(entry["repo"] == repo for entry in listed.values()), repo


def test_no_tracked_file_names_a_path_of_this_machine() -> None:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listing = subprocess.run(
        [git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    this = pathlib.Path(__file__).resolve().relative_to(ROOT).as_posix()
    found = []
    for name in listing.decode("utf-8", "surrogateescape").split("\0"):
        path = ROOT / name
        if not name or name == this or not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        for match in re.finditer(rb"/work/[^\s'\"`),\\]*", data):
            text = match.group().decode("utf-8", "replace")
            if (name, text) not in FIXTURES:
                found.append(f"{name}: {text}")
    assert found == []
