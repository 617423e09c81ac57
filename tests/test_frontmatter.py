"""The frontmatter reader: fences, encodings, YAML failures, positions, fallback."""

from __future__ import annotations

import os
import time
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from skillstudio.core.model.document import Document
from skillstudio.core.model.positions import NO_CHILDREN
from skillstudio.core.reading.frontmatter import MAX_FILE_BYTES, parse_text, read_document

from .helpers import write


def parse(text: str) -> Document:
    return parse_text(Document(path="x/SKILL.md"), text)


def codes(doc: Document) -> list[str]:
    return [p.code for p in doc.problems]


def test_plain_frontmatter_and_body() -> None:
    doc = parse("---\nname: a\ndescription: b\n---\n# Body\n")
    assert doc.mapping == {"name": "a", "description": "b"}
    assert doc.body == "# Body\n"
    assert doc.body_line == 5
    assert doc.problems == []


def test_fence_allows_trailing_spaces_and_cr() -> None:
    doc = parse("---  \r\nname: a\r\n--- \r\nbody\r\n")
    assert doc.mapping == {"name": "a"}
    assert doc.newline == "\r\n"
    assert doc.body == "body\r\n"


def test_bom_is_remembered_and_ignored_for_parsing() -> None:
    doc = parse("\ufeff---\nname: a\n---\nbody\n")
    assert doc.bom and doc.encoding == "utf-8-sig"
    assert doc.mapping == {"name": "a"}
    assert not doc.text.startswith("\ufeff")


def test_crlf_file_reads_like_lf() -> None:
    doc = parse("---\r\nname: a\r\ndescription: two words\r\n---\r\n\r\nBody\r\n")
    assert doc.mapping == {"name": "a", "description": "two words"}
    assert doc.newline == "\r\n"


def test_triple_dash_inside_a_value_is_kept_whole() -> None:
    doc = parse("---\nname: a\ndescription: before --- after\n---\nbody\n")
    assert doc.mapping is not None
    assert doc.mapping["description"] == "before --- after"
    block = parse("---\nname: a\ndescription: |\n  one\n  ---\n  two\n---\nbody\n")
    assert block.mapping is not None
    assert block.mapping["description"] == "one\n---\ntwo\n"
    assert block.body == "body\n"


def test_no_frontmatter() -> None:
    doc = parse("# Just markdown\n")
    assert codes(doc) == ["frontmatter-missing"]
    assert doc.body == "# Just markdown\n"
    assert not doc.has_frontmatter


def test_leading_blank_line_means_no_frontmatter() -> None:
    assert codes(parse("\n---\nname: a\n---\n")) == ["frontmatter-missing"]


def test_unclosed_frontmatter_still_tells_name_and_description() -> None:
    doc = parse("---\nname: lost\ndescription: Still readable\n\n# Body\n")
    assert codes(doc) == ["frontmatter-unclosed"]
    assert doc.fallback == {"name": "lost", "description": "Still readable"}


def test_yaml_syntax_error_has_file_line_and_column() -> None:
    doc = parse("---\nname: a\ndescription: uses: colons here\n---\nbody\n")
    (problem,) = doc.problems
    assert problem.code == "yaml-invalid"
    assert problem.line == 3  # file line of the bad value
    assert problem.column == 18
    assert "quotes" in problem.message
    assert doc.fallback == {"name": "a", "description": "uses: colons here"}


def test_yaml_error_fallback_reads_block_scalars() -> None:
    doc = parse("---\nname: x\ndescription: >\n  folded\n  text\nbad: [unclosed\n---\n")
    assert codes(doc) == ["yaml-invalid"]
    assert doc.fallback["description"] == "folded text"


