"""core/reading/yaml_io.py: every bound refuses with a place and a plain reason; within the
bounds the data is exactly PyYAML's. (The CLI on each hostile case: test_hostile.py;
generated shapes: test_fuzz.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from skillstudio.core.model.document import Document
from skillstudio.core.reading import yaml_io
from skillstudio.core.reading.frontmatter import parse_text

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


def _libyaml_026_parse(real: Any) -> Any:
    """yaml.parse as libyaml 0.2.6 (PyYAML 6.0.4) behaves: more than 1,000 open flow
    collections raise a ScannerError before the document's first event is seen."""

    def parse(text: str, Loader: Any = None) -> Any:  # PyYAML's own keyword name
        level = 0
        for index, char in enumerate(text):
            level += {"[": 1, "{": 1, "]": -1, "}": -1}.get(char, 0)
            if level > 1000:
                line = text.count("\n", 0, index) + 1
                column = index - (text.rfind("\n", 0, index) + 1)
                mark = yaml.Mark("<unicode string>", index, line - 1, column, text, index)
                raise yaml.scanner.ScannerError(
                    "while increasing flow level", mark, "exceeded maximum nesting depth", mark
                )
        return real(text, Loader=Loader)

    return parse


@pytest.mark.parametrize("libyaml", ["installed", "0.2.6"])
@pytest.mark.parametrize(("opener", "column"), [("[", 67), ("{", 67), ("{a: ", 256), ("[a: ", 129)])
def test_a_too_deep_frontmatter_reads_the_same_whichever_libyaml_refuses_first(
    libyaml: str, opener: str, column: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the user sees (one `yaml-invalid` at the first level past 64, in words) does
    not depend on whether our bound or libyaml's own nesting limit meets the text first."""
    if libyaml == "0.2.6":
        monkeypatch.setattr(yaml_io.yaml, "parse", _libyaml_026_parse(yaml.parse))
    text = "---\nname: deep\ndescription: d\nd: " + opener * DEEP + "\n---\nbody\n"
    doc = parse_text(Document(path="deep/SKILL.md"), text)
    problems = [(p.code, p.line, p.column, p.message) for p in doc.problems]
    assert doc.mapping is None and len(problems) == 1, problems
    assert problems[0][:3] == ("yaml-invalid", 4, column), problems
    message = problems[0][3]
    assert "nests more than 64 levels deep" in message and "flatten it" in message
    assert "Traceback" not in message and "maximum nesting depth" not in message


def test_json_is_bounded_in_count_before_anything_is_built() -> None:
    # 4 MB of `[],` (within the size bound) would build 1.4 million lists
    bomb = "[" + "[]," * 1_300_000 + "[]]"
    with pytest.raises(yaml_io.YamlRefused, match="more than 200,000 values") as caught:
        yaml_io.load_json(bomb)
    assert caught.value.line == 1 and caught.value.column > 250_000
    strings = "[" + '"",' * 1_300_000 + '""]'
    with pytest.raises(yaml_io.YamlRefused, match="values"):
        yaml_io.load_json(strings)
    # separators inside strings don't count; a suite of 10,000 cases fits
    cases = [{"query": "a, b, [c]", "should_trigger": True, "skills": ["x", "y"]}] * 10_000
    text = json.dumps(cases)
    assert yaml_io.load_json(text) == cases
