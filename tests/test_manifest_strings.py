"""Issue 25 item 5: a bad string in marketplace.json or plugin.json (a NUL, a lone
surrogate, a control character in a path or a name) is one diagnostic at its line
and column; the entry is left out and the rest is read, by every command."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from skillstudio.cli.main import main

from .helpers import skill_text, write

BAD = {"nul": "\x00", "surrogate": "\ud800", "escape": "\x1b[2J", "bidi": "\u202e"}
# (manifest, field) -> the bad strings that field refuses (NUL and surrogates anywhere;
# control and bidi characters in names and paths). Only the cases main got wrong: a
# control character in a path was already one diagnostic ("not a folder"), a NUL in
# a plugin name one too (not kebab-case).
FIELDS = {
    ("marketplace", "source"): ["nul", "surrogate"],
    ("marketplace", "name"): ["surrogate", "escape", "bidi"],
    ("plugin", "name"): ["surrogate"],
    ("plugin", "skills"): ["nul", "surrogate"],
    ("plugin", "skills-text"): ["nul", "surrogate"],
    ("codex", "name"): ["nul", "surrogate", "bidi"],
}
CASES = [(manifest, key, bad) for (manifest, key), bads in FIELDS.items() for bad in bads]
COMMANDS = [
    ["lint"],
    ["list", "--project"],
    ["match", "handle good requests", "--project"],
    ["prompt", "--project"],
    ["overlap"],
]


def strict_cli(*args: str, cwd: Path) -> tuple[int, str, str]:
    """The CLI with streams that refuse what a UTF-8 terminal cannot take (as sys.stdout
    does): a lone surrogate written to them raises, as it did for the user."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    code = main(list(args), cwd=str(cwd), out=out, err=err)
    texts = []
    for stream in (out, err):
        stream.flush()
        texts.append(stream.buffer.getvalue().decode("utf-8"))
    return code, texts[0], texts[1]


def make_case(base: Path, manifest: str, key: str, bad: str) -> tuple[Path, str, str]:
    """A repository holding the plugin `good` (skill `g`) beside the hostile entry;
    returns it, the manifest path and the JSON key whose line the diagnostic names."""
    repo = base / "repo"
    value = "x" + BAD[bad] + "y"
    good_skill = skill_text(name="g", description="Handles good requests for the tests.")
    if manifest == "codex":
        write(repo, ".git/HEAD", "ref: refs/heads/main\n")
        write(repo, ".agents/skills/good/g/SKILL.md", good_skill)
        write(repo, ".agents/skills/good/.codex-plugin/plugin.json", '{"name": "good"}')
        write(repo, ".agents/skills/bad/b/SKILL.md", skill_text(name="b", description="Bad."))
        data: dict[str, Any] = {"name": value, "version": "1.0.0"}
        path = write(
            repo, ".agents/skills/bad/.codex-plugin/plugin.json", json.dumps(data, indent=2)
        )
        return repo, path, "name"
    write(repo, "good/skills/g/SKILL.md", good_skill)
    write(repo, "good/.claude-plugin/plugin.json", json.dumps({"name": "good"}))
    write(repo, "bad/skills/b/SKILL.md", skill_text(name="b", description="Bad plugin."))
    plugin: dict[str, Any] = {"name": "bad"}
    entry = {"name": "bad", "source": "./bad"}
    if manifest == "marketplace":
        entry[key] = "./" + value if key == "source" else value
    elif key == "name":
        plugin["name"] = value
    elif key == "skills":
        plugin["skills"] = ["./skills", "./" + value]
    else:
        plugin["skills"] = "./" + value
    write(repo, "bad/.claude-plugin/plugin.json", json.dumps(plugin, indent=2))
    market = {
        "name": "m",
        "owner": {"name": "o"},
        "plugins": [entry, {"name": "good", "source": "./good"}],
    }
    path = write(repo, ".claude-plugin/marketplace.json", json.dumps(market, indent=2))
    target = path if manifest == "marketplace" else str(repo / "bad/.claude-plugin/plugin.json")
    return repo, target, "skills" if key.startswith("skills") else key


def expected_place(path: str, key: str, bad: str) -> tuple[int, int]:
    """Line and column of the `"key"` that holds the bad value, from the JSON text."""
    marker = json.dumps("x" + BAD[bad] + "y")[1:-1]
    for number, line in enumerate(Path(path).read_text().split("\n"), start=1):
        if marker in line:  # the key, or the list item, that holds it
            start = line.find(f'"{key}"')
            return number, (start if start >= 0 else len(line) - len(line.lstrip())) + 1
    raise AssertionError(f"{key} not in {path}")


@pytest.mark.parametrize(("manifest", "key", "bad"), CASES)
def test_a_bad_manifest_string_is_one_diagnostic_and_the_rest_is_read(
    tmp_path: Path, manifest: str, key: str, bad: str
) -> None:
    repo, path, field = make_case(tmp_path, manifest, key, bad)
    profile = "codex" if manifest == "codex" else "claude-code"
    code, out, err = strict_cli(
        "lint", "--format", "json", str(repo), "--profile", profile, cwd=repo
    )
    assert code in (0, 1) and "internal error" not in err, err
    data = json.loads(out)
    names = {s["name"] for s in data["skills"]}
    assert "good:g" in names, names
    found = [d for d in data["diagnostics"] if d["path"] == path and d["severity"] != "info"]
    assert len(found) == 1, found
    assert (found[0]["line"], found[0]["column"]) == expected_place(path, field, bad)
    for command in COMMANDS:
        args = [*command, str(repo), "--profile", profile]
        code, out, err = strict_cli(*args, cwd=repo)
        assert code in (0, 1) and "internal error" not in err, (command, err)
        assert "good:g" in out or command[0] not in ("list", "prompt"), (command, out)
