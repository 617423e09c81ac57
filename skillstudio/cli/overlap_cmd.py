"""`overlap`: pairs of skills whose descriptions compete (docs/commands.md). (The
`description-overlap` notes of `lint` are the project's findings: core/projects/findings.py.)"""

from __future__ import annotations

import argparse

from ..core.model.text import counted
from ..core.projects.project import UsageError
from .common import EXIT_OK, Env, Subparsers, add_common, load
from .output import dumps, printable, rel


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
    from ..core.ranking.overlap import THRESHOLD, overlap_report

    threshold = THRESHOLD if args.threshold is None else args.threshold
    if not 0 < threshold <= 1:
        raise UsageError("--threshold must be above 0 and at most 1")
    loaded = load(args, env, args.paths, gists=False)  # overlap reads no gist
    reports = [overlap_report(item.registry, threshold) for item in loaded]
    pairs = [pair for report in reports for pair in report.pairs]
    pairs.sort(key=lambda p: -p.score)
    count = sum(len(item.registry.active) for item in loaded)
    bounded = [report.bounds for report in reports if report.bounds.cut]
    if args.format == "json":
        data = {
            "threshold": threshold,
            "skills": count,
            "estimate": True,
            "pairs": [pair.to_json() for pair in pairs],
        }
        if bounded:  # what the bounds on the work left out (core/ranking/overlap.py)
            data["bounded"] = [bounds.to_json() for bounds in bounded]
        env.print(dumps(data))
        return EXIT_OK
    for pair in pairs:
        shared = ", ".join(term for term, _ in pair.shared)
        line = f"{pair.score:.2f}  {pair.a.name}  ~  {pair.b.name}   shared: {shared}"
        env.print(printable(line))
        env.print(printable(f"      {rel(pair.a.path, env.cwd)}  {rel(pair.b.path, env.cwd)}"))
    env.print(
        f"{counted(len(pairs), 'competing pair')} among {counted(count, 'skill')} "
        f"(similarity >= {threshold:g}; an estimate of which descriptions a model could confuse)"
    )
    for bounds in bounded:
        env.print(f"Bounded: {bounds.text()}.")
    return EXIT_OK


COMMANDS = {"overlap": cmd_overlap}
