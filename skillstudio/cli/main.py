"""`skillstudio` command line: the parser assembled from the command modules, and dispatch
(docs/commands.md). Each command group lives in its own module (`*_cmd.py`)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from .. import __version__
from ..core.projects.project import UsageError
from . import (
    archive_cmd,
    capture_cmd,
    diff_cmd,
    edit_cmd,
    engine_cmd,
    eval_cmd,
    fix_cmd,
    headroom_cmd,
    inspect_cmd,
    lint_cmd,
    lsp_cmd,
    overlap_cmd,
    suggest_cmd,
    test_cmd,
)
from .common import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Env
from .output import escaping, printable_lines

# in help order
GROUPS = (
    lint_cmd,
    inspect_cmd,
    engine_cmd,
    headroom_cmd,
    test_cmd,
    diff_cmd,
    eval_cmd,
    suggest_cmd,
    capture_cmd,
    edit_cmd,
    archive_cmd,
    overlap_cmd,
    fix_cmd,
    lsp_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skillstudio",
        description="Validate, inspect and test agent skills (SKILL.md) offline.",
    )
    parser.add_argument("--version", action="version", version=f"skillstudio {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in GROUPS:
        group.register(sub)

    gui = sub.add_parser("gui", help="open the app", description="Open the SkillStudio app.")
    gui.add_argument(
        "gui_args", nargs=argparse.REMAINDER, metavar="PATH", help="folders or projects to open"
    )
    return parser


COMMANDS: dict[str, Callable[[argparse.Namespace, Env], int]] = {
    name: command for group in GROUPS for name, command in group.COMMANDS.items()
}
COMMAND_NAMES = {*COMMANDS, "gui", "help"}


def main(
    argv: Sequence[str] | None = None,
    *,
    cwd: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    # every write of every command goes through the one escaping function (output.py)
    env = Env(cwd or os.getcwd(), escaping(out or sys.stdout), escaping(err or sys.stderr))
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["gui"]:  # the app parses its own options (--smoke-test, paths)
        return gui_main(arguments[1:])
    parser = build_parser()
    folder = _folder_to_open(arguments, env.cwd)
    if folder is not None:  # `skillstudio FOLDER`: the app on that folder
        return _open_app(env, [folder], arguments[0])
    try:
        args, extra = parser.parse_known_args(arguments)
        # `set NAME --project DIR key=value`: argparse stops taking positionals after an
        # option, so trailing KEY=VALUE words are collected here.
        if args.command == "set":
            pairs = [word for word in extra if "=" in word and not word.startswith("-")]
            args.pairs.extend(pairs)
            extra = [word for word in extra if word not in pairs]
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # argparse: --help/--version (0) or bad usage (2)
        return int(exc.code or 0)
    if args.command is None:
        return _open_app(env, [], None, parser)
    try:
        return COMMANDS[args.command](args, env)
    except UsageError as exc:  # may quote a suite's or a skill's text: escaped
        env.err.write(f"skillstudio: error: {printable_lines(str(exc))}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as exc:  # last line of defence: a message, never a traceback
        if os.environ.get("SKILLSTUDIO_DEBUG"):
            raise
        env.err.write(
            f"skillstudio: internal error: {type(exc).__name__}: {printable_lines(str(exc))}. "
            "Set SKILLSTUDIO_DEBUG=1 for details and please report it.\n"
        )
        return EXIT_USAGE


def _folder_to_open(arguments: list[str], cwd: str) -> str | None:
    """The folder (or SKILL.md) of `skillstudio PATH`: a first word that names no
    command and is not an option, but is there on disk; None for anything else."""
    if len(arguments) != 1 or arguments[0].startswith("-") or arguments[0] in COMMAND_NAMES:
        return None
    path = os.path.abspath(os.path.join(cwd, arguments[0]))
    return path if os.path.isdir(path) or os.path.isfile(path) else None


def _open_app(
    env: Env, paths: list[str], typed: str | None, parser: argparse.ArgumentParser | None = None
) -> int:
    """The app on `paths`; where there is no display, why it did not open and what to
    run instead (exit 2, as bad usage: docs/commands.md)."""
    from ..gui.app import has_display

    if has_display():
        return gui_main(paths)
    env.err.write(
        "skillstudio: the app did not open: no display found (DISPLAY and WAYLAND_DISPLAY "
        "are unset).\n"
    )
    if typed is not None:
        shown = shlex.quote(typed)
        env.err.write(
            f"To check it here: skillstudio lint {shown}  (also: skillstudio list {shown}, "
            f'skillstudio match "a request" {shown})\n'
        )
    else:
        env.err.write(
            "Run a command instead, such as: skillstudio lint  (checks the skills here; "
            "skillstudio --help lists every command)\n"
        )
        if parser is not None:
            parser.print_help(env.out)
    return EXIT_USAGE


def gui_main(argv: list[str] | None = None) -> int:
    """The desktop app (`skillstudio-gui`, `skillstudio gui`, or no command)."""
    try:
        from ..gui.app import main as app_main
    except ImportError as exc:  # PySide6 or a system library missing
        sys.stderr.write(f"skillstudio: the desktop app cannot start: {exc}\n")
        return EXIT_USAGE
    return app_main(sys.argv[1:] if argv is None else argv)
