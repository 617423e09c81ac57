"""`skillstudio.yaml`: a project's configuration read with bounds, every bad key or
root one diagnostic at its line (the rest is used)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from ..checking.lookalike import text_problem
from ..model.diagnostics import Diagnostic
from ..model.paths import is_inside
from ..model.rule_settings import normalized, setting_problem
from ..model.scan import ScanLimits
from ..profiles import PROFILE_NAMES
from ..reading import yaml_io
from ..reading.safefs import read_bytes
from .model_windows import MAX_CONTEXT_TOKENS, load_models, name_problem

CONFIG_NAME = "skillstudio.yaml"
CONFIG_KEYS = {
    "profile",
    "roots",
    "suites",
    "context_tokens",
    "model",
    "char_budget",
    "max_skills",
    "threshold",
    "allowlist",
    "scan",
    "skill_listing_budget_fraction",
    "skill_listing_max_desc_chars",
    "upload",
    "bundled_skills",
    "rules",
}
# Whole-number options and their largest allowed value (all from 0; the app's spin
# boxes hold 32-bit numbers, the matcher slices lists with them).
NUMBER_OPTIONS = {
    "context_tokens": MAX_CONTEXT_TOKENS,
    "char_budget": 100_000_000,
    "max_skills": 10_000,
    "threshold": 1_000_000,
    "skill_listing_max_desc_chars": 1_000_000,
}
SCAN_OPTIONS = {"max_folders": 10_000_000, "max_depth": 1_000}  # from 1


@dataclass(slots=True)
class Config:
    path: str
    profile: str | None = None
    roots: list[tuple[str, str]] = field(default_factory=list)  # (absolute path, label)
    suites: list[str] = field(default_factory=list)  # absolute, each inside the folder
    refused_suites: list[Diagnostic] = field(default_factory=list)  # at the entry naming it
    options: dict[str, Any] = field(default_factory=dict)
    limits: ScanLimits = field(default_factory=ScanLimits)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # line and column of each known key the file sets at its top level (what a note
    # about a setting points at: the listing's budget)
    key_at: dict[str, tuple[int, int]] = field(default_factory=dict)


def _config_error(path: str, message: str, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic("config-invalid", "error", message, path, line, column)


def _whole_number(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _read_config(path: str) -> tuple[Any, str, Diagnostic | None]:
    """The data and text of a config file, or the diagnostic saying why it cannot be used."""
    try:
        text = read_bytes(path, None, yaml_io.CONFIG.size).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, "", _config_error(path, f"{CONFIG_NAME} cannot be read: {exc}")
    try:
        return yaml_io.load(text, yaml_io.CONFIG), text, None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        message = f"{CONFIG_NAME} is not valid YAML: {problem}."
        return None, text, _config_error(path, message, *where)
    except yaml.YAMLError as exc:
        return None, text, _config_error(path, f"{CONFIG_NAME} is not valid YAML: {exc}.")
    except yaml_io.YamlRefused as exc:
        line = text.split("\n")[exc.line - 1] if exc.line else ""
        key = line.split(":", 1)[0].strip()
        if key in NUMBER_OPTIONS or key in SCAN_OPTIONS:
            low, high = (
                (0, NUMBER_OPTIONS[key]) if key in NUMBER_OPTIONS else (1, SCAN_OPTIONS[key])
            )
            message = f"'{key}' must be a whole number from {low} to {high:,}; this one is too long"
        else:
            message = f"{CONFIG_NAME} {exc.message}"
        message += f". Nothing in {CONFIG_NAME} is used until this is fixed."
        return None, text, _config_error(path, message, exc.line or 1, exc.column or 1)


def load_config(folder: str) -> Config | None:
    """Read `skillstudio.yaml` in `folder`; problems become diagnostics, never exceptions."""
    path = os.path.join(folder, CONFIG_NAME)
    if not os.path.isfile(path):
        return None
    config = Config(path=path)
    data, text, problem = _read_config(path)
    if problem is not None:
        config.diagnostics.append(problem)
        return config
    if data is None:
        return config
    if not isinstance(data, dict):
        config.diagnostics.append(_config_error(path, f"{CONFIG_NAME} must be a mapping."))
        return config
    for key in data:
        if key in CONFIG_KEYS:
            config.key_at[key] = _key_line(text, key, top=True)
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    f"Unknown key '{key}' in {CONFIG_NAME} "
                    f"(known: {', '.join(sorted(CONFIG_KEYS))}).",
                )
            )
    profile = data.get("profile")
    if profile is not None:
        if profile in PROFILE_NAMES:
            config.profile = profile
        else:
            config.diagnostics.append(
                _config_error(
                    path, f"Unknown profile '{profile}' (known: {', '.join(PROFILE_NAMES)})."
                )
            )
    roots = data.get("roots") or []
    if not isinstance(roots, list):
        roots = [roots]
    for entry in roots:
        if isinstance(entry, str):
            rel, label = entry, ""
        elif isinstance(entry, dict) and isinstance(entry.get("path"), str):
            rel, label = entry["path"], str(entry.get("label") or "")
        else:
            config.diagnostics.append(
                _config_error(path, f"A root must be a path or {{path, label}}, not {entry!r}.")
            )
            continue
        why = text_problem(rel, True)  # a NUL or a control character: no path holds it
        if why is not None:
            shown = rel.encode("unicode_escape").decode("ascii")
            message = f"The root '{shown}' {why}; it was left out."
            config.diagnostics.append(_config_error(path, message, *_key_line(text, "roots")))
            continue
        absolute = os.path.normpath(os.path.join(folder, os.path.expanduser(rel)))
        outside = _root_outside(folder, rel, absolute)
        if outside:
            where = _entry_line(text, rel, "roots")
            config.diagnostics.append(_config_error(path, outside, *where))
            continue
        config.roots.append((absolute, label or rel.rstrip("/")))
    suites = data.get("suites") or []
    if isinstance(suites, list):
        _read_suites(config, folder, [str(s) for s in suites], text)
    for key, high in NUMBER_OPTIONS.items():
        value = data.get(key)
        if value is None:
            continue
        if _whole_number(value, 0, high):
            config.options[key] = value
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    f"'{key}' must be a whole number from 0 to {high:,}, not {_short(value)}.",
                    *_key_line(text, key),
                )
            )
    if data.get("model") is not None:
        _read_model(config, data["model"], text)
    fraction = data.get("skill_listing_budget_fraction")
    if fraction is not None:
        if (
            isinstance(fraction, int | float)
            and not isinstance(fraction, bool)
            and 0 < fraction <= 1
        ):
            config.options["skill_listing_budget_fraction"] = float(fraction)
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    "'skill_listing_budget_fraction' must be a number above 0 and at most 1 "
                    f"(0.01 is 1 %), not {_short(fraction)}.",
                    *_key_line(text, "skill_listing_budget_fraction"),
                )
            )
    # upload: checked for claude.ai / the Skills API; bundled_skills: false leaves Claude
    # Code's own entries (bundled skills, built-in commands) out of its listing
    for key in ("upload", "bundled_skills"):
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool):
            config.options[key] = value
        else:
            config.diagnostics.append(
                _config_error(
                    path,
                    f"'{key}' must be true or false, not {_short(value)}.",
                    *_key_line(text, key),
                )
            )
    if data.get("rules") is not None:
        _read_rules(config, data["rules"], text)
    allow = data.get("allowlist")
    if allow is not None:
        if isinstance(allow, list) and all(isinstance(a, str) for a in allow):
            config.options["allowlist"] = allow
        else:
            config.diagnostics.append(
                _config_error(path, "'allowlist' must be a list of skill names, or ['*'].")
            )
    scan = data.get("scan")
    if isinstance(scan, dict):
        for key, high in SCAN_OPTIONS.items():
            value = scan.get(key)
            if _whole_number(value, 1, high):
                setattr(config.limits, key, value)
            elif value is not None:
                config.diagnostics.append(
                    _config_error(
                        path,
                        f"'scan.{key}' must be a whole number from 1 to {high:,}, "
                        f"not {_short(value)}.",
                        *_key_line(text, key),
                    )
                )
    return config


def _read_model(config: Config, model: Any, text: str) -> None:
    """`model: NAME`: the project's model, whose context window (docs/agents.md, "Models
    and context windows": the built-in table and the user's models.yaml) is the
    project's unless `context_tokens` is also given (it wins). An unknown name is an
    error at its line naming close ones; the user's file's problems are warnings."""
    where = _key_line(text, "model")
    why = name_problem(model)
    if why is not None:
        config.diagnostics.append(_config_error(config.path, f"'model': {why}.", *where))
        return
    table = load_models()
    config.diagnostics.extend(replace(d, severity="warning") for d in table.diagnostics)
    row = table.get(model)
    if row is None:
        config.diagnostics.append(_config_error(config.path, table.unknown_message(model), *where))
        return
    config.options["model"] = row.name
    config.options.setdefault("context_tokens", row.context_tokens)


def _read_rules(config: Config, rules: Any, text: str) -> None:
    """`rules: {CODE: error|warning|info|off}`: each bad entry one diagnostic, the rest used."""
    if not isinstance(rules, dict):
        message = "'rules' must map diagnostic codes to error, warning, info or off."
        config.diagnostics.append(_config_error(config.path, message, *_key_line(text, "rules")))
        return
    settings: dict[str, str] = {}
    for code, value in rules.items():
        problem = setting_problem(code, value)
        if problem is None:
            settings[code] = normalized(value)
        else:
            where = _key_line(text, str(code)) if isinstance(code, str) else (1, 1)
            config.diagnostics.append(_config_error(config.path, f"rules: {problem}.", *where))
    config.options["rules"] = settings


def _read_suites(config: Config, folder: str, entries: list[str], text: str) -> None:
    """`suites:`: each entry a file that resolves inside the folder of skillstudio.yaml
    (a suite is read and its `roots:` scanned; `../outside/pgpass.csv`, or a suite
    that is a link out, would print what lies elsewhere). A refused entry is an error
    at its line, kept in `refused_suites` for the commands that run suites."""
    for entry in entries:
        absolute = os.path.normpath(os.path.join(folder, entry))
        why = text_problem(entry, True)
        if why is None:
            why = _suite_outside(folder, entry, absolute)
        else:
            shown = entry.encode("unicode_escape").decode("ascii")
            why = f"The suite '{shown}' {why}; it was not read."
        if why is None:
            config.suites.append(absolute)
            continue
        problem = _config_error(config.path, why, *_entry_line(text, entry, "suites"))
        config.diagnostics.append(problem)
        config.refused_suites.append(problem)


def _suite_outside(folder: str, entry: str, absolute: str) -> str | None:
    """Why a listed suite is not read (it resolves outside `folder`), or None."""
    real = os.path.realpath(absolute)
    if is_inside(real, os.path.realpath(folder)):
        return None
    where = absolute if real == absolute else f"{absolute} (which is {real})"
    return (
        f"The suite '{entry}' is {where}, outside this project ({folder}); it was not "
        f"read. A suite listed in {CONFIG_NAME} must be a file inside its folder; to run "
        "one kept elsewhere, name it on the command line (skillstudio test FILE)."
    )


def _root_outside(folder: str, rel: str, absolute: str) -> str | None:
    """Why a configured root is not used, or None. A root is read and watched: it must
    resolve inside the project folder (`roots: ["/"]` put watchers over the whole disk,
    /proc included), or, written with `~`, inside the user's home (a user root such
    as ~/.agent/skills), never the home itself."""
    real = os.path.realpath(absolute)
    if is_inside(real, os.path.realpath(folder)):
        return None
    if is_inside(absolute, os.path.normpath(folder)) and not rel.startswith("~"):
        return None  # written inside, a link out: refused where every root is (confine.py)
    home = os.path.realpath(os.path.expanduser("~"))
    if rel.startswith("~") and is_inside(real, home) and real != home:
        return None
    where = f"{absolute}" if real == absolute else f"{absolute} (which is {real})"
    return (
        f"The root '{rel}' is {where}, outside this project ({folder}); it was not used. "
        f"A root must be inside the folder of {CONFIG_NAME}, or a folder under your home "
        "written with ~ (such as ~/.agent/skills)."
    )


def _entry_line(text: str, entry: str, key: str) -> tuple[int, int]:
    """Line and column of an entry of the list `key` (`roots`, `suites`) in the config
    text (the key's when not found)."""
    line, _column = _key_line(text, key)
    for number, content in enumerate(text.split("\n")[line - 1 :], start=line):
        column = content.find(entry)
        if column >= 0 and (number > line or column > content.find(key + ":")):
            return number, column + 1
    return _key_line(text, key)


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def _key_line(text: str, key: str, top: bool = False) -> tuple[int, int]:
    """Line and column of `key:` in the config text (1, 1 when not found); `top`: a key
    of the top-level mapping (at the line's start), not one inside another."""
    for number, line in enumerate(text.split("\n"), start=1):
        column = line.find(key + ":")
        if column >= 0 and not line[:column].strip() and not (top and column):
            return number, column + 1
    return 1, 1


def find_config_upward(start: str, levels: int = 6) -> Config | None:
    folder = os.path.abspath(start)
    for _ in range(levels):
        config = load_config(folder)
        if config is not None:
            return config
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None
