"""The language server's parts without the protocol: the workspace session (one
document re-checked from its unsaved text, the others kept), ranges in the agreed
encoding, hover and completion content, code actions from the fix API, hostile text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types

from skillstudio.core.checking import fix_plans
from skillstudio.core.model.diagnostics import Diagnostic
from skillstudio.core.model.document import Document
from skillstudio.core.model.fixes import FixPlan, TextEdit
from skillstudio.core.profiles import get_profile
from skillstudio.lsp.actions import fix_actions
from skillstudio.lsp.help import completions, key_hover
from skillstudio.lsp.ranges import diagnostic_range, text_lines, units_for, utf16_units
from skillstudio.lsp.session import Session

from .helpers import skill_text, write
from .hostile import ALIAS_BOMB, yaml_bombs

EMOJI = (
    "---\nname: Démo😀\n"
    "description: Summarize PDF files into short notes. Use when asked for a summary.\n"
    "---\nBody.\n"
)


TOPICS = (
    "Summarize PDF files into notes. Use when asked for a summary.",
    "Draw bar charts from spreadsheets. Use when asked for a chart.",
    "Translate German letters. Use when a letter arrives in German.",
)


def tree(tmp_path: Path, count: int = 3) -> Session:
    for n in range(count):
        write(tmp_path, f"skills/s{n}/SKILL.md", skill_text(name=f"s{n}", description=TOPICS[n]))
    session = Session()
    session.open_folders([str(tmp_path)])
    return session


def test_a_keystroke_checks_the_unsaved_text_and_reads_no_other_skill(tmp_path: Path) -> None:
    session = tree(tmp_path)
    registry = session.loaded[0].registry
    path = str(tmp_path / "skills/s0/SKILL.md")
    others = {s.path: s for s in registry.skills if s.path != path}
    on_disk = Path(path).read_text(encoding="utf-8")
    checked = session.check(path, on_disk.replace("name: s0", "name: S0"))
    assert [d.code for d in checked.diagnostics] == ["name-format", "name-dir-mismatch"]
    # the other skills are the very objects the scan made (not read again)
    assert {s.path: s for s in registry.skills if s.path != path} == others
    assert all(registry.by_path[p] is s for p, s in others.items())
    # a name another skill has: the cross-skill check sees the unsaved text
    checked = session.check(path, on_disk.replace("name: s0", "name: s1"))
    assert "duplicate-name" in {d.code for d in checked.diagnostics}
    assert session.check(path, on_disk).diagnostics == []
    assert Path(path).read_text(encoding="utf-8") == on_disk  # nothing written


def test_a_saved_file_updates_what_the_other_documents_see(tmp_path: Path) -> None:
    session = tree(tmp_path)
    path = str(tmp_path / "skills/s0/SKILL.md")
    text = Path(path).read_text(encoding="utf-8")
    assert session.check(path, text).diagnostics == []
    other = write(
        tmp_path,
        "skills/s1/SKILL.md",
        skill_text(name="s0", description="Plan trips by train. Use when asked for a route."),
    )
    assert session.check(path, text).diagnostics == []  # not told yet
    session.changed([other])
    assert "duplicate-name" in {d.code for d in session.check(path, text).diagnostics}
    # a skill created after the scan is found when opened
    new = write(
        tmp_path,
        "skills/s9/SKILL.md",
        skill_text(name="s9", description="Tune guitars by ear. Use when a string is off."),
    )
    checked = session.check(new, Path(new).read_text(encoding="utf-8"))
    assert checked.loaded is session.loaded[0] and checked.diagnostics == []


def test_a_skill_outside_the_workspace_is_checked_alone(tmp_path: Path) -> None:
    session = tree(tmp_path / "ws")
    path = str(tmp_path / "elsewhere/skills/demo/SKILL.md")  # not even saved yet
    checked = session.check(path, EMOJI)
    assert checked.loaded is None
    assert {"name-format", "name-dir-mismatch"} <= {d.code for d in checked.diagnostics}


@pytest.mark.parametrize(
    ("encoding", "end"),
    [
        (types.PositionEncodingKind.Utf16, 12),  # 😀 is two UTF-16 units
        (types.PositionEncodingKind.Utf8, 15),  # é two bytes, 😀 four
        (types.PositionEncodingKind.Utf32, 11),
    ],
)
def test_ranges_count_the_agreed_code_units(tmp_path: Path, encoding: str, end: int) -> None:
    session = Session()
    path = str(tmp_path / "skills/demo/SKILL.md")
    checked = session.check(path, EMOJI)
    assert checked.skill is not None
    found = next(d for d in checked.diagnostics if d.code == "name-format")
    where = diagnostic_range(
        found, text_lines(EMOJI), checked.skill.doc.positions(), units_for(encoding)
    )
    assert (where.start.line, where.start.character, where.end.line, where.end.character) == (
        1,
        6,
        1,
        end,
    )


def test_a_diagnostic_without_a_place_covers_the_first_line() -> None:
    diag = Diagnostic("internal", "error", "x", "/p/SKILL.md")
    where = diagnostic_range(diag, ["---", "name: a"], {}, utf16_units)
    assert (where.start.line, where.end.line, where.end.character) == (0, 0, 3)


def test_hover_and_completion_follow_the_files_profile() -> None:
    lines = text_lines("---\nname: a\nmodel: \neffort: h\n\n---\nBody.\n")
    claude, agentskills = get_profile("claude-code"), get_profile("agentskills")
    help_text = key_hover(lines, 2, 2, claude)
    assert help_text is not None and "(`model`)" in help_text and "`sonnet`" in help_text
    assert key_hover(lines, 6, 0, claude) is None  # the body
    unknown = key_hover(lines, 2, 2, agentskills)
    assert unknown is not None and "not a field of" in unknown
    names = [o.label for o in completions(lines, 4, 0, claude)]
    assert "allowed-tools" in names and "model" not in names and "name" not in names
    assert [o.label for o in completions(lines, 3, 9, claude)] == ["high"]
    assert "opus" in [o.label for o in completions(lines, 2, 7, claude)]
    tools = text_lines("---\nallowed-tools: Read, Gr\n---\n")
    assert [o.label for o in completions(tools, 1, 23, claude)] == ["Grep"]
    items = text_lines("---\nallowed-tools:\n  - We\n---\n")
    assert [o.label for o in completions(items, 2, 6, claude)] == ["WebFetch", "WebSearch"]
    assert completions(lines, 6, 0, claude) == []  # not in the frontmatter


@pytest.fixture
def planner() -> Iterator[None]:
    """A fix for `name-format`, through the fix API's planner table (the real rules
    register theirs there): lowercase the name's value."""

    def plan(doc: Document, diag: Diagnostic) -> list[FixPlan]:
        line = doc.text.split("\n")[diag.line - 1]
        start = sum(len(x) + 1 for x in doc.text.split("\n")[: diag.line - 1]) + diag.column - 1
        value = line[diag.column - 1 :]
        return [
            FixPlan(
                "Lowercase the name",
                True,
                edits=(TextEdit(start, start + len(value), value.lower()),),
            )
        ]

    saved = fix_plans.PLANNERS.get("name-format")
    fix_plans.register("name-format")(plan)
    yield
    if saved is None:
        fix_plans.PLANNERS.pop("name-format")
    else:
        fix_plans.PLANNERS["name-format"] = saved


