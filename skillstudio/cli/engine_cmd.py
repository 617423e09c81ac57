"""`match`, `prompt` and `activate`: what the agent selects, is shown and is given."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted
from ..core.projects.model_windows import with_window
from ..core.projects.open_project import OpenProject
from ..core.projects.project import UsageError
from .common import (
    EXIT_FAIL,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    add_paths,
    add_window,
    load,
    profile_of,
    projects_json,
    window_from,
)
from .output import diagnostic_line, dumps, printable, printable_lines, rel

if TYPE_CHECKING:
    from ..core.model.delivered import Activation, TierText


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
    add_window(match, "the context window in tokens (budgets that depend on it)")
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
    add_window(prompt, "the context window in tokens (budgets that depend on it)")
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


def match_answer(item: OpenProject, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """One project's answer to `match`: its JSON and its text."""
    from ..core.model.session import Session
    from ..core.ranking.estimate import likely_text
    from ..core.ranking.explanations import why_not
    from ..core.ranking.likely_explanation import (
        explained_text,
        ranking_explained,
        why_not_likely,
    )
    from ..core.ranking.likely_ranking import likely
    from ..core.ranking.matching import match
    from .explain import explain_text

    session = Session(recent=list(args.recent))
    index = item.match_index()  # (the open project's indexes: core/projects/open_project.py)
    window = getattr(args, "window", None)
    options = with_window(item.project.options, window)
    # the likely ranking reads the listing at the window chosen (--model, --context-tokens)
    item.use_window(window.context_tokens if window is not None else None)
    result = match(item.registry, args.query, index=index, session=session, options=options)
    chooses = item.registry.profile.model_chooses
    ranked = likely(item.registry, args.query, item.likely_index()) if chooses else None
    # where the model chooses, what the app's Explanation says of a skill not selected
    # (core/ranking/likely_explanation.py): its rank, band, chance and words' weights
    explained = {
        name: why_not_likely(ranked, name, item.likely_index(), item.registry)
        for name in args.why
        if ranked is not None and name not in result.selected and item.registry.get(name)
    }
    why = {
        name: explained[name].lead if name in explained else why_not(result, item.registry, name)
        for name in args.why
    }
    data = result.to_json()
    if ranked is not None:  # docs/commands.md: the likely ranking leads, keywords follow
        estimate = ranked.to_json()
        keywords = data["candidates"]
        for cand in keywords:
            cand["band"] = ranked.band_of(cand["skill"])
        data["candidates"] = ranked_candidates(keywords, estimate["candidates"], result.selected)
        data["keywords"] = keywords
        data["likely"] = estimate["candidates"]
        data["likely_ignored"] = estimate["ignored"]  # words only exclusions had
    if why:
        data["why_not"] = why
    if explained:
        data["why_not_likely"] = {name: e.to_json() for name, e in explained.items()}
    likely_lines = printable_lines(likely_text(ranked)) if ranked is not None else None
    if args.explain and ranked is not None:  # the estimate explained first, as in the app
        lines = ranking_explained(ranked, item.likely_index(), result.selects)
        likely_lines = "\n".join([likely_lines or "", *map(printable, lines)])
    lines = [printable_lines(explain_text(result, item.registry, args.explain, likely_lines))]
    for name, text in why.items():
        lines.append(printable(f"why not {name}: {text}"))
        if name in explained:
            lines += [
                printable("  " + line)
                for line in explained_text(explained[name], result.selects)[1:]
            ]
    return data, "\n".join(lines)


def ranked_candidates(
    keywords: list[dict[str, Any]], likely: list[dict[str, Any]], selected: list[str]
) -> list[dict[str, Any]]:
    """`candidates` where the model chooses, in rank order (PRODUCT.md section 8): the
    skills an explicit invocation selects first, as the keyword matcher gives them, then
    the likely ranking (its score, band and term reasons; `passed` false: an estimate
    never selects)."""
    chosen = [dict(c) for c in keywords if c["skill"] in selected]
    by_name = {c["skill"]: c for c in likely}
    for cand in chosen:
        if cand["skill"] in by_name:
            cand["strength"] = by_name[cand["skill"]]["strength"]
    rest = [{**c, "passed": False, "heuristic": True} for c in likely if c["skill"] not in selected]
    return chosen + rest


def cmd_match(args: argparse.Namespace, env: Env) -> int:
    args.window = window_from(args, env)  # (a usage error before anything is read)
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
    if args.tier == 3:
        raise UsageError(
            "tier 3 is the instructions of the skills a request selects: give the request "
            "with --query Q instead of --tier 3"
        )
    args.window = window_from(args, env)
    loaded = load(args, env)
    tiers = [prompt_tier(item, args) for item in loaded]
    origins = [own_origin(item, tier) for item, tier in zip(loaded, tiers, strict=True)]
    if len(loaded) == 1:  # one project: its tier as before, with no `projects` key
        if args.format == "json":
            data = tiers[0].to_json(loaded[0].registry.profile.name)
            if origins[0]:  # (only then: the usual answer keeps its shape)
                data["agent_own_from"] = origins[0]
            env.print(dumps(data))
        else:
            print_tier(tiers[0], env, origins[0])
        return EXIT_OK
    # A folder of several projects: a tier each, as `match` answers (docs/commands.md).
    if args.format == "json":
        projects = projects_json(loaded)
        for entry, item, tier, origin in zip(projects, loaded, tiers, origins, strict=True):
            entry.update(tier.to_json(item.registry.profile.name))
            if origin:
                entry["agent_own_from"] = origin
        env.print(dumps({"profile": profile_of(loaded), "projects": projects}))
        return EXIT_OK
    for number, (item, tier, origin) in enumerate(zip(loaded, tiers, origins, strict=True)):
        env.print(project_heading(item, env, number))
        print_tier(tier, env, origin)
    return EXIT_OK


