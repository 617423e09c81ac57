"""What `eval` prints of its reports: text, JSON or JUnit, the cases it does not
judge, and the exit code a run ends with (docs/live.md, docs/commands.md)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted
from .common import EXIT_FAIL, EXIT_INCONCLUSIVE, EXIT_OK, Env
from .junit import JunitCase, JunitSuite, junit_xml
from .output import dumps, printable

if TYPE_CHECKING:
    from ..core.live.run import LiveReport
    from ..core.projects.eval_cases import NotJudged


def not_judged_text(cases: list[NotJudged]) -> list[str]:
    """A line per case eval leaves out (its place, request and why)."""
    lines = []
    for item in cases:
        where = f"{item.source}:{item.case.line}: " if item.source and item.case.line else ""
        lines.append(printable(f"  NOT JUDGED  {where}{item.case.query!r}: {item.why}"))
    return lines


def output_reports(
    args: argparse.Namespace,
    env: Env,
    reports: list[tuple[str, LiveReport]],
    not_judged: list[NotJudged] | None = None,
) -> int:
    """Print the reports, and the cases eval does not judge (never a failure); the exit
    code: 1 when a case failed, else 3 when one is inconclusive, else 0."""
    skipped = not_judged or []
    passed = failed = inconclusive = 0
    for _, report in reports:
        p, f, i = report.counts()
        passed, failed, inconclusive = passed + p, failed + f, inconclusive + i
    if args.format == "json":
        data = [dict(report.to_json(), suite=name) for name, report in reports]
        unanswered = sum(report.unanswered() for _, report in reports)
        totals = {"passed": passed, "failed": failed, "inconclusive": inconclusive}
        out = {"reports": data, **totals, "unanswered": unanswered}
        if skipped:
            out["not_judged"] = [
                {
                    "suite": s.source,
                    "line": s.case.line or None,
                    "query": s.case.query,
                    "why": s.why,
                }
                for s in skipped
            ]
        env.print(dumps(out))
    elif args.format == "junit":
        env.print(junit_xml([_junit(name, report) for name, report in reports]))
    else:
        for name, report in reports:
            for line in report_text(name, report):
                env.print(line)
        for line in not_judged_text(skipped):
            env.print(line)
        tail = f", {inconclusive} inconclusive" if inconclusive else ""
        tail += f", {len(skipped)} not judged by eval" if skipped else ""
        env.print(f"{passed} passed, {failed} failed{tail}")
    if failed:
        return EXIT_FAIL
    return EXIT_INCONCLUSIVE if inconclusive else EXIT_OK


def _percent(rate: float | None, interval: list[float] | None) -> str:
    if rate is None:
        return "-"
    ci = f", 95 % CI {interval[0] * 100:.0f}-{interval[1] * 100:.0f} %" if interval else ""
    return f"{rate * 100:.0f} %{ci}"


def report_text(name: str, report: LiveReport) -> list[str]:
    from ..core.live.replay import RECONSTRUCTION

    data = report.to_json()
    style = report.plan.items[0].question.style.agent if report.plan.items else ""
    endpoint = data["endpoint"]
    lines = [
        printable(
            f"{name}: {counted(len(data['cases']), 'request')} x {data['runs']} runs, model "
            + (
                f"{data['model']}, {endpoint['url']}, {data['date']}; run as {style}"
                if "agent" in data  # the real agent's CLI (cli/eval_agent.py)
                else f"{data['model']} at {endpoint['url']} ({endpoint['api']}), "
                f"{data['date']}; asked as {data['profile']} asks: {style}"
            )
            + (f"; up to {data['turns']} turns a run" if data["turns"] > 1 else "")
        )
    ]
    if not data["template"].startswith(RECONSTRUCTION):  # not the built-in reconstruction
        lines.append(printable(f"  template: {data['template']}"))
    lines.extend(printable(f"  warning: {warning}") for warning in data["warnings"])
    for case in data["cases"]:
        picks = ", ".join(f"{k} {v}" for k, v in case["picks"].items())
        query = printable(repr(case["query"]))
        est = case["estimate"]
        estimate = f"; estimate: {est['top'] or 'none'}" if est is not None else ""
        where = f"{case['suite']}:{case['line']}: " if case["suite"] and case["line"] else ""
        if case["runs"] and all(r.get("harness") for r in case["runs"]):
            estimate = "; resolved by the harness, no model call"
        errors = sorted({r["error"] for r in case["runs"] if r["error"]})
        unanswered = f"; without an answer: {'; '.join(errors)}" if errors else ""
        if not case["answered"]:
            lines.append(printable(f"  INCONCLUSIVE  {where}{query}{unanswered}"))
            continue
        rate = _percent(case["rate"], case["interval"])
        if case["expect"] is None:
            lines.append(printable(f"  ----  {query} -> {picks}{estimate}"))
        else:
            mark = {"pass": "PASS", "fail": "FAIL"}.get(case["verdict"], "INCONCLUSIVE")
            lines.append(
                printable(
                    f"  {mark}  {'' if mark == 'PASS' else where}{query} -> {picks}; expected "
                    f"{case['expect']}: {case['hits']}/{case['answered']} of "
                    f"{len(case['runs'])} runs ({rate}): {case['why']}{unanswered}{estimate}"
                )
            )
        if data["turns"] > 1:
            lines.append(turn_text(case))
    if data["per_skill"]:
        lines.append("  per skill:                precision  recall      f1")
        for skill, stats in data["per_skill"].items():
            cells = [
                "-" if stats[k] is None else f"{stats[k]:.2f}"
                for k in ("precision", "recall", "f1")
            ]
            lines.append(printable(f"    {skill:<24} {cells[0]:>9} {cells[1]:>7} {cells[2]:>7}"))
    if data["confusion"]:
        lines.append("  confusion (expected -> picked):")
        for expected, row in data["confusion"].items():
            row_text = ", ".join(f"{got} {count}" for got, count in row.items())
            lines.append(printable(f"    {expected:<24} {row_text}"))
    top1 = data["agreement"]["top1"]
    if top1["runs"]:
        bands = data["agreement"]["bands"]
        by_band = ", ".join(
            f"{band} {b['picked']}/{b['runs']}" for band, b in bands.items() if b["runs"]
        )
        lines.append(
            f"  agreement with the estimate: top-1 {top1['agree']}/{top1['runs']} "
            f"({_percent(top1['rate'], top1['interval'])}); picks by band: {by_band}"
        )
    tokens = data["tokens"]
    lines.append(
        f"  {counted(sum(len(c['runs']) for c in data['cases']), 'run')} "
        f"({data['cached_runs']} from the cache, "
        + (f"{data['harness_runs']} by the harness, " if data["harness_runs"] else "")
        + f"{data['errors']} without an answer); "
        f"tokens reported: {tokens['input']:,} in, {tokens['output']:,} out"
        + ("; cancelled" if data["cancelled"] else "")
    )
    return lines


def turn_text(case: dict[str, Any]) -> str:
    """A case's first-turn and any-turn rates (core/live/turns.py), and the turns its
    picks came at; the verdict above is the any-turn one."""
    first, anywhere = case["first_turn"], case["any_turn"]
    at = sorted({r["turn"] for r in case["runs"] if r["pick"] and r["turn"]})
    when = f"; picks at turn {', '.join(map(str, at))}" if at else ""
    what = "met the expectation" if case["expect"] is not None else "picked a skill"
    return (
        f"        first turn {first['hits']}/{first['answered']}, any turn "
        f"{anywhere['hits']}/{anywhere['answered']} {what}{when}"
    )


def _junit(name: str, report: LiveReport) -> JunitSuite:
    data = report.to_json()
    suite = JunitSuite(
        f"{name} ({data['model']})",
        properties={
            "model": data["model"],
            "endpoint": data["endpoint"]["url"],
            "profile": data["profile"],
            "date": data["date"],
            "runs": str(data["runs"]),
        },
    )
    for case in data["cases"]:
        where = f"{case['suite']}:{case['line']}" if case["suite"] and case["line"] else name
        picks = ", ".join(f"{k} {v}" for k, v in case["picks"].items())
        item = JunitCase(case["query"], where, output=f"picks: {picks}")
        errors = "; ".join(sorted({r["error"] for r in case["runs"] if r["error"]}))
        counts = f"{case['hits']}/{case['answered']} of {len(case['runs'])} runs"
        if case["passed"] is None:  # inconclusive: an <error>, never a green <skipped>
            item.error = f"inconclusive: {case['why']}" + (
                f"; without an answer: {errors}" if errors else ""
            )
            if case["answered"]:
                item.error += f"; picked {picks}; expected {case['expect']}: {counts}"
        elif case["passed"] is False:
            item.failure = f"picked {picks}; expected {case['expect']}: {counts}: {case['why']}"
        suite.cases.append(item)
    return suite
