"""The agent's other tools, declared beside its skill tool in a reconstruction: a model
may read a file or run a command before it invokes a skill (core/live/turns.py answers
such a call with a stub). Schemas follow each agent's current version as docs/agents.md
records it (sources and the date read there); the descriptions are short ones written
for this project, not the agents' own text.

- Claude Code: `Bash` (`command`, with `description`, `timeout`, `run_in_background`)
  and `Read` (`file_path`, with `offset`, `limit`), both closed objects
  (`additionalProperties: false`); its `Skill` tool is closed too.
- Codex: `shell_command` (`command` a shell script as one string, with `workdir`,
  `login`, `timeout_ms`; closed), which current codex-rs declares instead of the
  legacy `shell` tool's argv array. A read of a listed SKILL.md through it is a pick
  (core/live/reads.py reads a command line as well as an argv list).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class OtherTool:
    """A tool the agent declares that is not the skill choice."""

    name: str
    description: str
    parameters: dict[str, Any]


def closed(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A JSON-schema object that admits no other property, as the agents declare."""
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _text(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def _number(description: str) -> dict[str, Any]:
    return {"type": "number", "description": description}


def _flag(description: str) -> dict[str, Any]:
    return {"type": "boolean", "description": description}


CLAUDE_BASH = OtherTool(
    "Bash",
    "Runs a bash command in the project's shell and returns its output.",
    closed(
        {
            "command": _text("The command to run."),
            "description": _text("What the command does, in a few words."),
            "timeout": _number("A timeout in milliseconds."),
            "run_in_background": _flag("Run the command in the background."),
        },
        ["command"],
    ),
)
CLAUDE_READ = OtherTool(
    "Read",
    "Reads a file from the local filesystem by its absolute path; returns its lines, numbered.",
    closed(
        {
            "file_path": _text("The absolute path of the file to read."),
            "offset": _number("The line to start at, for a long file."),
            "limit": _number("How many lines to read, for a long file."),
        },
        ["file_path"],
    ),
)
CODEX_SHELL_COMMAND_PARAMETERS = closed(
    {
        "command": _text("The shell script to run in the user's default shell."),
        "workdir": _text("The working directory to run it in."),
        "login": _flag("Whether to run the shell with login semantics."),
        "timeout_ms": _number("A timeout in milliseconds."),
    },
    ["command"],
)
