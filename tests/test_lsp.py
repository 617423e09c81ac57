"""`skillstudio lsp` end to end: a real LSP client (pytest-lsp) drives the server over
stdio in a workspace of skills: diagnostics with their ranges as the author types,
hover, completion and the fixes as code actions."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from .helpers import REPO, write

SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "skillstudio", "lsp"],
    server_env={**os.environ, "PYTHONPATH": REPO},
)
DEMO = (
    "---\nname: Démo😀\n"
    "description: Summarize PDF files into short notes. Use when asked for a summary.\n"
    "---\nBody.\n"
)
OTHER = (
    "---\nname: other\n"
    "description: Turn spreadsheets into bar charts. Use when asked for a chart.\n"
    "---\nBody.\n"
)


def workspace(tmp_path: Path) -> Path:
    write(tmp_path, "skills/demo/SKILL.md", DEMO)
    write(tmp_path, "skills/other/SKILL.md", OTHER)
    return tmp_path


MARKDOWN = types.MarkupKind.Markdown
REGISTERED: list[types.Registration] = []  # what the server asked the client to watch


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    folder = workspace(tmp_path)
    REGISTERED.clear()

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        REGISTERED.extend(params.registrations)

    watching = types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                workspace=types.WorkspaceClientCapabilities(did_change_watched_files=watching),
                text_document=types.TextDocumentClientCapabilities(
                    hover=types.HoverClientCapabilities(content_format=[MARKDOWN]),
                    completion=types.CompletionClientCapabilities(
                        completion_item=types.ClientCompletionItemOptions(
                            documentation_format=[MARKDOWN]
                        )
                    ),
                ),
            ),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()


def uri_of(tmp_path: Path, rel: str) -> str:
    return (tmp_path / rel).as_uri()


async def opened(client: LanguageClient, uri: str, text: str) -> list[types.Diagnostic]:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text=text
            )
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


def edit(
    uri: str, version: int, start: tuple[int, int], end: tuple[int, int], new: str
) -> types.DidChangeTextDocumentParams:
    """A change replacing the text from `start` to `end` (line, character) by `new`."""
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=start[0], character=start[1]),
                    end=types.Position(line=end[0], character=end[1]),
                ),
                text=new,
            )
        ],
    )


async def typed(
    client: LanguageClient,
    uri: str,
    version: int,
    start: tuple[int, int],
    end: tuple[int, int],
    new: str,
) -> list[types.Diagnostic]:
    client.text_document_did_change(edit(uri, version, start, end, new))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


def span(d: types.Diagnostic) -> tuple[int, int, int, int]:
    r = d.range
    return (r.start.line, r.start.character, r.end.line, r.end.character)


@pytest.mark.asyncio
async def test_diagnostics_with_ranges_clear_as_the_fix_is_typed(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    found = await opened(client, uri, DEMO)
    by_code = {d.code: d for d in found}
    assert {"name-format", "name-dir-mismatch"} <= set(by_code)
    # the value `Démo😀`: from column 6 for 6 UTF-16 units (the emoji counts two)
    assert span(by_code["name-format"]) == (1, 6, 1, 12)
    assert by_code["name-format"].severity == types.DiagnosticSeverity.Error
    assert all(d.source == "skillstudio" for d in found)
    # typing the name of the other skill (unsaved): the other skill of the workspace
    # is known, so the duplicate is reported
    found = await typed(client, uri, 2, (1, 6), (1, 12), "other")
    assert "duplicate-name" in {d.code for d in found}
    # typing the folder's name: nothing left
    assert await typed(client, uri, 3, (1, 6), (1, 11), "demo") == []
    # nothing was saved: the file on disk is as it was
    assert (tmp_path / "skills/demo/SKILL.md").read_text(encoding="utf-8") == DEMO


@pytest.mark.asyncio
async def test_hover_on_a_key_and_on_a_diagnostic(client: LanguageClient, tmp_path: Path) -> None:
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    await opened(client, uri, DEMO)
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2, character=3),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "(`description`)" in hover.contents.value
    assert "At most 1024 characters" in hover.contents.value  # the profile's limit
    on_name = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=1, character=8),
        )
    )
    assert on_name is not None and isinstance(on_name.contents, types.MarkupContent)
    text = on_name.contents.value
    assert "**name-format** (error)" in text  # the code under the cursor, explained
    assert "breaks the profile's naming rules" in text
    assert "**Agents**:" in text and "rejected by" in text  # portability


@pytest.mark.asyncio
async def test_completion_of_field_names_and_values(client: LanguageClient, tmp_path: Path) -> None:
    text = "---\nname: cc\ndescription: Review code.\ncontext: \n\n---\nBody.\n"
    path = write(tmp_path, ".claude/skills/cc/SKILL.md", text)
    uri = Path(path).as_uri()
    await opened(client, uri, text)

    async def labels(line: int, character: int) -> list[str]:
        result = await client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=line, character=character),
            )
        )
        assert isinstance(result, types.CompletionList)
        return [item.label for item in result.items]

    names = await labels(4, 0)
    assert "allowed-tools" in names and "effort" in names  # claude-code's own fields
    assert "name" not in names and "context" not in names  # those written already
    assert await labels(3, 9) == ["fork"]


@pytest.mark.asyncio
async def test_a_code_action_applies_the_fix(client: LanguageClient, tmp_path: Path) -> None:
    text = (
        "---\nname: cc\ndescription: Review code. Use when asked.\n"
        'user-invocable: "false"\n---\nBody.\n'
    )
    path = write(tmp_path, ".claude/skills/cc/SKILL.md", text)
    uri = Path(path).as_uri()
    found = await opened(client, uri, text)
    (flagged,) = [d for d in found if d.code == "bool-as-string"]
    assert span(flagged)[0] == 3
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=flagged.range,
            context=types.CodeActionContext(diagnostics=[flagged]),
        )
    )
    assert actions is not None
    (action,) = [a for a in actions if isinstance(a, types.CodeAction)]
    assert action.kind == types.CodeActionKind.QuickFix and action.is_preferred
    assert action.edit is not None and action.edit.changes is not None
    (edit,) = action.edit.changes[uri]
    # the editor applies the edit as the user's own change: only the value changes
    after = await typed(
        client,
        uri,
        2,
        (edit.range.start.line, edit.range.start.character),
        (edit.range.end.line, edit.range.end.character),
        edit.new_text,
    )
    assert "bool-as-string" not in {d.code for d in after}
    lines = text.split("\n")
    start, end = edit.range.start, edit.range.end
    assert start.line == end.line == 3
    fixed = lines[3][: start.character] + edit.new_text + lines[3][end.character :]
    assert fixed == "user-invocable: false"


async def actions_at(
    client: LanguageClient, uri: str, line: int, character: int
) -> list[types.CodeAction]:
    """The code actions the editor gets for the cursor at (line, character)."""
    point = types.Position(line=line, character=character)
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=point, end=point),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def edits_of(action: types.CodeAction, uri: str) -> list[tuple[int, int, int, int, str]]:
    assert action.edit is not None and action.edit.changes is not None
    out = []
    for e in action.edit.changes[uri]:
        start, end = e.range.start, e.range.end
        out.append((start.line, start.character, end.line, end.character, e.new_text))
    return out


@pytest.mark.asyncio
async def test_the_code_action_under_the_cursor_fixes_that_entry_and_no_escape(
    client: LanguageClient, tmp_path: Path
) -> None:
    """Issue 34: the cursor on `read` offered the fix of another entry (`grep`); the
    backslash fix rewrote Markdown escapes (`config\\_loader.py`) in the editor too."""
    text = (
        "---\nname: cc\ndescription: Review code. Use when asked.\n"
        "allowed-tools: Reed grep read\n---\n"
        "Edit config\\_loader.py, then run `scripts\\check.py`.\n"
    )
    path = write(tmp_path, ".claude/skills/cc/SKILL.md", text)
    uri = Path(path).as_uri()
    found = await opened(client, uri, text)
    tools = sorted(span(d) for d in found if d.code == "tool-unknown")
    assert tools == [(3, 15, 3, 19), (3, 20, 3, 24), (3, 25, 3, 29)]  # one entry each
    for character, title, edit in (
        (26, "Write 'Read' (grants it)", (3, 25, 3, 26, "R")),
        (21, "Write 'Grep' (grants it)", (3, 20, 3, 21, "G")),
    ):
        (action,) = await actions_at(client, uri, 3, character)
        assert action.title == title and edits_of(action, uri) == [edit]
    assert await actions_at(client, uri, 3, 16) == []  # 'Reed': no tool to write instead
    (action,) = await actions_at(client, uri, 5, 36)
    assert action.title == "Write the paths with '/'"
    assert edits_of(action, uri) == [(5, 34, 5, 50, "scripts/check.py")]


@pytest.mark.asyncio
async def test_a_file_changed_on_disk_updates_the_open_documents(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = uri_of(tmp_path, "skills/other/SKILL.md")
    assert await opened(client, uri, OTHER) == []
    # another skill takes the same name on disk; the editor's watcher says so
    renamed = DEMO.replace("name: Démo😀", "name: other")
    demo = write(tmp_path, "skills/demo/SKILL.md", renamed)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=Path(demo).as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert "duplicate-name" in {d.code for d in client.diagnostics[uri]}
    # the server asked the editor to watch the files skills depend on
    (watch,) = [r for r in REGISTERED if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert isinstance(watch.register_options, dict)
    globs = {w["globPattern"] for w in watch.register_options["watchers"]}
    assert {"**/SKILL.md", "**/skillstudio.yaml", "**/plugin.json"} <= globs


@pytest_lsp.fixture(config=SERVER)
async def utf8_client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    folder = workspace(tmp_path)
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                general=types.GeneralClientCapabilities(
                    position_encodings=[
                        types.PositionEncodingKind.Utf8,
                        types.PositionEncodingKind.Utf16,
                    ]
                )
            ),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="ws")],
        )
    )
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_utf8_positions_when_the_client_offers_them(
    utf8_client: LanguageClient, tmp_path: Path
) -> None:
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    found = await opened(utf8_client, uri, DEMO)
    by_code = {d.code: d for d in found}
    assert span(by_code["name-format"]) == (1, 6, 1, 15)  # é two bytes, 😀 four


@pytest.mark.asyncio
async def test_hover_is_plain_text_for_a_client_without_markdown(
    utf8_client: LanguageClient, tmp_path: Path
) -> None:
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    await opened(utf8_client, uri, DEMO)
    hover = await utf8_client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=2, character=3),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.PlainText
    assert "Description (description)" in hover.contents.value


def test_the_keystroke_benchmark_runs_and_times_every_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from .benchmarks import bench_lsp

    argv = ["--counts", "12", "--keys", "3", "--hostile-keys", "1", "--burst", "5"]
    assert bench_lsp.main([*argv, "--workdir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in out[1:5]]
    assert [(row[1], row[2]) for row in rows] == [
        ("oasis", "description"),
        ("oasis", "name"),
        ("agentskills", "description"),
        ("agentskills", "name"),
    ]
    assert all(float(row[3]) > 0 and float(row[4]) >= float(row[3]) for row in rows)
    # the hostile SKILL.md of 0.96 MB: a key publishes a few hundred bytes (its
    # 4,000-item list is named, not spelled out), the burst of 5 is checked once
    assert out[6].startswith("hostile SKILL.md of 0.96 MB")
    keys, *_, sent, burst, _last, publishes = out[8].split()
    assert (keys, burst, publishes) == ("1", "5", "1")
    assert int(sent.replace(",", "")) < 2_000


@pytest.mark.asyncio
async def test_a_suite_is_checked_as_it_is_typed(client: LanguageClient, tmp_path: Path) -> None:
    """A query suite in the project's `suites/` folder: a case naming a skill the project
    lacks is flagged on its line; typing the right name clears it; a broken file says
    where (nothing is saved)."""
    suite = "cases:\n  - query: summarize this pdf\n    expect: dmeo\n"
    uri = uri_of(tmp_path, "suites/basic.yaml")
    found = await opened(client, uri, suite)
    assert [(d.code, d.range.start.line) for d in found] == [("suite-unknown-skill", 1)]
    assert "'dmeo'" in found[0].message
    assert found[0].severity == types.DiagnosticSeverity.Warning
    assert await typed(client, uri, 2, (2, 12), (2, 16), "other") == []
    found = await typed(client, uri, 3, (2, 4), (2, 10), "expect_likly")
    assert [(d.code, d.range.start.line) for d in found] == [("suite-invalid", 2)]
    assert "expect_likly" in found[0].message and not found[0].message.startswith("/")
    assert not (tmp_path / "suites").exists()


# -- what is published, and when (issue 34) ------------------------------------------
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
PUBLISHED: list[types.PublishDiagnosticsParams] = []  # every publish, in order


def recording_client() -> LanguageClient:
    """pytest-lsp's client, recording every publishDiagnostics (its own keeps the last)."""
    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(
        client, {m: f for m, f in DEFAULT_CLIENT_FEATURES.items() if m != PUBLISH}
    )

    @client.feature(PUBLISH)
    def published(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        ls.diagnostics[params.uri] = params.diagnostics
        PUBLISHED.append(params)

    return client


RECORDING = ClientServerConfig(
    server_command=SERVER.server_command,
    server_env=SERVER.server_env,
    client_factory=recording_client,
)


@pytest_lsp.fixture(config=RECORDING)
async def recorded(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    folder = workspace(tmp_path)
    PUBLISHED.clear()
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()


def whole(uri: str, version: int, text: str) -> types.DidChangeTextDocumentParams:
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
    )


async def until(done: Callable[[], bool]) -> None:
    """Wait until `done()` (no time is asserted: the limit only guards against a hang)."""
    for _ in range(6000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("waited 60 s")


async def published(uri: str, version: int) -> types.PublishDiagnosticsParams:
    """The publish of `version` of the document, once it has come."""
    await until(lambda: any(p.uri == uri and p.version == version for p in PUBLISHED))
    return [p for p in PUBLISHED if p.uri == uri and p.version == version][-1]


@pytest.mark.asyncio
async def test_a_long_list_is_named_with_its_count_not_spelled_out(
    recorded: LanguageClient, tmp_path: Path
) -> None:
    """A frontmatter value of 4,000 items where text is expected: the message says how
    many (it spelled out every item: 600 KB of diagnostics published on every key)."""
    items = "".join(f"    - item {i:04d} lorem ipsum dolor sit amet\n" for i in range(4000))
    text = DEMO.replace("---\nBody", f"metadata:\n  tags:\n{items}---\nBody")
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    found = await opened(recorded, uri, text)
    (tags,) = [d for d in found if d.code == "field-type"]
    assert "'metadata.tags'" in tags.message and "a list of 4,000 items" in tags.message
    assert "item 0001" not in tags.message
    assert sum(len(d.message) for d in found) < 2_000


@pytest.mark.asyncio
async def test_published_diagnostics_are_bounded_in_length_and_number(
    recorded: LanguageClient, tmp_path: Path
) -> None:
    """150 unknown fields (errors under agentskills), one of them a key of 1,000
    characters that its message repeats: the editor gets at most 100 diagnostics, the
    last saying how many more `lint` lists, and no message over 1,000 characters
    (server.py's MAX_SHOWN and MAX_MESSAGE)."""
    fields = "".join(f"field{i}: x\n" for i in range(150))
    text = DEMO.replace("---\nBody", f"{'k' * 1000}: x\n{fields}---\nBody")
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    found = await opened(recorded, uri, text)
    assert len(found) == 100
    assert found[-1].message.startswith("5")  # 153 found (with the name's 2), 99 shown
    assert "more findings not shown here" in found[-1].message
    assert "`skillstudio lint`" in found[-1].message
    assert found[-1].severity == types.DiagnosticSeverity.Information
    assert all(len(d.message) <= 1_040 for d in found)
    (cut,) = [d for d in found if "kkkk" in d.message]
    assert cut.message.endswith("characters in all)") and "… (cut: 1," in cut.message
    # the errors are kept before anything less severe
    assert {d.severity for d in found[:-1]} == {types.DiagnosticSeverity.Error}


@pytest.mark.asyncio
async def test_a_burst_of_changes_is_checked_on_the_latest_text_not_once_per_change(
    recorded: LanguageClient, tmp_path: Path
) -> None:
    """20 changes sent without waiting (a paste replayed, a macro): the diagnostics
    published are those of the last text, and far fewer checks run than 20 (each of
    them took its turn before: 20 publishes, the last ones of texts long gone)."""
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    await opened(recorded, uri, DEMO)
    before = len(PUBLISHED)
    for version in range(2, 21):  # a name the profile refuses (capitals), 19 times
        recorded.text_document_did_change(
            whole(uri, version, DEMO.replace("Démo😀", f"Demo{version}"))
        )
    recorded.text_document_did_change(whole(uri, 21, DEMO.replace("Démo😀", "demo")))
    last = await published(uri, 21)
    assert list(last.diagnostics) == []  # the last text: nothing wrong
    ours = [p for p in PUBLISHED[before:] if p.uri == uri]
    assert ours[-1] is last
    assert len(ours) <= 5, [p.version for p in ours]
    versions = [p.version or 0 for p in ours]
    assert versions == sorted(versions)


async def fixes_at(
    client: LanguageClient, uri: str, start: tuple[int, int], end: tuple[int, int]
) -> list[str]:
    """The titles of the code actions offered for a range."""
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(
                start=types.Position(line=start[0], character=start[1]),
                end=types.Position(line=end[0], character=end[1]),
            ),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a.title for a in actions or []]


@pytest.mark.asyncio
async def test_a_large_file_is_checked_when_typing_pauses_and_the_editor_is_told(
    recorded: LanguageClient, tmp_path: Path
) -> None:
    """A SKILL.md over LARGE characters: diagnostics at once when opened, with a message
    (once) that it is checked when typing pauses; after that a key costs the server
    only the edit: a hover sent after each key is answered before any check runs, no
    fix is offered for a text not checked yet, and the keys are checked once, on the
    last text."""
    from skillstudio.lsp.pacing import LARGE

    line = "Read the PDF, keep each heading, and write one short note per section.\n"
    text = DEMO + line * (LARGE // len(line) + 1)
    uri = uri_of(tmp_path, "skills/demo/SKILL.md")
    found = await opened(recorded, uri, text)
    assert "name-format" in {d.code for d in found}
    await until(lambda: bool(recorded.messages))
    (told,) = recorded.messages
    assert told.type == types.MessageType.Info
    assert "demo/SKILL.md" in told.message and "when you pause typing" in told.message
    assert await fixes_at(recorded, uri, (1, 6), (1, 12)) == [
        "Set 'name' to the folder's name 'demo'"
    ]
    before = len(PUBLISHED)
    # the name typed over, a key at a time: 'demo' at the end
    for version, (column, end, key) in enumerate(
        ((6, 12, "d"), (7, 7, "e"), (8, 8, "m"), (9, 9, "o")), 2
    ):
        recorded.text_document_did_change(edit(uri, version, (1, column), (1, end), key))
        hover = await recorded.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=2, character=3),
            )
        )
        assert hover is not None
        assert [p.version for p in PUBLISHED[before:] if p.uri == uri] == []
    # the fix of the old name is not offered for a text not checked yet (its edits
    # would land amiss); it was for the text checked
    assert await fixes_at(recorded, uri, (1, 6), (1, 7)) == []
    last = await published(uri, 5)
    assert "name-format" not in {d.code for d in last.diagnostics}
    assert [p.version for p in PUBLISHED[before:] if p.uri == uri] == [5]
    assert len(recorded.messages) == 1  # told once
