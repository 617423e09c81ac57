"""Try a Request's "would pick X instead": for the skill being edited, the likely
candidates that outrank it on the request typed (only when the user says the request
is for that skill: a request is not assumed to be meant for the open tab), and the
project's suite requests that expect it but would pick another (profiles where
the model chooses). The advice never contradicts the panel's headline: it names as
"would pick" only the skills the headline calls likely."""

from __future__ import annotations

import os
import time

from ....core.model.skills import Skill
from ....core.projects.project import Project
from ....core.projects.suite_cases import Suite, SuiteError
from ....core.projects.suites import load_suite
from ....core.ranking.estimate import LikelyCandidate, LikelyResult
from ....core.ranking.likely_index import LikelyIndex
from ....core.ranking.likely_ranking import rank_likely
from ....core.ranking.matching import match
from ....core.scanning.registry import Registry

SUITE_CASES_CHECKED = 8  # suite requests ranked for the edited skill (a few ms each)
SUITE_CHECK_S = 0.02  # and at most this long per answer (10,000 skills: ~5 ms a request)


def outranking(likely: LikelyResult, name: str) -> list[LikelyCandidate]:
    """The candidates in the likely band ranked above `name` (all of them if it is not
    ranked): the ones the headline names ("Likely: …"), never a merely possible one."""
    ranked = [c.name for c in likely.candidates]
    place = ranked.index(name) if name in ranked else len(ranked)
    return [c for c in likely.candidates[:place] if c.band == "likely"]


class SuiteRequests:
    """The suite requests that would pick another skill than the edited one, worked
    out again only when the skills or the skill change; suite files read again only
    when they change."""

    def __init__(self) -> None:
        self._suites: dict[str, tuple[float, Suite | None]] = {}  # path -> (mtime, suite)
        self._last: tuple[object, list[tuple[str, str]]] = (None, [])

    def instead(
        self, project: Project, registry: Registry, index: LikelyIndex, skill: Skill
    ) -> list[tuple[str, str]]:
        """(request, the skill it would pick) for the suite requests that expect
        `skill` but would pick another (the first SUITE_CASES_CHECKED, for
        SUITE_CHECK_S at most). What a request picks is what the panel's headline says
        of it: the skill the rules select (an invocation by name: the estimate is not
        asked, as the suite does not ask it), else the first skill in the likely band;
        a request that picks nothing, or a likely band led by `skill`, is no
        "instead"."""
        key = (skill.path, id(registry), registry.version)
        if self._last[0] == key:
            return self._last[1]
        paths = list(project.config.suites) if project.config is not None else []
        home = os.path.dirname(project.config.path) if project.config is not None else ""
        cases = [
            case
            for suite in filter(None, (self._suite(path, home) for path in paths))
            for case in suite.cases
            if case.mode != "not-triggers" and skill.name in case.expect
        ]
        index.sync()
        out: list[tuple[str, str]] = []
        deadline = time.perf_counter() + SUITE_CHECK_S
        for case in cases[:SUITE_CASES_CHECKED]:
            if time.perf_counter() > deadline:
                break  # typing goes on; the rest are not checked this time
            selected = match(registry, case.query, options=project.options).selected
            if selected:
                if skill.name not in selected:
                    out.append((case.query, ", ".join(selected)))
                continue
            likely = rank_likely(index, case.query, top=5).likely
            if likely and likely[0].name != skill.name:
                out.append((case.query, likely[0].name))
        self._last = (key, out)
        return out

    def _suite(self, path: str, home: str) -> Suite | None:
        """A suite file the project lists, read inside the folder of its skillstudio.yaml
        (`home`) again only when it changed (None if unreadable)."""
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            return None
        known = self._suites.get(path)
        if known is None or known[0] != mtime:
            try:
                suite: Suite | None = load_suite(path, None, home)
            except (SuiteError, OSError, ValueError):
                suite = None  # the suite runner says what is wrong with it
            known = self._suites[path] = (mtime, suite)
        return known[1]


def open_skill_line(name: str, likely: LikelyResult, lacks: str = "") -> str:
    """The advice about the open skill `name` for a request the user says is meant for
    it, worded as the headline is: "" when it is the first likely skill. `lacks`: what
    its description lacks for the request (likely_explanation.open_skill_words), when
    worked out."""
    mine = next((c for c in likely.candidates if c.name == name), None)
    where = f"{mine.band}, {mine.strength:.2f}" if mine is not None else "not ranked"
    above = outranking(likely, name)
    if above:
        others = ", ".join(f"{c.name} ({c.band}, {c.strength:.2f})" for c in above[:3])
        if mine is not None and mine.band == "likely":
            return (
                f"{others} {'ranks' if len(above) == 1 else 'rank'} above {name} ({where}) "
                f"for this request, an estimate: make {name}'s description say what sets "
                "it apart."
            )
        return (
            f"This request would likely pick {others} instead of {name} ({where}), an "
            f"estimate: make {name}'s description say what sets it apart, or use the "
            "request's words."
        )
    if mine is None or mine.band != "likely":
        lacks = lacks or (
            f"for the model to pick {name}, its description needs the request's distinctive words"
        )
        head = f"No skill is likely for this request, {name} included ({where}), an estimate"
        return f"{head}: {lacks}."
    return ""


def instead_text(
    name: str,
    likely: LikelyResult | None,
    for_open: bool,
    suite: list[tuple[str, str]],
    blocked: str | None = None,
    lacks: str = "",
) -> str:
    """The panel's lines about the edited skill `name` ("" when there is nothing to
    say): about the request typed only if it is `for_open` (the user said so); where
    the agent does not load or list the skill (`blocked`, why), that alone: no
    advice on words helps a skill the model never reads (`lacks`: open_skill_line's)."""
    lines = []
    if name and for_open and likely is not None:
        line = f"{blocked} It is not ranked." if blocked else open_skill_line(name, likely, lacks)
        if line:
            lines.append(line)
    if suite:
        shown = "; ".join(f"“{query}” → {other}" for query, other in suite[:3])
        more = f" and {len(suite) - 3} more" if len(suite) > 3 else ""
        lines.append(f"Suite requests that would pick another skill than {name}: {shown}{more}")
    return "\n".join(lines)
