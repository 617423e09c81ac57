"""claude-code's authoring advice: its fields used together as Claude Code reads them.

From Claude Code's skills, settings and hooks documentation (2026-08): `model` values
it can use, `agent` only with `context: fork`, a forked skill's task, `allowed-tools`
naming real tools and not granting all of Bash, a few !`cmd` lines at most, `hooks`
events, `argument-hint` with the arguments the body uses, booleans not quoted, and
`paths` globs. Severities and explanations: core/model/explanations.py.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from ...checking.fix_plans import register
from ...checking.links import line_starts
from ...model.diagnostics import Diagnostic
from ...model.document import Document
from ...model.explanations import ADVICE
from ...model.fixes import FieldEdit, FixPlan, TextEdit
from ...profile import Checker
from .fields import loose_bool
from .invoke import argument_names, shell_lines

MODEL_ALIASES = frozenset(
    {"default", "sonnet", "opus", "haiku", "inherit", "opusplan", "sonnet[1m]", "opus[1m]"}
)
_CLAUDE_MODEL = re.compile(r"^(?:[\w-]+\.)*(?:anthropic[./])?claude-[\w.\-\[\]@:]+$", re.I)
TOOLS = frozenset(
    """Agent AskUserQuestion Bash BashOutput CronCreate CronDelete CronList Edit
    EnterPlanMode EnterWorktree ExitPlanMode ExitWorktree Glob Grep KillBash KillShell LS
    LSP ListMcpResourcesTool Monitor MultiEdit NotebookEdit NotebookRead PowerShell Read
    ReadMcpResourceTool SendMessage Skill SlashCommand Task TaskCreate TaskGet TaskList
    TaskOutput TaskStop TaskUpdate TeamCreate TeamDelete TodoRead TodoWrite ToolSearch
    WebFetch WebSearch Write""".split()
)
_BY_LOWER = {tool.lower(): tool for tool in TOOLS}
HOOK_EVENTS = frozenset(
    """PreToolUse PostToolUse PostToolUseFailure PermissionRequest PermissionDenied
    Notification UserPromptSubmit Stop StopFailure SubagentStart SubagentStop PreCompact
    PostCompact SessionStart SessionEnd TeammateIdle TaskCreated TaskCompleted
    ConfigChange CwdChanged FileChanged InstructionsLoaded WorktreeCreate WorktreeRemove
    Elicitation ElicitationResult""".split()
)
HOOK_TYPES = frozenset({"command", "prompt", "agent", "http"})
MAX_SHELL_LINES = 3
MIN_TASK_WORDS = 12  # a forked body shorter than this gives the subagent no task
_UNRESTRICTED = frozenset({"Bash", "Bash(*)", "Bash(:*)", "Bash(**)", "Bash( * )"})
_ARG_USE = re.compile(r"\$ARGUMENTS|\$\d+\b")
_HINTED_USE = re.compile(r"\$ARGUMENTS\b")
# what a subagent's name can hold: a word of letters, digits, `-`, `_`, `.`, with a
# plugin's agents prefixed `plugin:`; a blank or any other sign names no subagent
_AGENT_NAME = re.compile(r"^[A-Za-z0-9._-]+(?::[A-Za-z0-9._-]+)?$")


def _severity(code: str) -> Any:
    return ADVICE[code].severity


@dataclass(frozen=True, slots=True)
class ToolEntry:
    """One entry of an allowed-tools value, and where it stands in the value: the
    list item it is in (None when the value is one text) and its offset there."""

    text: str
    item: int | None
    offset: int


def tool_entries_at(value: Any) -> list[ToolEntry]:
    """The entries of an allowed-tools value, each with its item and offset in it, as
    Claude Code reads them (docs/agents.md, "allowed-tools"): a YAML list's items each
    whole (an MCP tool named `Azure MCP/documentation` is one entry), a text split at
    commas and blanks outside parentheses (`Bash(git add:*) Read, Grep`)."""
    single = isinstance(value, str)
    items = [value] if single else value if isinstance(value, list) else []
    out: list[ToolEntry] = []
    for index, item in enumerate(items):
        if not isinstance(item, str):
            continue
        if not single:
            if item.strip():
                out.append(ToolEntry(item.strip(), index, len(item) - len(item.lstrip())))
            continue
        depth = 0
        start = -1
        for at, ch in enumerate(item):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
            if depth == 0 and (ch == "," or ch.isspace()):
                if start >= 0:
                    out.append(ToolEntry(item[start:at], None if single else index, start))
                start = -1
            elif start < 0:
                start = at
        if start >= 0:
            out.append(ToolEntry(item[start:], None if single else index, start))
    return out


def _tool_name(entry: str) -> str:
    return entry.split("(", 1)[0].strip()


def claude_advice(c: Checker) -> None:
    """The claude-code rules beyond the standard's advice (core/checking/advice.py)."""
    raw = c.skill.raw
    if c.doc.mapping is None:
        return
    _model(c, raw.get("model"))
    fork = raw.get("context") == "fork"
    if "agent" in raw and not fork:
        c.emit(
            "agent-without-fork",
            "'agent' is read only with 'context: fork'; here it does nothing. Add "
            "'context: fork' to run the skill in that subagent, or remove 'agent'.",
            field="agent",
            severity=_severity("agent-without-fork"),
        )
    _agent(c, raw.get("agent"))
    body = c.doc.body if c.doc.text else ""
    if fork and c.doc.text and len(re.findall(r"[A-Za-z]{2,}", body)) < MIN_TASK_WORDS:
        c.emit(
            "fork-without-task",
            "With 'context: fork' the body is the subagent's whole task, and this body "
            "says almost nothing: write what the subagent should do, or drop 'context: fork'.",
            field="context",
            severity=_severity("fork-without-task"),
        )
    for key in ("allowed-tools", "disallowed-tools"):
        _tools(c, key, raw.get(key))
    if c.doc.text:
        lines = shell_lines(body, c.doc.body_line)
        if len(lines) > MAX_SHELL_LINES:
            c.emit(
                "shell-lines-many",
                f"The body has {len(lines)} !`command` lines; Claude Code runs each one before "
                "the model sees the skill, every time it loads. Keep at most "
                f"{MAX_SHELL_LINES}, or put the work in a script the skill runs.",
                line=lines[MAX_SHELL_LINES]["line"],
                column=1,
                severity=_severity("shell-lines-many"),
            )
    if "hooks" in raw:
        _hooks(c, raw["hooks"])
    _arguments(c, raw, body)
    for spec in c.profile.fields:
        value = raw.get(spec.key)
        if spec.kind == "bool" and isinstance(value, str) and loose_bool(value) is not None:
            c.emit(
                "bool-as-string",
                f"'{spec.key}' is the text {value!r}; write {str(loose_bool(value)).lower()} "
                "without quotes (YAML and other tools read quoted text as text, not as a "
                "true/false value).",
                field=spec.key,
                at="value",
                severity=_severity("bool-as-string"),
            )
        elif spec.kind == "bool" and isinstance(value, (bool, int)):
            _bool_word(c, spec.key, value)
    if "paths" in raw:
        _paths(c, raw["paths"])


