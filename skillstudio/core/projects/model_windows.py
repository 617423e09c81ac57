"""Known models and their context windows (docs/agents.md, "Models and context
windows"): the listing budgets of Claude Code and Codex are a share of the window, so
naming the model names the budget.

The built-in rows each cite their source and the date they were checked; a row whose
model id (not its window) could not be read on the vendor's own page is marked
`confirmed=False`. The user's rows, in `$XDG_CONFIG_HOME/skillstudio/models.yaml`
(`~/.config/...` when unset), add models or replace a built-in row of the same name:
the command line reads that file and the app's Settings writes it, so both agree. The
file is read bounded and confined to its folder (a link out is refused); every bad
entry is one diagnostic at its line, the rest used, never a traceback.

Which window a command uses (`window_choice`): `--context-tokens` > `--model` >
skillstudio.yaml `context_tokens` > skillstudio.yaml `model` > the agent's default.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..checking.lookalike import text_problem
from ..model.diagnostics import Diagnostic
from ..reading import yaml_io
from ..reading.safefs import FileMissing, read_bytes

CHECKED = "2026-12-02"
MAX_CONTEXT_TOKENS = 100_000_000  # as skillstudio.yaml's `context_tokens`
MAX_NAME = 200  # characters of a model's name
MAX_USER_ROWS = 1_000
USER_FILE = "models.yaml"
ONE_MILLION_SUFFIX = "[1m]"  # Claude Code: a full model name + [1m] asks for the 1M window

CLAUDE_MODELS = "https://platform.claude.com/docs/en/models"
CLAUDE_OVERVIEW = "https://platform.claude.com/docs/about-claude/models/overview"
CLAUDE_OVERVIEW_47 = "https://platform.claude.com/docs/claude/docs/models-overview"
CLAUDE_CODE_MODELS = "https://code.claude.com/docs/en/model-config"
CODEX_CATALOG = "https://github.com/openai/codex codex-rs/core/models.json @ 21dac7d7a4d1"
CODEX_INFO = "https://github.com/openai/codex codex-rs/core/src/openai_model_info.rs @ 156676256ddf"
GEMINI_CLI = (
    "https://github.com/google-gemini/gemini-cli packages/core/src/core/tokenLimits.ts "
    "@ 04fbf50725b9"
)
GEMINI_MODELS = "https://ai.google.dev/gemini-api/docs/models"


@dataclass(frozen=True, slots=True)
class ModelWindow:
    """One model and its context window in tokens."""

    name: str
    context_tokens: int
    vendor: str  # anthropic, openai, google; "user" for a row of the user's file
    source: str  # where the fact was read (a URL, a repository file at a commit)
    checked: str = CHECKED
    confirmed: bool = True  # False: the id was not read on the vendor's own page
    note: str = ""

    @property
    def builtin(self) -> bool:
        return self.vendor != "user"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "context_tokens": self.context_tokens,
            "vendor": self.vendor,
            "source": self.source,
            "checked": self.checked,
            "confirmed": self.confirmed,
        }


def _anthropic(
    name: str, tokens: int, page: str, confirmed: bool = True, note: str = ""
) -> ModelWindow:
    return ModelWindow(name, tokens, "anthropic", page, confirmed=confirmed, note=note)


def _openai(name: str, source: str, tokens: int = 272_000, note: str = "") -> ModelWindow:
    return ModelWindow(name, tokens, "openai", source, note=note)


_ID_FROM_ADDRESS = "the id is the one in the docs' address for the model, not read on its page"
_GEMINI_ANY = "Gemini CLI counts 1,048,576 tokens for every model (tokenLimit's default)"

BUILTIN: tuple[ModelWindow, ...] = (
    # Anthropic: the ids Claude Code takes with --model (full names), each model's page.
    _anthropic("claude-opus-5-5", 1_000_000, CLAUDE_OVERVIEW, False, _ID_FROM_ADDRESS),
    _anthropic("claude-sonnet-5-5", 1_000_000, CLAUDE_OVERVIEW, False, _ID_FROM_ADDRESS),
    _anthropic("claude-haiku-5-5", 1_000_000, CLAUDE_OVERVIEW, False, _ID_FROM_ADDRESS),
    _anthropic("claude-opus-5", 1_000_000, f"{CLAUDE_MODELS}/opus-5/overview"),
    _anthropic("claude-sonnet-5", 1_000_000, f"{CLAUDE_MODELS}/sonnet-5/overview"),
    _anthropic("claude-opus-4-7", 1_000_000, CLAUDE_OVERVIEW_47),
    _anthropic("claude-opus-4-6", 1_000_000, f"{CLAUDE_MODELS}/opus-4-6/overview"),
    _anthropic("claude-sonnet-4-6", 1_000_000, f"{CLAUDE_MODELS}/sonnet-4-6/overview"),
    _anthropic("claude-sonnet-4-5-20250929", 200_000, f"{CLAUDE_MODELS}/sonnet-4-5/overview"),
    _anthropic("claude-haiku-4-5", 200_000, CLAUDE_OVERVIEW_47),
    _anthropic("claude-haiku-4-5-20251001", 200_000, CLAUDE_OVERVIEW_47),
    _anthropic(
        "sonnet[1m]", 1_000_000, CLAUDE_CODE_MODELS, note="Claude Code's alias: Sonnet at 1M"
    ),
    # OpenAI: the models Codex runs, from its own catalog and table (the whole
    # `context_window`: Codex's skills budget takes 2 % of it, docs/agents.md).
    _openai("gpt-5.2-codex", CODEX_CATALOG),
    _openai("gpt-5.2", CODEX_CATALOG),
    _openai("gpt-5.1-codex-max", CODEX_CATALOG),
    _openai("gpt-5.1-codex", CODEX_CATALOG),
    _openai("gpt-5.1", CODEX_INFO, note="Codex's rule: every gpt-5* slug has 272,000"),
    _openai("gpt-5-codex", CODEX_INFO, note="Codex's rule: every gpt-5* slug has 272,000"),
    _openai("gpt-5", CODEX_INFO, note="Codex's rule: every gpt-5* slug has 272,000"),
    _openai("o3", CODEX_INFO, 200_000),
    _openai("o4-mini", CODEX_INFO, 200_000),
    _openai("codex-mini-latest", CODEX_INFO, 200_000),
    _openai("gpt-4.1", CODEX_INFO, 1_047_576),
    _openai("gpt-4o", CODEX_INFO, 128_000),
    _openai("gpt-oss-120b", CODEX_INFO, 96_000, "Codex gives 3/4 of the 128k pool to input"),
    _openai("gpt-oss-20b", CODEX_INFO, 96_000, "Codex gives 3/4 of the 128k pool to input"),
    # Google: as Gemini CLI counts them, and the models' own pages.
    ModelWindow(
        "gemini-3.1-pro-preview", 1_048_576, "google", f"{GEMINI_MODELS}/gemini-3.1-pro-preview"
    ),
    ModelWindow(
        "gemini-3-pro-preview", 1_048_576, "google", f"{GEMINI_MODELS}/gemini-3-pro-preview"
    ),
    ModelWindow("gemini-2.5-pro", 1_048_576, "google", GEMINI_CLI, note=_GEMINI_ANY),
    ModelWindow("gemini-2.5-flash", 1_048_576, "google", GEMINI_CLI, note=_GEMINI_ANY),
    ModelWindow("gemini-2.5-flash-lite", 1_048_576, "google", GEMINI_CLI, note=_GEMINI_ANY),
)


def user_models_path(environ: Mapping[str, str] | None = None) -> str:
    """`$XDG_CONFIG_HOME/skillstudio/models.yaml` (`~/.config` when unset or relative)."""
    env = os.environ if environ is None else environ
    home = env.get("XDG_CONFIG_HOME", "")
    if not home or not os.path.isabs(home):
        home = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(home, "skillstudio", USER_FILE)


@dataclass(slots=True)
class ModelTable:
    """The built-in rows with the user's added (a user row replaces a built-in one of
    the same name), and what was wrong with the user's file."""

    path: str  # the user's file (it may not exist)
    user: list[ModelWindow] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def rows(self) -> list[ModelWindow]:
        mine = {row.name for row in self.user}
        return [row for row in BUILTIN if row.name not in mine] + list(self.user)

    def get(self, name: str) -> ModelWindow | None:
        """The row of `name`; a Claude model's full name + `[1m]` is its 1M window."""
        rows = {row.name: row for row in self.rows}
        row = rows.get(name)
        if row is not None or not name.endswith(ONE_MILLION_SUFFIX):
            return row
        base = rows.get(name[: -len(ONE_MILLION_SUFFIX)])
        if base is None or base.vendor != "anthropic":
            return None
        note = f"{base.name} with Claude Code's [1m] suffix: the 1M window"
        return ModelWindow(name, 1_000_000, "anthropic", CLAUDE_CODE_MODELS, note=note)

    def close_names(self, name: str, count: int = 5) -> list[str]:
        """Known names that look like `name` (a typo's likely meaning)."""
        names = [row.name for row in self.rows]
        close = difflib.get_close_matches(name, names, n=count, cutoff=0.5)
        folded = name.casefold()
        starts = [n for n in names if folded and n.casefold().startswith(folded)]
        return list(dict.fromkeys(close + starts))[:count]

    def unknown_message(self, name: str) -> str:
        """Why `name` is not used: it is not in the table, and what is close."""
        shown = name.encode("unicode_escape").decode("ascii")[:MAX_NAME]
        close = self.close_names(name)
        hint = f" Close: {', '.join(close)}." if close else ""
        return (
            f"Unknown model '{shown}'.{hint} Add it to {self.path} "
            "(models: {name: context window in tokens}), or give --context-tokens."
        )


