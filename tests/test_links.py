"""Body links as markdown reads them (core/checking/links.py): no false link-broken in code,
comments or footnotes, and destinations with parentheses whole."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.checking import links
from skillstudio.core.checking.links import body_links
from skillstudio.core.projects.portability import portability_of_file

from .helpers import codes, diag, lint_json, write

BODY = """# Use

Intro [a](file_(1).md) and `[b](inline-code.md)` and ![img](missing.png)

    [indented](indented-code.md)

```
[fenced](fenced.md)
```

<!-- [c](comment.md) -->

See [r][ref] and the note[^1].

[ref]: gone.md
[^1]: A footnote, not a reference definition.

| t | [cell](cell-missing.md) |
|---|---|
"""


def test_links_are_the_ones_markdown_finds() -> None:
    found = [(link.target, BODY[link.offset : link.offset + 4]) for link in body_links(BODY)]
    assert found == [
        ("file_(1).md", "[a]("),
        ("missing.png", "![im"),
        ("cell-missing.md", "[cel"),
        ("gone.md", "[ref"),
    ]


def test_lint_reports_only_real_broken_links(tmp_path: Path) -> None:
    """On main: inline-code.md, indented-code.md, comment.md and 'A' (the footnote read as
    a definition) were reported too, and file_(1).md was cut to 'file_(1'."""
    skill = write(tmp_path, "skills/demo/SKILL.md", "---\nname: demo\ndescription: d\n---\n" + BODY)
    write(tmp_path, "skills/demo/file_(1).md", "x\n")
    data = lint_json(str(Path(skill).parent), "--profile", "agentskills")
    broken = [
        (d["message"].split("'")[1], d["line"], d["column"])
        for d in data["diagnostics"]
        if d["code"] == "link-broken"
    ]
    at = 4  # BODY's line n is the file's line n + 4 (after the four frontmatter lines)
    assert broken == [
        ("missing.png", at + 3, 54),
        ("gone.md", at + 15, 1),
        ("cell-missing.md", at + 18, 7),
    ]


def test_a_body_without_link_syntax_is_not_parsed() -> None:
    assert body_links("plain text [not a link] and (parentheses)") == []


PLACEHOLDER_BODY = """# Use

