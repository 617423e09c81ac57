"""The fast frontmatter path agrees with libyaml wherever it answers."""

from __future__ import annotations

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skillstudio.core.reading.fastyaml import fast_load
from skillstudio.core.reading.frontmatter import compose_positions

TRICKY = [
    "yes",
    "No",
    "on",
    "OFF",
    "null",
    "~",
    "1.0",
    "1e3",
    "0x1F",
    "0755",
    "1_000",
    "+5",
    "-0",
    "2024-01-01",
    "12:30",
    "=",
    "<<",
    ".inf",
    ".NaN",
    "true",
    "a: b",
    "a #b",
    "a#b",
    "#x",
    "-x",
    "- x",
    "?x",
    ":x",
    "x:",
    "[a]",
    "{a}",
    "a [b] c",
    "'q'",
    '"d"',
    "it's",
    'say "hi"',
    "'a''b'",
    '"a\\nb"',
    "&a",
    "*a",
    "!t",
    "|",
    ">",
    "%p",
    "@x",
    "`x`",
    "C#",
    "x  ",
    "ü",
    "日本",
    "a\\b",
    "y",
    "n",
    "0",
    "00",
    "-1",
    "1.",
    "x: ",
    "a\tb",
    "",
]

scalar = st.one_of(
    st.sampled_from(TRICKY),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
    st.from_regex(r"[a-z][a-z ]{0,20}", fullmatch=True),
)
key = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True),
    st.sampled_from(["yes", "on", "1", "a b"]),
)


@st.composite
def frontmatter(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        k = draw(key)
        kind = draw(st.sampled_from(["scalar", "list", "empty", "comment", "blank"]))
        if kind == "scalar":
            lines.append(f"{k}: {draw(scalar)}")
        elif kind == "list":
            indent = " " * draw(st.sampled_from([0, 2, 4]))
            lines.append(f"{k}:")
            for _ in range(draw(st.integers(1, 4))):
                lines.append(f"{indent}- {draw(scalar)}")
        elif kind == "empty":
            lines.append(f"{k}:")
        elif kind == "comment":
            lines.append("# " + draw(scalar))
        else:
            lines.append("")
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline


def libyaml(text: str) -> object:
    try:
        return yaml.load(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return "<error>"


@settings(max_examples=1000, deadline=None)
@given(frontmatter())
@example("name: a\ndescription: b\ntriggers:\n  - x\n  - y\npriority: 5\n")
@example("a: 'it''s'\nb: \"plain\"\nc: C# and F#\n")
def test_fast_path_agrees_with_libyaml(text: str) -> None:
    fast = fast_load(text, 2)
    if fast is None:
        return
    mapping, positions = fast
    assert mapping == (libyaml(text) or {}), text
    exact, _ = compose_positions(text, 2)
    for k, (key_line, key_col, value_line, value_col, _, _, items) in positions.items():
        ref = exact[k]
        assert (key_line, key_col) == (ref.key_line, ref.key_column), (text, k)
        if mapping[k] is not None:
            assert (value_line, value_col) == (ref.value_line, ref.value_column), (text, k)
        assert list(items) == list(ref.items), (text, k)  # (a list; a tuple when none)


def test_fast_path_takes_the_common_shape() -> None:
    text = "name: code-review\ndescription: Review code. Use it: rarely\n"
    assert fast_load(text, 2) is None  # ': ' inside a plain value: libyaml decides
    common = (
        "name: code-review\ndescription: Review the diff\ntriggers:\n  - review this\n"
        "priority: 80\n"
    )
    result = fast_load(common, 2)
    assert result is not None
    assert result[0] == {
        "name": "code-review",
        "description": "Review the diff",
        "triggers": ["review this"],
        "priority": 80,
    }


def test_fast_path_declines_what_it_does_not_handle() -> None:
    for text in (
        "a: [x, y]\n",
        "a: |\n  x\n",
        "a: &x 1\nb: *x\n",
        "a: 1.0\n",
        "a: yes\n",
        "a: x\na: y\n",
        "a: x # c\n",
        "a:\n  b: c\n",
        "a: x\n  continued\n",
        "yes: 1\n",
        'a: "esc\\n"\n',
        "a:\tx\n",
    ):
        assert fast_load(text, 2) is None, text


def test_a_key_name_is_one_string_across_files() -> None:
    """Every file's `description` key is the same string (interned): 50,000 keys of
    10,000 skills were as many strings, 3 MB."""
    first = fast_load("".join(["name: a\n", "descrip", "tion: one\n"]), 2)
    second = fast_load("".join(["name: b\n", "descrip", "tion: two\n"]), 2)
    assert first is not None and second is not None
    key_a = next(k for k in first[0] if k.startswith("descr"))
    key_b = next(k for k in second[0] if k.startswith("descr"))
    assert key_a == key_b and key_a is key_b
    assert next(k for k in first[1] if k.startswith("descr")) is key_a  # its position's key