def _bool_word(c: Checker, key: str, value: bool | int) -> None:
    """A true/false field written as a YAML 1.1 word (yes, no, on, off) or as 1/0: read
    as true/false here, but YAML 1.2 parsers read yes/no/on/off as text, and Claude
    Code's loader takes only true (or the text "true") as true (docs/agents.md)."""
    written = _written_bool(c.doc, key)
    if written is None:
        return
    meant = str(loose_bool(value)).lower()
    read = "as a number" if isinstance(value, int) and not isinstance(value, bool) else "as text"
    c.emit(
        "bool-word",
        f"Write {key}: {meant}. '{written[2]}' is read as {meant} here, but {read} by YAML "
        '1.2 parsers, and Claude Code\'s loader takes only true (or the text "true") as true.',
        field=key,
        at="value",
        severity=_severity("bool-word"),
    )


def _written_bool(doc: Document, key: str) -> tuple[int, int, str] | None:
    """Where a one-line true/false value not spelt true or false stands in the text
    (start and end offsets) and how it is spelt; None when it is true or false."""
    pos = doc.positions().get(key)
    if pos is None or pos.value_line != pos.end_line:
        return None
    starts = line_starts(doc.text)
    if not 1 <= pos.value_line <= len(starts):
        return None
    start = starts[pos.value_line - 1] + pos.value_column - 1
    raw = doc.text[start : starts[pos.value_line - 1] + pos.end_column - 1]
    written = raw.strip()
    if not written or written.lower() in ("true", "false"):
        return None
    start += len(raw) - len(raw.lstrip())
    return start, start + len(written), written


def _agent(c: Checker, agent: Any) -> None:
    if not isinstance(agent, str) or not agent.strip() or _AGENT_NAME.match(agent.strip()):
        return
    c.emit(
        "field-invalid",
        f"The agent '{agent.strip()}' cannot name a subagent: write Explore, Plan, "
        "general-purpose, the name of one of .claude/agents (lowercase letters and hyphens) "
        "or plugin:name, or remove 'agent'.",
        field="agent",
        at="value",
        severity="warning",
    )


