"""`lsp`: the language server over stdio, for editors (docs/lsp.md)."""

from __future__ import annotations

import argparse

from ..core.profiles import PROFILE_NAMES
from .common import EXIT_OK, Env, Subparsers


def register(sub: Subparsers) -> None:
    lsp = sub.add_parser(
        "lsp",
        help="a language server over stdio, for editors",
        description="Speak the Language Server Protocol on stdin/stdout: diagnostics as you "
        "type, hover, completion and fixes in any editor (docs/lsp.md). The workspace "
        "folders the editor opens are read as `skillstudio lint` reads them.",
    )
    lsp.add_argument(
        "--profile",
        choices=PROFILE_NAMES,
        help="read every workspace folder with this profile (default: as lint detects it)",
    )
    lsp.add_argument(
        "--stdio", action="store_true", help="accepted for editors that pass it (stdio is used)"
    )
    lsp.add_argument(
        "--no-cache",
        action="store_true",
        help="read every SKILL.md at start, neither using nor updating the cache of what was "
        "read (as lint's --no-cache)",
    )


def cmd_lsp(args: argparse.Namespace, env: Env) -> int:
    from ..lsp.server import serve  # pygls is loaded only for this command

    serve(args.profile, cache=not args.no_cache)
    return EXIT_OK


COMMANDS = {"lsp": cmd_lsp}