Read [a]({baseDir}/references/a.md), [b](${CLAUDE_SKILL_DIR}/references/b.md) and
[c](${CLAUDE_PLUGIN_ROOT}/shared/c.md). Missing: [d]({baseDir}/references/gone.md),
[e](${CLAUDE_PLUGIN_ROOT}/../../escape.md).
"""


def _broken(data: dict[str, object]) -> list[str]:
    diags = data["diagnostics"]
    assert isinstance(diags, list)
    return [d["message"].split("'")[1] for d in diags if d["code"] == "link-broken"]


def test_placeholder_links_resolve_to_the_skill_and_plugin_folders(tmp_path: Path) -> None:
    """On main every placeholder link was link-broken (5 here); now only the file that
    does not exist and the one that leaves the plugin, in every profile."""
    plugin = tmp_path / "market" / "plugins" / "tools"
    write(plugin, ".claude-plugin/plugin.json", '{"name": "tools"}\n')
    skill = write(
        plugin,
        "skills/demo/SKILL.md",
        "---\nname: demo\ndescription: d\n---\n" + PLACEHOLDER_BODY,
        dedent=False,
    )
    write(plugin, "skills/demo/references/a.md", "a\n")
    write(plugin, "skills/demo/references/b.md", "b\n")
    write(plugin, "shared/c.md", "c\n")
    write(tmp_path, "market/escape.md", "outside the plugin\n")
    for profile in ("agentskills", "pegasus", "mvp", "workspace"):
        data = lint_json(skill, "--profile", profile)
        assert _broken(data) == [
            "{baseDir}/references/gone.md",
            "${CLAUDE_PLUGIN_ROOT}/../../escape.md",
        ], profile


def test_plugin_root_placeholder_without_a_plugin_is_the_skill_folder(tmp_path: Path) -> None:
    body = "[x](${CLAUDE_PLUGIN_ROOT}/x.md) [y](${CLAUDE_PLUGIN_ROOT}/y.md)\n"
    skill = write(tmp_path, "skills/demo/SKILL.md", "---\nname: demo\ndescription: d\n---\n" + body)
    write(tmp_path, "skills/demo/x.md", "x\n")
    assert _broken(lint_json(skill)) == ["${CLAUDE_PLUGIN_ROOT}/y.md"]


HEAD = "---\nname: demo\ndescription: d\n---\n"


def test_a_link_through_a_symbolic_link_out_of_the_skill_is_broken(tmp_path: Path) -> None:
    """On main `[notes](refs/notes.md)` with refs/notes.md a link to /etc/passwd (and a
    folder link out, a FIFO inside) passed the check: the path was only joined, and
    `exists` follows links."""
    body = (
        "Read [notes](refs/notes.md), [out](shared/x.md), [pipe](refs/pipe) and "
        "[ok](refs/ok.md), [alias](refs/alias.md), [dir](refs/).\n"
    )
    skill = write(tmp_path, "skills/demo/SKILL.md", HEAD + body)
    refs = Path(skill).parent / "refs"
    refs.mkdir()
    (refs / "notes.md").symlink_to("/etc/passwd")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.md").write_text("outside\n")
    (Path(skill).parent / "shared").symlink_to(outside)
    os.mkfifo(refs / "pipe")
    (refs / "ok.md").write_text("ok\n")
    (refs / "alias.md").symlink_to("ok.md")  # a link that stays inside is fine
    data = lint_json(skill)
    broken = {
        d["message"].split("'")[1]: d["message"]
        for d in data["diagnostics"]
        if d["code"] == "link-broken"
    }
    assert sorted(broken) == ["refs/notes.md", "refs/pipe", "shared/x.md"]
    assert "outside the skill folder" in broken["refs/notes.md"]
    assert "outside the skill folder" in broken["shared/x.md"]
    assert "not a file" in broken["refs/pipe"]


def test_the_link_check_is_bounded_and_its_parse_shared_by_every_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body of 100,000 links to missing files: on main each profile parsed all of it
    (4 s each, and a line count per link made it 17 s: 140 s for the portability
    line's eight profiles) and reported 100,000 problems. Now the first LINKS_CHECKED
    links are checked, one parse of that part serves every profile, and a scan-limit
    says where the unchecked rest starts."""
    body = "".join(f"[]({n:x})\n" for n in range(100_000))
    skill = write(tmp_path, "skills/demo/SKILL.md", HEAD + body)
    parsed: list[int] = []
    parser = links._parser()
    original = parser.parse

    def counted(text: str, env: Any = None) -> Any:
        parsed.append(len(text))
        return original(text, env)

    monkeypatch.setattr(parser, "parse", counted)
    links._parsed.cache_clear()
    verdicts = portability_of_file(skill)
    assert len(verdicts) >= 8
    assert len(parsed) == 1 and parsed[0] <= links.LINK_CHARS  # once, and bounded
    data = lint_json(skill)
    broken = [d for d in data["diagnostics"] if d["code"] == "link-broken"]
    assert len(broken) == links.LINKS_CHECKED
    assert broken[-1]["line"] == 4 + links.LINKS_CHECKED  # right lines (no drift)
    limit = diag(data, "scan-limit")
    assert limit["line"] == 5 + links.LINKS_CHECKED and limit["column"] == 2
    assert "not checked" in limit["message"]


def test_links_past_the_first_characters_are_not_checked(tmp_path: Path) -> None:
    body = "word " * (links.LINK_CHARS // 5) + "\n\n[late](missing.md)\n"
    skill = write(tmp_path, "skills/demo/SKILL.md", HEAD + body)
    data = lint_json(skill)
    assert "link-broken" not in codes(data)
    assert diag(data, "scan-limit")["line"] == 4 + body.count("\n")