def test_code_actions_are_the_fix_apis_edits_in_editor_units(tmp_path: Path, planner: None) -> None:
    session = Session()
    path = str(tmp_path / "skills/démo😀/SKILL.md")
    text = "\ufeff" + EMOJI.replace("Démo😀", "DÉMO😀")  # a BOM the offsets do not count
    checked = session.check(path, text)
    wanted = [d for d in checked.diagnostics if d.code == "name-format"]
    actions = fix_actions("file:///x", text, wanted, checked, utf16_units)
    assert actions and actions[0].title == "Lowercase the name"
    assert actions[0].kind == types.CodeActionKind.QuickFix
    edit = actions[0].edit
    assert edit is not None and edit.changes is not None
    (change,) = edit.changes["file:///x"][:1]
    assert change.new_text == "démo😀"
    # line 1 (after the BOM line), from the value's start to its end in UTF-16 units
    assert (change.range.start.line, change.range.start.character) == (1, 6)
    assert (change.range.end.line, change.range.end.character) == (1, 12)


def test_a_code_action_is_checked_on_its_result(tmp_path: Path) -> None:
    """Issue 34: the editor gets a fix only when its text reads as planned and the
    validation of it no longer has the problem (as `lint --fix` checks it)."""

    def plan(doc: Document, diag: Diagnostic) -> list[FixPlan]:
        start = doc.text.index("name: ") + len("name: ")
        end = doc.text.index("\n", start)
        return [
            FixPlan("Break the YAML", True, edits=(TextEdit(start, start, "[x "),)),
            FixPlan("Add a blank", True, edits=(TextEdit(end, end, " "),)),
            FixPlan("Lowercase it", True, edits=(TextEdit(start, end, "s0"),)),
        ]

    saved = fix_plans.PLANNERS.get("name-format")
    fix_plans.register("name-format")(plan)
    try:
        session = tree(tmp_path)
        path = str(tmp_path / "skills/s0/SKILL.md")
        text = Path(path).read_text(encoding="utf-8").replace("name: s0", "name: S0")
        checked = session.check(path, text)
        wanted = [d for d in checked.diagnostics if d.code == "name-format"]
        actions = fix_actions("file:///x", text, wanted, checked, utf16_units)
        assert [a.title for a in actions] == ["Lowercase it"]
    finally:
        if saved is None:
            fix_plans.PLANNERS.pop("name-format")
        else:
            fix_plans.PLANNERS["name-format"] = saved


