"""The checks every profile shares: field types, required and unknown keys
(`check_fields`, run on every readable skill, then the profile's own `check`), and
the checks a profile's `check` calls: a value's length, a blank text field, the
name's length. A profile words a type problem or an unknown key its own way
(`Profile.value_problem`, `Profile.unknown_message`).
"""

from __future__ import annotations

from typing import Any

from ..model.diagnostics import Severity
from ..model.fields import item_problem
from ..profile import Checker
from .metadata_move import MOVE_HINT, blocker


def check_fields(c: Checker) -> None:
    """Types, required fields and unknown keys; then the profile's own rules (its `check`).

    When the YAML could not be read, the checks run on what the fallback
    extraction found (name and description lines), so one error does not
    hide the others; required fields are then only "missing" for profiles
    whose agent really reads the fallback.
    """
    profile = c.profile
    raw = c.skill.raw
    partial = c.doc.mapping is None
    for key, value in raw.items():
        spec = profile.field(key)
        if spec is None:
            if profile.unknown_field_severity is not None:
                message = profile.unknown_message(key)
                why = blocker(raw, key) if MOVE_HINT in message else None
                c.emit(
                    "unknown-field",
                    f"{message} ({why}.)" if why else message,
                    field=key,
                    severity=profile.unknown_field_severity,
                )
            continue
        problem = profile.value_problem(spec, value)
        if problem and spec.kind in ("csv", "spaced") and _text_list(value):
            sep = "commas" if spec.kind == "csv" else "spaces"
            c.emit(
                "field-type",
                f"'{key}' is a list here; the {profile.name} format is one line of text "
                f"separated by {sep}.",
                field=key,
                at="value",
                severity="warning",
            )
            continue
        if problem:
            code = "version-invalid" if spec.kind == "semver" else "field-type"
            c.emit(code, problem, field=key, at="value")
            c.fail(key)
            continue
        if spec.kind == "list":
            for index, item in enumerate(value):
                item_msg = item_problem(key, index, item)
                if item_msg:
                    c.emit("field-type", item_msg, field=key, item=index)
    for spec in profile.fields:
        if spec.key in raw:
            continue
        if partial:
            if spec.required:
                c.fail(spec.key)
            continue
        if spec.required:
            c.emit(
                "field-missing",
                f"The required field '{spec.key}' is missing: add a line "
                f"'{spec.key}: …' ({spec.help.rstrip('.')}).",
                field=spec.key,
            )
            c.fail(spec.key)
        elif spec.recommended:
            c.emit(
                "field-missing",
                f"'{spec.key}' is recommended: {spec.help}"
                + (f" Without it: {spec.default_note}." if spec.default_note else ""),
                field=spec.key,
                severity="warning",
            )
    if partial and not profile.uses_fallback:
        for spec in profile.fields:
            if spec.required:
                c.fail(spec.key)
    profile.check(c)


def check_length(c: Checker, key: str, value: Any, limit: int, code: str, what: str) -> None:
    if isinstance(value, str) and len(value) > limit:
        c.emit(
            code,
            f"{what} is {len(value)} characters; the limit is {limit}. "
            f"Shorten it by {len(value) - limit}.",
            field=key,
            at="value",
        )


def check_not_empty(
    c: Checker,
    key: str,
    message: str,
    *,
    skip: bool = True,
    severity: Severity | None = None,
) -> None:
    """A text field that is present but blank; `skip` makes the agent skip the skill."""
    value = c.skill.raw.get(key)
    if isinstance(value, str) and not value.strip():
        code = "description-empty" if key == "description" else "field-invalid"
        c.emit(code, message, field=key, at="value", severity=severity)
        if skip:
            c.fail(key)


def check_name_length(c: Checker, limit: int = 64, *, skip: bool = False) -> None:
    name = c.skill.raw.get("name")
    if isinstance(name, str) and len(name) > limit:
        c.emit(
            "name-too-long",
            f"'name' is {len(name)} characters; the limit is {limit}.",
            field="name",
            at="value",
        )
        if skip:
            c.fail("name")


def _text_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
