"""Field declarations: each profile states its fields once, here is their shape.

The validator checks values against these, and the app's form is generated from
them (widget kind, required marker, default, limit counter and help tooltip).
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from typing import Any, Literal

from .text import counted

FieldKind = Literal[
    "string",  # one line of text
    "text",  # free text, may span lines
    "int",
    "bool",
    "enum",
    "list",  # list of strings
    "text_or_list",  # a string or a list of strings
    "csv",  # comma-separated string
    "spaced",  # space-separated string
    "map",  # string -> string mapping
    "semver",
    "triggers",  # mapping of keywords / verbs / patterns lists
    "any",
]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    key: str
    kind: FieldKind
    label: str
    help: str
    required: bool = False
    recommended: bool = False
    default: Any = None
    default_note: str = ""  # how the default is derived when it is not a constant
    max_length: int | None = None
    choices: tuple[str, ...] = ()
    subkeys: tuple[str, ...] = ()  # for "triggers"
    # values an editor offers as the author types (model or tool names), not enforced
    suggestions: tuple[str, ...] = ()

    def describe(self) -> str:
        """Help text with the facts a form tooltip needs."""
        parts = [self.help]
        if self.required:
            parts.append("Required.")
        elif self.recommended:
            parts.append("Recommended.")
        if self.default_note:
            parts.append(f"Default: {self.default_note}.")
        elif self.default is not None:
            parts.append(f"Default: {yaml_spelling(self.default)}.")
        if self.max_length:
            parts.append(f"At most {self.max_length} characters.")
        if self.choices:
            parts.append("One of: " + ", ".join(self.choices) + ".")
        return " ".join(parts)


# A skill name's rule in plain words (the profiles that share it say it the same way).
NAME_RULE = "lowercase letters, digits and hyphens; no double hyphen, none at the start or end"


def yaml_spelling(value: Any) -> str:
    """A default value as the author would write it in YAML: true, not True."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def yaml_kind(value: Any) -> str:
    """How YAML read a value, in words a skill author knows."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, _dt.date | _dt.datetime):
        return "a date"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def quoted(text: str, limit: int = 60) -> str:
    """Text in single quotes for a message; a cut text ends with '…' inside the quotes."""
    return f"'{text}'" if len(text) <= limit else f"'{text[: limit - 1]}…'"


def show(value: Any, limit: int = 40) -> str:
    if isinstance(value, str):
        return quoted(value, limit)
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def described(value: Any) -> str:
    """A value in a message, whatever its size: a list or a mapping named with its count
    (never spelled out: a 4,000-item list would make a message of 600 KB, sent on every
    keystroke by the language server), any other value as YAML read it, cut."""
    if isinstance(value, list):
        return f"a list of {counted(len(value), 'item')}"
    if isinstance(value, dict):
        return f"a mapping of {counted(len(value), 'key')}"
    return f"{yaml_kind(value)} {show(value)}"


_TEXT_KINDS = {"string", "text", "enum", "csv", "spaced", "semver"}


def type_problem(spec: FieldSpec, value: Any) -> str | None:
    """A sentence saying what is wrong with the value's type, or None."""
    kind = spec.kind
    key = spec.key
    if kind == "any":
        return None
    if kind in _TEXT_KINDS:
        if isinstance(value, str):
            return None
        if value is None:
            return f"'{key}' is empty; give it a value or remove the line."
        if isinstance(value, bool | int | float | _dt.date):
            return (
                f"'{key}' must be text, but YAML reads {show(value)} as {yaml_kind(value)}; "
                "put the value in quotes."
            )
        return f"'{key}' must be text, not {yaml_kind(value)}."
    if kind == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return None
        return f"'{key}' must be a whole number such as 50, not {yaml_kind(value)} {show(value)}."
    if kind == "bool":
        if isinstance(value, bool):
            return None
        return f"'{key}' must be true or false (no quotes), not {yaml_kind(value)} {show(value)}."
    if kind == "list":
        if isinstance(value, list):
            return None
        if isinstance(value, str):
            return (
                f"'{key}' must be a list, not one piece of text: write each item on its own "
                "line starting with '- ', or as [a, b]."
            )
        return f"'{key}' must be a list of text items, not {yaml_kind(value)}."
    if kind == "text_or_list":
        if isinstance(value, str | list):
            return None
        return f"'{key}' must be text or a list of text items, not {yaml_kind(value)}."
    if kind in ("map", "triggers"):
        if isinstance(value, dict):
            return None
        if kind == "triggers" and isinstance(value, list):
            return (
                f"'{key}' must be a mapping with keywords, verbs and patterns lists "
                "(for example 'keywords: [hello]' indented under 'triggers:'), not a list."
            )
        return f"'{key}' must be a mapping of 'key: value' lines, not {yaml_kind(value)}."
    return None  # pragma: no cover - every kind handled above


def item_problem(key: str, index: int, value: Any) -> str | None:
    """For list fields: what is wrong with one item (items must be text)."""
    if isinstance(value, str):
        if not value.strip():
            return f"Item {index + 1} of '{key}' is empty; remove it."
        return None
    return (
        f"Item {index + 1} of '{key}' is {yaml_kind(value)} {show(value)}, not text; "
        "put it in quotes."
    )


_PLACEHOLDER = ("Describe what ", " does and when to use it.")


def placeholder_description(title: str) -> str:
    """The description `new` writes: a placeholder the author is expected to replace."""
    return _PLACEHOLDER[0] + title + _PLACEHOLDER[1]


def is_placeholder_description(text: object) -> bool:
    return (
        isinstance(text, str)
        and text.strip().startswith(_PLACEHOLDER[0])
        and text.strip().endswith(_PLACEHOLDER[1])
    )


# The body `new` writes under the heading: steps the author is expected to replace.
# Neither they nor the placeholder description are the skill's words: the likely
# estimate leaves them out (`without_template_steps`, likely_index.py), so a fresh
# skill is not a candidate for requests that happen to say "files" or "result".
TEMPLATE_STEPS = (
    "1. Say what the agent should do first.",
    "2. Then the next step, with the commands or files it needs.",
    "3. Say what a good result looks like.",
)


def template_step_lines(text: str, body_offset: int) -> list[tuple[int, int]]:
    """(line, column) of each template step still in the body as written (a step is a
    line of its own, whatever its indent): what `body-placeholder` reports."""
    found = []
    for step in TEMPLATE_STEPS:
        hit = re.search(rf"^[ \t]*({re.escape(step)})[ \t]*\r?$", text[body_offset:], re.M)
        if hit is not None:
            at = body_offset + hit.start(1)
            found.append((text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)))
    return sorted(found)


def without_template_steps(body: str) -> str:
    """`body` without the template's placeholder steps that are still there as written."""
    for step in TEMPLATE_STEPS:
        if step in body:
            body = body.replace(step, "")
    return body
