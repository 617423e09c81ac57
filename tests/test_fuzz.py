"""Fuzzing the whole pipeline: reader, validation, matching, tiers, activation and the
round-trip writer, on generated hostile SKILL.md files, under every profile.

Default run: a few hundred examples per test (seconds). The long run:

    SKILLSTUDIO_FUZZ_EXAMPLES=20000 .venv/bin/python -m pytest tests/test_fuzz.py -q

No exception may escape, no input may take more than WATCHDOG_S seconds, every file
gets diagnostics with a place, and what the reader accepts agrees with PyYAML.
"""

from __future__ import annotations

import json
import os
import signal
import string
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from skillstudio.core.delivery.activation import activate
from skillstudio.core.delivery.tiers import render_tiers
from skillstudio.core.editing.changes import Change
from skillstudio.core.editing.round_trip import apply_changes
from skillstudio.core.model.document import Document
from skillstudio.core.model.session import Session
from skillstudio.core.profiles import PROFILE_NAMES
from skillstudio.core.projects.project import project_from_roots
from skillstudio.core.ranking.matching import match
from skillstudio.core.reading.frontmatter import parse_bytes, parse_text
from skillstudio.core.reading.yaml_io import EditError

EXAMPLES = int(os.environ.get("SKILLSTUDIO_FUZZ_EXAMPLES", "150"))
WATCHDOG_S = 10
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

KEYS = [
    "name",
    "description",
    "triggers",
    "keywords",
    "tags",
    "allowed-tools",
    "metadata",
    "license",
    "version",
    "when_to_use",
    "arguments",
    "argument-hint",
    "disable-model-invocation",
    "user-invocable",
    "risk",
    "toolsets",
    "x-custom",
]
YAMLISH = (
    string.ascii_letters + string.digits + " :-_'\"#&*!|>[]{},.?%@`\\/\t\n" + "éü中\u200b\x00\x7f"
)


@contextmanager
def watchdog(seconds: int = WATCHDOG_S) -> Iterator[None]:
    """A hang is a failure: SIGALRM interrupts the example after `seconds`."""

    def fire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


