"""A wrapped description edited through the form's and `set`'s writer keeps its layout:
style, chomping, indentation and width, and the lines the edit did not reach."""

from __future__ import annotations

import difflib
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillstudio.core.editing.changes import Change
from skillstudio.core.editing.round_trip import apply_changes
from skillstudio.core.editing.wrapping import DEFAULT_WIDTH
from skillstudio.core.model.document import Document
from skillstudio.core.reading.frontmatter import parse_text, read_document
from skillstudio.core.reading.yaml_io import plain_ok

from .helpers import CORPUS, cli, skill_files, write

SENTENCE = "Also check the result twice before reporting back."


def _edit(text: str, value: str) -> str:
    doc = parse_text(Document(path="x/SKILL.md"), text)
    return apply_changes(doc, [Change("set", "description", value)])


def _description(text: str) -> Any:
    return yaml.safe_load(text.split("---\n")[1])["description"]


def _diff(old: str, new: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


PLAIN = """---
name: notes
description: Writes release notes for a project from the commits since
  the last tag, grouped by the kind of change, with links to the pull
  requests that made each change and the people who wrote them, so a
  reader sees at a glance what changed and why it matters for them.
  Use it when preparing a release or a changelog.
license: MIT
---

# Notes
"""


def test_appending_a_sentence_touches_only_the_last_lines() -> None:
    new_value = _description(PLAIN) + " " + SENTENCE
    out = _edit(PLAIN, new_value)
    assert _description(out) == new_value
    changed = _diff(PLAIN, out)
    assert changed[0] == "-  Use it when preparing a release or a changelog."
    assert all(not line.startswith("-") for line in changed[1:])
    assert len(changed) <= 3
    width = max(len(line) for line in PLAIN.splitlines()[2:7])
    assert all(len(line) <= width for line in out.splitlines()[2:8])
    assert out.splitlines()[:6] == PLAIN.splitlines()[:6]


def test_an_edit_in_the_middle_keeps_the_lines_after_it() -> None:
    old = _description(PLAIN)
    new_value = old.replace("by the kind of change", "by the type of change")
    out = _edit(PLAIN, new_value)
    assert _description(out) == new_value
    assert _diff(PLAIN, out) == [
        "-  the last tag, grouped by the kind of change, with links to the pull",
        "+  the last tag, grouped by the type of change, with links to the pull",
    ]
    longer = _edit(PLAIN, old.replace("the kind", "the kind and scope"))
    assert _description(longer) == old.replace("the kind", "the kind and scope")
    assert longer.splitlines()[:3] == PLAIN.splitlines()[:3]
    assert all(len(line) <= 72 for line in longer.splitlines())


def test_plain_text_that_needs_quotes_is_quoted_at_the_same_width() -> None:
    new_value = _description(PLAIN) + " Note: it never tags #releases itself."
    out = _edit(PLAIN, new_value)
    assert _description(out) == new_value
    lines = out.splitlines()
    assert lines[2].startswith("description: 'Writes release notes")
    width = max(len(line) for line in PLAIN.splitlines()[2:7])
    assert all(len(line) <= width + 1 for line in lines[2:8])


@pytest.mark.parametrize("header", [">", ">-"])
def test_folded_keeps_header_paragraphs_and_width(header: str) -> None:
    text = (
        f"---\nname: n\ndescription: {header}\n"
        "    Writes release notes for a project from the commits\n"
        "    since the last tag, grouped by the kind of change.\n\n"
        "    Use it when preparing a release.\nlicense: MIT\n---\nbody\n"
    )
    old = _description(text)
    new_value = old.rstrip("\n") + " " + SENTENCE + ("\n" if old.endswith("\n") else "")
    out = _edit(text, new_value)
    assert _description(out) == new_value
    lines = out.splitlines()
    assert lines[2] == f"description: {header}"
    assert lines[3:6] == text.splitlines()[3:6]
    assert all(line.startswith("    ") for line in lines[6:8])
    assert all(len(line) <= 57 for line in lines[3:8])


def test_literal_keeps_its_lines_and_chomping_follows_the_text() -> None:
    text = "---\nname: n\ndescription: |\n  First line.\n  Second line.\n---\nbody\n"
    out = _edit(text, "First line.\nSecond line. " + SENTENCE + "\n")
    assert out.splitlines()[2:4] == ["description: |", "  First line."]
    stripped = _edit(text, "First line.\nSecond line.")
    assert stripped.splitlines()[2] == "description: |-"
    assert _description(stripped) == "First line.\nSecond line."


def test_set_keeps_the_wrapping(tmp_path: Path) -> None:
    path = write(tmp_path, "skills/notes/SKILL.md", PLAIN, dedent=False)
    new_value = _description(PLAIN) + " " + SENTENCE
    run = cli("set", path, f"description={new_value}", cwd=tmp_path)
    assert run.code == 0, run.err
    with open(path, encoding="utf-8") as fh:
        out = fh.read()
    assert out.splitlines()[:6] == PLAIN.splitlines()[:6]
    assert _description(out) == new_value


def _wrapped_descriptions() -> list[str]:
    found = []
    for path in skill_files(CORPUS):
        doc = read_document(path)
        if doc.mapping is None or not isinstance(doc.mapping.get("description"), str):
            continue
        node = _description_node(doc.fm_text)
        if node is not None and (
            node.style in ("|", ">") or node.start_mark.line != node.end_mark.line
        ):
            found.append(path)
    return found


def _description_node(fm: str) -> Any:
    try:
        root = yaml.compose(fm)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, node in root.value:
        if key.value == "description" and isinstance(node, yaml.ScalarNode):
            return node
    return None


def _append_and_check(doc: Document, label: str) -> None:
    """Append SENTENCE to `doc`'s description through the writer `set` and the form
    use, and check: it reads back as the intended text, in the same style (and block
    header), every line within the old width plus one word, the lines before the
    last of the old value and every line around the entry unchanged."""
    old_value = doc.mapping["description"]  # type: ignore[index]
    old_node = _description_node(doc.fm_text)
    body = old_value.rstrip("\n")
    if old_node.style == "|":  # a literal's lines are its text: the sentence on its own
        body += "\n" + SENTENCE
    else:
        body += ("\n\n" if body.endswith("\n") else " ") + SENTENCE
    new_value = body + ("\n" if old_value.endswith("\n") else "")
    out = apply_changes(doc, [Change("set", "description", new_value)])
    new_doc = parse_text(Document(path=doc.path), out)
    assert new_doc.mapping is not None, label
    assert new_doc.mapping["description"] == new_value, label
    new_node = _description_node(new_doc.fm_text)
    assert new_node.style == old_node.style, label
    old_lines = doc.fm_text.splitlines()
    new_lines = new_doc.fm_text.splitlines()
    first, last = old_node.start_mark.line, old_node.end_mark.line
    if old_node.style in ("|", ">"):
        assert new_lines[first] == old_lines[first], label  # header and chomping
        last = last if old_node.end_mark.column else last - 1
    while last > first and not old_lines[last].strip():
        last -= 1
    region = old_lines[first : last + 1]
    wrapped = len(region) > 2 or old_node.style not in ("|", ">")
    width = max(len(line) for line in region)
    width = width if wrapped else max(width, DEFAULT_WIDTH)
    grown = len(new_lines) - len(old_lines)
    new_region = new_lines[first : last + 1 + grown]
    longest_word = max(len(w) for w in SENTENCE.split())
    assert all(len(line) <= width + 1 + longest_word for line in new_region), label
    assert new_region[: len(region) - 1] == region[:-1], label  # untouched lines kept
    assert new_lines[last + 1 + grown :] == old_lines[last + 1 :], label
    assert new_lines[:first] == old_lines[:first], label


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
def test_corpus_wrapped_descriptions_keep_style_width_and_lines() -> None:
    paths = _wrapped_descriptions()
    assert len(paths) >= 5, len(paths)
    for path in paths:
        _append_and_check(read_document(path), path)
    print(f"{len(paths)} wrapped corpus descriptions round-tripped")


def _wrapped_in(style: str, text: str, width: int = 72) -> str:
    """`text` as a `description:` wrapped at `width` in `style` (textwrap's breaks)."""
    if style == "'":
        text = "'" + text.replace("'", "''") + "'"
    elif style == '"':
        text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if style == ">-":
        rows = textwrap.wrap(text, width - 2, break_long_words=False, break_on_hyphens=False)
        return "description: >-\n" + "".join(f"  {row}\n" for row in rows)
    rows = textwrap.wrap(
        "description: " + text, width, break_long_words=False, break_on_hyphens=False
    )
    return rows[0] + "\n" + "".join(f"  {row}\n" for row in rows[1:])


@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
@pytest.mark.parametrize("style", ["plain", "'", '"', ">-"])
def test_corpus_descriptions_wrapped_in_each_style_keep_it(style: str) -> None:
    """The corpus has folded and literal wrapped descriptions only: its one-line ones,
    wrapped here in each style at 72 columns, are edited the same way."""
    checked = 0
    for path in skill_files(CORPUS):
        value = read_document(path).mapping or {}
        text = value.get("description")
        if not isinstance(text, str) or "\n" in text or len(text) < 100:
            continue
        if style == "plain" and not plain_ok(text):
            continue
        source = f"---\nname: x\n{_wrapped_in(style, text)}license: MIT\n---\nbody\n"
        doc = parse_text(Document(path=path), source)
        if doc.mapping is None or doc.mapping.get("description") != text:
            continue  # textwrap's breaks lost a run of spaces: not this test's input
        _append_and_check(doc, f"{path} ({style})")
        checked += 1
    assert checked >= 50, checked
    print(f"{checked} corpus descriptions wrapped {style} round-tripped")


def test_a_block_header_with_indicators_and_a_comment_stays_byte_for_byte() -> None:
    text = "---\nname: n\ndescription: >-2 # kept\n  Hello there\n  world.\n---\nbody\n"
    out = _edit(text, "Hello there world. Bye.")
    assert out.splitlines()[2:4] == ["description: >-2 # kept", "  Hello there"]
    assert _description(out) == "Hello there world. Bye."
    clipped = _edit(text, "Hello there world.\n")  # a final line break: clip chomping
    assert clipped.splitlines()[2] == "description: >2 # kept"
    assert _description(clipped) == "Hello there world.\n"
