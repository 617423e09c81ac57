"""A description's trigger clauses: the words it says the skill is *for*.

"Use when encountering any bug …", "Use this skill when the user asks …", "Use it
for …", "Use after a run produces …", "This skill should be used when …", "Triggers
on …", "when the user wants …": the forms the 217 skills of the shared corpus write
(177 descriptions say "Use when", 27 "Use this skill when", the rest a few each).
An agent's model reads such a clause as the skill's own statement of when to pick
it, so the likely ranking reads its words as a field of their own
(`Model.weights`' "trigger", core/ranking/likely_index.py) on top of the
description's weight: a request naming the situation ("I found a bug") is evidence
for the skill whose clause names it. A clause runs from its opening words to the end
of its sentence, as an exclusion clause does (core/ranking/exclusions.py, whose
clauses are left out before this reads the description). Plain, bounded patterns
over text of bounded length.
"""

from __future__ import annotations

import re

from .exclusions import MAX_CHARS, clause_end

# "use when", "use this skill when/whenever/for/if/to", "use it when", "use this when",
# "use after", "should be used when", "invoke when", "trigger(s|ed) on/when/by",
# "when the user(s) ask(s)/want(s)/mention(s)/say(s)/need(s)"
_OPENING = re.compile(
    r"\b(?:(?:use|used|invoke|apply)(?:\s+(?:this(?:\s+skill)?|it))?\s+"
    r"(?:when|whenever|for|if|after|before)"
    r"|trigger(?:s|ed)?\s+(?:on|when|by|for)"
    r"|when\s+(?:the\s+)?users?\s+(?:ask|want|mention|say|need|request)s?)\b",
    re.IGNORECASE,
)


def trigger_text(description: str) -> str:
    """The words of `description`'s trigger clauses, joined (a stop between two), or ""."""
    text = description[:MAX_CHARS]
    if "use" not in text.lower() and "trigger" not in text.lower() and "when" not in text.lower():
        return ""
    parts: list[str] = []
    last = 0
    for found in _OPENING.finditer(text):
        if found.start() < last:  # (inside the clause before)
            continue
        last = clause_end(text, found.end())
        parts.append(text[found.end() : last].strip())
    return " . ".join(p for p in parts if p)
