"""`match`, `prompt` and `activate`: what the agent selects, is shown and is given."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..core.model.text import counted
from ..core.projects.config import NUMBER_OPTIONS
from ..core.projects.project import UsageError
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    Env,
    Loaded,
    Subparsers,
    add_common,
    add_paths,
    load,
    load_one,
    profile_of,
    projects_json,
)
from .output import diagnostic_line, dumps, printable, printable_lines, rel


def register(sub: Subparsers) -> None:
    match = sub.add_parser(
        "match", help="rank skills for a request", description="Rank skills for a request."
    )
    match.add_argument("query", metavar="QUERY", help="the request, as a user would type it")
    match.add_argument("--explain", action="store_true", help="points by rule, marked words")
    match.add_argument(
        "--why",
        metavar="NAME",
        action="append",
        default=[],
        help="say why this skill was not selected (repeatable)",
    )
    match.add_argument(
        "--recent",
        metavar="NAME",
        action="append",
        default=[],
        help="toolsets: a skill used recently in the session (repeatable)",
    )
    add_paths(match)
    add_common(match)

    prompt = sub.add_parser(
        "prompt", help="the exact tier text", description="Print the exact text of a tier."
    )
    which = prompt.add_mutually_exclusive_group()
    which.add_argument(
        "--tier",
        type=int,
        choices=(0, 1, 2, 3),
        metavar="N",
        help="0: nothing, 1: the breadcrumb ([N skills available]), 2: the registry listing "
        "(default), 3: the selected skills' instructions, which need a request (--query)",
    )
    which.add_argument(
        "--query",
        metavar="Q",
        help="a request: print the tier the profile uses for it (3 when a skill is selected)",
    )
    prompt.add_argument(
        "--context-tokens",
        type=int,
        metavar="N",
        help="the context window in tokens (budgets that depend on it)",
    )
    add_paths(prompt)
    add_common(prompt)

    act = sub.add_parser(
        "activate", help="the exact activation content", description="Activate a skill."
    )
    act.add_argument("name", metavar="NAME", help="the skill to activate")
    act.add_argument(
        "args",
        metavar="ARGS",
        nargs="?",
        default="",
        help="the arguments as typed after /NAME, quoted as one word ('a.pdf --short'); "
        "a folder or SKILL.md written as a path (with a '/', or '.') and no PATH after "
        "it is taken as the PATH",
    )
    act.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="a root, a skill folder, a SKILL.md, a project or a repository of collections "
        "(as lint takes it; the same as --root or --project); after ARGS",
    )
    act.add_argument(
        "--as",
        dest="invoker",
        choices=("user", "model"),
        default="model",
        help="who invokes it: the user (/NAME ARGS) or the model through its tool (default)",
    )
    add_common(act)


def match_answer(item: Loaded, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """One project's answer to `match`: its JSON and its text."""
    from ..core.model.session import Session
    from ..core.ranking.matching import match, why_not
    from ..core.ranking.model_pick import likely, likely_text
    from .explain import explain_text

    session = Session(recent=list(args.recent))
    result = match(item.registry, args.query, session=session, options=item.project.options)
    why = {name: why_not(result, item.registry, name) for name in args.why}
    chooses = item.registry.profile.model_chooses
    ranked = likely(item.registry, args.query) if chooses else None
    data = result.to_json()
    if ranked is not None:  # docs/commands.md: a band per candidate, and the ranking
        for cand in data["candidates"]:
            cand["band"] = ranked.band_of(cand["skill"])
        data["likely"] = ranked.to_json()["candidates"]
    if why:
        data["why_not"] = why
    lines = [printable_lines(explain_text(result, item.registry, args.explain))]
    if ranked is not None:
        lines.append(printable_lines(likely_text(ranked)))
    lines += [printable(f"why not {name}: {text}") for name, text in why.items()]
    return data, "\n".join(lines)