def test_alias_bomb_is_reported_not_expanded() -> None:
    bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for level in "bcdefghi":
        prev = chr(ord(level) - 1)
        bomb.append(f"{level}: &{level} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    text = "---\nname: bomb\n" + "\n".join(bomb) + "\n---\nbody\n"
    start = time.perf_counter()
    doc = parse(text)
    assert time.perf_counter() - start < 1.0
    assert codes(doc) == ["yaml-invalid"]
    assert "aliases" in doc.problems[0].message
    assert doc.mapping is None
    assert doc.fallback["name"] == "bomb"


def test_recursive_alias_is_reported() -> None:
    doc = parse("---\nname: r\nloop: &a [*a]\n---\n")
    assert codes(doc) == ["yaml-invalid"]


def test_small_aliases_are_fine() -> None:
    doc = parse("---\nname: a\nx: &v [1, 2]\ny: *v\n---\n")
    assert doc.mapping is not None and doc.mapping["y"] == [1, 2]
    assert doc.problems == []


def test_frontmatter_that_is_a_list() -> None:
    doc = parse("---\n- name: a\n- description: b\n---\nbody\n")
    assert codes(doc) == ["frontmatter-not-mapping"]
    assert doc.mapping is None
    assert "a list" in doc.problems[0].message


def test_scalar_frontmatter() -> None:
    assert codes(parse("---\njust text\n---\n")) == ["frontmatter-not-mapping"]


def test_empty_frontmatter_is_an_empty_mapping() -> None:
    doc = parse("---\n---\nbody\n")
    assert doc.mapping == {}
    assert doc.problems == []


def test_values_keep_their_yaml_types() -> None:
    doc = parse("---\npriority: high\nversion: 1.0\ntriggers: x\nflag: yes\n---\n")
    assert doc.mapping == {"priority": "high", "version": 1.0, "triggers": "x", "flag": True}


def test_duplicate_keys_are_reported_at_the_second() -> None:
    doc = parse("---\nname: a\ndescription: one\nname: b\n---\n")
    assert codes(doc) == ["duplicate-key"]
    assert doc.problems[0].line == 4
    assert doc.mapping is not None and doc.mapping["name"] == "b"


def test_non_string_keys_are_reported() -> None:
    doc = parse("---\n1: one\nname: a\n---\n")
    assert codes(doc) == ["field-type"]
    assert doc.mapping == {"1": "one", "name": "a"}


def test_unknown_tags_are_rejected_safely() -> None:
    doc = parse("---\nname: !!python/object/apply:os.system ['echo hi']\n---\n")
    assert codes(doc) == ["yaml-invalid"]


def test_positions_of_keys_values_and_items() -> None:
    doc = parse("---\nname: a\ntriggers:\n  - one\n  - two\nmeta:\n  keywords: [x, y]\n---\nbody\n")
    pos = doc.positions()
    assert (pos["name"].key_line, pos["name"].key_column) == (2, 1)
    assert (pos["name"].value_line, pos["name"].value_column) == (2, 7)
    assert pos["triggers"].items == [(4, 5), (5, 5)]
    assert doc.child_position("meta", "keywords", 1) == (7, 17)
    assert doc.key_position("absent") == (1, 1)


def test_positions_shift_by_nothing_with_bom_and_crlf() -> None:
    doc = parse("\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\n")
    assert doc.key_position("description") == (3, 1)


def test_read_latin1_file(tmp_path: Path) -> None:
    path = write(tmp_path, "s/SKILL.md", "---\nname: café\n---\n".encode("latin-1"))
    doc = read_document(path)
    assert codes(doc) == ["not-utf8"]
    assert (doc.problems[0].line, doc.problems[0].column) == (2, 10)
    assert "UTF-8" in doc.problems[0].message


def test_read_binary_file(tmp_path: Path) -> None:
    path = write(tmp_path, "s/SKILL.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200))
    doc = read_document(path)
    assert codes(doc) == ["not-utf8"]
    assert "binary" in doc.problems[0].message


def test_read_50mb_file_is_refused_without_reading(tmp_path: Path) -> None:
    path = os.path.join(tmp_path, "SKILL.md")
    with open(path, "wb") as fh:
        fh.write(b"---\nname: huge\n---\n")
        fh.truncate(50 * 1024 * 1024)
    start = time.perf_counter()
    doc = read_document(path)
    assert time.perf_counter() - start < 0.5
    assert codes(doc) == ["file-too-large"]
    assert "50" in doc.problems[0].message.replace(",", "")


def test_file_at_the_limit_is_parsed(tmp_path: Path) -> None:
    head = b"---\nname: edge\n---\n"
    path = write(tmp_path, "SKILL.md", head + b"x" * (MAX_FILE_BYTES - len(head)))
    doc = read_document(path)
    assert doc.problems == [] and doc.mapping == {"name": "edge"}


def test_unreadable_path_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    doc = read_document(os.path.join(tmp_path, "missing", "SKILL.md"))
    assert codes(doc) == ["unreadable"]


def test_deeply_nested_flow_yaml_does_not_crash() -> None:
    doc = parse("---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n")
    assert doc.mapping is not None or codes(doc) == ["yaml-invalid"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_never_raises(text: str) -> None:
    doc = parse("---\n" + text + "\n---\nbody")
    assert doc.mapping is not None or doc.problems


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z_-]{0,10}", fullmatch=True),
        st.one_of(
            st.text(max_size=40),
            st.integers(),
            st.booleans(),
            st.lists(st.text(max_size=20), max_size=4),
        ),
        max_size=6,
    )
)
def test_reader_agrees_with_pyyaml(data: dict[str, object]) -> None:
    front = yaml.safe_dump(data, allow_unicode=True)
    doc = parse("---\n" + front + "---\nbody\n")
    assert doc.mapping == yaml.safe_load(front)


def test_file_that_grew_since_it_was_measured(tmp_path: Path) -> None:
    path = write(tmp_path, "SKILL.md", "---\nname: grown\n---\nbody\n")
    assert read_document(path, size_hint=4).mapping == {"name": "grown"}
    big = write(tmp_path, "big/SKILL.md", b"---\nname: x\n---\n" + b"y" * (MAX_FILE_BYTES + 10))
    assert codes(read_document(big, size_hint=10)) == ["file-too-large"]


def test_key_that_is_not_text_is_kept_as_text_and_reported() -> None:
    """Found by tests/test_fuzz.py's differential run: a bare '?' is a null key."""
    doc = parse("---\n?\n---\nbody")
    assert doc.mapping == {"None": None}
    assert codes(doc) == ["field-type"]


def test_positions_are_kept_once_after_they_are_first_asked_for() -> None:
    """The fast path's raw positions become FieldPos on demand; both were kept for
    every skill (9 MB at 10,000 skills), now the raw ones are let go."""
    doc = parse("---\nname: a\ndescription: b\ntags:\n  - x\n  - y\n---\nBody\n")
    assert doc._raw_positions is not None  # (the fast path read it)
    positions = doc.positions()
    assert doc._raw_positions is None
    assert doc.positions() is positions  # asked again: the same, not read anew
    assert doc.key_position("description") == (3, 1)
    assert doc.value_position("tags", 1) == (6, 5)


def test_keys_without_items_or_children_share_empty_ones() -> None:
    """An empty list and dict of its own for every key of every skill were 6 MB at 10,000."""
    fast = parse("---\nname: a\ndescription: b\n---\nBody\n")
    composed = parse("---\nname: a\ndescription: b\nmetadata: {x: 1}\n---\nBody\n")
    for doc in (fast, composed):
        name = doc.positions()["name"]
        assert name.items == () and name.children is NO_CHILDREN
    assert composed.positions()["metadata"].children["x"].key_line == 4
