"""Names that look alike (docs/development.md).

A name can deceive a reader without breaking any rule: an invisible character
(U+200B), a bidi control that reorders how text is shown (U+202E), the same word
written in two Unicode forms (NFC `café` and NFD `café`), full-width letters (`ｃ`)
and letters of another script that look Latin (Cyrillic `е`). `name_problems` says
what in one name can deceive; `skeleton` folds a name to what it looks like, and
`check_names` reports two skills whose names differ but look the same
(`name-lookalike`, a warning: agents load both, a person picks the wrong one).
`text_problem` says why a string read from a manifest or a configuration cannot be
a path or a name (a NUL, half a surrogate pair, control or bidi characters).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..model.diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..model.skills import Skill
    from ..profile import Checker, Profile

CODE = "name-lookalike"
# Characters that reorder the text around them when shown.
BIDI = frozenset({0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)})
# Characters that show nothing: the zero-width ones (escaped in the CLI's text output
# with the bidi controls), then other invisible ones a name can hide.
ZERO_WIDTH = frozenset({0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF})
HIDDEN = ZERO_WIDTH | {0x00AD, 0x034F, 0x180E, *range(0x2061, 0x2065), *range(0xFE00, 0xFE10)}
ESCAPED = BIDI | ZERO_WIDTH
INVISIBLE = BIDI | HIDDEN

# Letters of other scripts (and a few Latin forms) that look like a Latin letter: the
# common entries of Unicode's confusables for Cyrillic and Greek, case kept.
_LOOKS_LATIN = {
    # Cyrillic
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
    "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "ѵ": "v", "ү": "y",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ү": "Y", "Ԛ": "Q",
    "Ԝ": "W", "Ӏ": "I",
    # Greek
    "α": "a", "ο": "o", "ν": "v", "ρ": "p", "ι": "i", "κ": "k", "υ": "u", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin forms that look like plain letters
    "ı": "i", "ɑ": "a", "ɡ": "g",
}  # fmt: skip
_FOLD = str.maketrans(_LOOKS_LATIN)
# what a path or a name read from a manifest or a configuration may not hold
CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f" + "".join(f"\\u{code:04x}" for code in sorted(ESCAPED)) + "]"
)
_DROP = dict.fromkeys(INVISIBLE)


def text_problem(text: str, strict: bool) -> str | None:
    """Why a string read from a manifest or a configuration cannot be a path or a
    name, in plain words (None when it can): half a surrogate pair or a NUL; with
    `strict` (a path, a name) any control, bidi or zero-width character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"holds U+{ord(text[exc.start]):04X}, half of a character pair (not text)"
    found = CONTROL.search(text) if strict else None
    if found is not None and found.group() != "\x00":
        return f"holds a control or invisible character (U+{ord(found.group()):04X})"
    if "\x00" in text:
        return "holds a NUL character (U+0000), which no file name or text can hold"
    return None


def _describe(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}"


def skeleton(name: str) -> str:
    """What a name looks like: invisible characters dropped, compatibility forms
    folded (NFKC), letters that look Latin made Latin, composed (NFC)."""
    folded = unicodedata.normalize("NFKC", name.translate(_DROP)).translate(_FOLD)
    return unicodedata.normalize("NFC", folded)


def name_problems(name: str) -> list[str]:
    """What in `name` can deceive a reader, each in plain words (none for a plain name)."""
    if name.isascii():
        return []
    out: list[str] = []
    bidi = [ch for ch in name if ord(ch) in BIDI]
    if bidi:
        out.append(
            f"it holds a bidi control ({_describe(bidi[0])}) that reorders how text is shown"
        )
    hidden = [ch for ch in name if ord(ch) in HIDDEN]
    if hidden:
        out.append(f"it holds an invisible character ({_describe(hidden[0])})")
    visible = name.translate(_DROP)
    composed = unicodedata.normalize("NFC", visible)
    if composed != visible:
        out.append(
            f"it is written with combining marks (NFD); composed (NFC) it is '{composed}', "
            "which looks the same but is a different name"
        )
    compatible = unicodedata.normalize("NFKC", composed)
    if compatible != composed:
        odd = next(ch for ch in composed if unicodedata.normalize("NFKC", ch) != ch)
        out.append(
            f"it holds a compatibility character ({_describe(odd)}), read as "
            f"'{unicodedata.normalize('NFKC', odd)}'"
        )
    others = [ch for ch in compatible if ch in _LOOKS_LATIN]
    if others and skeleton(name).isascii():
        out.append(
            f"'{others[0]}' ({_describe(others[0])}) looks like Latin "
            f"'{_LOOKS_LATIN[others[0]]}': the name looks like '{skeleton(name)}'"
        )
    return out


def lookalike_message(name: str) -> str | None:
    """The `name-lookalike` message of one name, or None when nothing in it deceives."""
    problems = name_problems(name)
    if not problems:
        return None
    return (
        f"The name '{name}' can be mistaken for another: {'; '.join(problems)}. Write it "
        "in plain letters (or composed NFC form) so that people and agents read one name."
    )


def check_skill_name(c: Checker) -> None:
    """Per skill: the frontmatter name, and the name the agent knows the skill by when
    that is another (a folder name), each reported once when it can deceive."""
    raw = c.skill.raw.get("name")
    written = raw.strip() if isinstance(raw, str) else ""
    if written:
        message = lookalike_message(written)
        if message:
            c.emit(CODE, message, field="name", at="value")
    own = c.skill.name.rsplit(":", 1)[-1]
    if own and own != written:
        message = lookalike_message(own)
        if message:
            c.emit(CODE, message, line=1, column=1)


def check_names(skills: Iterable[Skill], profile: Profile) -> None:
    """Cross-skill: two loadable skills whose names differ but look the same (equal
    skeletons) each get a `name-lookalike` note naming the other. Only names that
    are not plain ASCII can look like another, so a registry of ASCII names costs one
    pass of `str.isascii`."""
    named = [s for s in skills if s.key is not None]
    if "".join([s.name for s in named]).isascii():  # (0.6 ms at 10,000 skills)
        return
    groups: dict[str, list[Skill]] = {}
    for skill in named:
        key = skill.name if skill.name.isascii() else skeleton(skill.name)
        groups.setdefault(key, []).append(skill)
    severity = profile.severity_of(CODE)
    for group in groups.values():
        if len({s.name for s in group}) < 2:
            continue
        for skill in group:
            others = [o for o in group if o.name != skill.name]
            names = ", ".join(f"'{o.name}' ({o.path})" for o in others[:5])
            skill.cross.append(
                Diagnostic(
                    CODE,
                    severity,
                    f"The name '{skill.name}' looks the same as {names} but is a different "
                    "name (other characters, or another Unicode form): a person or an agent "
                    "can pick the wrong one. Rename one of them.",
                    skill.path,
                    *skill.doc.value_position(profile.key_field),
                    profile.key_field,
                    skill.name,
                )
            )
