"""Which cases of a suite `eval` judges, and against which key (PRODUCT.md section 7,
"One meaning per key").

`expect` is what the profile's own rules select, `expect_likely` the offline
estimate's top pick, `expect_model` the model's pick when asked as the agent asks.
`eval` judges `expect_model`, else `expect_likely`. A case with only `expect`, under a
profile where the model chooses, is judged only when its request names the skill
explicitly (`/name`, `$name`, `use <name> skill`: the harness resolves it, or the
request's explicit form names a skill the case expects); otherwise `expect` says what
the offline rules select, not what a model should pick, so the case is *not judged*
by eval (its own line and count), never a failure: an `expect: none` there means "the
rules select nothing", not "the model must pick nothing".

Under a profile whose rules select (oasis, toolsets) `eval` asks nothing at all
(cli/eval_cmd.py); the cases are kept as they are for that refusal's message. The other
tools' formats (skill-creator's `should_trigger`, waza, skill-reach) are about the
model's pick and are judged as written, as is `expect_not` (anything but those skills).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..live.harness import Harness
from ..live.stats import LiveCase
from ..model.matches import explicit_invocation
from ..scanning.registry import Registry
from .suite_cases import Case

# why a case is not judged, by what it expects
NONE_WHY = (
    "expect: none is what the profile's own rules select; the model chooses here, so eval "
    "does not read it as 'pick nothing' (add expect_model: none to judge that)"
)
NAME_WHY = (
    "expect: {names} is what the profile's own rules select, and the request names no "
    "skill the harness resolves (add expect_model or expect_likely to judge the model's pick)"
)


@dataclass(frozen=True, slots=True)
class NotJudged:
    """A case `eval` leaves out, and why (one line)."""

    case: Case
    why: str
    source: str = ""  # the suite it comes from


@dataclass(slots=True)
class EvalCases:
    judged: list[LiveCase]
    not_judged: list[NotJudged]


def eval_cases(
    cases: list[Case],
    registry: Registry,
    options: dict[str, Any] | None = None,
    source: str = "",
) -> EvalCases:
    """The live cases `eval` judges of a suite's `cases`, and those it leaves out."""
    out = EvalCases([], [])
    chooses = registry.profile.model_chooses
    harness = Harness(registry, options) if chooses else None
    for case in cases:
        if case.model is not None:
            out.judged.append(LiveCase(case.query, list(case.model), False, case.line, source))
        elif case.likely is not None:
            out.judged.append(LiveCase(case.query, list(case.likely), False, case.line, source))
        elif case.mode == "not-likely" or case.mode in ("triggers", "not-triggers", "reach"):
            negate = case.mode in ("not-likely", "not-triggers")
            names = case.expect_not if case.mode == "not-likely" else case.expect
            out.judged.append(LiveCase(case.query, list(names), negate, case.line, source))
        elif harness is None or _explicit(case, harness):
            out.judged.append(LiveCase(case.query, list(case.expect), False, case.line, source))
        elif case.expect_not:  # `expect` is the rules'; its `expect_not` still holds
            out.judged.append(LiveCase(case.query, list(case.expect_not), True, case.line, source))
        else:
            said = ", ".join(case.expect)
            why = NAME_WHY.format(names=said) if said else NONE_WHY
            out.not_judged.append(NotJudged(case, why, source))
    return out


def _explicit(case: Case, harness: Harness) -> bool:
    """Whether an `expect` case names its skill explicitly: the harness resolves its
    request without a model, or the request's explicit form names a skill the case
    expects (one the profile blocks is then put to the model, which should still pick
    the skill named)."""
    if not case.expect:
        return False
    if harness.pick(case.query) is not None:
        return True
    named = explicit_invocation(case.query)
    return named is not None and named[0] in case.expect
