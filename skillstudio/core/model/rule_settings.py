"""Per-rule settings of a project (skillstudio.yaml `rules:`): a code's severity
changed, or the rule turned off.

`rules: {description-person: off, xml-in-description: error}` maps a diagnostic code
to `error`, `warning`, `info` or `off`. They are applied where each finding is made:
validation to each skill's own (core/checking/validate.py), the registry to the roots',
the cross-skill and the refresh's (core/scanning/registry.py), the open project to the
overlap notes (core/projects/open_project.py); so the command line, the app and the
language server, which read those (core/projects/findings.py), report the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from .diagnostics import CODES, Diagnostic

SETTINGS = ("error", "warning", "info", "off")
# what cannot be changed: the project's own configuration problems, and a failure of
# SkillStudio itself
FIXED = frozenset({"config-invalid", "internal"})


def setting_problem(code: object, value: object) -> str | None:
    """Why `code: value` is not a usable rule setting, or None."""
    if not isinstance(code, str) or code not in CODES:
        return f"'{code}' is not a diagnostic code (skillstudio explain CODE lists them)"
    if code in FIXED:
        return f"'{code}' cannot be changed"
    if value is False:  # YAML reads a bare `off` as false
        return None
    if not isinstance(value, str) or value not in SETTINGS:
        return f"'{code}' must be one of {', '.join(SETTINGS)}, not {value!r}"
    return None


def normalized(value: object) -> str:
    return "off" if value is False else str(value)


def apply_rules(diagnostics: Iterable[Diagnostic], rules: Mapping[str, str]) -> list[Diagnostic]:
    """`diagnostics` with each code's setting applied (dropped when off)."""
    if not rules:
        return list(diagnostics)
    out: list[Diagnostic] = []
    for diagnostic in diagnostics:
        setting = rules.get(diagnostic.code)
        if setting is None or diagnostic.code in FIXED:
            out.append(diagnostic)
        elif setting != "off":
            out.append(
                diagnostic
                if setting == diagnostic.severity
                else replace(diagnostic, severity=setting)  # type: ignore[arg-type]
            )
    return out