@pytest.mark.parametrize(
    "text",
    [
        ALIAS_BOMB,
        *yaml_bombs().values(),
        "\x00\x01---\nname: \udcff\n",
        "---\nname: [unclosed\n",
        "",
        "---\n" + "x: y\n" * 10 + "\r\r\r---",
    ],
)
def test_hostile_text_gives_diagnostics_not_an_exception(tmp_path: Path, text: str) -> None:
    session = tree(tmp_path, 1)
    path = str(tmp_path / "skills/s0/SKILL.md")
    checked = session.check(path, text)
    lines = text_lines(text)
    positions = checked.skill.doc.positions() if checked.skill else {}
    for diag in checked.diagnostics:
        diagnostic_range(diag, lines, positions, utf16_units)
    completions(lines, 1, 0, get_profile("claude-code"))


def test_an_oversized_text_is_not_parsed_and_reads_as_the_file_saved(tmp_path: Path) -> None:
    """Unsaved text over the limit gets what `lint` says of the file saved with it:
    not parsed (one file-too-large message, core/reading/frontmatter.py), so skipped."""
    session = tree(tmp_path, 1)
    path = str(tmp_path / "skills/s0/SKILL.md")
    text = "---\nname: s0\ndescription: " + "x" * 1_100_000 + "\n---\n"
    checked = session.check(path, text)
    assert [d.code for d in checked.diagnostics] == ["file-too-large", "skipped"]
    Path(path).write_text(text, encoding="utf-8")
    session.changed([path])
    assert session.check(path, text).diagnostics == checked.diagnostics
    assert checked.skill is not None and not checked.skill.doc.text  # never parsed


def test_the_suggested_values_are_ones_the_advice_rules_accept() -> None:
    from skillstudio.core.profiles.claude_code.advice import MODEL_ALIASES, TOOLS

    claude = get_profile("claude-code")
    for key, known in (("model", MODEL_ALIASES), ("allowed-tools", TOOLS)):
        spec = claude.field(key)
        assert spec is not None and spec.suggestions
        assert set(spec.suggestions) <= known, key


def test_hover_on_a_code_gives_its_explanation_and_source() -> None:
    from skillstudio.lsp.help import diagnostic_help

    text = diagnostic_help(Diagnostic("bool-as-string", "warning", "m", "/p"))
    assert text.startswith("**bool-as-string** (warning): ")
    assert "_Source: " in text


def test_a_changed_skillstudio_yaml_reads_the_folder_again(tmp_path: Path) -> None:
    session = tree(tmp_path)
    assert session.loaded[0].registry.profile.name == "agentskills"
    config = write(tmp_path, "skillstudio.yaml", "profile: claude-code\nroots: [skills]\n")
    session.changed([config])
    assert [item.registry.profile.name for item in session.loaded] == ["claude-code"]
    assert len(session.loaded[0].registry.skills) == 3


