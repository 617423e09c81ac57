"""`suggest`: requests for a suite drafted by a model from a skill's name and description
and its neighbours' (core/projects/suggest.py), each checked for leaks and duplicates;
the author keeps what they accept (docs/commands.md, docs/live.md)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from ..core.model.text import counted
from ..core.projects.project import UsageError
from .common import EXIT_FAIL, EXIT_OK, Env, Subparsers, add_common, load_one
from .eval_cmd import add_endpoint_arguments, endpoint_of, price_of
from .eval_confirm import ask_to_send, valid_settings
from .output import dumps, printable, rel

if TYPE_CHECKING:
    from ..core.projects.open_project import OpenProject
    from ..core.projects.suggest import Ask, Draft
    from ..core.projects.suite_writing import ExpectKey
    from ..core.ranking.leaks import LeakCheck


def register(sub: Subparsers) -> None:
    from ..core.projects.suggest import MAX_PER_KIND, PER_KIND

    sg = sub.add_parser(
        "suggest",
        help="draft suite requests for a skill with a model, checked for leaks",
        description="Ask a model to draft requests for a suite from SKILL's name and "
        "description and its closest neighbours' (never a body): ones that should pick "
        "SKILL, near misses that should pick a neighbour or no skill, and out-of-scope "
        "ones. The cost is shown before anything is sent. Each draft is checked for leaks "
        "(it names the skill or leans on its rarest description words) and duplicates. "
        "On a terminal each draft is accepted, edited or dropped (a/e/d); otherwise "
        "--write appends every draft that neither leaks nor repeats another.",
    )
    sg.add_argument("skill", metavar="SKILL", help="the skill's name")
    sg.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="the skills (a root, a skill folder, a project), as lint takes it",
    )
    add_endpoint_arguments(sg, "the model to ask (required)")
    sg.add_argument(
        "--per-kind",
        type=int,
        default=PER_KIND,
        metavar="N",
        help=f"requests asked for of each kind (default {PER_KIND}, at most {MAX_PER_KIND})",
    )
    sg.add_argument(
        "--temperature", type=float, default=1.0, metavar="T", help="sampling temperature (1.0)"
    )
    sg.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="seconds the request may take, its retries included (120)",
    )
    sg.add_argument(
        "--price",
        metavar="IN,OUT",
        help="dollars per million input and output tokens, for the cost estimate",
    )
    sg.add_argument(
        "--yes", action="store_true", help="do not ask before sending (the cost is still shown)"
    )
    sg.add_argument(
        "--write",
        metavar="SUITE",
        help="append the kept drafts to this SkillStudio suite (created when missing): "
        "on a terminal those accepted, else every one that neither leaks nor repeats",
    )
    add_common(sg)


def cmd_suggest(args: argparse.Namespace, env: Env) -> int:
    from ..core.live.client import Limits
    from ..core.live.planning import LiveError, Settings
    from ..core.live.run import key_for
    from ..core.projects.suggest import (
        MAX_PER_KIND,
        SuggestError,
        mark_drafts,
        plan_ask,
        read_drafts,
        send_ask,
    )
    from ..core.ranking.leaks import LeakCheck

    if not args.model:
        raise UsageError("--model is required")
    if not 1 <= args.per_kind <= MAX_PER_KIND:
        raise UsageError(f"--per-kind must be from 1 to {MAX_PER_KIND}")
    settings = valid_settings(
        Settings(
            endpoint_of(args),
            args.model,
            temperature=args.temperature,
            limits=Limits(timeout=args.timeout),
        )
    )
    settings.price = price_of(args)
    write = os.path.join(env.cwd, args.write) if args.write else None
    existing = _existing_requests(write, args.skill)
    args.paths = [args.path] if args.path else []
    item = load_one(args, env)
    skill = item.registry.active.get(args.skill)
    if skill is None:
        env.err.write(printable(f"skillstudio: no active skill named {args.skill!r}") + "\n")
        return EXIT_FAIL
    ask = plan_ask(_likely_index(item), skill, settings, args.per_kind)
    try:
        key = key_for(settings)  # before asking to spend: a missing key is said first
    except LiveError as exc:
        raise UsageError(str(exc)) from None
    if not ask_to_send(
        env, args, _cost_text(ask, settings), "not sending without a yes: add --yes"
    ):
        env.err.write("nothing was sent\n")
        return EXIT_OK
    check = LeakCheck(item.registry.active.values())
    try:
        text = send_ask(ask, settings, key)
        drafts, unread = read_drafts(text, skill.name, [s.name for s in ask.neighbours])
    except SuggestError as exc:
        env.err.write(printable(f"skillstudio: suggest: {exc}") + "\n")
        return EXIT_FAIL
    mark_drafts(drafts, skill.name, check, existing)
    expect_key: ExpectKey = "expect_model" if item.registry.profile.model_chooses else "expect"
    review = write is not None and args.format == "text" and _interactive(env)
    kept = _review(env, drafts, skill.name, check) if review else [d for d in drafts if d.kept]
    written = _write(write, kept, expect_key) if write is not None else 0
    if args.format == "json":
        out: dict[str, Any] = {
            "skill": skill.name,
            "neighbours": [s.name for s in ask.neighbours],
            "model": settings.model,
            "endpoint": settings.endpoint.to_json(),
            "input_tokens": ask.tokens()[0],
            "output_tokens": ask.tokens()[1],
            "cost": ask.cost(settings.price),
            "drafts": [d.to_json() for d in drafts],
            "refused": unread,
            "suite": write,
            "key": expect_key,
            "written": written,
        }
        env.print(dumps(out))
        return EXIT_OK
    if not review:
        for line in draft_lines(drafts):
            env.print(line)
    leaking = sum(d.leak is not None for d in drafts)
    repeats = sum(bool(d.duplicate) for d in drafts)
    summary = f"{counted(len(drafts), 'draft')}: {leaking} leaking, {repeats} repeating" + (
        f", {unread} not read (wrong shape, kind or skill)" if unread else ""
    )
    env.print(summary)
    if write is not None:
        env.print(f"{counted(written, 'case')} appended to {rel(write, env.cwd)} ({expect_key})")
    return EXIT_OK


def _likely_index(item: OpenProject) -> Any:
    """The open project's likely index, or one built for the neighbours where the
    profile's rules select (the ranking still says which skills are closest)."""
    from ..core.ranking.likely_index import LikelyIndex

    return item.likely_index() or LikelyIndex(item.registry)


