"""The web shop's requests (tests/eval/webshop.py, issue 39 round 4) in the Claude Code
project they were written for: built from the shared corpus (skipped without it)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from skillstudio.core.projects.evaluate import load_set
from tests.eval import webshop
from tests.helpers import CORPUS

pytestmark = pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")


def test_the_project_holds_the_seven_skills_and_claude_codes_own(tmp_path: Any) -> None:
    registry, index = webshop.open_project(webshop.build_project(CORPUS, str(tmp_path)))
    assert sorted(registry.active) == sorted(name for _, name in webshop.SKILLS)
    assert len(index.docs) > len(webshop.SKILLS)  # (Claude Code's own skills beside them)


def test_the_reviewers_count_and_a_file_name_in_a_phrase(tmp_path: Any) -> None:
    _, index = webshop.open_project(webshop.build_project(CORPUS, str(tmp_path)))
    cases, _ = load_set(webshop.SET)
    right, lines = webshop.picks(index, cases)
    assert len(lines) == len(cases) == 19
    assert right == sum(not line.startswith("x ") for line in lines)
    # 'tests in test_cart.py started failing …': 'test failure' said across a file name
    failing = next(line for line in lines if "test_cart.py" in line)
    assert not failing.startswith("x ") and "<- systematic-debugging likely" in failing
    assert right >= 13  # (10 before the file-name window, 11 before request intents)
    # the intent said in other words (request_intents.py): right and likely since round 6
    for words, skill in (("no idea why", "systematic-debugging"), ("gift cards", "brainstorming")):
        line = next(line for line in lines if words in line)
        assert not line.startswith("x ") and f"<- {skill} likely" in line
