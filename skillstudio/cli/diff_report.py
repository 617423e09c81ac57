"""`diff`'s report as text (a terminal, a CI log) and as Markdown (a pull request's
comment), from its JSON (core/projects/change_report.py `ChangeReport.to_json`).

Every name, request and message comes from the user's files: text lines are
`printable`; Markdown cells are escaped too, so that a skill's text cannot close the
table, open a link, mention someone or write HTML into the comment."""

from __future__ import annotations

import re
from typing import Any

from ..core.model.text import counted, first_named
from .output import printable

SHOWN = 10  # names listed before "and N more"
# rows of a Markdown table (a GitHub comment holds at most 65,536 characters)
ROWS = 50
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#+!|~@:-])")


def _pick(side: dict[str, Any] | None) -> str:
    if side is None:
        return "(not run)"
    selected = ", ".join(side["selected"]) or "none"
    likely = side["likely"] or "none likely"
    mark = "holds" if side["passed"] else "fails"
    model = side.get("model")
    if model is not None:
        picked = model["pick"] or "no skill"
        mark += f"; the model picked {picked} ({model['runs']} of {model['of']} cached runs)"
    return f"selected {selected}; likely {likely}; {mark}"


def _where(case: dict[str, Any]) -> str:
    if case["source"] == "suite":
        return f"{case['suite']}:{case['line']}" if case["line"] else case["suite"]
    return f"the description of {case['skill']}"


def _room(side: dict[str, Any]) -> str:
    if side["budget"] is None:
        return f"{side['used']:,} {side['unit']}, no budget"
    room = side["headroom"]
    state = f"{room:,} to spare" if room >= 0 else f"{-room:,} over"
    return f"{side['needed']:,} of {side['budget']:,} {side['unit']} ({state})"


def diff_text(data: dict[str, Any]) -> list[str]:
    lines = [f"{data['before']} -> {data['after']}"]
    for project in data["projects"]:
        where = project["path"] or "."
        lines.append(f"{where} ({project['profile']}):")
        skills = project["skills"]
        for key in ("added", "removed", "changed"):
            if skills[key]:
                lines.append(f"  {key} ({len(skills[key]):,}): {first_named(skills[key], SHOWN)}")
        for moved in skills["renamed"]:
            lines.append(f"  moved: {moved['from']} -> {moved['to']}")
        for listing in project["listings"]:
            lines.append(
                f"  {listing['title']} listing: {_room(listing['before'])} -> "
                f"{_room(listing['after'])}"
            )
            if listing["name_only"]:
                lines.append(f"    falls to name only: {first_named(listing['name_only'], SHOWN)}")
            if listing["out"]:
                lines.append(f"    falls out of the listing: {first_named(listing['out'], SHOWN)}")
            if listing["restored"]:
                lines.append(f"    listed whole again: {first_named(listing['restored'], SHOWN)}")
        for case in project["cases"]:
            status = case["status"].upper()
            lines.append(f"  {status}  {case['query']!r} ({_where(case)})")
            lines.append(f"    before: {_pick(case['before'])}")
            lines.append(f"    after:  {_pick(case['after'])}")
            why = (case["after"] or {}).get("why")
            if case["status"] == "regression" and why:
                lines.append(f"    why: {why}")
        diags = project["diagnostics"]
        for diag in diags["new"]:
            lines.append(
                f"  new {diag['severity']}: {diag['path']}: {diag['message']} [{diag['code']}]"
            )
        for diag in diags["resolved"]:
            lines.append(f"  resolved: {diag['path']}: {diag['message']} [{diag['code']}]")
        for problem in project["suite_problems"]:
            lines.append(f"  suite not read: {problem}")
        asked = project["requests"]
        lines.append(
            f"  {counted(asked['reranked'], 'description request')} of "
            f"{asked['from_descriptions']:,} ranked again (the others no change reaches)"
        )
    summary = data["summary"]
    lines.append(
        f"{counted(summary['regressions'], 'regression')}, {summary['fixed']:,} fixed, "
        f"{summary['changed']:,} changed; diagnostics: {summary['new_diagnostics']:,} new, "
        f"{summary['resolved_diagnostics']:,} resolved"
    )
    return [printable(line) for line in lines]


def md(text: object) -> str:
    """A table cell: one line, Markdown's and HTML's characters escaped."""
    return _MARKDOWN.sub(r"\\\1", printable(str(text)))


def diff_markdown(data: dict[str, Any]) -> str:
    summary = data["summary"]
    out = [
        f"### skillstudio diff: {md(data['before'])} → {md(data['after'])}",
        "",
        f"**{counted(summary['regressions'], 'regression')}**, {summary['fixed']:,} fixed, "
        f"{summary['changed']:,} changed; diagnostics: {summary['new_diagnostics']:,} new, "
        f"{summary['resolved_diagnostics']:,} resolved",
    ]
    for project in data["projects"]:
        out += ["", f"#### {md(project['path'] or '.')} ({md(project['profile'])})", ""]
        skills = project["skills"]
        for key in ("added", "removed", "changed"):
            if skills[key]:
                out.append(f"- {key}: {md(first_named(skills[key], SHOWN))}")
        for moved in skills["renamed"]:
            out.append(f"- moved: {md(moved['from'])} → {md(moved['to'])}")
        if project["listings"]:
            out += ["", "| agent | before | after | falls to name only | falls out |"]
            out.append("|---|---|---|---|---|")
            for listing in project["listings"]:
                out.append(
                    f"| {md(listing['title'])} | {md(_room(listing['before']))} | "
                    f"{md(_room(listing['after']))} | "
                    f"{md(first_named(listing['name_only'], SHOWN))} | "
                    f"{md(first_named(listing['out'], SHOWN))} |"
                )
        if project["cases"]:
            out += ["", "| | request | from | before | after |", "|---|---|---|---|---|"]
            for case in project["cases"][:ROWS]:
                out.append(
                    f"| {case['status']} | {md(case['query'])} | {md(_where(case))} | "
                    f"{md(_pick(case['before']))} | {md(_pick(case['after']))} |"
                )
            out += _more(len(project["cases"]), "request")
        diags = project["diagnostics"]
        if diags["new"] or diags["resolved"]:
            out += ["", "| diagnostic | file | message |", "|---|---|---|"]
            rows = [("new", d) for d in diags["new"]] + [("resolved", d) for d in diags["resolved"]]
            for label, diag in rows[:ROWS]:
                out.append(
                    f"| {label} {md(diag['code'])} | {md(diag['path'])} | {md(diag['message'])} |"
                )
            out += _more(len(rows), "diagnostic")
    return "\n".join(out)


def _more(count: int, what: str) -> list[str]:
    """The line under a table cut at ROWS (the JSON and the text have every row)."""
    if count <= ROWS:
        return []
    return [
        "",
        f"… and {counted(count - ROWS, f'more {what}')} (`skillstudio diff` lists them all)",
    ]
