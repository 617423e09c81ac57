"""Writing a project's `skillstudio.yaml`: its `rules:` (the app's Settings › Advice
rules) and its `suites:` (a suite "Add as test case" made, listed), changed through the
round-trip writer so every other byte of the file (keys,
comments, quoting, line endings) stays as the user wrote it."""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..editing.changes import Change
from ..editing.round_trip import apply_changes
from ..editing.saving import SaveError, Stamp, atomic_write, encode, stamp
from ..model.diagnostics import CODES
from ..model.document import Document
from ..model.rule_settings import SETTINGS, normalized
from ..reading import yaml_io
from ..reading.frontmatter import BOM, parse_text
from ..reading.safefs import read_bytes
from ..reading.yaml_io import EditError
from .config import CONFIG_NAME

NEW_FILE_HEAD = (
    "# SkillStudio project settings (docs/commands.md, skillstudio.yaml).\n"
    "# rules: a diagnostic code's severity (error, warning, info) or off.\n"
)


def _newline(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def _opened(text: str) -> tuple[Document, str, bool]:
    """A skillstudio.yaml's text as the round-trip writer edits it: a frontmatter (the
    file fenced), the fence, and whether the text began with a BOM. EditError when it
    cannot be edited safely (more than one document, not a mapping)."""
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    newline = _newline(body)
    if body and not body.endswith("\n"):
        body += newline
    if not body.strip():
        body = ""
    elif any(line.rstrip(" \t\r") in ("---", "...") for line in body.split("\n")):
        raise EditError(
            f"{CONFIG_NAME} has a '---' or '...' line (more than one YAML document); "
            "edit the file's text instead"
        )
    # the round-trip writer edits a frontmatter: the file is one, fenced
    fence = "---" + newline
    doc = parse_text(Document(path=CONFIG_NAME), fence + body + fence)
    if body and not isinstance(doc.mapping, dict):
        raise EditError(f"{CONFIG_NAME} is not a YAML mapping; fix it first")
    return doc, fence, bom


def _changed(doc: Document, fence: str, bom: bool, changes: list[Change]) -> str:
    if doc.mapping is None:  # an empty file (or only comments): a mapping to add to
        doc.mapping = {}
    out = apply_changes(doc, changes)
    inner = out[len(fence) : len(out) - len(fence)]
    return (BOM if bom else "") + inner


def with_rules(text: str, rules: Mapping[str, str]) -> str:
    """`text` (a skillstudio.yaml) with `rules:` holding exactly the settings in `rules`
    (code -> error|warning|info|off; the key removed when none): entries that change
    are rewritten, the rest of the file is kept byte for byte (an entry that names no
    diagnostic code too: lint reports it, the user decides). EditError when the file
    cannot be edited safely (not YAML, not a mapping, `rules:` not a mapping)."""
    for code, value in rules.items():
        if value not in SETTINGS:
            raise EditError(f"'{code}': {value!r} is not one of {', '.join(SETTINGS)}")
    doc, fence, bom = _opened(text)
    current = (doc.mapping or {}).get("rules") if doc.mapping else None
    if current is not None and not isinstance(current, dict):
        raise EditError(f"'rules' in {CONFIG_NAME} is not a mapping; fix it first")
    have = {str(k): normalized(v) for k, v in (current or {}).items()}
    kept = [code for code in have if code not in CODES]  # not a code: left for the user
    changes: list[Change] = []
    if not rules and current is not None and not kept:
        changes.append(Change("unset", "rules"))
    elif current is None:
        if rules:
            changes.append(Change("set", "rules", dict(sorted(rules.items()))))
    else:
        for code in sorted(set(have) | set(rules)):
            if code not in rules and code in CODES:
                changes.append(Change("unset", "rules", path=(code,)))
            elif code in rules and have.get(code) != rules[code]:
                changes.append(Change("set", "rules", rules[code], path=(code,)))
    if not changes:
        return text
    return _changed(doc, fence, bom, changes)


def with_suite(text: str, entry: str) -> str:
    """`text` (a skillstudio.yaml) with `entry` (a suite's path, relative to the file's
    folder, `/`-separated) added at the end of `suites:` (the key added when missing);
    the rest of the file is kept byte for byte, the list's own comments too. The text
    as it is when the entry is listed already. EditError when `suites:` is not a list."""
    doc, fence, bom = _opened(text)
    current = (doc.mapping or {}).get("suites") if doc.mapping else None
    if isinstance(current, str):
        current = [current]
    if current is not None and not (
        isinstance(current, list) and all(isinstance(item, str) for item in current)
    ):
        raise EditError(f"'suites' in {CONFIG_NAME} is not a list of paths; fix it first")
    listed = [os.path.normpath(item) for item in current or []]
    if os.path.normpath(entry) in listed:
        return text
    return _changed(doc, fence, bom, [Change("set", "suites", [*(current or []), entry])])


def read_config_text(folder: str) -> tuple[str, Stamp | None]:
    """The text of `folder`'s skillstudio.yaml and its stamp ("" and None when absent)."""
    path = os.path.join(folder, CONFIG_NAME)
    if not os.path.lexists(path):
        return "", None
    try:
        data = read_bytes(path, folder, yaml_io.CONFIG.size)
        return data.decode("utf-8"), stamp(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{CONFIG_NAME} cannot be read: {exc}") from None


def write_rules(folder: str, rules: Mapping[str, str]) -> bool:
    """Set the `rules:` of `folder`'s skillstudio.yaml (created when there is none, with a
    short head comment); True when the file changed. SaveError/EditError say why not."""
    text, found = read_config_text(folder)
    return _write(folder, text, found, with_rules(text, rules))


def list_suite(folder: str, suite: str) -> bool:
    """List the suite file `suite` under `suites:` in `folder`'s skillstudio.yaml
    (created when there is none), by its path relative to `folder`; True when the file
    changed. SaveError/EditError say why not (a suite outside `folder` among them: a
    project's suites lie in it)."""
    entry = os.path.relpath(os.path.abspath(suite), os.path.abspath(folder))
    if entry == os.pardir or entry.startswith(os.pardir + os.sep) or os.path.isabs(entry):
        raise EditError(f"{suite} is outside {folder}: a project lists only its own suites")
    text, found = read_config_text(folder)
    return _write(folder, text, found, with_suite(text, entry.replace(os.sep, "/")))


def _write(folder: str, text: str, found: Stamp | None, new: str) -> bool:
    if found is not None and new == text:
        return False
    if found is None:
        new = NEW_FILE_HEAD + new
    bom = new.startswith(BOM)
    data = encode(new[1:] if bom else new, bom)
    atomic_write(os.path.join(folder, CONFIG_NAME), data, found, base=folder)
    return True
