"""`overlap`: pairs of skills whose descriptions compete (PRODUCT.md sections 5, 8), and
the `description-overlap` notes `lint` adds where the model chooses."""

from __future__ import annotations

import argparse

from ..core.model.diagnostics import Diagnostic
from ..core.model.text import counted
from ..core.projects.project import UsageError
from ..core.scanning.registry import Registry
from .common import EXIT_OK, Env, Subparsers, add_common, load
from .output import dumps, rel


def register(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "overlap",
        help="pairs of skills whose descriptions compete",
        description=(
            "List pairs of skills whose descriptions would compete for the same requests "
            "(similarity under the likely-candidates ranking), strongest first, with the "
            "words they share. An estimate: the model may still tell them apart."
        ),
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="a root, a project or a folder")
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        metavar="X",
        help="the similarity (0-1) from which a pair is listed (default 0.3)",
    )
    add_common(parser)


def cmd_overlap(args: argparse.Namespace, env: Env) -> int:
    from ..core.ranking.overlap import THRESHOLD, overlaps

    threshold = THRESHOLD if args.threshold is None else args.threshold
    if not 0 < threshold <= 1:
        raise UsageError("--threshold must be above 0 and at most 1")
    loaded = load(args, env, args.paths, gists=False)  # overlap reads no gist
    pairs = [pair for item in loaded for pair in overlaps(item.registry, threshold)]
    pairs.sort(key=lambda p: -p.score)
    count = sum(len(item.registry.active) for item in loaded)
    if args.format == "json":
        env.print(
            dumps(
                {
                    "threshold": threshold,
                    "skills": count,
                    "estimate": True,
                    "pairs": [pair.to_json() for pair in pairs],
                }
            )
        )
        return EXIT_OK
    for pair in pairs:
        shared = ", ".join(term for term, _ in pair.shared)
        env.print(f"{pair.score:.2f}  {pair.a.name}  ~  {pair.b.name}   shared: {shared}")
        env.print(f"      {rel(pair.a.path, env.cwd)}  {rel(pair.b.path, env.cwd)}")
    env.print(
        f"{counted(len(pairs), 'competing pair')} among {counted(count, 'skill')} "
        f"(similarity >= {threshold:g}; an estimate of which descriptions a model could confuse)"
    )
    return EXIT_OK


def overlap_lint(registry: Registry) -> list[Diagnostic]:
    """description-overlap notes, where the model chooses (core/ranking/overlap.py)."""
    from ..core.ranking.overlap import (
        LINT_MAX_SKILLS,
        LINT_THRESHOLD,
        overlap_diagnostics,
        overlaps,
    )

    count = len(registry.active)
    if not registry.profile.model_chooses or not 2 <= count <= LINT_MAX_SKILLS:
        return []  # above the limit `skillstudio overlap` lists them (seconds, not lint's pace)
    return overlap_diagnostics(overlaps(registry, LINT_THRESHOLD))


COMMANDS = {"overlap": cmd_overlap}
