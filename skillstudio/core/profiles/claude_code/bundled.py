"""Claude Code's own entries in its skills listing: the bundled skills compiled into
Claude Code and its built-in prompt commands, listed in the same `<system-reminder>`
as the user's skills and sharing their budget (docs/agents.md, "Claude Code's bundled
skills", names the source and date of each fact).

The texts are Claude Code's, needed to reproduce its listing byte for byte; no source
gives them per release, so they are those of the latest captured request (2026-05-14).
They change between Claude Code releases: a change there is a change here, with its
source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# where a captured request lists them: after the user's skills and the plugins' skills,
# the bundled skills, then the built-in prompt commands
Kind = Literal["bundled", "command"]


@dataclass(frozen=True, slots=True)
class OwnEntry:
    """One entry Claude Code adds to the listing itself. `listed` is the text after
    `- name: ` as the request shows it (description, and ` - ` + when to use where the
    skill has one), before the per-entry cap."""

    name: str
    listed: str
    kind: Kind
    source: str  # which captured request shows this text

    @property
    def fixed(self) -> bool:
        """A bundled skill keeps its whole description over the budget (Claude Code's
        formatCommandsWithinBudget: `source === 'bundled'` is never truncated); a
        built-in command may fall to its bare name as the user's skills do."""
        return self.kind == "bundled"


# A Claude Code session's request of 2026-05-14 (claude-opus-4-7; a transcript published
# with its system-reminder) and a reference request for Claude Code 2.1.126 (sdk-cli)
# list these, in this order; texts from the first (2.1.126 wrote loop's first sentence
# "... (e.g. /loop 5m /foo, defaults to 10m)").
_CAPTURE = "captured request 2026-05-14"
BUNDLED_SKILLS: tuple[OwnEntry, ...] = (
    OwnEntry(
        "update-config",
        "Use this skill to configure the Claude Code harness via settings.json. Automated "
        'behaviors ("from now on when X", "each time X", "whenever X", "before/after X") '
        "require hooks configured in settings.json - the harness executes these, not Claude, "
        'so memory/preferences cannot fulfill them. Also use for: permissions ("allow X", '
        '"add permission", "move permission to"), env vars ("set X=Y"), hook '
        "troubleshooting, or any changes to settings.json/settings.local.json files. "
        'Examples: "allow npm commands", "add bq permission to global settings", "move '
        'permission to user settings", "set DEBUG=true", "when claude stops show X". For '
        "simple settings like theme/model, suggest the /config command.",
        "bundled",
        _CAPTURE,
    ),
    OwnEntry(
        "keybindings-help",
        "Use when the user wants to customize keyboard shortcuts, rebind keys, add chord "
        'bindings, or modify ~/.claude/keybindings.json. Examples: "rebind ctrl+s", '
        '"add a chord shortcut", "change the submit key", "customize keybindings".',
        "bundled",
        _CAPTURE,
    ),
    OwnEntry(
        "simplify",
        "Review changed code for reuse, quality, and efficiency, then fix any issues found.",
        "bundled",
        _CAPTURE,
    ),
    OwnEntry(
        "fewer-permission-prompts",
        "Scan your transcripts for common read-only Bash and MCP tool calls, then add a "
        "prioritized allowlist to project .claude/settings.json to reduce permission "
        "prompts.",
        "bundled",
        _CAPTURE,
    ),
    OwnEntry(
        "loop",
        "Run a prompt or slash command on a recurring interval (e.g. /loop 5m /foo). Omit "
        "the interval to let the model self-pace. - When the user wants to set up a "
        "recurring task, poll for status, or run something repeatedly on an interval (e.g. "
        '"check the deploy every 5 minutes", "keep running /babysit-prs"). Do NOT invoke '
        "for one-off tasks.",
        "bundled",
        _CAPTURE,
    ),
    OwnEntry(
        "schedule",
        "Create, update, list, or run scheduled remote agents (routines) that execute on a "
        "cron schedule. - When the user wants to schedule a recurring remote agent, set up "
        "automated tasks, create a cron job for Claude Code, or manage their scheduled "
        'agents/routines. Also use when the user wants a one-time scheduled run ("run this '
        'once at 3pm", "remind me to check X tomorrow").',
        "bundled",
        _CAPTURE,
    ),
    OwnEntry(
        "claude-api",
        "Build, debug, and optimize Claude API / Anthropic SDK apps. Apps built with this "
        "skill should include prompt caching. Also handles migrating existing Claude API "
        "code between Claude model versions (4.5 \u2192 4.6, 4.6 \u2192 4.7, retired-model "
        "replacements).\n"
        "TRIGGER when: code imports `anthropic`/`@anthropic-ai/sdk`; user asks for the "
        "Claude API, Anthropic SDK, or Managed Agents; user adds/modifies/tunes a Claude "
        "feature (caching, thinking, compaction, tool use, batch, files, citations, memory) "
        "or model (Opus/Sonnet/Haiku) in a file; questions about prompt caching / cache hit "
        "rate in an Anthropic SDK project.\n"
        "SKIP: file imports `openai`/other-provider SDK, filename like "
        "`*-openai.py`/`*-generic.py`, provider-neutral code, general programming/ML.",
        "bundled",
        _CAPTURE,
    ),
)

# The built-in commands written as prompts, listed last (the request of 2.1.126 gives
# their descriptions; the one of 2026-05-14 shows init and security-review as bare names
# over the budget).
BUILTIN_COMMANDS: tuple[OwnEntry, ...] = (
    OwnEntry(
        "init", "Initialize a new CLAUDE.md file with codebase documentation", "command", "2.1.126"
    ),
    OwnEntry("review", "Review a pull request", "command", "2.1.126"),
    OwnEntry(
        "security-review",
        "Complete a security review of the pending changes on the current branch",
        "command",
        "2.1.126",
    ),
)

OWN_ENTRIES: tuple[OwnEntry, ...] = BUNDLED_SKILLS + BUILTIN_COMMANDS
