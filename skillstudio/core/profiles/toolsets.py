"""toolsets (seed 002): triggers.keywords / verbs / patterns, toolsets, four-tier disclosure."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..checking.field_checks import check_length, check_name_length, check_not_empty
from ..checking.patterns import (
    PATTERN_TIMEOUT,
    SLOW_CHECK_TIMEOUT,
    is_slow,
    pattern_problem,
    search_in_turns,
    shown,
    slow_known,
)
from ..model.fields import FieldSpec
from ..model.matches import (
    POINTS,
    Candidate,
    MatchResult,
    Reason,
    Terms,
    description_keywords,
    explicit_invocation,
    is_capability_request,
    words_of,
)
from ..model.paths import FileRefused, is_within
from ..model.profile_requests import ActivationRequest
from ..model.skills import Skill
from ..model.text import counted, first_sentence
from ..profile import Checker, PanelOption, Profile, RootSpec
from ..ranking.match_index import phrase_hits
from ..ranking.rankers import unpack
from ..reading.looked import looked_at
from ..reading.safefs import read_bytes

if TYPE_CHECKING:
    from ..model.delivered import Activation
    from ..model.matches import MatchResult
    from ..model.profile_requests import MatchRequest

NAME = re.compile(r"[A-Za-z0-9-]+")
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)
TOOLSET_REF = re.compile(r"(.+):([A-Za-z_$][\w$]*)")
MODULE_EXTS = ("", ".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".py")
TRIGGER_KINDS = ("keywords", "verbs", "patterns")
KEYWORD_POINTS = 10  # a keyword or verb found in the request
MAX_TOOLSET_BYTES = 1024 * 1024  # read of one toolset file
MAX_TOOLSET_TOTAL = 8 * 1024 * 1024  # read of all of one skill's toolset files
SLOW_CHECK_BUDGET = 0.1  # seconds of pattern speed checks per skill (bounds a keystroke)


IDENT = r"[A-Za-z_$][\w$]*"
# Each pattern starts with a literal word (the regex engine skips ahead to it)
# or a line start; none can scan the same text twice.
DECLARED = (
    re.compile(
        rf"export\s+(?:default\s+)?(?:abstract\s+)?(?:class|const|let|var|function)\s+({IDENT})"
    ),
    re.compile(rf"exports\.({IDENT})\s*="),
)
LINE_DECLARED = re.compile(rf"^(?:[^\S\n]*class\s+({IDENT})|({IDENT})\s*[:=])", re.M)
BLOCK_START = re.compile(r"export\s*\{|module\.exports\s*=\s*\{")
IDENTS = re.compile(IDENT)


def _looked(path: str) -> bool:
    """Whether `path` exists (a link counts), noted as looked at (reading/looked.py)."""
    looked_at(path)
    return os.path.lexists(path)


def _word_start(text: str, index: int) -> bool:
    return index == 0 or not (text[index - 1].isalnum() or text[index - 1] in "_$")


def exported_names(text: str) -> set[str]:
    """Every name a module defines or exports, found in one linear pass each.

    Brace blocks are scanned once: an unclosed `export {` repeated 100,000 times
    costs one pass, not one per brace (the old per-class regexes were quadratic
    and ran once per reference).
    """
    names = {m.group(1) for p in DECLARED for m in p.finditer(text) if _word_start(text, m.start())}
    names.update(m.group(1) or m.group(2) for m in LINE_DECLARED.finditer(text))
    pos = 0
    while match := BLOCK_START.search(text, pos):
        if not _word_start(text, match.start()):
            pos = match.start() + 1
            continue
        end = text.find("}", match.end())
        block = text[match.end() : end if end >= 0 else len(text)]
        names.update(IDENTS.findall(block))
        if end < 0:  # no later block can close either
            break
        pos = end + 1
    return names


class Toolsets(Profile):
    name = "toolsets"
    order = 2
    title = "Toolsets (bundled / user / project)"
    source = "seed 002"
    repository_roots = False  # its agent reads only its own folders
    marker_dirs = ("src/_bundled_skills",)
    model_chooses = False  # its rules select
    panel_option = PanelOption("max_skills", "Max skills", 3, 50)
    uses_session = True  # recently used skills rank higher
    has_breadcrumb = True
    listing_frame = ("Available skills:\n", "")
    listing_frame_lines = False
    roots = (
        RootSpec("src/_bundled_skills", "bundled"),
        RootSpec("~/.agent/skills", "user"),
        RootSpec(".agent/skills", "project"),
    )
    fields = (
        FieldSpec(
            "name",
            "string",
            "Name",
            "Skill identifier: letters, digits and hyphens.",
            required=True,
            max_length=64,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "Brief description of the skill.",
            required=True,
            max_length=500,
        ),
        FieldSpec("version", "semver", "Version", 'Semantic version, e.g. "1.0.0".'),
        FieldSpec(
            "toolsets",
            "list",
            "Toolsets",
            'Toolset classes in "path:Class" form, the path relative to the skill folder.',
        ),
        FieldSpec("scripts", "any", "Scripts", "Script list (parsed, never executed)."),
        FieldSpec(
            "triggers",
            "triggers",
            "Triggers",
            "keywords: direct matches on word boundaries; verbs: action words on word "
            "boundaries; patterns: regular expressions.",
            subkeys=TRIGGER_KINDS,
        ),
        FieldSpec(
            "default_enabled",
            "bool",
            "Enabled by default",
            "For bundled skills: whether the skill is enabled without being switched on.",
            default=True,
        ),
        FieldSpec(
            "brief_description",
            "string",
            "Brief description",
            "The line shown in the tier-2 registry listing.",
            default_note="the description's first sentence",
        ),
    )

    def resolve(self, skill: Skill, c: Checker) -> None:
        super().resolve(skill, c)
        raw = skill.raw
        brief = raw.get("brief_description")
        found = raw.get("triggers")
        triggers: dict[str, Any] = found if isinstance(found, dict) else {}
        skill.fields = {
            "name": skill.name,
            "description": skill.description,
            "brief_description": brief.strip()
            if isinstance(brief, str) and brief.strip()
            else first_sentence(skill.description),
            "version": raw.get("version") if isinstance(raw.get("version"), str) else None,
            "toolsets": [t for t in raw.get("toolsets") or [] if isinstance(t, str)]
            if isinstance(raw.get("toolsets"), list)
            else [],
            "triggers": {
                kind: [t for t in triggers.get(kind) or [] if isinstance(t, str)]
                if isinstance(triggers.get(kind), list)
                else []
                for kind in TRIGGER_KINDS
            },
            "default_enabled": raw.get("default_enabled") is not False,
            "source": skill.root.label,
        }

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        check_name_length(c, skip=True)
        if isinstance(name, str) and not NAME.fullmatch(name):
            c.emit(
                "name-format",
                f"The name '{name}' may hold only letters, digits and hyphens.",
                field="name",
                at="value",
            )
            c.fail("name")
        desc = raw.get("description")
        check_not_empty(c, "description", "'description' is empty; write a brief description.")
        check_length(c, "description", desc, 500, "description-too-long", "'description'")
        version = raw.get("version")
        if isinstance(version, str) and not SEMVER.fullmatch(version):
            c.emit(
                "version-invalid",
                f"The version '{version}' is not a semantic version; write MAJOR.MINOR.PATCH "
                'such as "1.0.0".',
                field="version",
                at="value",
            )
        self._check_toolsets(c)
        self._check_triggers(c)

    def _check_toolsets(self, c: Checker) -> None:
        refs = c.skill.raw.get("toolsets")
        if not isinstance(refs, list):
            return
        folder = c.skill.folder
        sources: dict[str, set[str] | FileRefused] = {}
        budget = MAX_TOOLSET_TOTAL
        for index, ref in enumerate(refs):
            if not isinstance(ref, str):
                continue
            match = TOOLSET_REF.fullmatch(ref.strip())
            if not match:
                c.emit(
                    "field-invalid",
                    f"Toolset '{ref}' must be written \"path:Class\", e.g. "
                    '"toolsets/index:HelloToolset".',
                    field="toolsets",
                    item=index,
                )
                continue
            rel, cls = match.group(1), match.group(2)
            target = os.path.normpath(os.path.join(folder, rel))
            if os.path.isabs(rel) or not is_within(target, folder):
                c.emit(
                    "toolset-missing",
                    f"Toolset path '{rel}' leaves the skill folder; toolsets must live inside it.",
                    field="toolsets",
                    item=index,
                )
                continue
            found = next(
                (
                    cand
                    for base in (target, os.path.join(target, "index"))
                    for ext in MODULE_EXTS
                    if _looked(cand := base + ext) and not os.path.isdir(cand)
                ),
                None,
            )
            if found is None:
                c.emit(
                    "toolset-missing",
                    f"Toolset file '{rel}' does not exist in the skill folder (tried "
                    f"{rel}.ts, .js, .py and {rel}/index.*).",
                    field="toolsets",
                    item=index,
                )
                continue
            if found not in sources:  # each file is read once, however many refs name it
                if budget <= 0:
                    c.emit(
                        "scan-limit",
                        f"Toolset file '{os.path.relpath(found, folder)}' was not checked: "
                        f"this skill's toolset files pass {MAX_TOOLSET_TOTAL // 2**20} MB in all.",
                        field="toolsets",
                        item=index,
                        severity="warning",
                    )
                    continue
                try:
                    data = read_bytes(found, folder, MAX_TOOLSET_BYTES, truncate=True)
                    budget -= len(data)
                    sources[found] = exported_names(data.decode("utf-8", "replace"))
                except FileRefused as exc:
                    sources[found] = exc
            names = sources[found]
            if isinstance(names, FileRefused):
                c.emit(
                    "toolset-missing",
                    f"Toolset file '{os.path.relpath(found, folder)}' was not read: "
                    f"{names.reason}.",
                    field="toolsets",
                    item=index,
                )
            elif cls not in names:
                c.emit(
                    "toolset-missing",
                    f"'{os.path.relpath(found, folder)}' does not define or export '{cls}'. "
                    "Check the class name after the colon.",
                    field="toolsets",
                    item=index,
                )

    def _check_triggers(self, c: Checker) -> None:
        triggers = c.skill.raw.get("triggers")
        if not isinstance(triggers, dict):
            return
        patterns: list[tuple[int, str]] = []
        for kind, values in triggers.items():
            kind = str(kind)
            if kind not in TRIGGER_KINDS:
                c.emit(
                    "unknown-field",
                    f"'triggers.{kind}' is not used; triggers take keywords, verbs and patterns.",
                    field="triggers",
                    child=kind,
                    severity="warning",
                )
                continue
            if not isinstance(values, list):
                c.emit(
                    "field-type",
                    f'\'triggers.{kind}\' must be a list, e.g. {kind}: ["one", "two"].',
                    field="triggers",
                    child=kind,
                )
                continue
            for index, value in enumerate(values):
                if not isinstance(value, str):
                    c.emit(
                        "field-type",
                        f"Item {index + 1} of 'triggers.{kind}' is not text; put it in quotes.",
                        field="triggers",
                        child=kind,
                        item=index,
                    )
                elif kind == "patterns":
                    patterns.append((index, value))
        self._check_patterns(c, patterns)

    def _check_patterns(self, c: Checker, patterns: list[tuple[int, str]]) -> None:
        """Each pattern compiles and is not slow; the speed check of one skill stops
        after SLOW_CHECK_BUDGET (300 slow patterns would take seconds per lint)."""
        spent = 0.0
        unchecked = 0
        for index, value in patterns:
            problem = pattern_problem(value)
            if problem is None:
                if slow_known(value) is None and spent >= SLOW_CHECK_BUDGET:
                    unchecked += 1
                    continue
                started = time.perf_counter()
                slow = is_slow(value)
                spent += time.perf_counter() - started
                if slow:
                    problem = (
                        f"it takes over {SLOW_CHECK_TIMEOUT * 1000:.0f} ms on a 1 KB input; "
                        f"matching stops it after {PATTERN_TIMEOUT * 1000:.0f} ms, so it may "
                        "never match. Make its repeats unambiguous, e.g. (a|b)+ not (a|ab)+"
                    )
            if problem is not None:
                c.emit(
                    "pattern-invalid",
                    f"Pattern '{shown(value)}' cannot be used: {problem}.",
                    field="triggers",
                    child="patterns",
                    item=index,
                )
        if unchecked:
            c.emit(
                "pattern-invalid",
                f"{counted(unchecked, 'more pattern')} not checked "
                f"for speed: the check stops after {SLOW_CHECK_BUDGET * 1000:.0f} ms per skill.",
                field="triggers",
                child="patterns",
                severity="warning",
            )

    def disabled_reason(self, skill: Skill) -> str | None:
        if skill.raw.get("default_enabled") is False:
            return "default_enabled is false"
        return None

    def trigger_phrases(self, skill: Skill) -> Iterable[tuple[str, str, int, str]]:
        triggers = skill.raw.get("triggers")
        if not isinstance(triggers, dict):
            return
        for kind in ("keywords", "verbs"):
            values = triggers.get(kind)
            if isinstance(values, list):
                for index, value in enumerate(values):
                    if isinstance(value, str) and value.strip():
                        yield " ".join(value.lower().split()), "triggers", index, kind

    # -- engine hooks ---------------------------------------------------------
    def detect_fields(self, mapping: Mapping[str, Any]) -> str | None:
        if isinstance(mapping.get("triggers"), dict):
            return "a 'triggers:' mapping"
        if isinstance(mapping.get("toolsets"), list):
            return "a 'toolsets:' list"
        return None

    def match_terms(self, skill: Skill) -> Terms:
        """Keywords and verbs (+10 each) as phrases, patterns, and a multi-word name
        as an explicit mention; description words."""
        name_words = words_of(skill.name)
        phrases: list[tuple[tuple[str, ...], str, str, int]] = []
        triggers = skill.fields.get("triggers", {})
        for kind, rule in (("keywords", "keyword"), ("verbs", "verb")):
            for value in triggers.get(kind, []):
                words = words_of(value)
                if words:
                    phrases.append((words, rule, value, KEYWORD_POINTS))
        patterns = list(triggers.get("patterns", []))
        # A bare mention counts as explicit for multi-word names (hello-extended);
        # a one-word name is also an ordinary word, so it needs /name, $name or
        # "use name skill" (handled in rank_toolsets).
        if len(name_words) > 1:
            phrases.append((name_words, "explicit", skill.name, POINTS["explicit"]))
        keywords = description_keywords(skill.description)
        return Terms(tuple(phrases), keywords, tuple(patterns), name_words)

    def trigger_texts(self, skill: Skill, patterns: bool = False) -> list[str]:
        triggers = skill.fields.get("triggers")
        if not isinstance(triggers, dict):
            return []
        kinds = ("keywords", "verbs", "patterns") if patterns else ("keywords", "verbs")
        return [t for k in kinds for t in triggers.get(k, []) if isinstance(t, str)]

    def rank(self, request: MatchRequest) -> MatchResult:
        return rank_toolsets(request)

    def listing_entry(self, skill: Skill) -> str:
        return f"- {skill.name}: {skill.fields.get('brief_description', '')}"

    def full_text(self, skill: Skill, body: str) -> str:
        return f"[Skill: {skill.name}]\n\n{body}"

    def deliver(self, request: ActivationRequest, skill: Skill, body: str) -> Activation:
        if request.session is not None:  # the session's recent skills rank higher later
            request.session.record_use(skill.name)
        return super().deliver(request, skill, body)

    def template_frontmatter(self, name: str, title: str, description: str) -> str:
        return (
            f"name: {name}\ndescription: {description}\nversion: 0.1.0\n"
            f"triggers:\n  keywords: [{name.split('-')[0]}]\n"
        )


def rank_toolsets(request: MatchRequest) -> MatchResult:
    """Keywords, verbs and patterns (10 each), explicit names, recent use; up to
    max_skills selected, ordered by explicit, exact hits, recency (toolsets)."""
    index, query, normalized, words = unpack(request)
    options, session, notes = request.options, request.session, request.notes
    profile = request.registry.profile.name
    max_skills = int(options.get("max_skills", 3))
    candidates: dict[str, Candidate] = {}
    for path, hits in phrase_hits(index, words).items():
        c = candidates.setdefault(path, Candidate(index.skills[path]))
        for rule, term, points in hits:
            c.reasons.append(Reason(rule, term, points))
            c.score += points
    turns = [[(p, s) for s in index.terms[p].patterns] for p in sorted(index.patterned)]
    names = {path: index.skills[path].name for path in index.patterned}
    for path, source in search_in_turns(turns, index.slow, names, query, notes):
        c = candidates.setdefault(path, Candidate(index.skills[path]))
        c.reasons.append(Reason("pattern", source, POINTS["pattern"]))
        c.score += POINTS["pattern"]
    invoked = explicit_invocation(query)
    if invoked is not None:
        skill = next((s for s in index.skills.values() if s.name == invoked[0]), None)
        if skill is not None:
            c = candidates.setdefault(skill.path, Candidate(skill))
            if not any(r.rule == "explicit" for r in c.reasons):
                c.reasons.insert(0, Reason("explicit", skill.name, POINTS["explicit"]))
                c.score += POINTS["explicit"]
    recent = session.recent if session else []
    for c in candidates.values():
        if c.name in recent:
            c.reasons.append(Reason("recent", c.name, POINTS["recent"]))
            c.score += POINTS["recent"]

    def rank(c: Candidate) -> tuple[int, int, int, str]:
        explicit = any(r.rule == "explicit" for r in c.reasons)
        exact = sum(1 for r in c.reasons if r.rule in ("keyword", "verb", "pattern"))
        recency = (len(recent) - recent.index(c.name)) if c.name in recent else 0
        return (-int(explicit), -exact, -recency, c.name)

    ranked = sorted(candidates.values(), key=rank)
    for c in ranked:
        c.passed = c.score >= 10
    selected = [c.name for c in ranked if c.passed][:max_skills]
    capability = is_capability_request(normalized)
    any_triggers = any(
        any(skill.fields.get("triggers", {}).values()) for skill in index.skills.values()
    )
    if not index.skills:
        tier = 0
    elif selected:
        tier = 3
    elif capability or not any_triggers:
        tier = 2
    else:
        tier = 1
    result = MatchResult(query, normalized, profile, 10, ranked, selected, tier)
    result.capability_request = capability
    return result
