"""Activation: the exact content each profile delivers when a skill is invoked."""

from __future__ import annotations

import os
from typing import Any

from ..model.delivered import Activation, Invoker
from ..model.diagnostics import internal
from ..model.profile_requests import ActivationRequest, SkillSet
from ..model.session import Session
from ..model.skills import Skill
from ..profile import Profile
from ..scanning.registry import Registry


def activate(
    registry: Registry,
    name: str,
    args: str = "",
    *,
    invoker: Invoker = "model",
    session: Session | None = None,
    options: dict[str, Any] | None = None,
) -> Activation:
    """What the profile delivers when `name` is invoked; never raises for a fault of
    this one skill (an unexpected exception becomes an error and an `internal`
    diagnostic on it)."""
    result = Activation(registry.profile.name, name)
    try:
        return _activate(registry, name, args, invoker, session, options or {}, result)
    except Exception as exc:
        skill = registry.active.get(name) or registry.get(name)
        path = skill.path if skill is not None else ""
        diagnostic = internal(path, name, "activating", exc)
        failed = Activation(registry.profile.name, name)
        failed.error = {"code": "INTERNAL_ERROR", "message": diagnostic.message}
        failed.diagnostics = [diagnostic]
        return failed


def _activate(
    registry: Registry,
    name: str,
    args: str,
    invoker: Invoker,
    session: Session | None,
    options: dict[str, Any],
    result: Activation,
) -> Activation:
    request = ActivationRequest(registry, name, args, invoker, session, options, result)
    profile = registry.profile
    activation = profile.activate(request)
    return activation if activation is not None else activate_standard(profile, request)


def activate_standard(profile: Profile, request: ActivationRequest) -> Activation:
    """The usual activation: the active skill by name, its body read, then delivered
    as the profile says (`Profile.deliver`); the profile words the errors."""
    registry, name, result = request.registry, request.name, request.result
    skill = registry.active.get(name)
    if skill is None:
        return _not_found(profile, registry, name, request.invoker, result)
    try:
        body = delivered_body(skill)
    except PermissionError as exc:
        result.error = {"code": "PERMISSION_DENIED", "message": f"{exc.strerror}: {skill.path}"}
        return result
    except OSError as exc:
        result.error = {"code": "EXECUTION_ERROR", "message": f"{exc.strerror}: {skill.path}"}
        return result
    return profile.deliver(request, skill, body)


def delivered_body(skill: Skill) -> str:
    """The instructions as an agent receives them: the body from its first non-blank
    line (tier 3 and activation share this rule). Raises OSError when unreadable."""
    from ..reading.frontmatter import read_document

    if skill.doc.text:
        return skill.doc.body.lstrip("\n")
    doc = read_document(skill.path, None, os.path.realpath(skill.root.boundary))  # (confined)
    if not doc.readable:
        code = doc.problems[0].code if doc.problems else "unreadable"
        if code in ("unreadable", "symlink-skipped"):
            raise OSError(5, doc.problems[0].message if doc.problems else "cannot read")
    # The blank lines between the closing '---' and the instructions are layout.
    return doc.body.lstrip("\n")


def _not_found(
    profile: Profile, registry: SkillSet, name: str, invoker: Invoker, result: Activation
) -> Activation:
    known = registry.get(name)
    error = profile.unloaded_error(name, known) if known is not None else None
    if error is not None:
        result.error = error
        return result
    result.error = {"code": "NOT_FOUND", "message": profile.not_found_message(name, invoker)}
    if known is not None:
        result.error["status"] = known.status
        result.error["reason"] = known.status_reason or (
            f"shadowed by {known.winner}" if known.winner else ""
        )
    return result