def _error(path: str, message: str, line: int = 1, column: int = 1) -> Diagnostic:
    return Diagnostic("config-invalid", "error", message, path, line, column)


def _key_line(nodes: Any, key: str) -> tuple[int, int]:
    """Line and column of `key` in the mapping node `nodes` (1, 1 when not found)."""
    if isinstance(nodes, yaml.MappingNode):
        for key_node, _value in nodes.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                mark = key_node.start_mark
                return mark.line + 1, mark.column + 1
    return 1, 1


def name_problem(name: object) -> str | None:
    """Why `name` cannot be a model's name (None when it can)."""
    if not isinstance(name, str) or not name.strip():
        return "a model's name must be a word of text"
    if len(name) > MAX_NAME:
        return f"a model's name is at most {MAX_NAME} characters"
    if name != name.strip():
        return "a model's name has no spaces around it"
    why = text_problem(name, True)
    return f"the model's name {why}" if why else None


def tokens_problem(tokens: object) -> str | None:
    """Why `tokens` cannot be a context window (None when it can)."""
    whole = isinstance(tokens, int) and not isinstance(tokens, bool)
    if not whole or not 1 <= tokens <= MAX_CONTEXT_TOKENS:  # type: ignore[operator]
        return f"a context window is a whole number of tokens from 1 to {MAX_CONTEXT_TOKENS:,}"
    return None


