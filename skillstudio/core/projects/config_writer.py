"""Writing a project's `skillstudio.yaml`: its `rules:` (the app's Settings › Advice
rules), its `suites:` (a suite "Add as test case" made, listed) and its `profile:` (the
profile the app reads the project as, where detection gives another: so that
`skillstudio test` and CI read the file as the app does), changed through the
round-trip writer so every other byte of the file (keys,
comments, quoting, line endings) stays as the user wrote it."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

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
from .detection import detect_at

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


def with_profile(text: str, profile: str) -> str:
    """`text` (a skillstudio.yaml) with `profile: NAME` added when it names no profile;
    as it is when it names one, that one or another (the file's choice is the user's:
    never changed here, `profile_note` says when it differs)."""
    doc, fence, bom = _opened(text)
    if doc.mapping and doc.mapping.get("profile") is not None:
        return text
    return _changed(doc, fence, bom, [Change("set", "profile", profile)])


def named_profile(text: str) -> str | None:
    """The profile a skillstudio.yaml's text names (None: none, or not readable)."""
    try:
        doc, _fence, _bom = _opened(text)
    except EditError:
        return None
    named = (doc.mapping or {}).get("profile") if doc.mapping else None
    return str(named) if named is not None else None


def profile_to_record(folder: str, chosen: str | None) -> str | None:
    """The profile to write in `folder`'s skillstudio.yaml: `chosen` (the profile chosen
    in the app, None when the project is read as its file says or as detected) when
    detection gives another for the folder; None when the file need not say it."""
    if chosen is None:
        return None
    base = os.path.abspath(folder)
    return chosen if detect_at(base, base)[0] != chosen else None


def profile_note(before: str | None, after: str | None, wanted: str | None) -> str:
    """What to say of the profile after the app wrote skillstudio.yaml: `before` and
    `after` the profile the file names, `wanted` the one the app meant to record ("" when
    there is nothing to say)."""
    if wanted is None:
        return ""
    if after == wanted and before != wanted:
        return f" and profile: {wanted}, so `skillstudio test` and CI read it as the app does"
    if after is not None and after != wanted:
        return (
            f"; its profile: {after} differs from the app's choice ({wanted}): "
            f"`skillstudio test` and CI read the project as {after} (left as it is)"
        )
    return ""


def recording_profile(
    folder: str, write: Callable[[str | None], bool], chosen: str | None
) -> tuple[bool, str]:
    """Write `folder`'s skillstudio.yaml with `write(profile to record or None)`
    (`list_suite`, `write_rules`), recording `chosen` (the profile chosen in the app)
    where `profile_to_record` says so and the file names none: (whether the file
    changed, `profile_note`'s words)."""
    wanted = profile_to_record(folder, chosen)
    before = named_profile(read_config_text(folder)[0])
    changed = write(wanted if before is None else None)
    after = named_profile(read_config_text(folder)[0])
    return changed, profile_note(before, after, wanted)


def command_line_profile(folder: str) -> str:
    """The profile `skillstudio lint`, `test` and CI read `folder` as: the one its
    skillstudio.yaml names, else the one detected from its layout (a choice made in
    the app is not theirs)."""
    named = named_profile(read_config_text(folder)[0])
    if named is not None:
        return named
    base = os.path.abspath(folder)
    return detect_at(base, base)[0]


def write_profile(folder: str, profile: str) -> bool:
    """Set `profile:` in `folder`'s skillstudio.yaml (created when there is none, with a
    short head comment) when the file names none; True when the file changed (a file
    that names a profile is the user's choice: left as it is)."""
    text, found = read_config_text(folder)
    if named_profile(text) is not None:
        return False
    return _write(folder, text, found, with_profile(text, profile))


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


def write_rules(folder: str, rules: Mapping[str, str], profile: str | None = None) -> bool:
    """Set the `rules:` of `folder`'s skillstudio.yaml (created when there is none, with a
    short head comment), and `profile:` to `profile` when given and the file names none;
    True when the file changed. SaveError/EditError say why not."""
    text, found = read_config_text(folder)
    new = with_rules(text, rules)
    return _write(folder, text, found, new, profile)


def list_suite(folder: str, suite: str, profile: str | None = None) -> bool:
    """List the suite file `suite` under `suites:` in `folder`'s skillstudio.yaml
    (created when there is none), by its path relative to `folder`, and set `profile:`
    to `profile` when given and the file names none; True when the file changed.
    SaveError/EditError say why not (a suite outside `folder` among them: a project's
    suites lie in it)."""
    entry = os.path.relpath(os.path.abspath(suite), os.path.abspath(folder))
    if entry == os.pardir or entry.startswith(os.pardir + os.sep) or os.path.isabs(entry):
        raise EditError(f"{suite} is outside {folder}: a project lists only its own suites")
    text, found = read_config_text(folder)
    new = with_suite(text, entry.replace(os.sep, "/"))
    return _write(folder, text, found, new, profile)


def _write(
    folder: str, text: str, found: Stamp | None, new: str, profile: str | None = None
) -> bool:
    """Write `new` (the profile added when `profile` is given and the file changes)."""
    if found is not None and new == text:
        return False
    if profile is not None:
        new = with_profile(new, profile)
    if found is None:
        new = NEW_FILE_HEAD + new
    bom = new.startswith(BOM)
    data = encode(new[1:] if bom else new, bom)
    atomic_write(os.path.join(folder, CONFIG_NAME), data, found, base=folder)
    return True