def own_origin(item: OpenProject, tier: TierText) -> str:
    """Where the agent's own entries of the listing come from (a Codex system skill's
    path is where Codex writes it when it starts, which may not exist yet), or ""."""
    if not tier.agent_own:
        return ""
    profile = item.registry.profile
    origin = profile.own_origin()
    own = profile.agent_skills(profile.own_options)
    files = [s.path for s in own if os.sep in s.path]
    if files and not any(os.path.exists(path) for path in files):
        origin += f"; {os.path.dirname(os.path.dirname(files[0]))} is not there yet on this machine"
    return origin


def prompt_tier(item: OpenProject, args: argparse.Namespace) -> TierText:
    """One project's answer to `prompt`: the tier asked for (or the request's)."""
    from ..core.delivery.tiers import render_tiers
    from ..core.ranking.matching import match

    options = with_window(item.project.options, getattr(args, "window", None))
    result = match(item.registry, args.query or "", index=item.match_index(), options=options)
    tiers = render_tiers(item.registry, result, options)
    tier = tiers[args.tier if args.tier is not None else result.tier]
    tier.diagnostics[:0] = result.diagnostics  # skills the match left out
    return tier


def print_tier(tier: TierText, env: Env, origin: str = "") -> None:
    """The tier's text on stdout, its size and what it left out on stderr (`origin`:
    where the agent's own entries come from)."""
    from ..core.model.delivered import TIER_NAMES

    env.print(tier.text)
    env.err.write(
        f"[tier {tier.tier}: {TIER_NAMES[tier.tier]}{' (used)' if tier.used else ''}; "
        f"{tier.size_line()}]\n"
    )
    if tier.agent_own:
        names = ", ".join(tier.listed[i] for i in tier.agent_own)
        listed = f"the agent's own, listed too ({len(tier.agent_own):,}): {names}"
        env.err.write(f"[{listed}{f': {origin}' if origin else ''}]\n")
    for omitted in tier.omitted:
        env.err.write(f"[left out: {omitted['skill']}: {omitted['reason']}]\n")
    for diag in tier.diagnostics:
        env.err.write(diagnostic_line(diag, env.cwd) + "\n")


def project_heading(item: OpenProject, env: Env, number: int) -> str:
    """`== <profile>: <project> (<N> roots)`, the line above each project's answer."""
    roots = counted(len(item.project.roots), "root")
    where = rel(item.project.base, env.cwd) or "."
    return ("\n" if number else "") + f"== {item.project.profile.name}: {where} ({roots})"


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
    loaded = load(args, env)
    acts = [
        activate(
            item.registry,
            args.name,
            args.args,
            invoker=args.invoker,
            options=item.project.options,
        )
        for item in loaded
    ]
    ok = any(act.ok for act in acts)
    if len(loaded) == 1:  # one project: its answer as before, with no `projects` key
        if args.format == "json":
            env.print(dumps(acts[0].to_json()))
        else:
            print_activation(acts[0], args.name, env)
        return EXIT_OK if ok else EXIT_FAIL
    # A folder of several projects: an answer each, as `match` answers (docs/commands.md);
    # in text only the projects that know the skill, unless none does.
    if args.format == "json":
        projects = projects_json(loaded)
        for entry, act in zip(projects, acts, strict=True):
            entry.update(act.to_json())
            entry["profile"] = act.profile or entry["profile"]
        env.print(
            dumps(
                {
                    "profile": profile_of(loaded),
                    "skill": args.name,
                    "ok": ok,
                    "projects": projects,
                }
            )
        )
        return EXIT_OK if ok else EXIT_FAIL
    known = [i for i, act in enumerate(acts) if not _not_found(act)] or list(range(len(acts)))
    for number, index in enumerate(known):
        env.print(project_heading(loaded[index], env, number))
        print_activation(acts[index], args.name, env)
    return EXIT_OK if ok else EXIT_FAIL


def _not_found(act: Activation) -> bool:
    return act.error is not None and act.error.get("code") == "NOT_FOUND"


def print_activation(act: Activation, name: str, env: Env) -> None:
    """What the agent is given (stdout, notes on stderr), or why nothing is."""
    if act.error is not None:
        env.err.write(f"skillstudio: {act.error['code']}: {act.error['message']}\n")
        if act.error.get("status"):  # the agent's answer above; why, in SkillStudio's words
            reason = act.error.get("reason") or "no reason recorded"
            env.err.write(
                f"skillstudio: '{name}' is {act.error['status']}, so the agent does not "
                f"have it: {reason}\n"
            )
        return
    for note in act.notes:
        env.err.write(f"note: {note}\n")
    env.print(act.content)


COMMANDS = {"match": cmd_match, "prompt": cmd_prompt, "activate": cmd_activate}
