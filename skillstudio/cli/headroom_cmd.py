"""`headroom`: does the whole installed set fit each agent's listing budget
(core/delivery/headroom.py; the agents: core/profiles/agents.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted, first_named
from ..core.profiles.agents import AGENTS, AgentSpec
from ..core.projects.in_place import in_place_line
from ..core.projects.model_windows import with_window
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    add_window,
    load,
    window_from,
)
from .output import dumps, printable, rel

if TYPE_CHECKING:
    from ..core.delivery.headroom import Headroom
    from ..core.model.skills import Skill
    from ..core.projects.project import Project

TOP = 5  # the largest descriptions named in the text
NAMED = 10  # skills named before "and N more"
# the in-place note's closing: the count is the author's view, as the app's and tier 2's
COUNTED = "headroom counts them all the same, as the app and prompt --tier 2 do"
# agents with no profile whose listing is ported exactly (no budget): their row gives
# its size (core/projects/gemini_set.py)
EXACT = ("gemini",)


def register(sub: Subparsers) -> None:
    head = sub.add_parser(
        "headroom",
        help="does the installed set fit each agent's listing budget",
        description="For each agent whose listing budget is known: the characters the whole "
        "installed set (project, user, plugins) takes against the budget at a context "
        "window, which skills fall to a bare name or out, and what a description costs.",
    )
    head.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="a project, root or repository (default: as lint)",
    )
    add_window(
        head,
        "the context window in tokens (default: the project's context_tokens or model, "
        "else the agent's budget when it is unknown)",
    )
    head.add_argument(
        "--skill", metavar="NAME", help="what this skill's description costs in each listing"
    )
    head.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="KEY",
        choices=[a.key for a in AGENTS if a.budget_known or a.key in EXACT],
        help="only this agent (repeatable; default: every agent whose budget is known, "
        "and Gemini CLI's listing size)",
    )
    add_common(head)


def _agents(args: argparse.Namespace) -> list[AgentSpec]:
    chosen = [a for a in AGENTS if a.budget_known or a.key in EXACT]
    if args.agent:
        chosen = [a for a in chosen if a.key in args.agent]
    if args.profile:
        chosen = [a for a in chosen if a.profile == args.profile]
    return chosen


def _exact_rows(agent: AgentSpec, args: argparse.Namespace, env: Env) -> list[dict[str, Any]]:
    """The rows of an agent without a profile (EXACT): one per project folder."""
    from ..core.projects.gemini_set import gemini_headroom
    from ..core.projects.project import resolve_projects

    projects = resolve_projects(args.paths, args.root, args.project, None, env.cwd)
    rows = []
    for base in dict.fromkeys(p.base for p in projects):
        # the author's view, as the other rows count it: every skill of the path, those
        # Gemini CLI would not load where they sit said in the in-place line
        skills = [s for p in projects if p.base == base for s in _scanned(p)]
        room = gemini_headroom(base, also=skills)
        row: dict[str, Any] = {"agent": agent.key, "title": agent.title, "project": base}
        row.update(room.to_json())
        row["in_place"] = in_place_line(agent, skills, base, COUNTED)
        row["context_tokens"] = None
        row["budget_rule"] = "none: every skill is listed whole"
        if args.skill:
            row["skill"] = _skill_row(args.skill, room)
        rows.append(row)
    return rows


def _scanned(project: Project) -> list[Skill]:
    registry = project.registry(gists=False)
    registry.scan()
    return registry.skills


def _skill_row(name: str, room: Headroom) -> dict[str, Any]:
    """What one skill's description costs in an agent's listing (`--skill NAME`); its
    share of the budget where the listing has one."""
    cost = room.cost_of(name)
    return {
        "name": name,
        "listed": cost is not None,
        "description_chars": cost.chars if cost else None,
        "share": round(cost.chars / room.budget, 4) if cost and room.budget else None,
    }


def headroom_data(args: argparse.Namespace, env: Env) -> dict[str, Any]:
    from ..core.delivery.headroom import listing_headroom

    choice = window_from(args, env)
    tokens = choice.context_tokens if choice is not None else None
    rows: list[dict[str, Any]] = []
    for agent in _agents(args):
        if agent.key in EXACT:
            rows.extend(_exact_rows(agent, args, env))
            continue
        assert agent.profile is not None  # budget_known
        args.profile = agent.profile
        for item in load(args, env, args.paths, gists=False):
            if item.registry.profile.name != agent.profile:
                continue  # a seed system's project keeps its own profile
            options = with_window(item.project.options, choice)
            # the author's view: every skill of the path, as the app's Headroom tab and
            # `prompt --tier 2` list them; what the agent would not load where they sit
            # is said beside it (in_place), never subtracted in silence
            room = listing_headroom(item.registry, options)
            row: dict[str, Any] = {"agent": agent.key, "title": agent.title}
            row["project"] = item.project.base
            row.update(room.to_json())
            row["in_place"] = in_place_line(agent, item.registry.skills, item.project.base, COUNTED)
            row["context_tokens"] = options.get("context_tokens")
            row["model"] = options.get("model")  # the model whose window it is, if named
            row["budget_rule"] = agent.budget
            if args.skill:
                row["skill"] = _skill_row(args.skill, room)
            rows.append(row)
    unknown = [
        {"agent": a.key, "title": a.title, "listing": a.listing or None}
        for a in AGENTS
        if not a.budget_known and a.discovery != "any" and a.key not in EXACT
    ]
    model = choice.model if choice is not None else None
    return {"context_tokens": tokens, "model": model, "agents": rows, "budget_unknown": unknown}


def headroom_text(data: dict[str, Any], cwd: str) -> list[str]:
    lines: list[str] = []
    for row in data["agents"]:
        where = rel(row["project"], cwd) or "."
        window = (
            f"a {row['context_tokens']:,}-token context"
            if row["context_tokens"]
            else "an unknown context window"
        )
        if row["context_tokens"] and row.get("model"):
            window += f" ({row['model']})"
        budget, unit = row["budget"], row["unit"][:-1]  # character or token
        at = f" at {window}" if row["budget"] is not None else ""
        lines.append(f"{row['agent']} ({row['title']}, {where}){at}:")
        if row.get("in_place"):
            lines.append(f"  in place: {row['in_place']}")
        lines.append(
            f"  {counted(row['skills'], 'skill')}: "
            f"{counted(row['needed'], unit)} with every description, "
            f"budget {counted(budget, 'token') if unit == 'token' else f'{budget:,}'}"
            if budget is not None
            else f"  {counted(row['skills'], 'skill')}: its listing takes "
            f"{counted(row['needed'], 'character')}, no budget"
        )
        if budget is None and row["note"]:
            lines.append(f"  {row['note']}")
        if budget is not None:
            room = row["headroom"]
            state = f"{room:,} to spare" if room >= 0 else f"{-room:,} over"
            lines.append(f"  headroom: {state} ({row['used']:,} used as listed)")
        if row["shortened"]:
            lines.append(
                f"  description cut or dropped ({len(row['shortened']):,}): "
                f"{first_named(row['shortened'], NAMED)}"
            )
        if row["dropped"]:
            lines.append(
                f"  left out ({len(row['dropped']):,}): {first_named(row['dropped'], NAMED)}"
            )
        if not row["shortened"] and not row["dropped"]:
            lines.append("  every skill is listed with its whole description")
        if row["agent_skills"]:
            count, names = len(row["agent_skills"]), first_named(row["agent_skills"], NAMED)
            lines.append(f"  the agent's own, listed too ({count:,}): {names}")
        if row["not_listed"]:
            lines.append(f"  not listed by the agent's own rules: {len(row['not_listed']):,}")
        # the agent's own entries are not the author's to shorten
        top = [c for c in row["costs"] if c["chars"] and not c["own"]][:TOP]
        if top:
            lines.append(
                "  largest descriptions: " + ", ".join(f"{c['skill']} {c['chars']:,}" for c in top)
            )
        skill = row.get("skill")
        if skill is not None:
            if not skill["listed"]:
                lines.append(f"  {skill['name']}: not in this listing")
            else:
                share = f" ({skill['share']:.1%} of the budget)" if skill["share"] else ""
                lines.append(
                    f"  {skill['name']}: its description costs "
                    f"{counted(skill['description_chars'], unit)}{share}"
                )
    unknown = ", ".join(u["agent"] for u in data["budget_unknown"])
    if unknown:
        lines.append(f"listing budget not documented: {unknown}")
    return lines


def cmd_headroom(args: argparse.Namespace, env: Env) -> int:
    data = headroom_data(args, env)
    if args.format == "json":
        env.print(dumps(data))
    else:
        for line in headroom_text(data, env.cwd):
            env.print(printable(line))
    missing = args.skill and not any(r.get("skill", {}).get("listed") for r in data["agents"])
    return EXIT_FAIL if missing else EXIT_OK


COMMANDS = {"headroom": cmd_headroom}
