"""Claude Code's project settings that change how skills are shown: `skillOverrides`
in `.claude/settings.json` and `.claude/settings.local.json` (docs/profiles.md).

Claude Code documentation (code.claude.com/docs/en/skills, "Override skill visibility
from settings", read 2026-11; the setting came with v2.1.129): each key is a skill
name and each value one of `on` (listed with its description), `name-only` (listed by
name alone), `user-invocable-only` (hidden from Claude, still in the `/` menu) and
`off` (hidden from both); a skill absent from it is `on`; plugin skills are not
affected. The `/skills` menu writes `.claude/settings.local.json`, which is read after
`.claude/settings.json` (its entries win).

The files are read as plugin manifests are (plugins.py `read_manifest`: confined to the
project folder, regular files only, at most 256 KiB, bounded JSON); a bad file or
value is a diagnostic and is left out, never a crash.
"""

from __future__ import annotations

import os
from dataclasses import replace

from ...model.diagnostics import Diagnostic
from . import plugins

SETTINGS_FILES = (
    os.path.join(".claude", "settings.json"),
    os.path.join(".claude", "settings.local.json"),
)
KEY = "skillOverrides"
MODES = ("on", "name-only", "user-invocable-only", "off")


def skill_overrides(folder: str) -> tuple[dict[str, str], list[Diagnostic]]:
    """The project's `skillOverrides` (skill name -> mode other than `on`), and what
    reading the settings files found wrong."""
    out: dict[str, str] = {}
    notes: list[Diagnostic] = []
    for rel in SETTINGS_FILES:
        manifest = plugins.read_manifest(os.path.join(folder, rel), folder)
        if manifest is None:
            continue
        # (settings, not a skill: what is wrong in them is a warning)
        notes.extend(replace(d, severity="warning") for d in manifest.diagnostics)
        data = manifest.data
        if data is None or KEY not in data:
            continue
        overrides = data[KEY]
        if not isinstance(overrides, dict):
            notes.append(_note(manifest, f"{rel}: '{KEY}' must be an object of skill names", KEY))
            continue
        for name, mode in overrides.items():
            if mode not in MODES:
                known = ", ".join(repr(m) for m in MODES)
                message = (
                    f"{rel}: '{KEY}' gives '{name}' the value {mode!r}; Claude Code knows "
                    f"{known}. It is left out"
                )
                notes.append(_note(manifest, message, KEY, name))
            elif mode == "on":
                out.pop(str(name), None)
            else:
                out[str(name)] = str(mode)
    return out, notes


def _note(manifest: plugins.Manifest, message: str, *keys: str) -> Diagnostic:
    """A `field-invalid` warning at the key (the value is left out)."""
    line, column = manifest.at(*keys)
    return Diagnostic("field-invalid", "warning", message + ".", manifest.path, line, column, KEY)


def listing_omission(mode: str | None) -> str | None:
    """Why a skill is not listed to Claude, by its override."""
    if mode == "off":
        return "skillOverrides: off (hidden from Claude and the / menu)"
    if mode == "user-invocable-only":
        return "skillOverrides: user-invocable-only (hidden from Claude; / still runs it)"
    return None


def refusal(mode: str | None, name: str, invoker: str) -> str | None:
    """Claude Code's refusal of an invocation its override forbids, or None."""
    if mode == "off":
        return f"Skill {name} is turned off by skillOverrides in .claude/settings"
    if mode == "user-invocable-only" and invoker == "model":
        return f"Skill {name} is user-invocable only (skillOverrides in .claude/settings)"
    return None
