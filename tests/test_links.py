"""Body links as markdown reads them (core/links.py): no false link-broken in code,
comments or footnotes, and destinations with parentheses whole."""

from __future__ import annotations

from pathlib import Path

from skillstudio.core.links import body_links

from .helpers import lint_json, write

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
