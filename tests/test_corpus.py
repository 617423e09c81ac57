"""Conformance on the real-world corpus (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from skillstudio.core.reading.frontmatter import read_document

from .helpers import CORPUS, REPO, lint_json, skill_files

pytestmark = pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")


def corpus_skill_files() -> list[str]:
    return skill_files(CORPUS)


def test_every_corpus_skill_is_read_without_exception() -> None:
    files = corpus_skill_files()
    assert len(files) >= 200
    for path in files:
        doc = read_document(path)
        assert doc.mapping is not None or doc.problems, path


def test_lint_finds_every_skill_of_each_collection() -> None:
    total = 0
    for collection in sorted(os.listdir(CORPUS)):
        folder = os.path.join(CORPUS, collection)
        if not os.path.isdir(folder):
            continue
        data = lint_json(folder, "--profile", "agentskills")
        expected = sum(1 for path in corpus_skill_files() if path.startswith(folder + os.sep))
        assert data["summary"]["skills"] == expected, collection
        total += expected
    assert total == len(corpus_skill_files())


def _skills_ref_python() -> str | None:
    candidate = os.environ.get("SKILLS_REF_PYTHON")
    if (candidate and shutil.which(candidate)) or (candidate and os.path.exists(candidate)):
        return candidate
    try:
        import skills_ref  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return None
    return sys.executable


def test_agrees_with_skills_ref_except_documented_differences() -> None:
    python = _skills_ref_python()
    if python is None:
        pytest.skip("skills-ref 0.1.1 not installed (scripts/dev.sh test sets it up)")
    script = os.path.join(REPO, "tests", "conformance", "compare_skills_ref.py")
    proc = subprocess.run(
        [sys.executable, script, CORPUS, "--python", python],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "UNEXPLAINED" not in proc.stdout


@pytest.mark.parametrize("profile", ["claude-code", "codex"])
def test_an_agent_loads_the_corpus_and_explains_every_difference(profile: str) -> None:
    """The corpus under claude-code and codex: every skill skills-ref rejects is loaded,
    for a documented reason (unknown keys ignored, a long description cut, the name a
    label or not checked against the folder)."""
    python = _skills_ref_python()
    if python is None:
        pytest.skip("skills-ref 0.1.1 not installed (scripts/dev.sh test sets it up)")
    script = os.path.join(REPO, "tests", "conformance", "compare_skills_ref.py")
    proc = subprocess.run(
        [sys.executable, script, CORPUS, "--python", python, "--profile", profile, "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert sum(row["skillstudio_errors"] for row in data["summary"]) == 0
    rejected = sum(row["skills_ref_rejects"] for row in data["summary"])
    assert rejected == len(data["differences"]) > 0
    assert all(row["reason"] != "UNEXPLAINED" for row in data["differences"])
