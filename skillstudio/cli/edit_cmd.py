"""`set` and `new`: edit a skill's frontmatter, create a skill from the profile's template."""

from __future__ import annotations

import argparse
import os

from ..core.projects.project import UsageError, projects_for_path
from .common import EXIT_FAIL, EXIT_OK, Env, Subparsers, add_common, load_one
from .output import dumps, printable, rel


def register(sub: Subparsers) -> None:
    set_ = sub.add_parser(
        "set",
        help="edit frontmatter fields",
        description="Edit frontmatter, changing nothing else. A VALUE is text (written "
        "with quotes where YAML needs them) unless the field is declared true/false, a whole "
        "number or a list: then it must be one ('[a, b]' for a list). A dotted KEY edits "
        "inside a mapping: metadata.version=1.3 sets one entry and keeps the others; "
        "--unset metadata.version removes one.",
        epilog="examples: set my-skill 'description=Fix #123 and more'   "
        "set my-skill metadata.version=1.3   set my-skill --yaml 'metadata={a: b}'",
    )
    set_.add_argument("skill", metavar="SKILL", help="a skill name, folder or SKILL.md")
    set_.add_argument(
        "pairs", nargs="*", metavar="KEY=VALUE", help="a field and its value; KEY may be dotted"
    )
    set_.add_argument(
        "--unset",
        action="append",
        default=[],
        metavar="KEY",
        help="remove a field, or with a dotted KEY one entry of a mapping (repeatable)",
    )
    values = set_.add_mutually_exclusive_group()
    values.add_argument(
        "--string", action="store_true", help="take every VALUE as text, whatever the field's type"
    )
    values.add_argument(
        "--yaml",
        action="store_true",
        help="read every VALUE as YAML (mappings, lists, numbers: structured values)",
    )
    add_common(set_, cache=False)  # (writes: never through the cache of what was read)

    new = sub.add_parser(
        "new",
        help="create a skill",
        description="Create NAME/SKILL.md from the profile's template in the project's "
        "highest-precedence root (the last --root, or the project's user/project root); "
        "the path is printed.",
    )
    new.add_argument(
        "name", metavar="NAME", help="lowercase letters, digits and single hyphens (a folder)"
    )
    add_common(new, cache=False)


def _is_path(word: str) -> bool:
    """SKILL in `set` is a path only when it says so (docs/commands.md): it holds a
    `/` or ends in SKILL.md. Anything else is a registry name, even when a file of
    that name happens to be in the current folder."""
    return "/" in word or os.sep in word or word.endswith("SKILL.md")


def _skill_file(args: argparse.Namespace, env: Env) -> tuple[str, str]:
    """(SKILL.md path, the folder it may be written in) of a `set` argument: the folder
    opened that its root lies in (core/model/confinement.py), else the root itself."""
    if _is_path(args.skill):
        target = os.path.abspath(os.path.join(env.cwd, args.skill))
        if os.path.isdir(target):
            target = os.path.join(target, "SKILL.md")
        if not os.path.lexists(target):
            raise UsageError(f"{args.skill}: no such file or folder")
        if os.path.basename(target) != "SKILL.md" or args.skill.endswith("/"):
            raise UsageError(
                f"{args.skill} is not a skill folder or a SKILL.md; nothing was changed"
            )
        root = projects_for_path(target, args.profile)[0].roots[0]
        return target, root.base or root.path
    item = load_one(args, env)
    skill = item.registry.get(args.skill)
    if skill is None:
        hint = f" (a file or folder here is written ./{args.skill})"
        raise UsageError(
            f"no skill named '{args.skill}'"
            + (hint if os.path.lexists(os.path.join(env.cwd, args.skill)) else "")
        )
    return skill.path, skill.root.base or skill.root.path


def _writable_target(path: str, base: str) -> str:
    """The regular file `set` may write for `path`: a link is followed when its target
    lies inside `base`, the folder opened (the link is kept); a link out of it, a
    special file or a read-only file is refused (EditRefused)."""
    from ..core.model.paths import FileRefused
    from ..core.reading.safefs import check_regular

    try:
        st = check_regular(path, base)
    except FileRefused as exc:
        raise EditRefused(f"not edited: {exc.reason}") from None
    if not st.st_mode & 0o222:
        raise EditRefused("the file is read-only; make it writable first (nothing was written)")
    return os.path.realpath(path)


class EditRefused(Exception):
    """`set` would not write this file; nothing was changed."""


def cmd_set(args: argparse.Namespace, env: Env) -> int:
    from ..core.editing.changes import Change, change_for
    from ..core.editing.round_trip import apply_changes
    from ..core.editing.saving import SaveError, atomic_write, encode, stamp
    from ..core.editing.values import ValueMode, field_kind, parse_typed_value
    from ..core.reading.frontmatter import read_document
    from ..core.reading.yaml_io import EditError

    pairs: list[tuple[str, str]] = []
    for pair in args.pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"'{pair}' is not KEY=VALUE")
        pairs.append((key.strip(), raw))
    if not pairs and not args.unset:
        raise UsageError("nothing to change: give KEY=VALUE pairs or --unset KEY")
    path, base = _skill_file(args, env)
    mode: ValueMode = "yaml" if args.yaml else "string" if args.string else "text"
    changes: list[Change] = []
    try:
        target = _writable_target(path, base)
        profile = projects_for_path(path, args.profile)[0].profile
        before = stamp(target)
        doc = read_document(target)
        if not doc.readable:
            raise UsageError(f"{path}: {doc.problems[0].message}")
        for key, raw in pairs:
            change = change_for(key, doc.mapping, "set")
            kind = field_kind(profile, change.key, change.path)
            value = parse_typed_value(raw, kind, key, mode)
            changes.append(Change("set", change.key, value, change.path))
        changes += [change_for(key.strip(), doc.mapping, "unset") for key in args.unset]
        text = apply_changes(doc, changes, order=[spec.key for spec in profile.fields])
        atomic_write(target, encode(text), before, base=base)
    except (EditError, SaveError, EditRefused) as exc:
        if args.format == "json":
            env.print(dumps({"error": {"code": "EDIT_REFUSED", "message": str(exc), "path": path}}))
        else:
            env.err.write(f"skillstudio: {printable(rel(path, env.cwd))}: {exc}\n")
        return EXIT_FAIL
    keys = [c.dotted for c in changes]
    if args.format == "json":
        env.print(dumps({"path": path, "changed": keys}))
    else:
        env.print(
            f"{rel(path, env.cwd)}: "
            + ", ".join(f"{'unset' if c.kind == 'unset' else 'set'} {c.dotted}" for c in changes)
        )
    return EXIT_OK


def cmd_new(args: argparse.Namespace, env: Env) -> int:
    from ..core.editing.skill_ops import BadName, OperationError, new_skill

    item = load_one(args, env)
    roots = item.project.roots
    if not roots:
        raise UsageError("no root to create the skill in; give --root DIR")
    root = roots[-1].path  # the highest-precedence root (user / project)
    try:
        path = new_skill(item.project.profile, root, args.name)
    except BadName as exc:
        raise UsageError(str(exc)) from None
    except OperationError as exc:
        env.err.write(f"skillstudio: {exc}\n")
        return EXIT_FAIL
    if args.format == "json":
        env.print(dumps({"path": path, "profile": item.project.profile.name, "root": root}))
    else:
        env.print(f"created {rel(path, env.cwd)} ({item.project.profile.name})")
    return EXIT_OK


COMMANDS = {"set": cmd_set, "new": cmd_new}
