"""The CLI's outputs are byte-identical to the recorded goldens (tests/golden/record.py).

A deliberate change of output is re-recorded with
`PYTHONPATH=. python -m tests.golden.record [GROUP ...]` in its own commit.
"""

from __future__ import annotations

import os

import pytest

from .golden import record
from .helpers import CORPUS, REPO

GROUPS = record.groups()


# The corpus groups are most of the suite's time: marked, so that
# `scripts/dev.sh test --quick` can leave them out (CI and a plain `test` run them).
@pytest.mark.parametrize(
    "group",
    [
        pytest.param(g, marks=pytest.mark.golden) if g.startswith("corpus-") else g
        for g in sorted(GROUPS)
    ],
)
def test_outputs_match_the_goldens(group: str) -> None:
    if not os.path.isfile(record.path_of(group)):
        pytest.skip(f"no golden recorded for {group}")
    expected = record.load(group)
    cases = GROUPS[group]
    ids = [c.strip() for c, _ in cases]
    assert len(set(ids)) == len(ids), "two cases have one id"
    assert sorted(ids) == sorted(expected), "the case list changed"
    actual = record.compute(cases)
    changed = [case for case in sorted(expected) if actual[case] != expected[case]]
    assert not changed, (
        f"{len(changed)} of {len(cases)} outputs changed, e.g. {changed[:5]}; see one with "
        "`PYTHONPATH=. python -m tests.golden.record --show 'CASE'`"
    )


def test_every_sample_group_is_recorded() -> None:
    """The goldens cannot silently vanish: every sample group has its file."""
    missing = [
        g for g in GROUPS if g.startswith("samples-") and not os.path.isfile(record.path_of(g))
    ]
    assert not missing


def test_normalise_hides_the_staged_copies() -> None:
    repo, _, corpus = record.staged()
    text = f"{repo}/skills/x    and {corpus}/a"
    assert record.normalise(text) == "<repo>/skills/x  and <corpus>/a"


def test_the_staged_path_has_the_same_length_on_every_checkout() -> None:
    """Token counts of the prompt tiers include the paths: the goldens recorded on
    one checkout failed on another whose path was longer. The copies live under a
    path whose length does not depend on where the checkout is."""
    repo, samples, _ = record.staged()
    assert len(repo) == len("/tmp/skillstudio-golden-XXXXXXXX/repo")
    assert os.path.isdir(os.path.join(samples, "oasis"))
    assert not repo.startswith(REPO)


@pytest.mark.golden
def test_lint_output_is_the_same_from_run_to_run() -> None:
    """Overlap's shared words tied on weight came out in an order that changed from run
    to run (weights summed in set order, string hashing differing per process), so
    two runs of lint on the corpus printed different messages."""
    import subprocess
    import sys

    if not os.path.isdir(CORPUS):
        pytest.skip("no ../shared/corpus")
    command = [sys.executable, "-m", "skillstudio", "lint", CORPUS, "--format", "json"]
    outputs = {
        subprocess.run(
            [*command, "--profile", "agentskills"], capture_output=True, text=True, cwd=REPO
        ).stdout
        for _ in range(4)
    }
    assert len(outputs) == 1