def _existing_requests(path: str | None, skill: str) -> list[str]:
    """The requests of the suite --write appends to (drafts repeating one are dropped); a
    UsageError when it cannot be read or is not a SkillStudio suite."""
    if path is None or not os.path.exists(path):
        return []
    from ..core.projects.suite_cases import SuiteError
    from ..core.projects.suites import FOREIGN, load_suite

    try:
        suite = load_suite(path, skill)
    except SuiteError as exc:
        raise UsageError(str(exc)) from None
    if suite.kind != "suite":  # said before anything is sent (and paid for)
        raise UsageError(
            f"{path}: drafts are written to SkillStudio suites only; this file is "
            f"{FOREIGN.get(suite.kind, suite.kind)}"
        )
    return [case.query for case in suite.cases]


def _cost_text(ask: Ask, settings: Any) -> str:
    sent, answered = ask.tokens()
    cost = ask.cost(settings.price)
    near = ", ".join(s.name for s in ask.neighbours) or "none"
    text = (
        f"About to send 1 request to {settings.model} at {settings.endpoint.base_url}: "
        f"about {sent:,} input tokens, at most {answered:,} output tokens"
    )
    text += f" (about ${cost:.4f})" if cost is not None else ""
    return printable(text + f"; neighbours shown: {near}")


def _interactive(env: Env) -> bool:
    stdin = sys.stdin
    return stdin is not None and stdin.isatty()


def draft_line(draft: Draft) -> str:
    from ..core.projects.suggest import KIND_WORDS

    expect = draft.expect or "none"
    line = f"  [{KIND_WORDS[draft.kind]}] {draft.query!r} -> {expect}"
    if draft.leak is not None:
        line += f"  LEAK: {draft.leak.reason}"
    if draft.duplicate:
        line += f"  REPEATS: {draft.duplicate!r}"
    return printable(line)


def draft_lines(drafts: list[Draft]) -> list[str]:
    return [draft_line(d) for d in drafts]


def _review(env: Env, drafts: list[Draft], skill: str, check: LeakCheck) -> list[Draft]:
    """Each draft shown and accepted (a), edited (e) or dropped (d); a draft that leaks
    or repeats is dropped unless accepted. Ctrl+D ends the review (the rest dropped)."""
    kept: list[Draft] = []
    for number, draft in enumerate(drafts, 1):
        while True:
            env.print(f"{number}/{len(drafts)}{draft_line(draft)}")
            default = "d" if not draft.kept else "a"
            env.out.write(f"accept, edit or drop? [a/e/d] ({default}) ")
            env.out.flush()
            answer = sys.stdin.readline()
            if not answer:
                return kept
            choice = answer.strip().lower()[:1] or default
            if choice == "e":
                env.out.write("request: ")
                env.out.flush()
                edited = " ".join(sys.stdin.readline().split())
                if edited:
                    draft.query, draft.duplicate = edited, ""
                    draft.leak = check.check(edited, draft.expect or skill)
                continue
            if choice == "a":
                kept.append(draft)
            break
    return kept


def _write(path: str, drafts: list[Draft], key: ExpectKey) -> int:
    """Append each draft as a case (core/projects/suite_writing.py); the count written."""
    from ..core.projects.suite_cases import SuiteError
    from ..core.projects.suite_writing import add_case

    written = 0
    for draft in drafts:
        try:
            add_case(path, draft.query, [draft.expect] if draft.expect else [], key)
        except SuiteError as exc:
            raise UsageError(str(exc)) from None
        written += 1
    return written


COMMANDS = {"suggest": cmd_suggest}