def _model(c: Checker, model: Any) -> None:
    if not isinstance(model, str) or not model.strip():
        return
    text = model.strip()
    if text.lower() in MODEL_ALIASES or _CLAUDE_MODEL.match(text):
        return
    c.emit(
        "model-unknown",
        f"The model '{text}' is not a model Claude Code can use; write sonnet, opus, haiku, "
        "inherit or a Claude model name (claude-sonnet-4-5).",
        field="model",
        at="value",
        severity=_severity("model-unknown"),
    )


def _tools(c: Checker, key: str, value: Any) -> None:
    entries = tool_entries_at(value)
    places: list[tuple[int, int]] | None = None
    for number, entry in enumerate(entries):
        name = _tool_name(entry.text)
        if not name or name in TOOLS or name.startswith("mcp__"):
            if key == "allowed-tools" and entry.text.replace(" ", "") in _UNRESTRICTED:
                c.emit(
                    "bash-unrestricted",
                    f"'{entry.text}' in 'allowed-tools' lets the skill run any command without "
                    "asking; name the commands it needs: Bash(git diff:*), Bash(npm test:*).",
                    field=key,
                    at="value",
                    severity=_severity("bash-unrestricted"),
                )
            continue
        places = places or entry_places(c.doc, key, entries)
        line, column = places[number]
        c.emit(
            "tool-unknown",
            _unknown_tool(name, key),
            field=key,
            line=line,
            column=column,
            severity=_severity("tool-unknown"),
        )


def _unknown_tool(name: str, key: str) -> str:
    known = _BY_LOWER.get(name.lower())
    hint = (
        f" (Claude Code's tool is '{known}'; names are case-sensitive)"
        if known
        else "; a misspelt tool is ignored, so nothing is granted or removed by it"
    )
    return f"'{name}' in '{key}' is not a Claude Code tool{hint}."


def entry_places(doc: Document, key: str, entries: list[ToolEntry]) -> list[tuple[int, int]]:
    """The line and column of each entry of `key`'s value where it is written as it
    reads (plain or quoted without escapes), else of its list item or the value."""
    pos = doc.positions().get(key)
    if pos is None:
        return [doc.value_position(key)] * len(entries)
    head = doc.text[: doc.body_offset] if doc.body_offset else doc.text
    starts = line_starts(head)

    def offset(line: int, column: int) -> int:
        index = min(max(line - 1, 0), len(starts) - 1)
        return starts[index] + max(column - 1, 0)

    end = offset(pos.end_line, pos.end_column) if pos.end_line else len(head)
    out: list[tuple[int, int]] = []
    cursor = -1
    item: int | None = -1  # the list item the cursor is in (None: the value is a text)
    for entry in entries:
        where = doc.value_position(key, entry.item)
        if cursor < 0 or entry.item != item:
            item, cursor = entry.item, offset(*where)
        found = head.find(entry.text, cursor, max(end, cursor))
        if found < 0:
            out.append(where)
            continue
        cursor = found + len(entry.text)
        line = bisect_right(starts, found)
        out.append((line, found - starts[line - 1] + 1))
    return out


def _hooks(c: Checker, hooks: Any) -> None:
    def report(message: str) -> None:
        c.emit("hooks-invalid", message, field="hooks", severity=_severity("hooks-invalid"))

    if not isinstance(hooks, dict):
        report("'hooks' must map event names (PreToolUse, PostToolUse, Stop...) to lists of hooks.")
        return
    for event, entries in hooks.items():
        if event not in HOOK_EVENTS:
            near = [e for e in HOOK_EVENTS if e.lower() == str(event).lower()]
            also = f" (did you mean '{near[0]}'?)" if near else ""
            report(f"'{event}' is not a Claude Code hook event{also}: this hook never runs.")
            continue
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            report(f"'hooks.{event}' must be a list of {{matcher, hooks: [...]}} entries.")
            continue
        for entry in entries:
            inner = entry.get("hooks")
            if not isinstance(inner, list) or not inner:
                report(f"An entry of 'hooks.{event}' has no 'hooks:' list of commands.")
                break
            bad = [h for h in inner if not isinstance(h, dict) or h.get("type") not in HOOK_TYPES]
            if bad:
                report(
                    f"A hook of 'hooks.{event}' has no valid 'type' "
                    f"({', '.join(sorted(HOOK_TYPES))})."
                )
                break


def _arguments(c: Checker, raw: dict[str, Any], body: str) -> None:
    if not c.doc.text:
        return
    names = argument_names(raw.get("arguments"))
    named = any(re.search(rf"\${re.escape(n)}\b", body) for n in names)
    hint = raw.get("argument-hint")
    if hint not in (None, "", []) and not _ARG_USE.search(body) and not named:
        c.emit(
            "argument-hint-unused",
            "'argument-hint' promises arguments, but the body uses none ($ARGUMENTS, $0, "
            "$1 or a named argument): Claude Code only appends them after the text. Put "
            "$ARGUMENTS where they belong, or drop the hint.",
            field="argument-hint",
            severity=_severity("argument-hint-unused"),
        )
    invocable = loose_bool(raw.get("user-invocable")) is not False
    if hint in (None, "", []) and invocable and _HINTED_USE.search(body):
        c.emit(
            "argument-hint-missing",
            "The body uses $ARGUMENTS, but there is no 'argument-hint': people typing "
            "/name are not told what to pass. Add one, such as argument-hint: [issue-number].",
            line=1,
            column=1,
            severity=_severity("argument-hint-missing"),
        )