def load_models(path: str | None = None) -> ModelTable:
    """The table: the built-in rows and the user's file at `path` (default:
    `user_models_path()`); a missing file is no user rows, a bad one diagnostics."""
    path = path or user_models_path()
    table = ModelTable(path)
    try:
        raw = read_bytes(path, os.path.dirname(path), yaml_io.CONFIG.size)
    except FileMissing:
        return table
    except OSError as exc:
        table.diagnostics.append(_error(path, f"{USER_FILE} is not read: {exc}"))
        return table
    try:
        text = raw.decode("utf-8")
        data, nodes = yaml_io.load_with_nodes(text, yaml_io.CONFIG)
    except UnicodeDecodeError:
        table.diagnostics.append(_error(path, f"{USER_FILE} is not UTF-8 text; it is not used."))
        return table
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        table.diagnostics.append(
            _error(path, f"{USER_FILE} is not valid YAML: {problem}; it is not used.", *where)
        )
        return table
    except yaml.YAMLError as exc:
        table.diagnostics.append(_error(path, f"{USER_FILE} is not valid YAML: {exc}."))
        return table
    except yaml_io.YamlRefused as exc:
        message = f"{USER_FILE} {exc.message}; it is not used."
        table.diagnostics.append(_error(path, message, exc.line or 1, exc.column or 1))
        return table
    if data is None:
        return table
    if not isinstance(data, dict):
        table.diagnostics.append(
            _error(path, f"{USER_FILE} must be a mapping with 'models:'; it is not used.")
        )
        return table
    for key in data:
        if key != "models":
            message = f"Unknown key '{str(key)[:MAX_NAME]}' in {USER_FILE} (known: models)."
            table.diagnostics.append(_error(path, message, *_key_line(nodes, str(key))))
    models = data.get("models")
    if models is None:
        return table
    models_node = _value_node(nodes, "models")
    if not isinstance(models, dict):
        message = "'models' must map each model's name to its context window in tokens."
        table.diagnostics.append(_error(path, message, *_key_line(nodes, "models")))
        return table
    for name, tokens in models.items():
        where = _key_line(models_node, str(name))
        why = name_problem(name) or tokens_problem(tokens)
        if why is not None:
            shown = str(name).encode("unicode_escape").decode("ascii")[:60]
            table.diagnostics.append(_error(path, f"models: '{shown}': {why}; left out.", *where))
            continue
        if len(table.user) >= MAX_USER_ROWS:
            message = f"models: at most {MAX_USER_ROWS:,} are read; the rest are left out."
            table.diagnostics.append(_error(path, message, *where))
            break
        table.user.append(ModelWindow(str(name), int(tokens), "user", path, checked=""))
    return table