def test_a_skill_where_no_profile_looks_is_walked_for_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = tree(tmp_path)
    registry = session.loaded[0].registry
    stray = write(
        tmp_path, "skills/s0/nested/x/SKILL.md", skill_text(name="x", description="Stray.")
    )
    walks: list[object] = []
    real = registry.refresh

    def counted(hint: object = None) -> object:
        walks.append(hint)
        return real(hint)  # type: ignore[arg-type]

    monkeypatch.setattr(registry, "refresh", counted)
    text = Path(stray).read_text(encoding="utf-8")
    for _ in range(5):  # keystrokes
        assert session.check(stray, text).loaded is None
    assert len(walks) == 1
    session.changed([stray])  # saved: looked for again once
    session.check(stray, text)
    assert len(walks) == 3


def test_closing_an_unsaved_document_puts_the_file_back(tmp_path: Path) -> None:
    session = tree(tmp_path)
    path = str(tmp_path / "skills/s0/SKILL.md")
    other = str(tmp_path / "skills/s1/SKILL.md")
    text = Path(path).read_text(encoding="utf-8")
    session.check(path, text.replace("name: s0", "name: s1"))  # typed, never saved
    other_text = Path(other).read_text(encoding="utf-8")
    assert "duplicate-name" in {d.code for d in session.check(other, other_text).diagnostics}
    session.closed(path)
    assert session.check(other, other_text).diagnostics == []


def test_a_description_that_competes_is_an_information_note_that_follows_typing(
    tmp_path: Path,
) -> None:
    session = tree(tmp_path)
    path = str(tmp_path / "skills/s0/SKILL.md")
    text = Path(path).read_text(encoding="utf-8")
    assert session.check(path, text).diagnostics == []
    copied = text.replace(TOPICS[0], TOPICS[1])  # typed: s1's description, word for word
    (note,) = [d for d in session.check(path, copied).diagnostics if d.code != "duplicate-name"]
    assert note.code == "description-overlap" and note.severity == "info"
    # lint's note, word for word (core/ranking/overlap.py `overlap_note`)
    assert note.message.startswith("the description is the same text as s1's (1.00; shared: ")
    assert note.field == "description"
    assert session.check(path, text).diagnostics == []  # typed back: gone


def test_the_server_starts_from_lints_cache_of_what_was_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.scanning import parallel, state_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(state_cache, "RACY_NS", 0, raising=False)
    reads: list[str] = []
    real = parallel.read_document

    def counting(path: str, *args: object, **kwargs: object) -> object:
        reads.append(path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "read_document", counting)
    tree(tmp_path / "ws")  # reads the three skills and writes the cache
    assert len(reads) == 3
    again = Session()
    again.open_folders([str(tmp_path / "ws")])  # a second start: nothing parsed again
    assert len(reads) == 3 and len(again.loaded[0].registry.skills) == 3
    Session(use_cache=False).open_folders([str(tmp_path / "ws")])
    assert len(reads) == 6


def test_a_file_beside_a_skill_shows_what_its_skill_found_in_it(tmp_path: Path) -> None:
    write(
        tmp_path,
        "skills/cx/SKILL.md",
        skill_text(name="cx", description="Run the tests. Use when asked to test."),
    )
    write(tmp_path, "skills/cx/agents/openai.yaml", "policy: [1]\n")
    session = Session(profile_name="codex")
    session.open_folders([str(tmp_path)])
    yaml_path = str(tmp_path / "skills/cx/agents/openai.yaml")
    found = session.check(yaml_path, "policy: {}\n").diagnostics  # as saved, not typed
    assert found and all(d.path == yaml_path for d in found)
    assert session.check(str(tmp_path / "skills/cx/notes.md"), "# notes").diagnostics == []


def test_a_skill_outside_the_workspace_has_its_profile_detected_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.lsp import session as session_module

    walks: list[str] = []
    real = session_module.detect_profile

    def counting(folder: str) -> tuple[str, str]:
        walks.append(folder)
        return real(folder)

    monkeypatch.setattr(session_module, "detect_profile", counting)
    path = write(
        tmp_path, "out/.claude/skills/cc/SKILL.md", skill_text(name="cc", description="C.")
    )
    session = Session()
    for _ in range(4):  # keystrokes
        assert session.check(path, Path(path).read_text(encoding="utf-8")).profile is not None
    assert len(walks) == 1
    assert session.profile_for(path).name == "claude-code"


