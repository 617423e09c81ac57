"""What each diagnostic means, why it matters and how to fix it: the one table
`skillstudio explain CODE`, the app's tooltips and the language server's hover read.

`ADVICE` holds the authoring advice rules (core/checking/advice*.py and the profiles'
own): their default severity (warning or info: advice never fails a skill the agent
loads unless the project asks) and the published guidance each one comes from.
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import CODES, Severity

BEST_PRACTICES = "Anthropic, Skill authoring best practices (platform.claude.com)"
SPEC = "Agent Skills specification (agentskills.io)"
SKILLS_API = "Anthropic, Agent Skills in the API and claude.ai (upload rules)"
CLAUDE_SKILLS = "Claude Code documentation: Skills (code.claude.com/docs)"
CLAUDE_SETTINGS = "Claude Code documentation: settings, hooks and model configuration"


@dataclass(frozen=True, slots=True)
class Advice:
    severity: Severity
    source: str
    fixable: str = ""  # "safe", "unsafe" or "" (no mechanical fix)


ADVICE: dict[str, Advice] = {
    "name-reserved": Advice("warning", f"{BEST_PRACTICES}; {SKILLS_API}"),
    "name-vague": Advice("info", BEST_PRACTICES),
    "description-xml": Advice("warning", f"{BEST_PRACTICES}; {SKILLS_API}", "unsafe"),
    "description-person": Advice("warning", BEST_PRACTICES),
    "description-title": Advice("info", f"{BEST_PRACTICES}; {SPEC}"),
    "description-no-when": Advice("info", f"{BEST_PRACTICES}; {SPEC}"),
    "reference-depth": Advice("info", f"{BEST_PRACTICES}; {SPEC}"),
    "path-backslash": Advice("warning", BEST_PRACTICES, "safe"),
    "path-absolute": Advice("info", f"{SPEC} (relative file references)"),
    "reference-missing": Advice("warning", f"{SPEC} (file references); {BEST_PRACTICES}"),
    "skill-too-large": Advice("warning", SKILLS_API),
    "model-unknown": Advice("warning", f"{CLAUDE_SKILLS}; {CLAUDE_SETTINGS}"),
    "agent-without-fork": Advice("warning", CLAUDE_SKILLS, "unsafe"),
    "fork-without-task": Advice("info", CLAUDE_SKILLS),
    "tool-unknown": Advice("warning", f"{CLAUDE_SKILLS}; {CLAUDE_SETTINGS}", "unsafe"),
    "bash-unrestricted": Advice("warning", f"{CLAUDE_SKILLS}; {CLAUDE_SETTINGS}"),
    "shell-lines-many": Advice("info", CLAUDE_SKILLS),
    "hooks-invalid": Advice("warning", f"{CLAUDE_SKILLS}; {CLAUDE_SETTINGS}"),
    "argument-hint-unused": Advice("info", CLAUDE_SKILLS),
    "argument-hint-missing": Advice("info", CLAUDE_SKILLS),
    "bool-as-string": Advice("warning", f"{CLAUDE_SKILLS}; YAML 1.1 booleans", "safe"),
    "bool-word": Advice("info", f"{CLAUDE_SKILLS}; YAML 1.2 core schema", "safe"),
    "paths-invalid": Advice("warning", CLAUDE_SKILLS, "safe"),
}

EXPLANATIONS: dict[str, str] = {
    # -- reading --------------------------------------------------------------------
    "frontmatter-missing": "The file does not start with a '---' line, so it has no "
    "frontmatter: agents that need a name and description do not load it. Start the file "
    "with '---', the fields (name: ..., description: ...), and a closing '---'.",
    "frontmatter-unclosed": "The opening '---' has no closing '---' line, so the whole file "
    "is read as frontmatter and fails. Add a line holding only '---' after the last field.",
    "yaml-invalid": "The frontmatter is not valid YAML (the message gives the line). Common "
    "causes: a ': ' inside an unquoted value, a tab for indentation, an unclosed quote. "
    "Quote the value or fix the indentation.",
    "frontmatter-not-mapping": "The frontmatter is valid YAML but not a set of 'key: value' "
    "lines (a list or a bare text). Write one 'key: value' per line.",
    "duplicate-key": "A key is written twice; YAML keeps the last one, so the first is "
    "silently lost. Keep one of them.",
    "field-missing": "A field the profile requires (or strongly recommends) is not there; "
    "without it the agent skips the skill or cannot tell when to use it. Add it.",
    "field-type": "A field has the wrong kind of value (text where a list is expected, or "
    "YAML reading 1.0 as a number). Write the value the field expects; quote text that "
    "YAML would read as a number or a boolean.",
    "field-invalid": "A field's value is not one the agent accepts (an unknown enum value, a "
    "bad character). The message names the accepted values.",
    "unknown-field": "A key the profile does not define. Agents ignore it (info), but the "
    "Agent Skills standard and the Skills API refuse unknown keys: move custom data under "
    "'metadata:' (where the message says so, `lint --fix` and the app's Fix do it).",
    "field-ignored": "A field of the Agent Skills standard that this agent does not read "
    "(OpenCode and 'allowed-tools': the tools are not pre-approved there). The field is kept "
    "for the agents that read it; nothing is checked against this agent's tools.",
    # -- names and descriptions -----------------------------------------------------
    "name-format": "The name breaks the profile's naming rule (for the standard: lowercase "
    "letters, digits and single hyphens, not at either end). Agents and upload refuse it, "
    "or name the skill differently than written. Rename it (lint --fix --unsafe-fixes "
    "offers the rename where it is mechanical).",
    "name-too-long": "The name is longer than the profile allows (64 characters for the "
    "standard). Shorten it.",
    "name-dir-mismatch": "The name differs from the skill's folder name. The standard "
    "requires them to be equal; Claude Code names the command after the folder, so the "
    "name is only a label. Rename one of them (an unsafe fix).",
    "name-lookalike": "The name holds invisible, bidi, full-width or look-alike characters, "
    "or folds to another skill's name: people and agents can mistake one skill for "
    "another. Use plain ASCII letters, digits and hyphens.",
    "description-empty": "The description is empty: the agent has nothing to choose the "
    "skill by. Say what the skill does and when to use it.",
    "description-too-long": "The description is longer than the agent shows or accepts "
    "(1,024 characters for the standard; Codex cuts it). Keep the trigger words in the "
    "first sentence and move detail into the body.",
    "description-placeholder": "The description is still the new-skill template's text. "
    "Replace it with what the skill does and when to use it.",
    "body-placeholder": "The body still has a step of the new-skill template as it was "
    "written ('1. Say what the agent should do first.'). The agent follows the body as its "
    "instructions: replace the template's instructions with your own.",
    "description-overlap": "Two skills' descriptions would compete for the same requests, "
    "so the model may pick either. Make each one say what sets it apart.",
    "compatibility-too-long": "The compatibility text is longer than allowed (500 "
    "characters). Shorten it to the requirements that matter.",
    "version-invalid": "The version is not a semantic version string such as '1.2.0'. Quote "
    "it so YAML keeps it as text.",
    "pattern-invalid": "A trigger pattern is not a usable regular expression (it fails to "
    "compile or could take too long). Fix the expression.",
    "toolset-missing": "A toolset reference points to a file or class that is not there. "
    "Fix the reference or add the toolset.",
    "invocation-disabled": "The settings leave nobody able to invoke the skill (the model "
    "may not, and users may not). Turn one of them back on.",
    # -- the set of skills ----------------------------------------------------------
    "duplicate-name": "Two skills share a name: one wins by precedence (or, in Codex, a "
    "mention of the name is ambiguous). Rename one.",
    "shadowed": "A skill with the same name in a higher-precedence root wins; this one is "
    "never used. Rename it if both are wanted.",
    "skipped": "The agent would not load this skill; the message says why (usually an error "
    "reported beside it). Fix that error.",
    "trigger-ambiguous": "Two skills use the same trigger phrase, so the request selects "
    "either. Make the triggers distinct.",
    "budget-exceeded": "The listing of skills is over the agent's character budget, so some "
    "descriptions are dropped or cut. Shorten descriptions or install fewer skills.",
    "listing-over-budget": "The agent's listing of skills (what the model chooses from) is "
    "over its budget at the chosen context window (`lint --context-tokens` or `--model`, "
    "skillstudio.yaml `context_tokens` or `model`, else the agent's default): some skills "
    "are listed by a bare "
    "name, with a cut description, or not at all, and the model cannot pick them from "
    "words it never sees. The note names them, says how much to cut and which "
    "descriptions are longest; `skillstudio headroom` shows the whole listing. Shorten "
    "descriptions or install fewer skills.",
    # -- the body and files -----------------------------------------------------------
    "body-too-long": "The instructions are longer than advised (500 lines, about 5,000 "
    "tokens): all of it enters the context when the skill loads. Move detail into "
    "referenced files the agent reads only when needed.",
    "link-broken": "A relative link points to a file that does not exist or lies outside "
    "the skill folder, so the agent cannot read it. Fix the path or add the file.",
    "link-plugin": "The link leaves the skill folder for a file of its plugin: it works "
    "when installed with the plugin, not when the skill is copied or uploaded alone.",
    "link-sibling": "The link leaves the skill folder for a file of another skill of the "
    "same folder: it works where both skills are installed side by side, not when this "
    "skill is copied, uploaded or installed alone. Copy what it needs into its own folder, "
    "or say in the text that the other skill is needed.",
    "suite-invalid": "A query suite (section 'Query suites' of the guide) cannot be read: "
    "the message names the line and the key or value at fault. `skillstudio test` refuses "
    "the file (exit 2) until it is fixed.",
    "suite-unknown-skill": "A case of the suite expects (or rules out) a skill that no root "
    "of the project holds, often a typo or a renamed skill: the case can never pass as "
    "written. Use the skill's name as `skillstudio list` shows it (plugin skills with "
    "their 'plugin:' prefix).",
    "manifest-invalid": "A plugin's .claude-plugin/plugin.json is not the JSON object Claude "
    "Code reads (the message names the key). Claude Code refuses the plugin: fix the "
    "manifest at the line given.",
    "plugin-remote": "The marketplace lists plugins whose source is another repository or "
    "a URL. SkillStudio never fetches anything: those plugins are named, not read. Lint "
    "their own repositories to check them.",
    "file-too-large": "The file is over 1 MiB and is not parsed. Agents read skills into "
    "the context: keep SKILL.md small and move data into other files.",
    "not-utf8": "The file is not UTF-8 text (the message gives the first bad byte). Save "
    "it as UTF-8.",
    "symlink-skipped": "A symbolic link that loops or leads out of the folder opened was not "
    "followed; nothing is read or written through it.",
    "scan-limit": "A scan or check stopped at its limit (folders, depth, links of a body). "
    "Narrow the path or raise the limit under 'scan:' in skillstudio.yaml.",
    "unreadable": "The file or folder could not be read (permissions, or it vanished).",
    "config-invalid": "skillstudio.yaml has a problem at the line given; the rest of it is "
    "used. Fix the key or value.",
    "refresh-missed": "The agent's refresh rule would not notice this change until it "
    "restarts (mvp's stale-cache rule).",
    "root-deprecated": "The agent still reads this root but has deprecated it. Move the "
    "skills to the root it names.",
    "no-skills": "A path given on the command line holds no SKILL.md. Check the path.",
    "skill-file-name": "A file that should be named SKILL.md has another name (skill.md, "
    "Skill.md); case-sensitive disks do not load it. Rename it to SKILL.md.",
    "internal": "SkillStudio failed on this skill (a bug, or input no check foresaw); the "
    "skill is left out of that step and everything else goes on. Please report it.",
    "unreached": "SKILL.md files under the path that the profile's agent does not read (a "
    "hidden folder, too deep, a folder it does not read); the note says what would read "
    "them.",
    # -- advice: names and descriptions ------------------------------------------------
    "name-reserved": "The name contains 'claude' or 'anthropic'. Anthropic reserves these "
    "words: claude.ai and the Skills API refuse such a name, and users can take the skill "
    "for an official one. Choose a name that says what the skill does.",
    "name-vague": "The name is made only of words that say nothing of the task (helper, "
    "utils, tools, data, files...). The name is one of the two things the model and people "
    "choose a skill by; name the activity ('processing-pdfs', 'reviewing-migrations').",
    "description-xml": "The description contains an XML or HTML tag. The Skills API refuses "
    "tags in a description, and in an agent's listing (itself XML for several agents) a "
    "tag can break or confuse it. Write plain words (an unsafe fix takes the tags out).",
    "description-person": "The description speaks as 'I' or to 'you' (anywhere: 'Use when "
    "you have a plan' as much as 'You can use this', 'to help me write' as much as 'I "
    "can help'). It is inserted into the agent's own "
    "instructions, where a change of voice confuses discovery. Write in the third person "
    "or the bare imperative: 'Processes Excel files and generates reports. Use when the "
    "user has a spreadsheet.' Words in quotes, or after 'the user says', are the user's "
    "and do not count.",
    "description-title": "The description is a title ('Performance Profiler'), not a "
    "description. The model matches requests against what a skill does and when to use "
    "it: say both in a sentence or two, with the words users would use.",
    "description-no-when": "The description says what the skill does but not when to use "
    "it. Agents choose among many skills by this text alone: add the situations and "
    "trigger words ('Use when the user asks to ...'). In Claude Code, 'when_to_use' counts.",
    "reference-depth": "A file the body links to links on to another of the skill's files. "
    "Agents may read only the first lines of a file reached through another one, and miss "
    "the rest. Link every reference file directly from SKILL.md (one level deep).",
    "path-backslash": "A path written with Windows backslashes ('scripts\\run.py'). Agents "
    "run on Linux and macOS, where '\\' is not a folder separator, and '/' works on Windows "
    "too. The safe fix writes '/'. Outside code a backslash before punctuation is a "
    "Markdown escape ('config\\_loader.py' reads config_loader.py), not a separator.",
    "path-absolute": "A path into one person's home folder (/Users/..., /home/..., "
    "C:\\Users\\...): it exists on one machine only. Refer to the skill's files relatively, "
    "or with ${CLAUDE_SKILL_DIR} / {baseDir} where the agent supports them.",
    "reference-missing": "The body tells the agent to read or run a file of the skill "
    "('Load references/api.md', `scripts/run.py`, {baseDir}/scripts/x.py) that is not in "
    "the skill folder. The agent looks for it and finds nothing, or guesses. Add the file "
    "or correct the path. Not counted: links (link-broken checks them), URLs, globs, "
    "placeholders (<file>, {name}, path/to/x), paths the text says are the user's or are "
    "to be made, and code blocks other than shell sessions.",
    "skill-too-large": "The skill folder holds more than 8 MB: the Skills API and claude.ai "
    "refuse an upload that large, and every install copies it whole. Keep large data "
    "outside the skill, or fetch or generate it when needed.",
    # -- advice: Claude Code fields ---------------------------------------------------
    "model-unknown": "'model' is not a model Claude Code can use (sonnet, opus, haiku, "
    "inherit, or a Claude model name such as claude-sonnet-4-5). Another vendor's model "
    "(gpt-4) is not available, and the skill's turn fails or falls back.",
    "agent-without-fork": "'agent' picks the subagent that runs a forked skill, and Claude "
    "Code reads it only with 'context: fork'; without it the field does nothing. Add "
    "'context: fork' (an unsafe fix: the skill then runs in a subagent) or remove 'agent'.",
    "fork-without-task": "With 'context: fork' the body becomes the subagent's whole task. "
    "A body that holds guidelines but no task (or almost nothing) leaves the subagent with "
    "nothing to do. Say what to do, or drop 'context: fork'.",
    "tool-unknown": "An 'allowed-tools' entry names no Claude Code tool (Read, Edit, Bash, "
    "Grep, WebFetch..., an MCP tool mcp__server__tool, or Tool(pattern)). A misspelt tool "
    "is silently ignored, so the permission it was meant to grant is not granted. A wrong "
    "case ('bash') has an unsafe fix: it grants the permission.",
    "bash-unrestricted": "'Bash' without a pattern in 'allowed-tools' lets the skill run any "
    "command without asking while it is active. Restrict it to the commands the skill "
    "needs: Bash(git diff:*), Bash(npm test:*).",
    "shell-lines-many": "The body holds more than three !`command` lines. Claude Code runs "
    "each one before the model sees the skill, every time it loads: they slow every use and "
    "run whatever they say. Keep a few, or move the work into a script the skill calls.",
    "hooks-invalid": "'hooks' names an event Claude Code does not have, or is not shaped "
    "event -> list of {matcher, hooks: [{type, command}]}. Such a hook never runs. Use the "
    "documented event names (PreToolUse, PostToolUse, Stop...), spelt exactly.",
    "argument-hint-unused": "'argument-hint' promises arguments, but the body uses none "
    "($ARGUMENTS, $0, $1, or a named argument): Claude Code then only appends them at the "
    "end. Place $ARGUMENTS where they belong, or drop the hint.",
    "argument-hint-missing": "The body uses $ARGUMENTS (or $0, $1...) but there is no "
    "'argument-hint': users typing /name are not told what to pass. Add a hint such as "
    "'[issue-number]'.",
    "bool-as-string": 'A true/false field is written as quoted text ("true"). Claude Code '
    "reads it, but YAML and other tools see a string: the standard's validators and other "
    "agents treat it as not set, or reject it. Write it unquoted (the safe fix).",
    "bool-word": "A true/false field is written as yes/no/on/off or 1/0. SkillStudio reads "
    "it as true/false (YAML 1.1, as PyYAML does), but YAML 1.2 parsers read yes/no/on/off as "
    "text and 1/0 as numbers, and Claude Code's loader takes only true (or the text "
    '"true") as true, so the skill may be loaded otherwise than shown. Write true or false '
    "(the safe fix).",
    "paths-invalid": "A 'paths' glob cannot match what is meant: empty, absolute, with "
    "backslashes, '..', or unbalanced brackets. Claude Code then never loads the skill on "
    "its own for those files. Write project-relative globs with '/' (src/**/*.ts).",
}


def explain(code: str) -> str | None:
    """The explanation of `code` with its summary, default severity and source."""
    text = EXPLANATIONS.get(code)
    if text is None:
        return None
    lines = [f"{code}: {CODES.get(code, '')}".rstrip(": "), "", text]
    advice = ADVICE.get(code)
    if advice is not None:
        lines += ["", f"Default severity: {advice.severity} (advice)."]
        if advice.fixable:
            lines.append(
                f"Fix: {advice.fixable} (lint --fix"
                + (" --unsafe-fixes)." if advice.fixable == "unsafe" else ").")
            )
        lines.append(f"Source: {advice.source}.")
    return "\n".join(lines)
