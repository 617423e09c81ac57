"""What the engine hands a profile's hooks: a request to rank (`MatchRequest`) and an
invocation to deliver (`ActivationRequest`), with what a hook may read of the engine's
objects declared as protocols (`SkillSet`, `TermIndex`, `RankingProfile`), so that
neither these types nor the profile interface (core/profile.py) name anything above
them; and `invocation_refused` and `model_invocation_off`, the invocation controls
profiles share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .delivered import Activation, Invoker
from .diagnostics import Diagnostic
from .matches import Terms
from .session import Session
from .skills import Skill


class RankingProfile(Protocol):
    """What a ranker reads of the registry's profile (`core.profile.Profile` is one)."""

    @property
    def name(self) -> str: ...

    def precedence(self, skill: Skill) -> int: ...

    def invocation_blocked(self, skill: Skill, query: str) -> str | None: ...

    @property
    def the_agent(self) -> str: ...

    def agent_skills(self, options: Mapping[str, Any]) -> list[Skill]: ...

    def own_origin(self) -> str: ...

    def invocations(self, name: str | None = None) -> str: ...

    def selects_line(self) -> str: ...


class SkillSet(Protocol):
    """What a profile's hooks read of the skills under its roots (the engine's
    `scanning.registry.Registry` is one)."""

    skills: list[Skill]  # every skill read, in root order
    by_path: dict[str, Skill]
    active: dict[str, Skill]  # by key: the skills the agent loads

    @property
    def profile(self) -> RankingProfile: ...  # the profile the skills were read by

    def get(self, key: str) -> Skill | None: ...


class TermIndex(Protocol):
    """What a ranker reads of the match index (`ranking.match_index.MatchIndex`)."""

    skills: dict[str, Skill]  # path -> active skill
    terms: dict[str, Terms]  # path -> what a request is matched against
    keywords: dict[str, dict[str, None]]  # description keyword -> paths (the keys)
    phrases: dict[tuple[str, ...], list[tuple[tuple[str, ...], str, str, int, str]]]
    order_key: dict[str, tuple[int, str]]  # path -> the profile's tie-break order
    patterned: set[str]  # paths of skills with patterns
    slow: set[tuple[str, str]]  # (path, pattern) that timed out
    failed: dict[str, Diagnostic]  # path -> `internal`: its terms failed


@dataclass(slots=True)
class MatchRequest:
    """One request as a profile's ranker gets it: the words, the index, the options."""

    registry: SkillSet
    index: TermIndex
    query: str
    normalized: str
    words: list[str]
    session: Session | None
    options: dict[str, Any]
    notes: list[str]  # notes of the match as a whole (placed before the ranker's own)


@dataclass(slots=True)
class ActivationRequest:
    """One invocation of a skill, as `Profile.activate` and `Profile.deliver` get it."""

    registry: SkillSet
    name: str  # the skill invoked
    args: str
    invoker: Invoker
    session: Session | None
    options: dict[str, Any]
    result: Activation  # the answer being filled in (and returned)


def invocation_refused(
    request: ActivationRequest, skill: Skill, model_refused: str, user_refused: str
) -> bool:
    """The invocation controls (`disable-model-invocation`, `user-invocable: false`): True,
    with a PERMISSION_DENIED error in the profile's own words, when the invoker may not."""
    fields = skill.fields
    if request.invoker == "model" and fields.get("disable-model-invocation"):
        message = model_refused
    elif request.invoker == "user" and not fields.get("user-invocable", True):
        message = user_refused
    else:
        return False
    request.result.error = {"code": "PERMISSION_DENIED", "message": message}
    return True


MODEL_INVOCATION_OFF = "disable-model-invocation: true (user only)"


def model_invocation_off(skill: Skill) -> str | None:
    """Why a profile that honours `disable-model-invocation` leaves `skill` out of its
    listing (the model never sees it; the user still invokes it by name), or None: the
    one rule every view reads through `Profile.listing_omission` (tier 2, `prompt`, the
    likely ranking and estimate, Try a Request, headroom, the tree's icon)."""
    return MODEL_INVOCATION_OFF if skill.fields.get("disable-model-invocation") else None
