"""core/yaml_io.py: every bound refuses with a place and a plain reason; within the
bounds the data is exactly PyYAML's. (The CLI on each hostile case: test_hostile.py;
generated shapes: test_fuzz.py.)"""

from __future__ import annotations

import json

import pytest
import yaml

from skillstudio.core import yaml_io
from skillstudio.core.frontmatter import Document, parse_text

from . import hostile

DEEP = hostile.DEEP


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("d: " + "[" * DEEP, 1, 67, "64 levels deep"),
        ("d:\n  " + "- " * DEEP + "x", 2, 129, "64 levels deep"),
        ("d:\n  " + "? " * DEEP + "x", 2, 129, "64 levels deep"),
        ("d: " + "{a: " * DEEP, 1, 256, "64 levels deep"),
        ("d: " + "[a: " * DEEP, 1, 129, "64 levels deep"),  # implicit pair mappings
        ("a: &a " + "[" * 40 + "]" * 40 + "\nb: [" + "[" * 30 + "*a" + "]" * 31, 2, 35, "alias"),
        ("d: " + "9" * 5000, 1, 4, "5,000 characters"),
        ("d: 0x" + "f" * 2000, 1, 4, "2,002 characters"),
        ('d: !!int "' + "\\x31" * 1200 + '"', 1, 4, "1,200 characters"),
        ("".join(f"k{n}: v\n" for n in range(300)), 257, 1, "more than 256 keys"),
        ("l:\n" + "- a\n" * 5200, 5002, 3, "list of more than 5,000 entries"),
        ("l: [" + "a," * 5200 + "a]", 1, 10005, "list of more than 5,000 entries"),
        ("m:\n" + "".join(f"  k{n}: v\n" for n in range(5200)), 5002, 3, "mapping of more"),
        (hostile.ALIAS_BOMB.split("---\n")[1], 6, 8, "10,000 values"),
        ("a: &a [1, *a]", 1, 11, "refers to itself"),
        ("a: \ud800", 1, 4, "U+D800"),
    ],
)
def test_each_bound_is_refused_where_it_is_passed(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(yaml_io.YamlRefused) as caught:
        yaml_io.load(text)
    assert (caught.value.line, caught.value.column) == (line, column), caught.value.message
    assert words in caught.value.message


def test_within_the_bounds_the_data_is_pyyamls() -> None:
    at_the_edge = "d: " + "[" * 63 + "x" + "]" * 63
    texts = [
        at_the_edge,
        "".join(f"k{n}: v\n" for n in range(256)),
        "l:\n" + "- a\n" * 5000,
        "metadata:\n" + "".join(f"  k{n}: {n}\n" for n in range(2000)),
        "d: " + "9" * 1000,
        "a: &a [1, 2]\nb: [*a, *a]\nc: {x: *a}",
        "d:\n  - - - x\n  - {a: [b, {c: d}]}\n",
        "t: 2024-01-02\nf: 1.5\nb: yes\nn: ~",
    ]
    for text in texts:
        assert yaml_io.load(text) == yaml.safe_load(text), text
    with pytest.raises(yaml_io.YamlRefused):
        yaml_io.load("d: " + "[" * 64 + "x" + "]" * 64)  # one more level


def test_the_expanded_size_counts_characters_not_only_values() -> None:
    """200,000 cases of a 49 KB query are few values but 9.8 GB of text."""
    name, text = hostile.project_bombs()["suite-alias"]
    assert name == "suite.yaml" and len(text) < 700_000
    with pytest.raises(yaml_io.YamlRefused) as caught:
        yaml_io.load(text, yaml_io.SUITE)
    assert "8,388,608 characters" in caught.value.message and caught.value.line == 3


def test_text_longer_than_the_bound_is_not_parsed() -> None:
    with pytest.raises(yaml_io.YamlRefused, match="at most 262,144"):
        yaml_io.load("a: b\n" * 60_000, yaml_io.CONFIG)


def test_json_is_bounded_in_depth_and_numbers() -> None:
    with pytest.raises(yaml_io.YamlRefused) as caught:
        yaml_io.load_json("[" * 100_000 + "]" * 100_000)
    assert (caught.value.line, caught.value.column) == (1, 65)
    with pytest.raises(yaml_io.YamlRefused):
        yaml_io.load_json('[{"q": ' + "1" * 5000 + "}]")
    with pytest.raises(json.JSONDecodeError):
        yaml_io.load_json("[1,")
    edge = '[{"a": ' + "[" * 62 + '"[[[[{{{{"' + "]" * 62 + "}]"
    assert yaml_io.load_json(edge) == json.loads(edge)  # brackets inside strings don't count


def test_a_frontmatter_past_a_bound_is_one_diagnostic_at_its_place() -> None:
    for case, text in hostile.yaml_bombs().items():
        doc = parse_text(Document(path=f"{case}/SKILL.md"), text)
        assert doc.mapping is None, case
        problems = [p for p in doc.problems if p.code == "yaml-invalid"]
        assert len(problems) == 1 and problems[0].line >= 3, (case, problems)
        assert problems[0].message.startswith("The frontmatter "), problems
        assert doc.fallback["name"] == case  # the listing still has a name
