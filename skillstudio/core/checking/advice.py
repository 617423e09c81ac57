"""Authoring advice: what makes a skill work less well, from the agents' own guidance.

An agent loads every skill these rules speak of; they say what makes it chosen less
reliably or read less well (docs/commands.md lists the codes, `skillstudio explain
CODE` says why each matters). Each rule has a default severity of warning or info,
so advice never fails an agent-valid skill unless the project asks (`--strict`, or
a `rules:` severity in skillstudio.yaml).

The profiles of the agents that read the Agent Skills standard call `advise` from
their `check` hook; the engine itself runs no advice, so a seed system's skills get
none. This module holds the name and description rules; advice_body.py those of the
body and the skill folder, references.py the files the body names; a profile adds its
own (profiles/claude_code/advice.py).
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.document import Document
from ..model.explanations import ADVICE
from ..model.fixes import FieldEdit, FixPlan
from ..profile import Checker
from .advice_body import body_advice
from .fix_plans import register
from .references import missing_references

RESERVED_WORDS = ("anthropic", "claude")
# words that say nothing of what a skill is for (a name made only of them is vague)
VAGUE_WORDS = frozenset(
    "helper helpers util utils utility utilities tool tools toolkit misc stuff common "
    "general generic data file files document documents docs thing things skill skills "
    "my new test tests example examples sample temp tmp default basic simple main "
    "assistant stuff various".split()
)
# a first- or second-person opening, a first-person phrase anywhere, or the reader
# addressed as "you" anywhere: "Use when you have a plan" speaks to the agent as much as
# "You MUST use this" (the best-practices page's reason, the listing is put into the
# system prompt, holds for both), while "Use when the user has a plan", the imperative
# its own examples use, names no one. A capital "You" inside a sentence is a name's
# ("the X For You algorithm"), not the reader
_PERSON_START = re.compile(
    r"^\W*(?:I|I'm|I'll|I've|I'd|We|We're|We'll|You|You're|You'll|Your|My|Our|Let me|Let us)"
    r"(?=[\s,.'’]|$)"
)
_PERSON_PHRASE = re.compile(
    r"\b(?:I (?:can|will|help|am|know|use|create|generate|write)|I'll|we (?:can|will)|"
    r"you can use|let me)\b",
    re.I,
)
# the skill speaking as "I" anywhere, not only at its start ("A set of resources to
# help me write ... the formats my company likes"; "my job is ..."): the page's "avoid"
# example is "I can help you". Not a capital "I" after a word that takes a numeral
# ("Type I errors", "Phase I") or joined to more ("I/O", "I-9"), not "me" or "my" joined
# by a hyphen or a dot ("my-app", "me.json")
_NUMERAL_AFTER = "Type Phase Part Tier Level Class Stage Chapter Section War Volume Act Grade"
_FIRST = re.compile(
    r"(?<![\w/&.-])"
    + "".join(f"(?<!{word} )" for word in _NUMERAL_AFTER.split())
    + r"I(?![\w/&.-])(?!\.\w)|"
    r"(?<![\w/.-])(?:me|my|myself|Me|My|Myself)(?![\w/-])(?!\.\w)"
)
# what follows "the user says" (or "types", "phrases like") to the clause's end is the
# user's, quoted or not: "Use when the user says help me write a memo"
_SAID = re.compile(
    r"\b(?:(?:says?|saying|said|types?|typing|typed|(?:phrases?|words?|requests?) (?:like|"
    r"such as))\b:?|(?:asks?|asking|asked):)[^.;!?()]*"
)
_CODE = re.compile(r"`[^`]*`")
_YOU = re.compile(
    r"\b(?:you|your|yours|yourself|you're|you'll|you've|you'd)\b|"
    r"(?:^|[.!?;:]\s+|\s[-–—]\s+)(?:You|Your|You're|You'll|You've|You'd)\b"
)
# a phrase in quotes (straight or curly, double or single): the user's words, which a
# description quotes ("Use when the user asks 'how do I use X?'"), not its own voice; a
# single quote opens only after no letter and closes before none (not `user's`)
_QUOTED = re.compile(
    r'"[^"]*"|“[^”]*”|„[^“”]*[“”]|«[^»]*»|(?<!\w)\'[^\']*\'(?!\w)|(?<!\w)‘[^’‘]*’(?!\w)'
)
_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w.:-]*)(?:\s[^<>]*)?/?\s*>")
_WHEN = re.compile(
    r"\b(?:when|whenever|if|use (?:it |this (?:skill )?)?(?:for|to|on|with|in|after|before)|"
    r"trigger(?:s|ed)?|invoke[sd]?|asks?|asked|requests?|requested|needs?|wants?|"
    r"in response to|useful for|helpful for|ideal for|designed for|for (?:tasks|requests|"
    r"questions|queries|work)|during|before|after|while)\b",
    re.I,
)


def severity(code: str) -> Any:
    return ADVICE[code].severity


def skill_name(c: Checker) -> tuple[str, str | None]:
    """The name an upload would carry: the `name` field, else the folder name (and the
    field the diagnostic belongs to)."""
    name = c.skill.raw.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip(), "name"
    return c.skill.own_name or c.skill.folder_name, None


def advise(c: Checker, when_text: str = "", chosen_by_model: bool = True) -> None:
    """The standard's advice on one skill (`when_text`: a profile's extra trigger text,
    such as Claude Code's `when_to_use`, that counts as the description's "when";
    `chosen_by_model` false: only a person invokes it, so "when" matters less)."""
    if not c.advice or not c.doc.readable or c.doc.mapping is None:  # (what cannot be
        return  # read is said already)
    _name_advice(c)
    desc = c.skill.raw.get("description")
    if isinstance(desc, str) and desc.strip():
        _description_advice(c, desc, when_text, chosen_by_model)
    if c.doc.text:
        body_advice(c)
        if os.path.basename(c.skill.path) in c.profile.skill_files:  # (not a command file)
            missing_references(c, c.doc.body)


def _name_advice(c: Checker) -> None:
    name, field = skill_name(c)
    lowered = name.lower()
    reserved = [word for word in RESERVED_WORDS if word in lowered]
    if reserved:
        c.emit(
            "name-reserved",
            f"The name '{name}' contains the reserved word '{reserved[0]}': claude.ai and the "
            "Skills API refuse such names, and users may take the skill for an official one. "
            "Choose a name that says what the skill does.",
            field=field,
            at="value",
            severity=severity("name-reserved"),
        )
    words = [w for w in re.split(r"[-_\s]+", lowered) if w]
    if words and all(word in VAGUE_WORDS for word in words):
        c.emit(
            "name-vague",
            f"The name '{name}' says nothing of what the skill does; a name such as "
            "'processing-pdfs' or 'reviewing-migrations' helps the model and people choose it.",
            field=field,
            at="value",
            severity=severity("name-vague"),
        )


def _person_words(own: str) -> list[str]:
    """The first- and second-person words of a description's own words, in order (a
    word two patterns find counted once)."""
    spans: list[tuple[int, int]] = []
    start = _PERSON_START.match(own)
    if start:
        word = re.search(r"[^\W\d_][\w'’]*(?: me| us)?", own)  # the opening word itself
        if word:
            spans.append(word.span())
    spans += [m.span() for m in _PERSON_PHRASE.finditer(own)]
    spans += [m.span() for m in _FIRST.finditer(own)]
    spans += [m.span() for m in _YOU.finditer(own)]
    kept: list[tuple[int, int]] = []
    for begin, end in sorted(spans):
        if kept and begin < kept[-1][1]:
            continue
        kept.append((begin, end))
    return [own[b:e].strip(" .!?;:-–—") for b, e in kept]


def _word_position(c: Checker, key: str, words: str) -> tuple[int, int]:
    """Where `words` first stand in the file from the value of `key` on (their spaces
    may be a line break in a folded value); the value's start when they cannot be found
    (an escaped character)."""
    line, column = c.doc.value_position(key)
    lines = c.doc.text.splitlines(keepends=True)
    if not 1 <= line <= len(lines):
        return line, column
    start = sum(len(t) for t in lines[: line - 1]) + column - 1
    end = c.doc.body_offset if c.doc.body_offset > start else len(c.doc.text)
    pattern = r"\s+".join(re.escape(w) for w in words.split())
    hit = re.compile(rf"(?<!\w){pattern}(?!\w)").search(c.doc.text, start, end)
    if hit is None:
        return line, column
    before = c.doc.text[: hit.start()]
    return before.count("\n") + 1, hit.start() - (before.rfind("\n") + 1) + 1


def _description_advice(c: Checker, desc: str, when_text: str, chosen: bool) -> None:
    text = " ".join(desc.split())
    tags = [m.group(0) for m in _TAG.finditer(text)]
    if tags:
        c.emit(
            "description-xml",
            f"The description contains the tag {tags[0]}: the Skills API refuses XML tags in a "
            "description, and in an agent's listing a tag can be read as markup of the "
            "listing itself. Write it as plain words.",
            field="description",
            at="value",
            severity=severity("description-xml"),
        )
    own = _QUOTED.sub(" … ", text)  # the description's own words, quotes left out
    if not re.search(r"[^\W\d_]", own):
        own = text  # a description that is all one quote speaks in its own voice
    own = _SAID.sub(" … ", _CODE.sub(" … ", own))  # (code and reported speech too)
    found = _person_words(own)
    if found:
        more = f", and {len(found) - 1} more" if len(found) > 1 else ""
        line, column = _word_position(c, "description", found[0])
        c.emit(
            "description-person",
            f"The description speaks in the first or second person ('{found[0]}'{more}); it "
            "is put into the agent's own instructions, where 'I' and 'you' read wrong. Write "
            "in the third person: 'Extracts tables from PDF files. Use when the user has a "
            "PDF form', not 'when you have'.",
            field="description",
            at="value",
            severity=severity("description-person"),
            line=line,
            column=column,
        )
    words = text.split()
    if not chosen:
        return
    if len(words) <= 4 and not text.endswith((".", "!", "?")) and not _WHEN.search(text):
        c.emit(
            "description-title",
            f"The description '{text}' is a title, not a description: the model chooses a "
            "skill by what it does and when to use it. Say both in a sentence or two.",
            field="description",
            at="value",
            severity=severity("description-title"),
        )
    elif not _WHEN.search(text) and not _WHEN.search(when_text):
        c.emit(
            "description-no-when",
            "The description says what the skill does but not when to use it; add the "
            "situations and words that should bring it up ('Use when the user asks for ...').",
            field="description",
            at="value",
            severity=severity("description-no-when"),
        )


def _strip_tags(text: str) -> str:
    """Tags out of a text: markup (a tag that is closed, `<b>x</b>`) goes; a lone
    placeholder (`<file>`) keeps its name as a word."""
    closed = {m.group(2).lower() for m in _TAG.finditer(text) if m.group(1)}

    def keep(match: re.Match[str]) -> str:
        name = match.group(2)
        return "" if match.group(1) or name.lower() in closed else name

    out = _TAG.sub(keep, text)
    return re.sub(r"[ \t]{2,}", " ", out).strip()


@register("description-xml")
def _plan_description_xml(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    desc = (doc.mapping or {}).get("description")
    if not isinstance(desc, str):
        return []
    new = _strip_tags(desc)
    if new == desc or not new:
        return []
    return [
        FixPlan(
            "Take the tags out of the description",
            safe=False,
            fields=(FieldEdit("description", new),),
        )
    ]


_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@register("name-dir-mismatch")
def _plan_name_dir(doc: Document, diagnostic: Diagnostic) -> list[FixPlan]:
    """The name set to the folder's, or the folder renamed to the name (both unsafe:
    what the skill is called changes)."""
    name = (doc.mapping or {}).get("name")
    folder = os.path.basename(os.path.dirname(doc.path))
    plans: list[FixPlan] = []
    if name == folder:
        return plans
    if _SLUG.fullmatch(folder) and len(folder) <= 64:
        title = f"Set 'name' to the folder's name '{folder}'"
        plans.append(FixPlan(title, safe=False, fields=(FieldEdit("name", folder),)))
    if isinstance(name, str) and _SLUG.fullmatch(name) and len(name) <= 64:
        title = f"Rename the folder to '{name}'"
        plans.append(FixPlan(title, safe=False, rename_folder=name))
    return plans