def test_suites_of_every_kind_are_checked_and_other_files_are_not(tmp_path: Path) -> None:
    session = tree(tmp_path)
    write(tmp_path, "skillstudio.yaml", "roots: [skills]\nsuites: [checks/smoke.yaml]\n")
    session.close_folders([str(tmp_path)])
    session.open_folders([str(tmp_path)])
    bad = "cases:\n  - query: chart this\n    expect_not: [s1, nope]\n    not_in_top: 3\n"

    def codes(rel: str, text: str) -> list[tuple[str, int]]:
        found = session.check(str(tmp_path / rel), text).diagnostics
        return [(d.code, d.line) for d in found]

    # listed under 'suites:' though not in a suites/ folder
    assert codes("checks/smoke.yaml", bad) == [("suite-unknown-skill", 2)]
    # another tool's format by its name: waza, the skill named by its field
    waza = "skill: s9\nshould_trigger_prompts:\n  - prompt: draw a chart\n"
    assert codes("evals/trigger_tests.yaml", waza) == [("suite-unknown-skill", 3)]
    # skill-reach: acceptable skills not in the catalogue are neutral, not flagged
    reach = (
        '{"queries": [{"id": "q1", "text": "chart it", "kind": "implicit",'
        ' "expected_skill": "s1", "acceptable_skills": ["elsewhere"]}]}'
    )
    assert codes("suites/reach.json", reach) == []
    # unreadable: where and what, without the path in front
    found = session.check(str(tmp_path / "suites/a.yaml"), "cases: [1, 2\n").diagnostics
    assert [(d.code, d.line > 0) for d in found] == [("suite-invalid", True)]
    assert not found[0].message.startswith(str(tmp_path))
    huge = "cases:\n" + "  - query: x\n    expect: s1\n" * 200_000
    assert codes("suites/huge.yaml", huge) == [("suite-invalid", 0)]
    # a YAML file that is no suite is left alone
    assert codes("notes/todo.yaml", "cases: 3\n") == []


def test_a_code_action_moves_an_unknown_key_under_metadata(tmp_path: Path) -> None:
    """Issue 39: the code action is the core's move under 'metadata:' (as lint --fix)."""
    session = Session(profile_name="agentskills")
    path = str(tmp_path / "skills/my-skill/SKILL.md")
    text = (
        "---\nname: my-skill\ndescription: Does a thing. Use when asked to.\n"
        "version: 1.2.0\nlicense: MIT\n---\nBody.\n"
    )
    checked = session.check(path, text)
    wanted = [d for d in checked.diagnostics if d.code == "unknown-field"]
    assert wanted
    actions = fix_actions("file:///x", text, wanted, checked, utf16_units)
    assert [a.title for a in actions] == ["Move 'version' under 'metadata:'"]
    edit = actions[0].edit
    assert edit is not None and edit.changes is not None
    (change,) = edit.changes["file:///x"]  # one edit: the key's line becomes the block
    start, end = change.range.start, change.range.end
    assert (start.line, start.character, end.line, end.character) == (3, 0, 4, 0)
    assert text.split("\n")[3] == "version: 1.2.0"
    assert change.new_text == "metadata:\n  version: 1.2.0\n"


@pytest.mark.parametrize("cached", [False, True])
def test_a_file_the_body_names_created_since_is_seen_without_reopening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cached: bool
) -> None:
    """An editor tells the server of SKILL.md files, not of a `scripts/x.py` created
    beside one: the looked-at files of the open skills are compared (Session.stale, as
    the app's reload does), the skill read again, and its warning goes."""
    from skillstudio.core.scanning import state_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(state_cache, "RACY_NS", 0, raising=False)
    body = "# Fetch\n\nRun `scripts/fetch.py` to fetch the report, then summarise it.\n"
    path = write(
        tmp_path / "ws",
        "skills/fetch/SKILL.md",
        skill_text(name="fetch", description=TOPICS[0], _body=body),
    )
    if cached:  # a start served from lint's cache keeps what the cached checks looked at
        Session().open_folders([str(tmp_path / "ws")])
    session = Session()
    session.open_folders([str(tmp_path / "ws")])
    registry = session.loaded[0].registry
    codes = {d.code for d in registry.by_path[path].all_diagnostics}
    assert "reference-missing" in codes
    assert session.stale([path]) == []  # nothing changed: nothing read
    write(tmp_path / "ws", "skills/fetch/scripts/fetch.py", "print('report')\n")
    assert session.stale([path]) == [session.loaded[0]]
    codes = {d.code for d in registry.by_path[path].all_diagnostics}
    assert "reference-missing" not in codes
    assert session.stale([path]) == []  # read once
