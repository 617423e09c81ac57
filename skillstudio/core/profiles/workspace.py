"""workspace (seed 004): <workDir>/skills, fallback parsing, allowlists, activateSkill consent."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..checking.field_checks import check_not_empty
from ..delivery.activation import delivered_body
from ..model.fields import FieldSpec
from ..model.profile_requests import ActivationRequest
from ..model.skills import Skill
from ..model.text import sanitize_name
from ..profile import Checker, Profile, RootSpec, listing_line
from ..reading.skill_files import supporting_files

if TYPE_CHECKING:
    from ..model.delivered import Activation


class Workspace(Profile):
    name = "workspace"
    order = 4
    title = "Workspace (skills/, activateSkill)"
    source = "seed 004"
    repository_roots = False  # its agent reads only its own folders
    roots = (RootSpec("skills", "workspace"),)
    discovery = "self_and_children"
    ignored_dirs = frozenset({".git", "node_modules"})
    uses_fallback = True
    uses_session = True  # activateSkill asks for consent once per session
    listing_frame = ("## Available Skills\n\n", "")
    full_tier = "activation"
    fields = (
        FieldSpec(
            "name",
            "string",
            "Name",
            "Skill name; normalized to a stable id (lowercase, other characters to '-').",
            required=True,
        ),
        FieldSpec(
            "description",
            "text",
            "Description",
            "Listed with the name and location in the Available Skills section.",
            required=True,
        ),
    )

    def resolve(self, skill: Skill, c: Checker) -> None:
        raw = skill.raw
        name = raw.get("name")
        written = name.strip() if isinstance(name, str) else ""
        skill.name = sanitize_name(written) or written or skill.folder_name
        skill.key = skill.name
        desc = raw.get("description")
        skill.description = desc.strip() if isinstance(desc, str) else ""
        skill.fields = {
            "name": skill.name,
            "written_name": written,
            "description": skill.description,
            "location": skill.path,
        }

    def check(self, c: Checker) -> None:
        raw = c.skill.raw
        name = raw.get("name")
        if isinstance(name, str):
            clean = sanitize_name(name)
            if not clean:
                c.emit(
                    "name-format",
                    f"The name '{name}' has no letters or digits, so its id is empty; the "
                    "skill is skipped. Use a name such as repo-survey.",
                    field="name",
                    at="value",
                )
                c.fail("name")
            elif clean != name.strip():
                c.emit(
                    "name-format",
                    f"The name '{name.strip()}' is known as '{clean}' (the stable id).",
                    field="name",
                    at="value",
                    severity="info",
                )
        check_not_empty(c, "description", "'description' is empty; the skill is skipped.")

    # -- engine hooks ---------------------------------------------------------
    def listed_skills(self, skills: list[Skill], options: Mapping[str, Any]) -> list[Skill]:
        """The agent's allowlist (`*` or none: every skill)."""
        allowlist = options.get("allowlist")
        if allowlist is None or "*" in allowlist:
            return skills
        allowed = set(allowlist)
        return [s for s in skills if s.name in allowed]

    def listing_entry(self, skill: Skill) -> str:
        return f"{listing_line(skill)}\n  location: {skill.path}"

    def activate(self, request: ActivationRequest) -> Activation:
        """activateSkill: only skills the agent sees; consent asked the first time in a
        session (risky), then safe; the instructions with the folder's structure."""
        from ..model.session import Session

        name, result = request.name, request.result
        visible = self.listed_skills(list(request.registry.active.values()), request.options)
        skill = next((s for s in visible if s.name == name), None)
        if skill is None:
            names = [s.name for s in visible]
            result.error = {
                "code": "NOT_FOUND",
                "message": f"Skill '{name}' is not available to this agent. Visible skills: "
                + (", ".join(names) if names else "none"),
                "visible": names,
            }
            return result
        session = request.session if request.session is not None else Session()
        risk = "safe" if skill.name in session.consented else "risky"
        session.consented.add(skill.name)
        body = delivered_body(skill)
        result.mode = "tool_result"
        result.content = body
        result.payload = {
            "risk": risk,
            "requires_consent": risk == "risky",
            "instructions": body,
            "folderStructure": folder_tree(skill),
            "mountPath": f"private:/.skills/{skill.name}",
            "metadata": {
                "name": skill.name,
                "description": skill.description,
                "location": skill.path,
            },
        }
        return result


MAX_TREE_ENTRIES = 200


def folder_tree(skill: Skill) -> str:
    """A tree summary of the skill folder (workspace `folderStructure`)."""
    files = ["SKILL.md", *supporting_files(skill)]
    truncated = len(files) > MAX_TREE_ENTRIES
    files = sorted(files[:MAX_TREE_ENTRIES])
    tree: dict[str, Any] = {}
    for rel in files:
        node = tree
        parts = rel.split(os.sep)
        for part in parts[:-1]:
            node = node.setdefault(part + "/", {})
        node[parts[-1]] = None
    lines = [skill.folder_name + "/"]

    def ordered(node: dict[str, Any]) -> list[tuple[str, Any]]:
        return sorted(node.items(), key=lambda kv: (kv[1] is None, kv[0]))

    # Depth first with an explicit stack: a 1,000-deep folder is no recursion limit.
    stack: list[tuple[list[tuple[str, Any]], int, str]] = [(ordered(tree), 0, "")]
    while stack:
        items, index, prefix = stack.pop()
        if index >= len(items):
            continue
        name, child = items[index]
        last = index == len(items) - 1
        lines.append(prefix + ("└── " if last else "├── ") + name)
        stack.append((items, index + 1, prefix))
        if child is not None:
            stack.append((ordered(child), 0, prefix + ("    " if last else "│   ")))
    if truncated:
        lines.append(f"… more than {MAX_TREE_ENTRIES} files")
    return "\n".join(lines)
