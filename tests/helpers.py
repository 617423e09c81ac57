"""Helpers for building skill trees and running the CLI in-process."""

from __future__ import annotations

import io
import json
import os
import textwrap
from dataclasses import dataclass
from typing import Any

from skillstudio.cli.main import main

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(REPO, "skills")
CORPUS = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus"))


def skill_files(*bases: str) -> list[str]:
    """Every SKILL.md under the given folders (hidden ones included), sorted walk order."""
    found: list[str] = []
    for base in bases:
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            if "SKILL.md" in filenames:
                found.append(os.path.join(dirpath, "SKILL.md"))
    return found


def write(base: Any, rel: str, text: str | bytes, dedent: bool = True) -> str:
    """Write a file under `base` (creating folders); returns its absolute path."""
    path = os.path.join(str(base), rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(text, bytes):
        with open(path, "wb") as fh:
            fh.write(text)
    else:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(textwrap.dedent(text).lstrip("\n") if dedent else text)
    return path


def skill_text(**fields: Any) -> str:
    """A SKILL.md with the given frontmatter (YAML-dumped values) and a short body."""
    import yaml

    body = fields.pop("_body", "# Instructions\n\nDo the thing.\n")
    front = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True) if fields else ""
    return f"---\n{front}---\n\n{body}"


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def cli(*args: str, cwd: Any = None) -> Run:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), cwd=str(cwd) if cwd is not None else REPO, out=out, err=err)
    return Run(code, out.getvalue(), err.getvalue())


def lint_json(*args: str, cwd: Any = None) -> dict[str, Any]:
    run = cli("lint", "--format", "json", *args, cwd=cwd)
    assert run.code in (0, 1), run.err
    data: dict[str, Any] = run.json
    return data


def codes(data: dict[str, Any], path_end: str | None = None) -> list[str]:
    return [
        d["code"] for d in data["diagnostics"] if path_end is None or d["path"].endswith(path_end)
    ]


def diag(data: dict[str, Any], code: str) -> dict[str, Any]:
    found = [d for d in data["diagnostics"] if d["code"] == code]
    assert found, f"no {code} in {[d['code'] for d in data['diagnostics']]}"
    return found[0]


def codex_machine(base: Any, monkeypatch: Any) -> Any:
    """Codex's scopes (HOME, CODEX_HOME and the admin folder) under `base` (a Path), a
    test's own folder: no test reads the machine's."""
    monkeypatch.setenv("HOME", str(base / "home"))
    monkeypatch.setenv("CODEX_HOME", str(base / "codex-home"))
    monkeypatch.setenv("SKILLSTUDIO_CODEX_ADMIN", str(base / "etc-codex"))
    return base
