"""`match`, `prompt` and `activate`: what the agent selects, is shown and is given."""

from __future__ import annotations

import argparse

from ..core.model.text import counted
from ..core.projects.config import NUMBER_OPTIONS
from ..core.projects.project import UsageError
from .common import EXIT_FAIL, EXIT_OK, Env, Subparsers, add_common, load_one
from .output import diagnostic_line, dumps, printable, printable_lines


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
        help="the arguments as typed after /NAME, quoted as one word ('a.pdf --short')",
    )
    act.add_argument(
        "--as",
        dest="invoker",
        choices=("user", "model"),
        default="model",
        help="who invokes it: the user (/NAME ARGS) or the model through its tool (default)",
    )
    add_common(act)


def cmd_match(args: argparse.Namespace, env: Env) -> int:
    from ..core.model.session import Session
    from ..core.ranking.matching import match, why_not
    from ..core.ranking.model_pick import likely, likely_text
    from .explain import explain_text

    item = load_one(args, env)
    session = Session(recent=list(args.recent))
    result = match(item.registry, args.query, session=session, options=item.project.options)
    why = {name: why_not(result, item.registry, name) for name in args.why}
    unknown = [name for name in args.why if item.registry.get(name) is None]  # exit 1
    chooses = item.registry.profile.model_chooses
    ranked = likely(item.registry, args.query) if chooses else None
    if args.format == "json":
        data = result.to_json()
        if ranked is not None:  # docs/commands.md: a band per candidate, and the ranking
            for cand in data["candidates"]:
                cand["band"] = ranked.band_of(cand["skill"])
            data["likely"] = ranked.to_json()["candidates"]
        if why:
            data["why_not"] = why
        env.print(dumps(data))
        return EXIT_FAIL if unknown else EXIT_OK
    env.print(printable_lines(explain_text(result, item.registry, args.explain)))
    if ranked is not None:
        env.print(printable_lines(likely_text(ranked)))
    for name, text in why.items():
        env.print(printable(f"why not {name}: {text}"))
    return EXIT_FAIL if unknown else EXIT_OK


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


def cmd_activate(args: argparse.Namespace, env: Env) -> int:
    from ..core.delivery.activation import activate

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