def _value_node(nodes: Any, key: str) -> Any:
    if isinstance(nodes, yaml.MappingNode):
        for key_node, value in nodes.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return value
    return None


USER_HEAD = (
    "# SkillStudio's models: each name's context window in tokens, added to the\n"
    "# built-in table (a name already there is replaced). Read by `skillstudio --model`\n"
    "# and written by the app's Settings.\n"
)


def user_text(rows: list[tuple[str, int]]) -> str:
    """The text of a user file holding `rows` (name, tokens), after checking each."""
    for name, tokens in rows:
        why = name_problem(name) or tokens_problem(tokens)
        if why is not None:
            raise ValueError(f"{name!r}: {why}")
    if len(rows) > MAX_USER_ROWS:
        raise ValueError(f"at most {MAX_USER_ROWS:,} models")
    body = yaml.safe_dump(
        {"models": {name: tokens for name, tokens in rows}},
        sort_keys=False,
        allow_unicode=True,
        width=1000,
    )
    return USER_HEAD + body


def typed_rows(rows: list[tuple[str, str]]) -> tuple[list[tuple[str, int]], str | None]:
    """Rows typed in the app (name, window as typed: `200000`, `200,000`) as the file's
    rows; blank rows are dropped. The second value says what is wrong (None: nothing)."""
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    for name, typed in rows:
        name, typed = name.strip(), typed.strip()
        if not name and not typed:
            continue
        digits = typed.replace(",", "").replace("_", "").replace(" ", "")
        tokens = int(digits) if digits.isascii() and digits.isdigit() else -1
        why = name_problem(name) or tokens_problem(tokens)
        if why is None and name in seen:
            why = "the name is given twice"
        if why is not None:
            return out, f"'{name[:60]}': {why}"
        seen.add(name)
        out.append((name, tokens))
    return out, None


def save_user_models(rows: list[tuple[str, int]], path: str | None = None) -> str:
    """Write the user's rows to their file (atomically, its folder made when missing);
    the path written. ValueError for a bad row, OSError (SaveError) when not written."""
    from ..editing.saving import atomic_write

    path = path or user_models_path()
    data = user_text(rows).encode("utf-8")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, data, check=False, base=os.path.dirname(path))
    return path


@dataclass(frozen=True, slots=True)
class WindowChoice:
    """The window a command uses and where it came from."""

    context_tokens: int | None  # None: the agent's default
    model: str | None = None  # the model named, when the window is its


def window_choice(
    tokens: int | None, model: str | None, table: ModelTable | None = None
) -> WindowChoice | None:
    """The window given on the command line (`--context-tokens`, else `--model`'s),
    None when neither was given (then skillstudio.yaml's, else the agent's default).
    ValueError (its message names close names) for a model not in the table."""
    if tokens is not None:
        return WindowChoice(tokens)
    if model is None:
        return None
    table = table if table is not None else load_models()
    row = table.get(model)
    if row is None:
        raise ValueError(table.unknown_message(model))
    return WindowChoice(row.context_tokens, row.name)


def with_window(options: Mapping[str, Any], choice: WindowChoice | None) -> dict[str, Any]:
    """A copy of a project's `options` with the command line's window in place of its own."""
    out = dict(options)
    if choice is not None and choice.context_tokens is not None:
        out["context_tokens"] = choice.context_tokens
        if choice.model is not None:
            out["model"] = choice.model
        else:
            out.pop("model", None)
    return out