def cmd_match(args: argparse.Namespace, env: Env) -> int:
    loaded = load(args, env)
    answers = [match_answer(item, args) for item in loaded]
    known = [name for name in args.why if any(item.registry.get(name) for item in loaded)]
    code = EXIT_FAIL if len(known) < len(args.why) else EXIT_OK  # a --why NAME not known
    if len(loaded) == 1:
        data, text = answers[0]
        env.print(dumps(data) if args.format == "json" else text)
        return code
    # A folder of several projects (one repository that mixes systems: one per profile):
    # an answer each (docs/commands.md, "match on several projects").
    if args.format == "json":
        projects = projects_json(loaded)
        for entry, (data, _) in zip(projects, answers, strict=True):
            entry.update(data)
        first = answers[0][0]
        env.print(
            dumps(
                {
                    "query": first["query"],
                    "normalized": first["normalized"],
                    "profile": profile_of(loaded),
                    "selected": [name for data, _ in answers for name in data["selected"]],
                    "candidates": [
                        {**cand, "project": entry["path"], "profile": entry["profile"]}
                        for entry in projects
                        for cand in entry["candidates"]
                    ],
                    "projects": projects,
                }
            )
        )
        return code
    for number, (item, (_, text)) in enumerate(zip(loaded, answers, strict=True)):
        roots = counted(len(item.project.roots), "root")
        where = rel(item.project.base, env.cwd) or "."
        env.print(("\n" if number else "") + f"== {item.project.profile.name}: {where} ({roots})")
        env.print(text)
    return code


def cmd_prompt(args: argparse.Namespace, env: Env) -> int:
    from ..core.delivery.tiers import render_tiers
    from ..core.model.delivered import TIER_NAMES
    from ..core.ranking.matching import match

    if args.tier == 3:
        raise UsageError(
            "tier 3 is the instructions of the skills a request selects: give the request "
            "with --query Q instead of --tier 3"
        )
    tokens, most = args.context_tokens, NUMBER_OPTIONS["context_tokens"]
    if tokens is not None and not 0 <= tokens <= most:
        raise UsageError(f"--context-tokens must be a whole number from 0 to {most:,}")
    item = load_one(args, env)
    options = dict(item.project.options)
    if tokens is not None:
        options["context_tokens"] = tokens
    result = match(item.registry, args.query or "", options=options)
    tiers = render_tiers(item.registry, result, options)
    tier = tiers[args.tier if args.tier is not None else result.tier]
    tier.diagnostics[:0] = result.diagnostics  # skills the match left out
    if args.format == "json":
        env.print(dumps(tier.to_json(item.registry.profile.name)))
        return EXIT_OK
    env.print(tier.text)
    budget = f" of {tier.budget:,}" if tier.budget else ""
    env.err.write(
        f"[tier {tier.tier}: {TIER_NAMES[tier.tier]}{' (used)' if tier.used else ''}; "
        f"{tier.chars:,}{budget} characters, ~{counted(tier.tokens, 'token')}" + "]\n"
    )
    for omitted in tier.omitted:
        env.err.write(f"[left out: {omitted['skill']}: {omitted['reason']}]\n")
    for diag in tier.diagnostics:
        env.err.write(diagnostic_line(diag, env.cwd) + "\n")
    return EXIT_OK


def path_for_args(args: argparse.Namespace, cwd: str) -> None:
    """`activate NAME PATH`: a lone word after NAME that is written as a path (`skills/`,
    `./skills`, `.`) and names a folder or a SKILL.md is the PATH, not ARGS (`activate
    review src` passes 'src'; `activate review src/ .` passes 'src/' with PATH '.')."""
    word = args.args
    if args.paths or not word:
        return
    written = word in (".", "..") or "/" in word or os.sep in word
    full = os.path.join(cwd, word)
    if written and (os.path.isdir(full) or os.path.basename(full) == "SKILL.md"):
        args.paths, args.args = [word], ""


def cmd_activate(args: argparse.Namespace, env: Env) -> int:
    from ..core.delivery.activation import activate

    path_for_args(args, env.cwd)
    item = load_one(args, env)
    act = activate(
        item.registry,
        args.name,
        args.args,
        invoker=args.invoker,
        options=item.project.options,
    )
    if args.format == "json":
        env.print(dumps(act.to_json()))
    elif act.error is not None:
        env.err.write(f"skillstudio: {act.error['code']}: {act.error['message']}\n")
        if act.error.get("status"):  # the agent's answer above; why, in SkillStudio's words
            reason = act.error.get("reason") or "no reason recorded"
            env.err.write(
                f"skillstudio: '{args.name}' is {act.error['status']}, so the agent does not "
                f"have it: {reason}\n"
            )
    else:
        for note in act.notes:
            env.err.write(f"note: {note}\n")
        env.print(act.content)
    return EXIT_OK if act.ok else EXIT_FAIL


COMMANDS = {"match": cmd_match, "prompt": cmd_prompt, "activate": cmd_activate}
