"""Activation: the exact content each profile delivers when a skill is invoked."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model.diagnostics import Diagnostic, internal
from ..model.session import Session
from ..model.skills import Skill
from ..profile import ActivationRequest, Profile
from ..scanning.registry import Registry

Invoker = Literal["model", "user"]

_PLACEHOLDER = re.compile(r"\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)")
# An index with more digits than this is past any argument list: left as written,
# like $9 with three arguments (the seed indexes its argument array, which has no
# such element), without turning 5,000 digits into an integer.
MAX_INDEX_DIGITS = 9
MAX_TREE_ENTRIES = 200


@dataclass(slots=True)
class Activation:
    profile: str
    skill: str
    mode: str = "inline"
    content: str = ""
    payload: dict[str, Any] = field(default_factory=dict)
    error: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # `internal`, if it failed

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            data: dict[str, Any] = {
                "profile": self.profile,
                "skill": self.skill,
                "error": self.error,
            }
            if self.diagnostics:
                data["diagnostics"] = [d.to_json() for d in self.diagnostics]
            return data
        data = {
            "profile": self.profile,
            "skill": self.skill,
            "mode": self.mode,
            "content": self.content,
            "notes": self.notes,
        }
        data.update(self.payload)
        return data


def split_args(args: str) -> tuple[list[str], str | None]:
    """Shell-style split; unbalanced quotes fall back to whitespace, with a note."""
    try:
        return shlex.split(args), None
    except ValueError as exc:
        return args.split(), (
            f"The arguments could not be split shell-style ({exc}); they were split on "
            "whitespace instead. Close the quote to pass a quoted argument."
        )


def substitute_pegasus(body: str, args: str) -> tuple[str, list[str]]:
    """$ARGUMENTS, $ARGUMENTS[N] and $N (0-based); append when no placeholder is present."""
    parts, note = split_args(args)
    notes = [note] if note else []

    def replace(match: re.Match[str]) -> str:
        index = match.group(1) or match.group(2)
        if index is None:
            return args
        if len(index) > MAX_INDEX_DIGITS:
            return match.group(0)
        position = int(index)
        return parts[position] if position < len(parts) else match.group(0)

    present = _PLACEHOLDER.search(body) is not None
    out = _PLACEHOLDER.sub(replace, body)
    if not present and args.strip():
        out = out.rstrip("\n") + f"\n\nARGUMENTS: {args}"
    return out, notes


def substitute_mvp(body: str, args: str) -> str:
    """seed 003: replace $ARGUMENTS; else append 'ARGUMENTS: <args>' when args are non-empty."""
    if "$ARGUMENTS" in body:
        return body.replace("$ARGUMENTS", args)
    if args:
        return body.rstrip("\n") + f"\n\nARGUMENTS: {args}"
    return body


def folder_tree(skill: Skill) -> str:
    """A tree summary of the skill folder (workspace `folderStructure`)."""
    files = ["SKILL.md", *skill.supporting_files()]
    truncated = len(files) > MAX_TREE_ENTRIES
    files = sorted(files[:MAX_TREE_ENTRIES])
    tree: dict[str, Any] = {}
    for rel in files:
        node = tree
        parts = rel.split(os.sep)
        for part in parts[:-1]:
            node = node.setdefault(part + "/", {})
        node[parts[-1]] = None
    lines = [skill.folder_name + "/"]

    def ordered(node: dict[str, Any]) -> list[tuple[str, Any]]:
        return sorted(node.items(), key=lambda kv: (kv[1] is None, kv[0]))

    # Depth first with an explicit stack: a 1,000-deep folder is no recursion limit.
    stack: list[tuple[list[tuple[str, Any]], int, str]] = [(ordered(tree), 0, "")]
    while stack:
        items, index, prefix = stack.pop()
        if index >= len(items):
            continue
        name, child = items[index]
        last = index == len(items) - 1
        lines.append(prefix + ("└── " if last else "├── ") + name)
        stack.append((items, index + 1, prefix))
        if child is not None:
            stack.append((ordered(child), 0, prefix + ("    " if last else "│   ")))
    if truncated:
        lines.append(f"… more than {MAX_TREE_ENTRIES} files")
    return "\n".join(lines)


def activate(
    registry: Registry,
    name: str,
    args: str = "",
    *,
    invoker: Invoker = "model",
    session: Session | None = None,
    options: dict[str, Any] | None = None,
) -> Activation:
    """What the profile delivers when `name` is invoked; never raises for a fault of
    this one skill (an unexpected exception becomes an error and an `internal`
    diagnostic on it)."""
    result = Activation(registry.profile.name, name)
    try:
        return _activate(registry, name, args, invoker, session, options or {}, result)
    except Exception as exc:
        skill = registry.active.get(name) or registry.get(name)
        path = skill.path if skill is not None else ""
        diagnostic = internal(path, name, "activating", exc)
        failed = Activation(registry.profile.name, name)
        failed.error = {"code": "INTERNAL_ERROR", "message": diagnostic.message}
        failed.diagnostics = [diagnostic]
        return failed


def _activate(
    registry: Registry,
    name: str,
    args: str,
    invoker: Invoker,
    session: Session | None,
    options: dict[str, Any],
    result: Activation,
) -> Activation:
    request = ActivationRequest(registry, name, args, invoker, session, options, result)
    return registry.profile.activate(request)


def activate_standard(profile: Profile, request: ActivationRequest) -> Activation:
    """The usual activation: the active skill by name, its body read, then delivered
    as the profile says (`Profile.deliver`); the profile words the errors."""
    registry, name, result = request.registry, request.name, request.result
    skill = registry.active.get(name)
    if skill is None:
        return _not_found(profile, registry, name, request.invoker, result)
    try:
        body = delivered_body(skill)
    except PermissionError as exc:
        result.error = {"code": "PERMISSION_DENIED", "message": f"{exc.strerror}: {skill.path}"}
        return result
    except OSError as exc:
        result.error = {"code": "EXECUTION_ERROR", "message": f"{exc.strerror}: {skill.path}"}
        return result
    return profile.deliver(request, skill, body)


def delivered_body(skill: Skill) -> str:
    """The instructions as an agent receives them: the body from its first non-blank
    line (tier 3 and activation share this rule). Raises OSError when unreadable."""
    from ..reading.frontmatter import read_document

    if skill.doc.text:
        return skill.doc.body.lstrip("\n")
    doc = read_document(skill.path)
    if not doc.readable:
        code = doc.problems[0].code if doc.problems else "unreadable"
        if code == "unreadable":
            raise OSError(5, doc.problems[0].message if doc.problems else "cannot read")
    # The blank lines between the closing '---' and the instructions are layout.
    return doc.body.lstrip("\n")


def _not_found(
    profile: Profile, registry: Registry, name: str, invoker: Invoker, result: Activation
) -> Activation:
    known = registry.get(name)
    error = profile.unloaded_error(name, known) if known is not None else None
    if error is not None:
        result.error = error
        return result
    result.error = {"code": "NOT_FOUND", "message": profile.not_found_message(name, invoker)}
    if known is not None:
        result.error["status"] = known.status
        result.error["reason"] = known.status_reason or (
            f"shadowed by {known.winner}" if known.winner else ""
        )
    return result
