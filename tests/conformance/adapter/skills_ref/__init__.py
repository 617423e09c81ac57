"""A stand-in for the `skills_ref` package (0.1.1) whose every answer comes from the
`skillstudio` command line (`--profile agentskills`, JSON output), so that skills-ref's
own test files, read from its source distribution, run against SkillStudio.

Only the public names those tests use are provided. Nothing here validates: each
function turns a SkillStudio command's JSON into the shape the reference returns
(a list of error strings, a properties object, the prompt text, an exception).
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillstudio.cli.main import main

PROFILE = ("--profile", "agentskills")
# Diagnostics that mean "this is not read as a skill file" (ParseError in skills-ref).
PARSE_CODES = {"frontmatter-missing", "frontmatter-unclosed", "yaml-invalid",
               "frontmatter-not-mapping", "no-skills", "skill-file-name"}  # fmt: skip


class SkillError(Exception):
    pass


class ParseError(SkillError):
    pass


class ValidationError(SkillError):
    def __init__(self, message: str, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.errors = errors if errors is not None else [message]


@dataclass
class SkillProperties:
    name: str
    description: str
    license: str | None = None
    compatibility: str | None = None
    allowed_tools: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": self.description}
        for key, value in (("license", self.license), ("compatibility", self.compatibility),
                           ("allowed-tools", self.allowed_tools)):  # fmt: skip
            if value is not None:
                out[key] = value
        if self.metadata:
            out["metadata"] = self.metadata
        return out


def run(*args: str) -> tuple[int, Any, str]:
    """One `skillstudio` command in this process: exit code, its JSON (or None), stderr.
    With SKILLS_REF_ADAPTER_LOG set, the error codes it reported are logged per test, so
    a failure can be checked to be one of wording only (the same verdict)."""
    out, err = io.StringIO(), io.StringIO()
    code = main([*args, "--format", "json", *PROFILE], cwd=os.getcwd(), out=out, err=err)
    try:
        data = json.loads(out.getvalue()) if out.getvalue().strip() else None
    except json.JSONDecodeError:
        data = None
    log = os.environ.get("SKILLS_REF_ADAPTER_LOG")
    if log:
        diagnostics = data.get("diagnostics", []) if isinstance(data, dict) else []
        codes = [d["code"] for d in diagnostics if d["severity"] == "error"]
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
        with open(log, "a", encoding="utf-8") as fh:
            entry = {"test": test, "command": args[0], "codes": codes + ["usage"] * (code == 2)}
            fh.write(json.dumps(entry) + "\n")
    return code, data, err.getvalue().strip()


def lint(path: Path) -> tuple[list[dict[str, Any]], list[str], str]:
    """(skills, error messages, usage error) of `skillstudio lint PATH`."""
    code, data, err = run("lint", str(path))
    if code == 2 or data is None:
        return [], [err], err
    errors = [d["message"] for d in data["diagnostics"] if d["severity"] == "error"]
    return data["skills"], errors, ""


def validate(skill_dir: Path) -> list[str]:
    """skills-ref's `validate`: the error messages of `skillstudio lint SKILL_DIR`."""
    return lint(Path(skill_dir))[1]


def find_skill_md(skill_dir: Path) -> Path | None:
    """The SKILL.md that `skillstudio lint` reads in a folder (None when it finds none)."""
    skills, _errors, _usage = lint(Path(skill_dir))
    return Path(skills[0]["path"]) if skills else None


def _show(skill_md: Path) -> dict[str, Any]:
    code, data, err = run("show", str(skill_md))
    if code != 0 or data is None:
        raise ParseError(err or "skillstudio show failed")
    result: dict[str, Any] = data
    return result


def _raise_first(diagnostics: list[dict[str, Any]]) -> None:
    errors = [d for d in diagnostics if d["severity"] == "error"]
    parse = [d["message"] for d in errors if d["code"] in PARSE_CODES]
    if parse:
        raise ParseError(parse[0])
    missing = [d["message"] for d in errors if d["code"] == "field-missing"]
    if missing:
        raise ValidationError(missing[0], missing)


def parse_frontmatter(content: str) -> tuple[dict[str, Any], str]:
    """Frontmatter and body of a SKILL.md text, as `skillstudio show` and `activate`
    read it (the text is written to a scratch skill folder first)."""
    with tempfile.TemporaryDirectory() as scratch:
        skill_md = Path(scratch, "skill", "SKILL.md")
        skill_md.parent.mkdir()
        skill_md.write_text(content, encoding="utf-8")
        data = _show(skill_md)
        _raise_first(data["diagnostics"])
        name = str(data["name"])
        code, act, _err = run("activate", name, "--root", scratch)
        body = act.get("content", "") if code == 0 and isinstance(act, dict) else ""
        return data["raw"], body


def read_properties(skill_dir: Path) -> SkillProperties:
    """Properties of the skill in a folder, from `skillstudio lint` and `show`."""
    skills, _errors, usage = lint(Path(skill_dir))
    if usage:
        raise ParseError(usage)
    if not skills:
        _code, data, _err = run("lint", str(skill_dir))
        messages = [d["message"] for d in (data or {}).get("diagnostics", [])]
        raise ParseError(messages[0] if messages else f"no SKILL.md in {skill_dir}")
    data = _show(Path(skills[0]["path"]))
    _raise_first(data["diagnostics"])
    raw = data["raw"]
    metadata = raw.get("metadata") or {}

    def text(key: str) -> str | None:
        return None if raw.get(key) is None else str(raw[key])

    return SkillProperties(
        name=str(raw.get("name", "")),
        description=str(raw.get("description", "")),
        license=text("license"),
        compatibility=text("compatibility"),
        allowed_tools=text("allowed-tools"),
        # The reference's model holds metadata as text; SkillStudio keeps YAML types
        # (and warns), so the values are turned into text here.
        metadata={str(k): str(v) for k, v in metadata.items()},
    )


def to_prompt(skill_dirs: list[Path]) -> str:
    """The <available_skills> block of `skillstudio prompt --tier 2` over the folders
    that hold the given skills."""
    with tempfile.TemporaryDirectory() as empty:
        parents = sorted({str(Path(d).resolve().parent) for d in skill_dirs}) or [empty]
        roots = [arg for parent in parents for arg in ("--root", parent)]
        code, data, err = run("prompt", "--tier", "2", *roots)
        if code != 0 or data is None:
            raise SkillError(err)
        text: str = data["text"]
        return text
