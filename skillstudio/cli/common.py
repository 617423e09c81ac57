"""What every command shares: where it runs, loading projects, common options, exit codes."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO, TypeAlias

from ..core.model.diagnostics import Diagnostic
from ..core.model.text import counted
from ..core.profiles import PROFILE_NAMES
from ..core.projects.open_project import OpenProject
from ..core.projects.project import UsageError, resolve_projects
from .output import rel

if TYPE_CHECKING:
    from ..core.projects.model_windows import WindowChoice
    from ..core.scanning.state_cache import StateCache

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

# Commands import the engine, editing and archive modules when they run, so
# that `lint` (the CI hot path) does not pay for them at start-up.

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
EXIT_INCONCLUSIVE = 3  # eval: no case failed, but one could not be decided
EXIT_INTERRUPTED = 130  # Ctrl+C (128 + SIGINT), as a shell reports it


@dataclass(slots=True)
class Env:
    """Where a command runs and writes (tests pass their own)."""

    cwd: str
    out: TextIO
    err: TextIO

    def print(self, text: str = "") -> None:
        self.out.write(text + "\n")


class ProfileChoices:
    """The registered profile names (looked up when used, so registered ones count),
    plus a command's extra words (`lint --profile all`)."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        self.extra = tuple(extra)

    def __contains__(self, name: object) -> bool:
        return name in PROFILE_NAMES or name in self.extra

    def __iter__(self) -> Iterator[str]:
        return iter([*PROFILE_NAMES, *self.extra])


def add_common(
    parser: argparse.ArgumentParser,
    formats: Sequence[str] = ("text", "json"),
    extra_profiles: Sequence[str] = (),
    cache: bool = True,
) -> None:
    """The options every command takes (`cache`: a command that only reads skills also
    takes --no-cache; one that writes never uses the cache)."""
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder of skills (repeatable; later roots take precedence)",
    )
    parser.add_argument("--project", metavar="DIR", help="a project folder (conventional roots)")
    parser.add_argument(
        "--profile",
        choices=ProfileChoices(extra_profiles) if extra_profiles else PROFILE_NAMES,
        help="the skill system's rules"
        + (" (all: which profiles load each skill)" if "all" in extra_profiles else ""),
    )
    parser.add_argument("--format", choices=formats, default="text", help="output format")
    if cache:
        parser.add_argument(
            "--no-cache",
            action="store_true",
            help="read every SKILL.md again, neither using nor updating the cache of what "
            "was read ($XDG_CACHE_HOME/skillstudio, else ~/.cache/skillstudio)",
        )


def add_paths(parser: argparse.ArgumentParser, what: str = "PATH") -> None:
    """The positional PATHs a reading command takes, as `lint` does (docs/commands.md)."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar=what,
        help="a root, a skill folder, a SKILL.md, a project or a repository of collections "
        "(as lint takes it; the same as --root or --project)",
    )


def load(
    args: argparse.Namespace, env: Env, paths: list[str] | None = None, gists: bool = True
) -> list[OpenProject]:
    """The projects, their registries scanned (`gists=False` for a command that never
    ranks likely candidates: no skill's gist is worked out, see core/reading/skill_words.py).
    `paths`: the PATHs given, else the command's own positional ones. A command that
    takes --no-cache reads through the cache of what was read unless told not to."""
    if paths is None:
        paths = list(getattr(args, "paths", None) or [])
    projects = resolve_projects(paths, args.root, args.project, args.profile, env.cwd)
    cache = state_cache(args)
    workers = os.cpu_count() or 1
    return [OpenProject.read(p, workers=workers, gists=gists, cache=cache) for p in projects]


def state_cache(args: argparse.Namespace) -> StateCache | None:
    """The cache of what was read (core/scanning/state_cache.py), for a command that takes
    --no-cache and was not given it; None where the cache folder cannot be used."""
    if getattr(args, "no_cache", True):
        return None
    from ..core.scanning.state_cache import StateCache

    return StateCache.open()


def profile_of(loaded: list[OpenProject]) -> str:
    names = {item.project.profile.name for item in loaded}
    return names.pop() if len(names) == 1 else "mixed" if names else "none"


def projects_json(loaded: list[OpenProject]) -> list[dict[str, Any]]:
    return [
        {
            "path": item.project.base,
            "profile": item.project.profile.name,
            "profile_reason": item.project.profile_reason,
            "roots": [
                {"path": r.path, "label": r.label, "precedence": r.precedence}
                for r in item.project.roots
            ],
        }
        for item in loaded
    ]


def severity_counts(diags: list[Diagnostic]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for diag in diags:
        counts[diag.severity] += 1
    return counts


def load_one(args: argparse.Namespace, env: Env) -> OpenProject:
    """Commands that answer for one agent need one project."""
    loaded = load(args, env)
    if len(loaded) != 1:
        if len({item.project.base for item in loaded}) == 1:  # one repository, mixed systems
            names = ", ".join(item.project.profile.name for item in loaded)
            raise UsageError(
                f"this folder holds skills of {counted(len(loaded), 'profile')} ({names}); "
                "choose one with --profile"
            )
        names = ", ".join(rel(item.project.base, env.cwd) for item in loaded)
        raise UsageError(
            f"this folder holds {counted(len(loaded), 'project')} ({names}); "
            "choose one with --project"
        )
    return loaded[0]


def add_window(
    parser: argparse.ArgumentParser, tokens_help: str, model: bool = True, tokens: bool = True
) -> None:
    """`--context-tokens N` and `--model NAME`: the context window the listing's budget
    is worked out at (core/projects/model_windows.py: `--context-tokens` wins over
    `--model`, both over skillstudio.yaml's `context_tokens`, then its `model`)."""
    if tokens:
        parser.add_argument("--context-tokens", type=int, metavar="N", help=tokens_help)
    if model:
        parser.add_argument(
            "--model",
            metavar="NAME",
            help="a model whose context window is known (docs/agents.md, 'Models and "
            "context windows', and your models.yaml); --context-tokens wins over it",
        )


def window_from(
    args: argparse.Namespace, env: Env, model: str | None = None
) -> WindowChoice | None:
    """The window the command line gives (a WindowChoice; None when it names none):
    a UsageError (exit 2) for --context-tokens out of range or a model not known
    (naming close ones). The user's models.yaml problems are written as warnings.
    `model`: the name to look up in place of --model (eval's live model, optional)."""
    from ..core.projects.model_windows import MAX_CONTEXT_TOKENS, load_models, window_choice
    from .output import diagnostic_line

    tokens = getattr(args, "context_tokens", None)
    if tokens is not None and not 0 <= tokens <= MAX_CONTEXT_TOKENS:
        raise UsageError(
            f"--context-tokens must be a whole number from 0 to {MAX_CONTEXT_TOKENS:,}"
        )
    name = getattr(args, "model", None) if model is None else model
    if tokens is not None or name is None:
        return window_choice(tokens, None)
    table = load_models()
    for diag in table.diagnostics:
        env.err.write(diagnostic_line(replace(diag, severity="warning"), env.cwd) + "\n")
    if model is not None:  # eval: a model not in the table keeps the project's window
        return window_choice(None, name, table) if table.get(name) is not None else None
    try:
        return window_choice(None, name, table)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
