"""`capture`: record an agent's own request as a template (core/live/capture.py), and
`capture --compare`: diff the project's own listing against a template's captured one
(docs/commands.md, docs/live.md "Templates")."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import secrets
import threading
from typing import Any

from ..core.live.capture import AGENTS
from ..core.live.templates import Template, tool_names
from ..core.model.text import counted
from ..core.projects.model_windows import with_window
from ..core.projects.project import UsageError
from .common import (
    EXIT_FAIL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    Env,
    Subparsers,
    add_common,
    add_paths,
    add_window,
    load,
    window_from,
)
from .output import dumps, printable

DEFAULT_TIMEOUT = 600.0


def register(sub: Subparsers) -> None:
    cap = sub.add_parser(
        "capture",
        help="record an agent's own request as a template for `eval --template`",
        description="Start a local endpoint on 127.0.0.1 speaking the agent's API, print "
        "the variable that points the agent at it, record the first request holding a "
        "skills listing, answer every request with a short end-of-turn reply, and save "
        "the request as a template: the listing and the user's request replaced by "
        "placeholders, keys and headers never saved. With --compare, diff the project's "
        "own listing against a template's captured one instead (exit 0 same, 1 different).",
    )
    cap.add_argument("--agent", choices=[a.name for a in AGENTS], help="the agent to capture")
    cap.add_argument(
        "--port", type=int, default=0, metavar="N", help="the port (default: any free one)"
    )
    cap.add_argument(
        "--save",
        metavar="FILE|NAME",
        help="where the template goes: a file, or a NAME in "
        "$XDG_CONFIG_HOME/skillstudio/templates (default: the agent's name there, the "
        "template `eval` then uses for that agent)",
    )
    cap.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds to wait for a request with a listing ({DEFAULT_TIMEOUT:g})",
    )
    cap.add_argument(
        "--compare",
        metavar="TEMPLATE",
        help="diff the project's listing (PATH) against this template's captured listing",
    )
    add_paths(cap)
    add_window(cap, "the context window the project's listing is worked out at (--compare)")
    add_common(cap)


def cmd_capture(args: argparse.Namespace, env: Env) -> int:
    if args.compare:
        return compare(args, env)
    if not args.agent:
        raise UsageError("capture needs --agent (claude-code, codex or gemini), or --compare")
    if args.paths:
        raise UsageError("a PATH goes with --compare; capture records what the agent sends")
    if not 0 <= args.port <= 65535 or args.timeout <= 0:
        raise UsageError("--port must be 0-65535 and --timeout positive")
    from ..core.live.capture import CaptureServer, capture_agent

    target = _target(args, env)
    agent = capture_agent(args.agent)

    def note(line: str) -> None:  # each request as it comes (from the server's threads)
        env.err.write(printable(f"capture: {line}") + "\n")
        env.err.flush()

    try:
        server = CaptureServer(agent, args.port, note)
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from None
    server.start()
    cancel = threading.Event()
    try:
        env.err.write(
            f"Listening on {server.url} (127.0.0.1 only). Point {agent.name} at it:\n"
            f"  {agent.variable}={server.url}\n"
            f"  e.g. {agent.variable}={server.url} {agent.hint}\n"
            f"then ask it something in a project with skills. Waiting up to "
            f"{args.timeout:g} s (Ctrl+C stops).\n"
        )
        env.err.flush()
        try:
            template = server.wait(args.timeout, cancel)
        except KeyboardInterrupt:
            env.err.write("skillstudio: capture stopped (Ctrl+C); nothing was saved\n")
            return EXIT_INTERRUPTED
    finally:
        server.stop()
    if template is None:
        without = server.result.unlisted_requests
        why = (
            f"{counted(without, 'request')} came, none with a skills listing where "
            f"{agent.name} puts it (is a skill installed where the agent runs? the "
            "listing's structure may have changed: docs/agents.md)"
            if without
            else f"no request came within {args.timeout:g} s"
        )
        env.err.write(f"skillstudio: nothing captured: {why}; nothing was saved\n")
        return EXIT_FAIL
    from ..core.live.templates import encode_template

    _write(target, encode_template(template))
    if args.format == "json":
        env.print(dumps({"saved": target, "kind": template.kind, **_about(template)}))
    else:
        env.print(printable(f"saved the {template.label} to {target} ({template.version})"))
    return EXIT_OK


def _about(template: Template) -> dict[str, Any]:
    return {
        "api": template.api,
        "agent": template.agent,
        "agent_version": template.agent_version,
        "version": template.version,
        "tools": tool_names(template),
        "listing_chars": len(template.listing),
    }


def _target(args: argparse.Namespace, env: Env) -> str:
    """The file the template is saved to (checked before the endpoint starts)."""
    from ..core.live.templates import is_name, named_path

    word = args.save or args.agent
    if is_name(word) and not os.path.lexists(os.path.join(env.cwd, word)):
        return named_path(word)
    return os.path.join(env.cwd, word)


def _write(path: str, data: bytes) -> None:
    """The template written whole (a temporary file renamed over it)."""
    folder = os.path.dirname(path) or "."
    temp = os.path.join(folder, f".{os.path.basename(path)}.{secrets.token_hex(4)}.tmp")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(temp, flags, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise UsageError(f"{path}: cannot be written ({exc.strerror}); nothing was saved") from None


def compare(args: argparse.Namespace, env: Env) -> int:
    """`capture --compare TEMPLATE [PATH]`: a unified diff of the listing texts."""
    from ..core.delivery.tiers import render_listing
    from ..core.live.templates import TemplateError, find_template

    try:
        template = find_template(args.compare, env.cwd)
    except TemplateError as exc:
        raise UsageError(str(exc)) from None
    if not template.listing:
        raise UsageError(f"{args.compare}: the {template.label} holds no captured listing")
    window = window_from(args, env)
    loaded = load(args, env)
    if len(loaded) != 1:
        raise UsageError("--compare takes one project (give one PATH)")
    item = loaded[0]
    ours = render_listing(item.registry, with_window(item.project.options, window)).text
    diff = list(
        difflib.unified_diff(
            template.listing.splitlines(keepends=True),
            ours.splitlines(keepends=True),
            f"captured ({template.label})",
            f"this project ({item.registry.profile.name})",
        )
    )
    same = not diff
    if args.format == "json":
        env.print(dumps({"same": same, "template": template.label, "diff": "".join(diff)}))
    elif same:
        env.print(printable(f"same: the project's listing is the {template.label}'s"))
    else:
        for line in diff:
            env.print(printable(line.rstrip("\n")))
    return EXIT_OK if same else EXIT_FAIL


COMMANDS = {"capture": cmd_capture}
