"""`pack` and `unpack`: .skill archives (the skill is checked before it is packed)."""

from __future__ import annotations

import argparse
import os

from ..core.model.diagnostics import Diagnostic
from ..core.model.text import counted
from ..core.profiles import PROFILE_NAMES
from ..core.projects.project import UsageError, projects_for_path
from .common import EXIT_FAIL, EXIT_OK, Env, Subparsers
from .output import diagnostic_line, dumps, printable, rel


def register(sub: Subparsers) -> None:
    pack_ = sub.add_parser("pack", help="make a .skill archive", description="Zip a skill folder.")
    pack_.add_argument("skill_dir", metavar="SKILL_DIR", help="the skill folder to archive")
    pack_.add_argument(
        "-o", "--output", metavar="FILE", help="the archive to write (default: ./NAME.skill)"
    )
    pack_.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    pack_.add_argument("--profile", choices=PROFILE_NAMES, help="the rules the skill is checked by")
    pack_.add_argument(
        "--include-secrets",
        action="store_true",
        help="also store files that look like secrets (.env, .env.*, *.pem, *.key, id_rsa*, "
        ".netrc, .npmrc, credentials*...), which are left out and named without it",
    )
    pack_.add_argument(
        "--strict",
        action="store_true",
        help="refuse a skill with errors or warnings (without it they are printed and the "
        "archive is written)",
    )

    unpack_ = sub.add_parser(
        "unpack", help="unpack a .skill archive", description="Unpack a .skill."
    )
    unpack_.add_argument("archive", metavar="FILE", help="the .skill archive")
    unpack_.add_argument("--root", metavar="DIR", help="where to unpack (default: ./skills or .)")
    unpack_.add_argument("--format", choices=("text", "json"), default="text", help="output format")


def _pack_check(skill_dir: str, profile: str | None) -> list[Diagnostic]:
    """The errors and warnings of the skill about to be packed (its folder's own rules)."""
    skill_md = os.path.join(skill_dir, "SKILL.md")
    if not os.path.isfile(skill_md):
        return []  # pack says what is wrong
    project = projects_for_path(skill_md, profile)[0]
    registry = project.registry()
    registry.scan()
    found = [*project.diagnostics, *registry.diagnostics]
    return sorted(
        (d for d in found if d.severity != "info"),
        key=Diagnostic.sort_key,
    )


def cmd_pack(args: argparse.Namespace, env: Env) -> int:
    from ..core.editing.archive import ArchiveError, pack

    skill_dir = os.path.join(env.cwd, args.skill_dir)
    problems = _pack_check(skill_dir, args.profile)
    errors = sum(d.severity == "error" for d in problems)
    refused = bool(problems) and args.strict
    if args.format == "text":
        for diag in problems:
            env.err.write(diagnostic_line(diag, env.cwd) + "\n")
    if refused:
        message = (
            f"{rel(skill_dir, env.cwd)} has {counted(errors, 'error')} and "
            f"{counted(len(problems) - errors, 'warning')}; nothing was packed (--strict)"
        )
        if args.format == "json":
            env.print(
                dumps(
                    {
                        "error": {"code": "PACK_REFUSED", "message": message},
                        "diagnostics": [d.to_json() for d in problems],
                    }
                )
            )
        else:
            env.err.write(f"skillstudio: {message}\n")
        return EXIT_FAIL
    left_out: list[str] = []
    try:
        out = pack(
            skill_dir,
            os.path.join(env.cwd, args.output) if args.output else None,
            left_out,
            include_secrets=args.include_secrets,
        )
    except ArchiveError as exc:
        raise UsageError(str(exc)) from None
    if args.format == "json":
        env.print(
            dumps(
                {
                    "archive": out,
                    "diagnostics": [d.to_json() for d in problems],
                    "left_out": left_out,
                }
            )
        )
    else:
        for note in left_out:
            env.err.write(f"skillstudio: {printable(note)}\n")
        env.print(f"wrote {printable(rel(out, env.cwd))}")
        if errors:
            env.err.write(
                f"skillstudio: warning: packed a skill with {counted(errors, 'error')} "
                "(listed above); an agent may not load it (--strict refuses)\n"
            )
    return EXIT_OK


def cmd_unpack(args: argparse.Namespace, env: Env) -> int:
    from ..core.editing.archive import ArchiveError, unpack

    archive = os.path.join(env.cwd, args.archive)
    if not os.path.lexists(archive):
        raise UsageError(f"{args.archive} does not exist")
    if os.path.isdir(archive):
        raise UsageError(f"{args.archive} is a folder, not a .skill archive")
    root = args.root or ("skills" if os.path.isdir(os.path.join(env.cwd, "skills")) else ".")
    try:
        folder = unpack(archive, os.path.join(env.cwd, root))
    except ArchiveError as exc:
        if args.format == "json":
            env.print(dumps({"error": {"code": "ARCHIVE_REFUSED", "message": str(exc)}}))
        else:
            env.err.write(f"skillstudio: refused: {printable(str(exc))}\n")
        return EXIT_FAIL
    env.print(
        dumps({"folder": folder})
        if args.format == "json"
        else f"unpacked to {printable(rel(folder, env.cwd))}"
    )
    return EXIT_OK


COMMANDS = {"pack": cmd_pack, "unpack": cmd_unpack}
