"""Query suites: hand-made request cases that run offline, in CI (docs/commands.md).

Native YAML suites and other tools' trigger tests (skill-creator `eval_set.json`,
Skill Lab `triggers.yaml`, waza `trigger_tests.yaml`, skill-reach query sets; read by
suite_formats) all become `Case`s.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..model.matches import MatchResult
from ..model.session import Session
from ..ranking.estimate import LikelyResult
from ..ranking.explanations import why_not
from ..ranking.likely_index import LikelyIndex
from ..ranking.likely_ranking import rank_likely
from ..ranking.match_index import MatchIndex
from ..ranking.matching import match
from ..reading import yaml_io
from ..reading.safefs import read_bytes
from ..scanning.registry import Registry
from . import suite_formats
from .suite_cases import (
    Case,
    Located,
    Mode,
    Suite,
    SuiteError,
    case_notes,
    check_count,
    checked,
    name_list,
    parse,
    query_text,
    read_text,
)
from .suite_home import suite_home


@dataclass(slots=True)
class CaseResult:
    case: Case
    got: list[str]
    tier: int
    passed: bool
    why: str = ""
    judged: bool = True  # False: an `expect_model` case, which `eval` judges, not `test`

    def to_json(self) -> dict[str, Any]:
        out = {
            "query": self.case.query,
            "expect": self.case.expect_json(),
            "got": self.got,
            "tier": self.tier,
            "passed": self.passed if self.judged else None,
            "why": self.why or None,
            "line": self.case.line or None,
        }
        case = self.case
        if case.expect_not:
            out["expect_not"] = case.expect_not
            out["not_in_top"] = case.not_in_top
        if case.acceptable:
            out["acceptable"] = case.acceptable
        if case.weight != 1.0:
            out["weight"] = case.weight
        if case.label:
            out["label"] = case.label
        if case.model is not None and case.mode != "model":
            out["expect_model"] = case.model or "none"
        return out


@dataclass(slots=True)
class SuiteReport:
    results: list[CaseResult]
    per_skill: dict[str, dict[str, float | None]]
    confusion: dict[str, dict[str, int]]

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results if r.judged)

    @property
    def failed(self) -> int:
        return sum(not r.passed for r in self.results if r.judged)

    @property
    def model_only(self) -> int:
        """Cases with only `expect_model`: `eval` judges them, `test` does not."""
        return sum(not r.judged for r in self.results)

    def to_json(self) -> dict[str, Any]:
        out = {
            "cases": [r.to_json() for r in self.results],
            "passed": self.passed,
            "failed": self.failed,
            "per_skill": self.per_skill,
            "confusion": self.confusion,
        }
        if self.model_only:
            out["model_only"] = self.model_only
        return out


def _expect_list(value: Any, where: str, key: str = "expect") -> list[str]:
    if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
        return []
    if isinstance(value, str):
        return [value.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value]
    raise SuiteError(f"{where}: '{key}' must be a skill name, a list of names, or none.")


def load_suite(path: str, skill: str | None = None, home: str | None = None) -> Suite:
    """Read a suite in any format: JSON Lines and CSV by the file's name (skill-reach
    rows), the others by their content. The file must resolve inside `home` (default:
    suite_home's, the repository it lies in), as what it names must (suite_scope)."""
    home = home or suite_home(path)
    return suite_from_text(path, read_text(path, home), skill, home)


def suite_from_text(
    path: str, text: str, skill: str | None = None, home: str | None = None
) -> Suite:
    """A suite from its text (an editor's unsaved text, or the file's), as load_suite."""
    suite = _from_text(path, text, skill)
    suite.home = home or suite_home(path)
    return suite


def _from_text(path: str, text: str, skill: str | None) -> Suite:
    lower = path.lower()
    if lower.endswith((".jsonl", ".ndjson")):
        return suite_formats.reach_jsonl(path, text)
    if lower.endswith(".csv"):
        return suite_formats.reach_csv(path, text)
    data, loc = parse(path, text, lower.endswith(".json"))
    if isinstance(data, list):
        return suite_formats.eval_set(path, data, skill, loc)
    if isinstance(data, dict):
        if "test_cases" in data:
            return suite_formats.skill_lab(path, data, skill, loc)
        if "should_trigger_prompts" in data or "should_not_trigger_prompts" in data:
            return suite_formats.waza(path, loc, data, skill)
        if "queries" in data:
            return suite_formats.reach_document(path, loc, data)
        if "cases" in data:
            return native_suite(path, data, loc)
    raise SuiteError(
        f"{path}: not a suite: expected 'cases:' (SkillStudio), 'test_cases:' (Skill Lab), "
        "'should_trigger_prompts:' (waza), 'queries:' (skill-reach) or a JSON list of "
        "{query, should_trigger} (skill-creator)."
    )


def _suite_lines(text_path: str, text: str | None = None) -> list[str]:
    """The suite's lines (of `text`, the suite as read, else of the file)."""
    if text is None:
        try:
            text = read_bytes(text_path, None, yaml_io.SUITE.size).decode("utf-8", "replace")
        except OSError:
            return []
    # universal newlines, as a text-mode file reads them (not str.splitlines)
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _case_lines(text_path: str, lines: list[str] | None = None) -> list[int]:
    """Line of each '- query:' entry, for pointing at failing cases."""
    return [
        index
        for index, line in enumerate(_suite_lines(text_path) if lines is None else lines, 1)
        if line.lstrip().startswith(("- query:", "- prompt:", '{"query"'))
    ]


FOREIGN = {  # the other tools' formats, as a sentence names them
    "eval_set": "a skill-creator eval set",
    "skill_lab": "Skill Lab",
    "waza": "waza trigger tests",
    "skill_reach": "a skill-reach query set",
}
MAX_TOP = 100  # the deepest `not_in_top`
LIKELY_TOP = 10  # candidates ranked for `expect_not` (the likely ones are among them)
NATIVE_KEYS = {
    "query",
    "expect",
    "expect_likely",
    "expect_model",
    "expect_not",
    "not_in_top",
    "tier",
}


def _expectation_like(key: Any) -> bool:
    return isinstance(key, str) and key.lower().startswith(("expect", "not_in", "tier"))


def native_suite(path: str, data: dict[str, Any], loc: Located | None = None) -> Suite:
    cases_raw = data.get("cases")
    if not isinstance(cases_raw, list):
        where = loc.at("cases") if loc else path
        raise SuiteError(f"{where}: 'cases' must be a list of {{query, expect}} entries.")
    check_count(path, len(cases_raw))
    text_lines = _suite_lines(path, loc.text if loc else None)
    lines = _case_lines(path, text_lines)
    notes = case_notes(text_lines, lines) if len(lines) == len(cases_raw) else []
    cases = []
    for index, raw in enumerate(cases_raw):

        def at(key: str | None, index: int = index) -> str:
            """The place of the case (or of its `key`), worked out for a diagnostic."""
            if loc is None:
                return f"{path}: case {index + 1}"
            return loc.at("cases", index, key) if key else loc.at("cases", index)

        if not isinstance(raw, dict) or not isinstance(raw.get("query"), str):
            raise SuiteError(f"{at(None)}: each case needs 'query: <text>'.")
        # other keys (a request set's `kind:`, notes) are left alone; one that looks
        # like a misspelt expectation would silently test nothing, so it is an error
        unknown = sorted(str(k) for k in raw if k not in NATIVE_KEYS and _expectation_like(k))
        if unknown:
            spot = loc.key_at("cases", index, unknown[0]) if loc else at(None)
            raise SuiteError(
                f"{spot}: unknown key {unknown[0][:40]!r}; a case has "
                f"{', '.join(sorted(NATIVE_KEYS))}."
            )
        # one meaning per key (PRODUCT.md section 7): `test` judges `expect`, else
        # `expect_likely`, and `expect_not` beside either; `expect_model` is `eval`'s
        given = {
            key: checked(at, key, _expect_list, raw.get(key), key)
            for key in ("expect", "expect_likely", "expect_model")
            if key in raw
        }
        negative = checked(at, "expect_not", name_list, raw.get("expect_not"), "expect_not")
        if not given and not negative:
            raise SuiteError(
                f"{at(None)}: add 'expect: <skill>' (or 'expect: none'), 'expect_likely:', "
                "'expect_model:' or 'expect_not:'."
            )
        top = raw.get("not_in_top")
        if top is not None and (
            isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP
        ):
            raise SuiteError(f"{at('not_in_top')}: 'not_in_top' is a whole number, 1 to {MAX_TOP}.")
        if top is not None and not negative:
            raise SuiteError(f"{at('not_in_top')}: 'not_in_top' goes with 'expect_not:'.")
        tier = raw.get("tier")
        if tier is not None and tier not in (0, 1, 2, 3):
            raise SuiteError(f"{at('tier')}: 'tier' must be 0, 1, 2 or 3.")
        mode: Mode = (
            "exact"
            if "expect" in given
            else "likely"
            if "expect_likely" in given
            else "not-likely"
            if negative
            else "model"
        )
        key = {"exact": "expect", "likely": "expect_likely", "model": "expect_model"}.get(mode)
        cases.append(
            Case(
                checked(at, "query", query_text, raw["query"]),
                given[key] if key else [],
                mode,
                tier,
                lines[index] if index < len(lines) else 0,
                expect_not=negative,
                not_in_top=top,
                note=notes[index] if index < len(notes) else "",
                likely=given.get("expect_likely"),
                model=given.get("expect_model"),
            )
        )
    roots = data.get("roots") or []
    if isinstance(roots, str):
        roots = [roots]
    base = os.path.dirname(os.path.abspath(path))
    profile = data.get("profile")
    corpus = data.get("corpus")
    return Suite(
        path,
        cases,
        profile if isinstance(profile, str) else None,
        [os.path.normpath(os.path.join(base, str(r))) for r in roots],
        corpus=os.path.normpath(os.path.join(base, corpus)) if isinstance(corpus, str) else None,
        located=loc,
    )


def run_case(
    case: Case,
    registry: Registry,
    options: dict[str, Any] | None = None,
    index: MatchIndex | None = None,
    known: set[str] | None = None,
    likely_index: LikelyIndex | None = None,
) -> CaseResult:
    """One case in a fresh session: what was selected and whether that was expected."""
    result = match(registry, case.query, index=index, session=Session(), options=options)
    got = list(result.selected)
    if known is None:
        known = {s.name for s in registry.skills}
    # acceptable (neutral) skills may be missing: only the names a case judges must exist
    judged = [*case.expect, *case.expect_not, *(case.likely or []), *(case.model or [])]
    unknown = [name for name in dict.fromkeys(judged) if name not in known]
    if unknown:  # the agent's own skills (Claude Code's bundled ones) are listed too
        own = {skill.name for skill in registry.profile.agent_skills(options or {})}
        unknown = [name for name in unknown if name not in own]
    why = ""
    ranked: LikelyResult | None = None
    if case.ranks():
        likely_index = likely_index or LikelyIndex(registry)
        top = max(LIKELY_TOP, case.not_in_top or 0)
        ranked = rank_likely(likely_index, case.query, top=top) if case.mode != "likely" else None
    if case.mode == "likely":
        assert likely_index is not None
        got, passed, why = _likely(likely_index, case.query, case.expect)
    elif case.mode == "not-likely":
        assert ranked is not None
        got = [c.name for c in ranked.candidates[: case.not_in_top or 3]]
        passed = True
    elif case.mode == "reach":
        first = scored(case, got)
        passed = first == (case.expect[0] if case.expect else None)
        if not passed and first is not None:
            why = _selected(result, [first])
        elif not passed and case.expect[0] in known:
            why = why_not(result, registry, case.expect[0])
    elif case.mode == "model":  # eval's to judge: what the rules select is shown
        passed = True
    elif case.mode == "exact":
        passed = sorted(got) == sorted(case.expect)
    elif case.mode == "triggers":
        passed = case.expect[0] in got
    else:
        passed = case.expect[0] not in got
    if not passed and not why and case.mode in ("exact", "triggers"):
        missing = [name for name in case.expect if name not in got]
        extra = [name for name in got if name not in case.expect]
        if missing and missing[0] in known:
            why = why_not(result, registry, missing[0])
        elif extra:
            why = _selected(result, extra) + (" too" if case.expect else "")
    elif not passed and not why and case.mode == "not-triggers":
        why = _selected(result, case.expect[:1])
    if case.mode != "likely" and case.likely is not None:  # `expect` and `expect_likely`
        assert likely_index is not None
        _, held, said = _likely(likely_index, case.query, case.likely)
        if not held:
            passed = False
            said = said or f"expected likely: {' or '.join(case.likely)}"
            why = f"{why}; {said}" if why else said
    if case.expect_not:
        if ranked is None:
            assert likely_index is not None
            ranked = rank_likely(
                likely_index, case.query, top=max(LIKELY_TOP, case.not_in_top or 0)
            )
        broken = _negative(case, ranked)
        if broken:
            passed = False
            why = f"{why}; {broken}" if why else broken
    if case.tier is not None and result.tier != case.tier:
        passed = False
        why = f"tier {result.tier}, expected {case.tier}"
    if unknown:
        passed = False
        why = f"no skill named {', '.join(unknown)} in this registry"
    elif case.mode == "model" and passed:
        why = "expect_model: the model's pick, judged by `skillstudio eval`"
        return CaseResult(case, got, result.tier, True, why, judged=False)
    return CaseResult(case, got, result.tier, passed, why)


def _likely(index: LikelyIndex, query: str, names: list[str]) -> tuple[list[str], bool, str]:
    """An `expect_likely` judged: (the likely skills among the top three, whether it
    holds, why not when known): the estimate's top pick is one of `names` (PRODUCT.md 7:
    "the offline estimate's top pick"; a name ranked second fails, as the user who saved
    the case expects), or with none, no skill is likely. The top pick is the first skill
    in the likely band, as Try a Request and `match` say it: a top candidate that is only
    possible or unlikely is no pick (a case passed while the app said "no skill is
    likely"), and it is not what the case got."""
    top3 = rank_likely(index, query, top=3)
    got = [c.name for c in top3.likely]
    if names:
        if got[:1] and got[0] in names:
            return got, True, ""
        if got:
            then = f" (then {', '.join(got[1:])})" if got[1:] else ""
            return got, False, f"expected likely: {' or '.join(names)}; top pick: {got[0]}{then}"
        best = top3.candidates[0] if top3.candidates else None
        first = f"; the best candidate, {best.name}, is {best.band}" if best else ""
        return got, False, f"expected likely: {' or '.join(names)}; no skill is likely{first}"
    if got:
        return got, False, f"{got[0]} is likely (an estimate)"
    return got, True, ""


def _negative(case: Case, ranked: LikelyResult) -> str:
    """Why an `expect_not` fails ("" when it holds): a named skill is likely, or ranks
    within `not_in_top`."""
    names = [c.name for c in ranked.candidates]
    for name in case.expect_not:
        if case.not_in_top:
            if name in names[: case.not_in_top]:
                place = names.index(name) + 1
                return (
                    f"{name} ranks {place}, in the top {case.not_in_top} (an estimate); "
                    "it should not"
                )
        elif ranked.band_of(name) == "likely":
            return f"{name} is likely (an estimate); it should not be"
    return ""


def scored(case: Case, got: list[str]) -> str | None:
    """A skill-reach case's pick: the first selected skill that is not neutral."""
    return next((name for name in got if name not in case.acceptable), None)


def _selected(result: MatchResult, names: list[str]) -> str:
    """ "a (score 32) was selected", for a failing case's note."""
    said = []
    for name in names:
        cand = result.candidate(name)
        said.append(f"{name} (score {cand.score})" if cand is not None else name)
    return f"{', '.join(said)} {'was' if len(said) == 1 else 'were'} selected"


def report_of(results: list[CaseResult]) -> SuiteReport:
    """Precision, recall and the confusion table over finished cases."""
    return SuiteReport(results, _per_skill(results), confusion(results))


def run_suite(
    suite: Suite,
    registry: Registry,
    options: dict[str, Any] | None = None,
    index: MatchIndex | None = None,
    likely_index: LikelyIndex | None = None,
) -> SuiteReport:
    """Run every case against the registry; cases are independent sessions. The indexes
    given (an open project's: `match` and the app use the same) are used, else built
    once for the suite."""
    if index is None:
        index = MatchIndex(registry)
    known = {s.name for s in registry.skills}
    ranks = any(c.ranks() for c in suite.cases)
    likely = (likely_index or LikelyIndex(registry)) if ranks else None
    return report_of([run_case(c, registry, options, index, known, likely) for c in suite.cases])


def _count(value: float) -> float:
    return int(value) if float(value).is_integer() else round(value, 3)


def _per_skill(results: list[CaseResult]) -> dict[str, dict[str, float | None]]:
    """Precision and recall per skill; each case counts its `weight` (waza's
    confidence: medium 0.5, low 0.25), so tp, fp and fn may be fractions."""
    counts: dict[str, list[float]] = {}  # name -> [tp, fp, fn]
    for r in results:
        if r.case.mode in ("likely", "not-likely", "model") or not r.judged:
            continue  # an estimate, or eval's: not a selection, no precision or recall
        if r.case.mode in ("exact", "reach"):
            expected = set(r.case.expect)
            if r.case.mode == "reach":
                first = scored(r.case, r.got)
                got = {first} if first else set()
            else:
                got = set(r.got)
            names = expected | got
        else:
            name = r.case.expect[0]
            expected = {name} if r.case.mode == "triggers" else set()
            got = {name} & set(r.got)
            names = {name}
        for name in names:
            tp_fp_fn = counts.setdefault(name, [0.0, 0.0, 0.0])
            if name in expected and name in got:
                tp_fp_fn[0] += r.case.weight
            elif name in got:
                tp_fp_fn[1] += r.case.weight
            elif name in expected:
                tp_fp_fn[2] += r.case.weight
    out: dict[str, dict[str, float | None]] = {}
    for name in sorted(counts):
        tp, fp, fn = counts[name]
        out[name] = {
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / (tp + fn), 3) if tp + fn else None,
            "tp": _count(tp),
            "fp": _count(fp),
            "fn": _count(fn),
        }
    return out


def confusion_label(case: Case) -> str:
    """A case's row in the confusion table: the skill it expects, 'none', or 'not X'."""
    if case.mode == "not-likely":
        return "not " + ", ".join(case.expect_not)
    if case.mode in ("exact", "likely", "reach", "model"):
        return case.expect[0] if case.expect else "none"
    return case.expect[0] if case.mode == "triggers" else f"not {case.expect[0]}"


def confusion(results: list[CaseResult]) -> dict[str, dict[str, int]]:
    """expected -> got -> count, with the first selected skill or 'none'."""
    table: dict[str, dict[str, int]] = {}
    for r in results:
        if not r.judged:
            continue  # eval's case: the model's pick is not test's to tabulate
        expected = confusion_label(r.case)
        got = first_pick(r)
        row = table.setdefault(expected, {})
        row[got] = row.get(got, 0) + 1
    return table


def first_pick(result: CaseResult) -> str:
    """A case's column in the confusion table: the first selected skill (for skill-reach,
    the first that is not neutral), or 'none'."""
    if result.case.mode == "reach":
        return scored(result.case, result.got) or "none"
    return result.got[0] if result.got else "none"
