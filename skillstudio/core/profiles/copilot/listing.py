"""GitHub Copilot's skills listing, as VS Code's Copilot Chat writes it into the
instructions it sends (docs/agents.md, "GitHub Copilot's listing"): a `<skills>` block
with three lines of instructions, then per skill `<skill>`, `<name>`, `<description>`
(left out when empty) and `<file>` (the SKILL.md's path), each on its own line; values
are written as they are, not XML-escaped.

Source: microsoft/vscode `src/vs/workbench/contrib/chat/common/promptSyntax/
computeAutomaticInstructions.ts` @ 0155379dd454 (read 2026-12-03); the read tool's name
as captured requests show it ('read_file'). The Copilot CLI's own listing was not read.
"""

from __future__ import annotations

READ_TOOL = "'read_file'"  # readTool.variable, as captured requests print it
HEAD = (
    "<skills>\n"
    "Here is a list of skills that contain domain specific knowledge on a variety of topics.\n"
    "Each skill comes with a description of the topic and a file path that contains the "
    "detailed instructions.\n"
    "When a user asks you to perform a task that falls within the domain of a skill, use "
    f"the {READ_TOOL} tool to acquire the full instructions from the file URI.\n"
)
TAIL = "\n</skills>"


def skill_entry(name: str, description: str, path: str) -> str:
    """One skill's lines, as written (no escaping; no description line when empty)."""
    lines = ["<skill>", f"<name>{name}</name>"]
    if description:
        lines.append(f"<description>{description}</description>")
    return "\n".join([*lines, f"<file>{path}</file>", "</skill>"])
