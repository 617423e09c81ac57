"""What claude-code delivers: substitution of arguments and ${CLAUDE_…} variables, and
the shell lines Claude Code would run before the model sees the skill (never run here)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from ...model.skills import Skill
from ..pegasus import MAX_INDEX_DIGITS, split_args

SHELL_NOTE = "runs before the model sees this"
# !`cmd` at a line start or after a blank; a ```! fence up to its closing fence
_INLINE_SHELL = re.compile(r"(?:^|(?<=[ \t]))!`([^`\n]+)`", re.M)
_FENCE_SHELL = re.compile(r"^```!\s*\n(.*?)^```\s*$", re.M | re.S)


def shell_lines(body: str, first_line: int = 1) -> list[dict[str, Any]]:
    """The shell commands Claude Code runs while loading the skill, in body order:
    {line, command, kind: "inline" | "block", note} (shown, never run)."""
    found: list[tuple[int, str, str]] = []
    for match in _INLINE_SHELL.finditer(body):
        found.append((match.start(), match.group(1).strip(), "inline"))
    for match in _FENCE_SHELL.finditer(body):
        found.append((match.start(), match.group(1).rstrip("\n"), "block"))
    found.sort()
    return [
        {
            "line": first_line + body.count("\n", 0, offset),
            "command": command,
            "kind": kind,
            "note": SHELL_NOTE,
        }
        for offset, command, kind in found
    ]


def argument_names(value: Any) -> list[str]:
    items = value.split() if isinstance(value, str) else value if isinstance(value, list) else []
    return [str(item) for item in items if isinstance(item, str) and re.fullmatch(r"\w+", item)]


_SUBST = re.compile(
    r"\\\$|\$\{(CLAUDE_[A-Z_]+)\}|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![\w\[])|\$(\d+)|\$(\w+)"
)


def substitute_claude(
    body: str, args: str, variables: Mapping[str, str], names: list[str]
) -> tuple[str, list[str]]:
    """$ARGUMENTS, $ARGUMENTS[N], $N (0-based), named `arguments:` ($name; missing =
    empty), ${CLAUDE_…} variables, `\\$` escapes; 'ARGUMENTS: <value>' appended when
    no argument placeholder is present and arguments were given."""

    parts, note = split_args(args)
    notes = [note] if note else []
    named = {name: i for i, name in enumerate(names)}
    present = False

    def replace_one(match: re.Match[str]) -> str:
        nonlocal present
        whole = match.group(0)
        if whole == "\\$":
            return "$"
        variable, index_a, index_n, word = match.groups()
        if variable is not None:
            return variables.get(variable, whole)
        if word is not None:
            if word not in named:
                return whole
            present = True
            position = named[word]
            return parts[position] if position < len(parts) else ""
        present = True
        index = index_a or index_n
        if index is None:
            return args
        if len(index) > MAX_INDEX_DIGITS:
            return whole
        position = int(index)
        return parts[position] if position < len(parts) else whole

    out = _SUBST.sub(replace_one, body)
    if not present and args.strip():
        out = out.rstrip("\n") + f"\n\nARGUMENTS: {args}"
    return out, notes


def project_dir(skill: Skill) -> str:
    """The project a skill belongs to: the folder holding its `.claude/`, else its root's
    parent."""
    root = os.path.normpath(skill.root.path)
    parent = os.path.dirname(root)
    if os.path.basename(parent) == ".claude":
        return os.path.dirname(parent)
    return parent