scalars = st.one_of(
    st.text(YAMLISH, max_size=40),
    st.integers(),
    st.booleans(),
    st.none(),
    st.sampled_from(["*a", "&a x", "!!python/object:os.system", "[", "{a: [b", "|", ">-", "~"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)


# -- bounded YAML (core/reading/yaml_io.py): deep nesting and huge numbers ---------------------

DEPTHS = st.one_of(st.integers(0, 80), st.sampled_from([63, 64, 65, 5_000, 50_000]))
# flow opener -> (closer, levels per opener: an implicit pair mapping adds one)
FLOW = {"[": ("]", 1), "{a: ": ("}", 1), "[a: ": ("]", 2), "[? ": ("]", 2), "&x [": ("]", 1)}
OPENERS = [*FLOW, "!!seq [", "- ", "? ", "k:\n"]


@st.composite
def nested(draw: st.DrawFn) -> tuple[str, int]:
    """(YAML value, its nesting) built from one opener repeated, closed or left open."""
    opener = draw(st.sampled_from(OPENERS))
    depth = draw(DEPTHS)
    if opener in ("- ", "? "):
        return opener * depth + "x", depth
    if opener == "k:\n":  # block mappings, two spaces deeper each level (under column 5)
        lines = [" " * (6 + 2 * n) + "k:" for n in range(min(depth, 400))]
        return "\n" + "\n".join(lines) + " x", min(depth, 400)
    closer, per = FLOW.get(opener, ("]", 1))
    levels = depth * per
    close = draw(st.booleans())
    return opener * depth + "x" + (closer * depth if close else ""), levels


@st.composite
def numbers(draw: st.DrawFn) -> tuple[str, int]:
    """(YAML text of a number in some form, its digit count)."""
    count = draw(st.sampled_from([1, 999, 1000, 1001, 4300, 4301, 5000]))
    form = draw(st.sampled_from(["dec", "neg", "under", "hex", "tag", "flow", "key"]))
    number = "9" * count
    text = {
        "dec": number,
        "neg": "-" + number,
        "under": "1_" + number,
        "hex": "0x" + "f" * count,
        "tag": f'!!int "{number}"',
        "flow": f"[1, {number}]",
        "key": f"{{{number}: x}}",
    }[form]
    return text, count


@st.composite
def skill_texts(draw: st.DrawFn) -> str:
    """Frontmatter that is often valid YAML, sometimes broken, plus a markdown body."""
    mapping = draw(st.dictionaries(st.sampled_from(KEYS), values, max_size=6))
    try:
        front = yaml.safe_dump(mapping, allow_unicode=True, default_flow_style=draw(st.booleans()))
    except yaml.YAMLError:
        front = ""
    if draw(st.booleans()):  # break it somewhere
        cut = draw(st.integers(0, len(front)))
        front = front[:cut] + draw(st.text(YAMLISH, max_size=30)) + front[cut:]
    if draw(st.integers(0, 9)) == 0:  # now and then, a bound passed (yaml_io)
        key = draw(st.sampled_from(KEYS))
        bomb = draw(st.one_of(nested(), numbers()))[0]
        front += f"{key}: {bomb}\n"
    body = draw(
        st.lists(
            st.one_of(
                st.text(YAMLISH, max_size=60),
                st.sampled_from(
                    [
                        "# Heading",
                        "```bash\nrm -rf /\n```",
                        "```",
                        "[link](scripts/run.sh)",
                        "[up](../../etc/passwd)",
                        "![img](http://example.invalid/x.png)",
                        "$ARGUMENTS $0 $1 ${CLAUDE_SKILL_DIR}",
                        "!`cat /etc/passwd`",
                        "[^1]: note",
                        "<script>alert(1)</script>",
                    ]
                ),
            ),
            max_size=8,
        )
    )
    opening = draw(st.sampled_from(["---\n", "---\r\n", "\ufeff---\n", "--- \n", ""]))
    closing = draw(st.sampled_from(["---\n", "---", "...\n", ""]))
    return opening + front + closing + "\n".join(body)


def check_diagnostics(diagnostics: list[Any], root: Path) -> None:
    for d in diagnostics:
        assert d.message and d.code and d.severity in ("error", "warning", "info")
        assert d.path.startswith(str(root)), d.path
        assert d.line >= 0 and d.column >= 0


@FUZZ
@given(
    text=skill_texts(),
    profile=st.sampled_from(PROFILE_NAMES),
    query=st.text(YAMLISH, max_size=60),
    args=st.text(YAMLISH, max_size=30),
)
def test_pipeline_never_raises_and_always_explains(
    tmp_path_factory: pytest.TempPathFactory, text: str, profile: str, query: str, args: str
) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    folder = root / "fuzzed"
    folder.mkdir()
    (folder / "SKILL.md").write_text(text, encoding="utf-8", errors="surrogatepass")
    (root / "plain").mkdir()
    (root / "plain" / "SKILL.md").write_text(
        "---\nname: plain\ndescription: Reviews code when asked to review a diff.\n---\nBody\n"
    )
    with watchdog():
        project = project_from_roots([str(root)], profile, str(root))
        registry = project.registry()
        registry.scan()
        diagnostics = registry.diagnostics
        check_diagnostics(diagnostics, root)
        fuzzed = [s for s in registry.skills if s.path.startswith(str(folder))]
        assert fuzzed, "the fuzzed skill is listed (skipped or not), never lost"
        session = Session()
        result = match(registry, query, session=session, options=project.options)
        assert all(isinstance(c.score, int) for c in result.candidates)
        tiers = render_tiers(registry, result, project.options, session)
        assert len(tiers) == 4 and sum(t.used for t in tiers) == 1
        for skill in registry.skills:
            activation = activate(registry, skill.name or "", args, session=Session())
            assert activation.ok or activation.error
        registry.refresh()


def doc_of(text: str) -> Document:
    return parse_text(Document(path="x/SKILL.md"), text)


@FUZZ
@given(st.binary(max_size=600))
def test_any_bytes_get_a_document_or_a_problem(raw: bytes) -> None:
    with watchdog():
        doc = parse_bytes(Document(path="x/SKILL.md"), raw)
    assert doc.mapping is not None or doc.problems or not raw.startswith(b"---")
    for problem in doc.problems:
        assert problem.message and problem.line >= 0


@FUZZ
@given(st.text(YAMLISH, max_size=300))
def test_reader_agrees_with_pyyaml_wherever_pyyaml_accepts(front: str) -> None:
    """Differential: where PyYAML's safe loader reads a mapping, the reader's values are
    the same (it adds problems PyYAML does not: duplicate keys, keys that are not text)."""
    assume("---" not in front and "..." not in front and "\r" not in front)
    try:
        expected = yaml.safe_load(front)
    except (yaml.YAMLError, RecursionError):
        return
    with watchdog():
        doc = doc_of("---\n" + front + "\n---\nbody\n")
    duplicate = any(p.code == "duplicate-key" for p in doc.problems)
    if isinstance(expected, dict) and not duplicate and doc.mapping is not None:
        # A key that is not text (`? `, `1:`, `null:`) is kept as text and reported.
        assert doc.mapping == {
            str(k) if not isinstance(k, str) else k: v for k, v in expected.items()
        }
        if any(not isinstance(k, str) for k in expected):
            assert any(p.code == "field-type" for p in doc.problems)


@settings(  # most generated texts have a problem and are assumed away: that is expected
    parent=FUZZ,
    suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.filter_too_much],
)
@given(
    text=skill_texts(),
    key=st.sampled_from(KEYS),
    value=values,
    unset=st.booleans(),
)
def test_writer_changes_only_what_was_edited(text: str, key: str, value: Any, unset: bool) -> None:
    """An edit either reads back as intended, keeping every other value, or is refused."""
    doc = doc_of(text)
    assume(doc.mapping is not None and not doc.problems)
    assert doc.mapping is not None
    change = Change("unset", key) if unset else Change("set", key, value)
    try:
        with watchdog():
            out = apply_changes(doc, [change])
    except EditError as exc:
        assert str(exc)
        return
    after = doc_of(out)
    assert after.mapping is not None, out
    intended = dict(doc.mapping)
    if unset:
        intended.pop(key, None)
    else:
        intended[key] = value
    assert after.mapping == intended
    assert out.endswith(doc.body), "the body is untouched"


SPECIAL_KINDS = ["fifo", "zero", "loop", "dangling", "outside", "folder", "file", "deep"]
SPECIAL_PLACES = ["SKILL.md", "t.js", "img.png", "scripts/run.py", "refs/a/b/c.md"]
# -- hostile regular expressions and placeholders --------------------------------------
PATTERN_PIECES = [
    "a",
    "x",
    ".",
    "\\w",
    "\\s",
    "\\d",
    "\\b",
    "\\1",
    "^",
    "$",
    "|",
    "+",
    "*",
    "?",
    "+?",
    "(",
    ")",
    "(?:",
    "(?!",
    "(?=",
    "(?<=",
    "[",
    "]",
    "[^",
    "{",
    "}",
    "{2,}",
    "{0,99999}",
    "{4294967296}",
    "{99999999999999999999}",
    "(?i)",
    "(?P<n>",
    "(?P=n)",
    "\\",
    "'",
    "é",
]


@st.composite
def hostile_patterns(draw: st.DrawFn) -> str:
    """Random pieces of regular-expression syntax, or one of the known killer shapes:
    deep nesting, repeat counts past the engine's limit, catastrophic backtracking."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        depth = draw(st.integers(50, 6000))
        return "(" * depth + draw(st.sampled_from(["a", "", ".*"])) + ")" * depth
    if kind == 1:
        atom = draw(st.sampled_from(["(.|..)", "(a|aa)", "(\\w+\\s?)", "(x+x+)", "(.*a)"]))
        tail = draw(st.sampled_from(["+(?!)", "+$", "*y", "{25}", "+b"]))
        return atom + tail
    if kind == 2:
        return "a{" + "9" * draw(st.integers(5, 5000)) + "}"
    return "".join(draw(st.lists(st.sampled_from(PATTERN_PIECES), max_size=30)))


@FUZZ
@given(
    entries=st.lists(
        st.tuples(st.sampled_from(SPECIAL_PLACES), st.sampled_from(SPECIAL_KINDS)),
        min_size=1,
        max_size=6,
        unique_by=lambda e: e[0],
    ),
    profile=st.sampled_from(PROFILE_NAMES),
    depth=st.integers(0, 60),
)
def test_special_files_anywhere_in_a_skill_folder(
    tmp_path_factory: pytest.TempPathFactory,
    entries: list[tuple[str, str]],
    profile: str,
    depth: int,
) -> None:
    """FIFOs, device links, link loops, links out of the root, folders where files are
    expected and deep chains, anywhere in a skill folder: every stage answers in time,
    nothing outside the root is read or packed, and what pack writes unpacks."""
    from skillstudio.core.editing.archive import ArchiveError, pack, unpack
    from skillstudio.core.profiles.workspace import folder_tree

    base = tmp_path_factory.mktemp("special")
    secret = base / "secret.txt"
    secret.write_text("SECRET-CONTENT\nexport class X {}\n")
    root = base / "skills"
    folder = root / "special"
    folder.mkdir(parents=True)
    (root / "plain").mkdir()
    (root / "plain" / "SKILL.md").write_text("---\nname: plain\ndescription: A neighbour.\n---\n")
    head = "---\nname: special\ndescription: Special files.\ntoolsets: [t.js:X, img.png:Y]\n---\n"
    if "SKILL.md" not in dict(entries):
        (folder / "SKILL.md").write_text(head + "![i](img.png) [r](refs/a/b/c.md)\n")
    for place, kind in entries:
        path = folder / place
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "zero":
            path.symlink_to("/dev/zero")
        elif kind == "loop":
            path.symlink_to(path.name)
        elif kind == "dangling":
            path.symlink_to("nowhere")
        elif kind == "outside":
            path.symlink_to(secret)
        elif kind == "folder":
            path.mkdir()
        elif kind == "deep":
            nested = path
            for _ in range(depth):
                nested = nested / "d"
            nested.mkdir(parents=True)
            (nested / "leaf.txt").write_text("leaf")
        else:
            path.write_text(head if place == "SKILL.md" else "export class X {}\n")
    with watchdog():
        project = project_from_roots([str(root)], profile, str(base))
        registry = project.registry()
        registry.scan()
        check_diagnostics(registry.diagnostics, root)
        assert "plain" in {s.name for s in registry.skills}
        assert all("SECRET" not in d.message for d in registry.diagnostics)
        for skill in registry.skills:
            folder_tree(skill)
        try:
            archive = pack(str(folder), str(base / "out.skill"))
        except ArchiveError as exc:
            assert str(exc)
        else:
            with zipfile.ZipFile(archive) as zf:
                assert all(b"SECRET" not in zf.read(name) for name in zf.namelist())
            unpack(archive, str(base / "unpacked"))


@FUZZ
@given(
    found=st.lists(hostile_patterns(), min_size=1, max_size=6),
    digits=st.integers(1, 6000),
    query=st.text(YAMLISH, max_size=80),
)
def test_hostile_patterns_and_placeholders_never_raise(
    tmp_path_factory: pytest.TempPathFactory, found: list[str], digits: int, query: str
) -> None:
    root = tmp_path_factory.mktemp("patterns")
    listed = "".join("    - '" + p.replace("'", "''") + "'\n" for p in found)
    (root / "hostile").mkdir()
    (root / "hostile" / "SKILL.md").write_text(
        "---\nname: hostile\ndescription: Hostile patterns.\ntriggers:\n"
        f'  keywords: ["hostile request"]\n  patterns:\n{listed}---\n'
        f"Run ${'7' * digits} and $ARGUMENTS[{'8' * digits}] and $0.\n",
        encoding="utf-8",
    )
    (root / "plain").mkdir()
    (root / "plain" / "SKILL.md").write_text(
        '---\nname: plain\ndescription: Plain.\ntriggers:\n  keywords: ["plain request"]\n---\nB\n'
    )
    for profile in ("toolsets", "pegasus"):
        with watchdog():
            project = project_from_roots([str(root)], profile, str(root))
            registry = project.registry()
            registry.scan()
            check_diagnostics(registry.diagnostics, root)
            assert not [d for d in registry.diagnostics if d.code == "internal"]
            assert "plain" in registry.active
            for request in (query, "plain request " + query, "/hostile " + query):
                result = match(registry, request, options=project.options)
                tiers = render_tiers(registry, result, project.options, Session())
                assert not tiers[3].diagnostics
            for name in ("hostile", "plain"):
                activation = activate(registry, name, query, session=Session())
                assert activation.ok or activation.error
                assert not activation.diagnostics


@given(data=st.data(), where=st.sampled_from(["frontmatter", "config", "suite"]))
def test_deep_nesting_is_refused_never_a_crash(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, where: str
) -> None:
    """Any nesting up to 50,000 levels, in any of the files YAML is read from: a
    diagnostic (frontmatter, config) or a refusal (suite), never an exception or a
    crash of the C composer; within the bound, the same data PyYAML builds."""
    from skillstudio.core.projects.config import load_config
    from skillstudio.core.projects.suite_cases import SuiteError
    from skillstudio.core.projects.suites import load_suite

    value, levels = data.draw(nested())
    root = tmp_path_factory.mktemp("deep")
    with watchdog():
        if where == "frontmatter":
            doc = doc_of(f"---\nname: deep\ndescription: d\nmetadata: {value}\n---\nBody\n")
            refused = [p for p in doc.problems if p.code == "yaml-invalid"]
            if levels + 1 > 64:
                assert refused or doc.mapping is None
            for problem in refused:
                assert problem.line >= 2 and problem.message.startswith("The frontmatter ")
        elif where == "config":
            (root / "skillstudio.yaml").write_text(f"max_skills: 3\nscan: {value}\n")
            config = load_config(str(root))
            assert config is not None
            if levels + 1 > 64:
                assert any(d.code == "config-invalid" for d in config.diagnostics)
        else:
            suite = root / "suite.yaml"
            suite.write_text(f"cases:\n  - query: q\n    expect: {value}\n")
            try:
                load_suite(str(suite))
            except SuiteError as exc:
                assert str(exc).startswith(str(suite))
            else:
                assert levels + 3 <= 64


@FUZZ
@given(data=st.data())
def test_huge_numbers_are_a_diagnostic_and_printable_when_read(data: st.DataObject) -> None:
    """Numbers of any length in any form: refused past 1,000 characters with the line
    of the number; every number that is read can be printed (int <-> str limit)."""
    text, count = data.draw(numbers())
    key = data.draw(st.sampled_from(["version", "priority", "x-custom", "max_skills"]))
    with watchdog():
        doc = doc_of(f"---\nname: n\ndescription: d\n{key}: {text}\n---\nBody\n")
    if doc.mapping is not None:
        json.dumps(doc.mapping, default=str)  # str() of every number works
        assert count <= 1000, "every form writes at least `count` characters of number"
    else:
        problem = next(p for p in doc.problems if p.code == "yaml-invalid")
        assert problem.line == 4, problem


@FUZZ
@given(st.text(YAMLISH, max_size=200))
def test_the_quick_bound_never_passes_a_document_that_breaks_one(text: str) -> None:
    """yaml_io skips the event walk when token counts prove the bounds hold: whatever
    the text, a document let through that way really is within them."""
    from skillstudio.core.reading import yaml_io

    tight = yaml_io.Limits(depth=3, keys=4, items=4, size=10_000)
    if not yaml_io._quick_ok(text, tight):
        return
    try:
        root = yaml.compose(text, Loader=yaml_io.LOADER)
    except (yaml.YAMLError, RecursionError):
        return
    stack = [(root, 0)] if root is not None else []
    while stack:
        node, depth = stack.pop()
        if isinstance(node, yaml.CollectionNode):
            assert depth + 1 <= tight.depth, text
            top_mapping = depth == 0 and isinstance(node, yaml.MappingNode)
            assert len(node.value) <= (tight.keys if top_mapping else tight.items), text
            if isinstance(node, yaml.MappingNode):
                children = [n for pair in node.value for n in pair]
            else:
                children = list(node.value)
            stack.extend((child, depth + 1) for child in children)


# -- archives' names (issue 25 item 2): a name is a name only if it is usable ------------

NAME_CHARS = [*"abz09-._ ~:", "\\", "\n", "\r", "\x1b", "\x07", "\x7f", "\x9b", "\u202e"]
NAME_CHARS += ["\u2066", "\u200b", "\ufeff", "\u2028", "\u00ad", "é", "中", "\U0001f600"]
SPECIAL_TOPS = [".git", ".GIT", ".git.", ".git ", ".claude", ".vscode", ".hg", ".github"]
SPECIAL_TOPS += ["-rf", "--help", "-", ".", "..", "~", "x", "pdf-tools", "a.", "c:x", "..."]
names = st.one_of(st.sampled_from(SPECIAL_TOPS), st.text(st.sampled_from(NAME_CHARS), max_size=10))


@FUZZ
@given(top=names, inner=st.lists(st.one_of(names, st.just("f")), max_size=3))
def test_an_archive_unpacks_only_under_a_usable_top_folder_name(
    tmp_path_factory: pytest.TempPathFactory, top: str, inner: list[str]
) -> None:
    """Whatever the archive's top folder and the names below it: unpack refuses with
    a reason or writes exactly root/<top>, a usable skill folder name with usable
    names inside; nothing is written beside the root. A usable name that pack
    takes unpacks again under the same name."""
    from skillstudio.core.editing.archive import ArchiveError, pack, unpack
    from skillstudio.core.model.filenames import entry_name_problem, folder_name_problem

    base = tmp_path_factory.mktemp("names")
    archive = base / "a.skill"
    entries = [f"{top}/SKILL.md"] + ([f"{top}/{'/'.join(inner)}"] if inner else [])
    try:
        with zipfile.ZipFile(archive, "w") as zf:
            for name in entries:
                zf.writestr(name, b"---\nname: x\ndescription: Named.\n---\n")
    except (UnicodeEncodeError, ValueError):
        assume(False)
    parts = [p.replace("\\", "/").split("/") for p in entries]
    root = base / "root"
    with watchdog():
        try:
            folder = unpack(str(archive), str(root))
        except ArchiveError as exc:
            assert str(exc)
            assert not root.exists() or os.listdir(root) == []
        else:
            real_top = parts[0][0]
            assert folder == str(root / real_top) and os.listdir(root) == [real_top]
            assert folder_name_problem(real_top) is None
            assert all(entry_name_problem(p) is None for ps in parts for p in ps[1:])
        assert sorted(os.listdir(base)) in (["a.skill"], ["a.skill", "root"])
        if folder_name_problem(top) is None and "\x00" not in top:
            source = base / "src" / top
            source.mkdir(parents=True)
            (source / "SKILL.md").write_text("---\nname: x\ndescription: Named.\n---\n")
            again = unpack(pack(str(source), str(base / "out" / "b.skill")), str(base / "again"))
            assert os.listdir(base / "again") == [top] and again.endswith(top)


# Manifests (issue 25 item 5): marketplace.json and plugin.json with any JSON, built
# from the strings that broke every command (a NUL, half a surrogate pair, control and
# bidi characters, paths out of the folder, remote sources, long paths).
MANIFEST_PIECES = [
    "./", "ok", "..", "/", "x", "\x00", "\ud800", "\udc80", "\x1b[2J", "\u202e", "\u200b",
    "é", ":", "git@", "https://", "~", "\n", "a" * 300,
]  # fmt: skip
MANIFEST_KEYS = ["name", "source", "skills", "plugins", "owner", "version", "commands"]


def manifest_values() -> st.SearchStrategy[Any]:
    text = st.lists(st.sampled_from(MANIFEST_PIECES), max_size=6).map("".join)
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), text)
    keys = st.one_of(st.sampled_from(MANIFEST_KEYS), text)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=12,
    )


@st.composite
def manifests(draw: st.DrawFn) -> tuple[str, str]:
    """(marketplace.json text, plugin.json text): mostly the right shape with hostile
    values, sometimes any JSON value, now and then text that is not UTF-8."""
    value = manifest_values()
    text = st.lists(st.sampled_from(MANIFEST_PIECES), min_size=1, max_size=6).map("".join)
    field = st.one_of(text, text, text, value)  # mostly text: names and paths are read
    entry = st.fixed_dictionaries({"source": field}, optional={"name": field, "x": value})
    market = st.fixed_dictionaries(
        {"plugins": st.lists(entry, max_size=4)}, optional={"name": field, "owner": value}
    )
    skills = st.one_of(field, st.lists(field, max_size=3))
    plugin = st.fixed_dictionaries({"name": field}, optional={"skills": skills, "hooks": value})
    texts = []
    for shaped in (market, plugin):
        data = draw(st.one_of(shaped, value))
        raw = json.dumps(data, ensure_ascii=draw(st.booleans()))
        texts.append(raw.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape"))
    return texts[0], texts[1]


def _strict_run(*args: str, cwd: Path) -> tuple[int, str, str]:
    """The CLI with streams as strict as a UTF-8 terminal (a surrogate written raises)."""
    import io

    from skillstudio.cli.main import main

    streams = [io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for _ in range(2)]
    code = main(list(args), cwd=str(cwd), out=streams[0], err=streams[1])
    for stream in streams:
        stream.flush()
    out, err = (s.buffer.getvalue().decode("utf-8") for s in streams)
    return code, out, err


@settings(FUZZ, max_examples=max(20, EXAMPLES // 8))  # (7 commands per example)
@given(texts=manifests())
@example(texts=('{"plugins": [{"name": "p", "source": "./x\\u0000"}]}', '{"name": "b"}'))
@example(texts=('{"plugins": []}', '{"name": "b\\ud800", "skills": ["./\\ud800"]}'))
def test_any_manifest_is_diagnosed_and_the_good_plugin_still_loads(
    tmp_path_factory: pytest.TempPathFactory, texts: tuple[str, str]
) -> None:
    """No command exits 2 or prints a traceback on any marketplace.json or plugin.json,
    under claude-code and codex; the plugin beside the hostile ones still loads."""
    market, plugin = texts
    repo = tmp_path_factory.mktemp("manifests")
    good = "---\nname: ok\ndescription: Handles ok requests in the fuzzed repository.\n---\nBody\n"
    for folder in ("ok", ".agents/skills/ok"):
        (repo / folder / "ok").mkdir(parents=True)
        (repo / folder / "ok" / "SKILL.md").write_text(good)
        (repo / folder / ".claude-plugin").mkdir()
        (repo / folder / ".claude-plugin" / "plugin.json").write_text('{"name": "ok"}')
    (repo / "ok" / "skills").mkdir()
    (repo / "ok" / "ok").rename(repo / "ok" / "skills" / "ok")
    for folder, name, text in (
        (".claude-plugin", "marketplace.json", market),
        ("bad/.claude-plugin", "plugin.json", plugin),
        (".agents/skills/bad/.codex-plugin", "plugin.json", plugin),
    ):
        (repo / folder).mkdir(parents=True)
        (repo / folder / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    (repo / "bad" / "skills" / "b").mkdir(parents=True)
    (repo / "bad" / "skills" / "b" / "SKILL.md").write_text(good.replace("ok", "b"))
    (repo / ".agents" / "skills" / "bad" / "b").mkdir()
    (repo / ".agents" / "skills" / "bad" / "b" / "SKILL.md").write_text(good.replace("ok", "b"))
    commands = {
        "claude-code": [
            ["list", "--project"],
            ["match", "ok requests", "--project"],
            ["prompt", "--project"],
            ["overlap"],
        ],
        "codex": [["list", "--project"]],
    }
    with watchdog():
        for profile, others in commands.items():
            run = ["lint", "--format", "json", str(repo), "--profile", profile]
            code, out, err = _strict_run(*run, cwd=repo)
            assert code in (0, 1) and "internal error" not in err, err
            assert "ok:ok" in {s["name"] for s in json.loads(out)["skills"]}
            for command in others:
                code, out, err = _strict_run(*command, str(repo), "--profile", profile, cwd=repo)
                assert code in (0, 1) and "internal error" not in err, (command, err)


# -- SVG content (issue 25): cleaned, it names nothing outside its own bytes -----------

SVG_TAGS = [
    "g",
    "rect",
    "image",
    "use",
    "style",
    "a",
    "text",
    "defs",
    "filter",
    "feImage",
    "feGaussianBlur",
    "pattern",
    "script",
    "foreignObject",
    "textPath",
    "svg",
]
SVG_ATTRS = [
    "href",
    "xlink:href",
    "src",
    "style",
    "fill",
    "filter",
    "mask",
    "id",
    "xml:base",
    "onload",
    "width",
    "clip-path",
]
SVG_VALUES = [
    "/dev/stdin",
    "pipe",
    "../../etc/passwd",
    "file:///etc/passwd",
    "http://example.invalid/x",
    "red.png",
    "#a",
    "#b",
    "url(#a)",
    "url(/dev/zero)",
    "url( 'x.svg#g' )",
    "url(data:x)",
    "@import url(x.css);",
    "data:image/png;base64,iVBORw0KGgo=",
    "data:image/svg+xml,<svg/>",
    "&amp;",
    "100",
    "fill:url(file.svg#x);stroke:url(#a)",
    "javascript:alert(1)",
]


@st.composite
def svg_documents(draw: st.DrawFn) -> bytes:
    """An SVG built from elements that refer (image, use, style, filters), hostile
    references and values, nested, with a DOCTYPE, entities or broken markup now and
    then."""
    parts: list[str] = []
    open_tags: list[str] = []
    for _ in range(draw(st.integers(0, 30))):
        action = draw(st.integers(0, 3))
        if action == 3 and open_tags:
            parts.append(f"</{open_tags.pop()}>")
            continue
        tag = draw(st.sampled_from(SVG_TAGS))
        names = draw(st.lists(st.sampled_from(SVG_ATTRS), max_size=3, unique=True))
        attrs = "".join(
            f' {name}="{draw(st.sampled_from(SVG_VALUES)).replace(chr(34), "")}"' for name in names
        )
        if tag == "style":
            parts.append(
                f"<style>{draw(st.sampled_from(SVG_VALUES))} .c{{fill:url(y.svg)}}</style>"
            )
        elif action == 0:
            parts.append(f"<{tag}{attrs}/>")
        else:
            parts.append(f"<{tag}{attrs}>")
            open_tags.append(tag)
    parts.extend(f"</{tag}>" for tag in reversed(open_tags))
    head = draw(
        st.sampled_from(
            [
                "",
                '<?xml version="1.0"?>',
                '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd">',
                '<!DOCTYPE svg [<!ENTITY e SYSTEM "/etc/passwd">]>',
                '<?xml-stylesheet href="/dev/stdin"?>',
            ]
        )
    )
    text = (
        head
        + '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        + "".join(parts)
        + draw(st.sampled_from(["", "&e;", "<", "</svg>"]))
        + "</svg>"
    )
    return text.encode()


@pytest.mark.qt_log_ignore(".*")  # QtSvg says what it skips in odd structures
@FUZZ
@given(data=svg_documents())
def test_svg_content_names_nothing_outside_and_draws_in_time(data: bytes, qapp: object) -> None:
    import re
    import xml.etree.ElementTree as ET

    from skillstudio.core.reading.svg import SvgRefused, clean_svg
    from skillstudio.gui.images import render_svg

    with watchdog():
        try:
            clean = clean_svg(data)
        except SvgRefused:
            return
        text = clean.decode()
        for element in ET.fromstring(text).iter():
            for key, value in element.attrib.items():
                name = key.rsplit("}", 1)[-1]
                assert not name.lower().startswith("on") and name != "base", key
                if name in ("href", "src"):
                    assert value.startswith("#") or value.startswith("data:image/png"), value
        assert all(target.strip().startswith("#") for target in re.findall(r"url\(([^)]*)", text))
        assert "@import" not in text and "<!" not in text and "<?" not in text
        render_svg(clean)  # QtSvg draws it from these bytes alone, within the watchdog