def path_problem(glob: Any) -> str | None:
    if not isinstance(glob, str) or not glob.strip():
        return "is empty"
    if glob.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", glob) or glob.startswith("~"):
        return "is absolute (globs are relative to the project)"
    if "\\" in glob:
        return "uses backslashes (write '/')"
    if ".." in glob.replace("\\", "/").split("/"):
        return "climbs out with '..'"
    if glob.count("[") != glob.count("]") or glob.count("{") != glob.count("}"):
        return "has unbalanced brackets or braces"
    return None


def _paths(c: Checker, paths: Any) -> None:
    items = paths if isinstance(paths, list) else [paths]
    for index, glob in enumerate(items):
        problem = path_problem(glob)
        if problem is None:
            continue
        c.emit(
            "paths-invalid",
            f"The 'paths' glob {glob!r} {problem}: Claude Code never matches it, so the skill "
            "is not brought up for those files.",
            field="paths",
            item=index if isinstance(paths, list) else None,
            at="value",
            severity=_severity("paths-invalid"),
        )


# -- fixes -------------------------------------------------------------------------


@register("bool-as-string")
def _plan_bool(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    value = (doc.mapping or {}).get(diagnostic.field or "")
    parsed = loose_bool(value) if isinstance(value, str) else None
    if parsed is None or diagnostic.field is None:
        return []
    title = f"Write {diagnostic.field}: {str(parsed).lower()} without quotes"
    return [FixPlan(title, safe=True, fields=(FieldEdit(diagnostic.field, parsed),))]


@register("bool-word")
def _plan_bool_word(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    key = diagnostic.field or ""
    parsed = loose_bool((doc.mapping or {}).get(key))
    written = _written_bool(doc, key) if parsed is not None else None
    if written is None:
        return []
    meant = str(parsed).lower()
    return [FixPlan(f"Write {key}: {meant}", True, edits=(TextEdit(*written[:2], meant),))]


@register("paths-invalid")
def _plan_paths(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    paths = (doc.mapping or {}).get("paths")
    if isinstance(paths, str) and "\\" in paths:
        new: Any = paths.replace("\\", "/")
    elif isinstance(paths, list) and any(isinstance(p, str) and "\\" in p for p in paths):
        new = [p.replace("\\", "/") if isinstance(p, str) else p for p in paths]
    else:
        return []
    if (path_problem(new) if isinstance(new, str) else None) is not None:
        return []
    title = "Write the 'paths' globs with '/'"
    return [FixPlan(title, safe=True, fields=(FieldEdit("paths", new),))]


@register("agent-without-fork")
def _plan_fork(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    mapping = doc.mapping or {}
    if "agent" not in mapping or mapping.get("context") == "fork":
        return []
    return [
        FixPlan("Add context: fork", safe=False, fields=(FieldEdit("context", "fork"),)),
        FixPlan("Remove 'agent'", safe=False, fields=(FieldEdit("agent", remove=True),)),
    ]


@register("tool-unknown")
def _plan_tool_case(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    """The case of the one entry the diagnostic points at (its place and name), by
    plain string operations on the value: the entry's other characters are kept."""
    key = diagnostic.field or ""
    value = (doc.mapping or {}).get(key)
    entries = tool_entries_at(value)
    places = entry_places(doc, key, entries)
    for entry, place in zip(entries, places, strict=True):
        name = _tool_name(entry.text)
        if place != (diagnostic.line, diagnostic.column) or not name:
            continue
        if _unknown_tool(name, key) != diagnostic.message:
            continue
        known = _BY_LOWER.get(name.lower())
        if known is None or name in TOOLS or not entry.text.startswith(name):
            return []
        new = _with_name(value, entry, len(name), known)
        return [FixPlan(f"Write '{known}' (grants it)", safe=False, fields=(FieldEdit(key, new),))]
    return []


def _with_name(value: Any, entry: ToolEntry, length: int, name: str) -> Any:
    """`value` with the first `length` characters of `entry` replaced by `name`."""

    def swap(text: str) -> str:
        return text[: entry.offset] + name + text[entry.offset + length :]

    if entry.item is None:
        return swap(value)
    out = list(value)
    out[entry.item] = swap(out[entry.item])
    return out
