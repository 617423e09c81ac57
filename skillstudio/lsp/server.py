"""The language server over stdio (pygls): diagnostics as the author types, hover,
completion and the fixes as code actions (docs/lsp.md).

Every handler runs on the server's one event loop, one message after another: the
session (session.py) is never touched by two at once. A change does not check the
document in its handler: the check runs from a timer on the same loop, once for a
burst of changes, on the latest text (pacing.py). What is published is bounded: each
message at MAX_MESSAGE characters, each document at MAX_SHOWN diagnostics. A handler
that fails on a document says so in the editor's log and answers with nothing; it
never ends the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from .. import __version__
from ..core.model.diagnostics import Diagnostic, one_line
from ..core.model.positions import FieldPos
from ..core.model.text import counted
from ..core.projects.findings import file_findings
from ..core.projects.open_project import OpenProject
from .actions import fix_actions
from .help import completions, diagnostic_help, key_hover, name_line
from .pacing import Pacer, pause_notice
from .ranges import Units, diagnostic_ranges, text_lines, units_for
from .session import Checked, Session
from .skill_notes import name_notes

log = logging.getLogger(__name__)
SOURCE = "skillstudio"
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
RANK = {"error": 0, "warning": 1, "info": 2}
MAX_MESSAGE = 1_000  # characters of one published message (the longest of lint's: ~300)
MAX_SHOWN = 100  # diagnostics published for one document (the last says how many more)
T = TypeVar("T")
LOOK_EVERY = 2.0  # s between looks at what the open skills' checks looked at (look_around)
# the files whose changes on disk the skills depend on (an editor watches them for us)
WATCHED = (
    "**/SKILL.md",
    "**/skill.md",
    "**/.claude/commands/**/*.md",
    "**/commands/*.md",
    "**/skillstudio.yaml",
    "**/plugin.json",
    "**/marketplace.json",
    "**/agents/openai.yaml",
)
WATCH = types.RegistrationParams(
    registrations=[
        types.Registration(
            id="skillstudio-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED]
            ),
        )
    ]
)


@dataclass(slots=True)
class Published:
    """What was last published for an open document, to answer hover and code actions
    without checking it again."""

    path: str
    text: str
    checked: Checked
    ranges: list[tuple[Diagnostic, types.Range]] = field(default_factory=list)


class SkillServer(LanguageServer):
    def __init__(self, profile: str | None = None, cache: bool = True) -> None:
        super().__init__("skillstudio", __version__)
        self.session = Session(profile, cache)
        self.published: dict[str, Published] = {}
        self.pacer = Pacer(self.publish)

    @property
    def units(self) -> Units:
        return units_for(self.workspace.position_encoding)

    # -- diagnostics ------------------------------------------------------------------
    def open_text(self, uri: str) -> str | None:
        """The editor's text of an open document (never read from disk here)."""
        document = self.workspace.text_documents.get(uri)
        return None if document is None else document.source

    def changed(self, uri: str) -> None:
        """The document changed: its check is due (pacing.py says when)."""
        text = self.open_text(uri)
        if text is not None:
            self.pacer.changed(uri, len(text))

    def publish(self, uri: str) -> None:
        """Check the document's text as it is now and publish what was found."""
        text = self.open_text(uri)
        path = path_of(uri)
        if text is None or path is None:
            return
        began = time.perf_counter()
        checked = guarded(lambda: self.session.check(path, text), None)
        if checked is None:
            return
        self.send(uri, path, text, checked)
        took = time.perf_counter() - began
        self.pacer.timed(uri, took)
        if self.pacer.first_pause(uri, len(text)):
            size = len(text.encode("utf-8", "surrogatepass"))
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Info, message=pause_notice(path, size, took)
                )
            )
        item = checked.loaded
        if item is not None and item.registry.changed_since(checked.version) is None:
            # the edit changed who wins or a finding between skills: the other open
            # documents of the project get what the registry says about them now
            for other, shown in list(self.published.items()):
                if other != uri and shown.checked.loaded is item:
                    notes = file_findings(item, shown.path)
                    self.send(other, shown.path, shown.text, Checked(notes, *_rest(shown)))
        if item is not None:
            self.follow_listing(item, uri)

    def follow_listing(self, item: OpenProject, uri: str) -> None:
        """The project's skillstudio.yaml, when open, carries the listing's budget note:
        it follows the skills as typed (a description lengthened, unsaved, may put the
        set over its budget)."""
        config = item.project.config
        for other, shown in list(self.published.items()):
            if other == uri or config is None or shown.path != config.path:
                continue
            now = guarded(partial(self.session.check, shown.path, shown.text), None)
            if now is not None and now.diagnostics != shown.checked.diagnostics:
                self.send(other, shown.path, shown.text, now)

    def send(self, uri: str, path: str, text: str, checked: Checked) -> None:
        lines = text_lines(text)
        positions = skill_positions(checked)
        count = self.units
        shown, left = shown_of(checked.diagnostics)
        ranges = list(zip(shown, diagnostic_ranges(shown, lines, positions, count), strict=True))
        self.published[uri] = Published(path, text, checked, ranges)
        out = [lsp_diagnostic(d, r) for d, r in ranges]
        if left:
            out.append(left_out(left, lines, count))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=out,
                version=self.workspace.text_documents[uri].version
                if uri in self.workspace.text_documents
                else None,
            )
        )

    def files_changed(self, paths: list[str]) -> bool:
        """Files saved or changed on disk: the projects holding them read them again;
        whether any did."""
        empty: list[OpenProject] = []
        return bool(guarded(lambda: self.session.changed(paths), empty))

    def markup(self, value: str, formats: Sequence[types.MarkupKind] | None) -> types.MarkupContent:
        """Markdown where the client says it shows it, else the same text as plain text."""
        if formats and types.MarkupKind.Markdown in formats:
            return types.MarkupContent(kind=types.MarkupKind.Markdown, value=value)
        plain = value.replace("**", "").replace("`", "").replace("\n---\n", "\n")
        return types.MarkupContent(kind=types.MarkupKind.PlainText, value=plain)

    def hover_formats(self) -> Sequence[types.MarkupKind] | None:
        text = self.client_capabilities.text_document
        return text.hover.content_format if text is not None and text.hover else None

    def completion_formats(self) -> Sequence[types.MarkupKind] | None:
        text = self.client_capabilities.text_document
        item = text.completion.completion_item if text is not None and text.completion else None
        return item.documentation_format if item is not None else None

    def look_around(self) -> None:
        """Every LOOK_EVERY seconds: the open skills whose looked-at files changed on
        disk are read again and the open documents checked (Session.stale); then again."""
        open_paths = [p for p in (path_of(uri) for uri in self.workspace.text_documents) if p]
        stale = guarded(lambda: bool(self.session.stale(open_paths)), False)
        if stale:
            self.recheck_open()
        with contextlib.suppress(RuntimeError):  # (no loop: a direct call)
            asyncio.get_running_loop().call_later(LOOK_EVERY, self.look_around)

    def recheck_open(self) -> None:
        """Every open document is due for a check (after a save or a change on disk:
        a burst of them checks each document once)."""
        for uri in list(self.workspace.text_documents):
            self.changed(uri)


def _rest(shown: Published) -> tuple[Any, ...]:
    c = shown.checked
    return (c.skill, c.profile, c.loaded, c.version)


def path_of(uri: str) -> str | None:
    path = to_fs_path(uri)
    return os.path.abspath(path) if path else None


def guarded(work: Callable[[], T], default: T) -> T:
    """`work()`, or `default` when it fails (a bug on one document is logged, the
    server goes on)."""
    try:
        return work()
    except Exception as exc:
        log.error("skillstudio: %s", one_line(exc))
        return default


def skill_positions(checked: Checked) -> dict[str, FieldPos]:
    skill = checked.skill
    if skill is None:
        return {}
    try:
        return skill.doc.positions()
    except Exception:
        return {}


def shown_of(found: list[Diagnostic]) -> tuple[list[Diagnostic], int]:
    """The diagnostics published for a document (at most MAX_SHOWN with the note of
    the rest: the most severe kept, in their order) and how many are left out."""
    if len(found) <= MAX_SHOWN:
        return found, 0
    order = sorted(range(len(found)), key=lambda i: (RANK.get(found[i].severity, 3), i))
    keep = sorted(order[: MAX_SHOWN - 1])
    return [found[i] for i in keep], len(found) - len(keep)


def left_out(count: int, lines: Sequence[str], units: Units) -> types.Diagnostic:
    """The note that stands for the diagnostics not published, on the first line."""
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=0, character=0),
            end=types.Position(line=0, character=units(lines[0].rstrip()) if lines else 0),
        ),
        message=f"{counted(count, 'more finding')} not shown here (an editor gets at most "
        f"{MAX_SHOWN} a file): `skillstudio lint` lists every one.",
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
    )


def bounded(message: str) -> str:
    """A message as published: at most MAX_MESSAGE characters (a last guard; core's
    messages name a long value by its size)."""
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[:MAX_MESSAGE]}… (cut: {counted(len(message), 'character')} in all)"


def lsp_diagnostic(diag: Diagnostic, where: types.Range) -> types.Diagnostic:
    return types.Diagnostic(
        range=where,
        message=bounded(diag.message),
        severity=SEVERITY.get(diag.severity, types.DiagnosticSeverity.Information),
        code=diag.code,
        source=SOURCE,
    )


def inside(point: types.Position, where: types.Range) -> bool:
    start, end = where.start, where.end
    after = (point.line, point.character) >= (start.line, start.character)
    return after and (point.line, point.character) <= (end.line, end.character)


def overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line,
        b.start.character,
    ) <= (a.end.line, a.end.character)


def folders_of(params: types.InitializeParams) -> list[str]:
    uris: Iterable[str] = [f.uri for f in params.workspace_folders or []]
    if not uris and params.root_uri:
        uris = [params.root_uri]
    out = [to_fs_path(uri) for uri in uris]
    if not out and params.root_path:
        out = [params.root_path]
    return [os.path.abspath(path) for path in out if path]


def build(profile: str | None = None, cache: bool = True) -> SkillServer:
    """The server with its handlers (`profile`: one profile for every folder; `cache`:
    start from the cache of what was read, as lint does)."""
    server = SkillServer(profile, cache)
    folders: list[str] = []

    @server.feature(types.INITIALIZE)
    def initialize(ls: SkillServer, params: types.InitializeParams) -> None:
        folders.extend(folders_of(params))

    @server.feature(types.INITIALIZED)
    def initialized(ls: SkillServer, params: types.InitializedParams) -> None:
        guarded(lambda: ls.session.open_folders(folders), None)
        ls.recheck_open()
        ls.look_around()
        watched = ls.client_capabilities.workspace
        dynamic = watched.did_change_watched_files if watched is not None else None
        if dynamic is not None and dynamic.dynamic_registration:
            ls.client_register_capability(WATCH)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SkillServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.pacer.now(params.text_document.uri)  # diagnostics at once, large or not

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SkillServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri)  # checked from a timer: the latest text wins

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SkillServer, params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None:
            ls.files_changed([path])
        ls.recheck_open()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SkillServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.published.pop(uri, None)
        ls.pacer.closed(uri)
        path = path_of(uri)
        if path is not None and guarded(lambda: ls.session.closed(path), None) is not None:
            ls.recheck_open()  # the skill as saved, not the text that was on screen
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: SkillServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = [p for p in (path_of(change.uri) for change in params.changes) if p]
        if paths and ls.files_changed(paths):
            ls.recheck_open()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def workspace_folders(ls: SkillServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        gone = [to_fs_path(f.uri) for f in params.event.removed]
        added = [to_fs_path(f.uri) for f in params.event.added]
        ls.session.close_folders([p for p in gone if p])
        guarded(lambda: ls.session.open_folders([p for p in added if p]), None)
        ls.recheck_open()

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SkillServer, params: types.HoverParams) -> types.Hover | None:
        return guarded(lambda: hover_at(ls, params.text_document.uri, params.position), None)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[":", " ", "-", ","]),
    )
    def complete(ls: SkillServer, params: types.CompletionParams) -> types.CompletionList:
        none: list[types.CompletionItem] = []
        items = guarded(lambda: complete_at(ls, params.text_document.uri, params.position), none)
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: SkillServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        shown = ls.published.get(params.text_document.uri)
        if shown is None or shown.text != ls.open_text(params.text_document.uri):
            return []  # (a change not checked yet: edits of the last text would land amiss)
        wanted = [d for d, r in shown.ranges if overlaps(r, params.range)]
        return guarded(
            lambda: fix_actions(
                params.text_document.uri, shown.text, wanted, shown.checked, ls.units
            ),
            [],
        )

    return server


def cursor(ls: SkillServer, uri: str, point: types.Position) -> tuple[list[str], int] | None:
    text = ls.open_text(uri)
    if text is None:
        return None
    lines = text_lines(text)
    if point.line >= len(lines):
        return None
    line = lines[point.line]
    count = ls.units
    character, used = 0, 0
    while character < len(line) and used < point.character:
        used += count(line[character])
        character += 1
    return lines, character


def hover_at(ls: SkillServer, uri: str, point: types.Position) -> types.Hover | None:
    shown = ls.published.get(uri)
    found = cursor(ls, uri, point)
    if shown is None or found is None:
        return None
    lines, character = found
    parts = [diagnostic_help(d) for d, r in shown.ranges if inside(point, r)]
    profile = shown.checked.profile or ls.session.profile_for(shown.path)
    key = key_hover(lines, point.line, character, profile)
    if key is not None:
        parts.append(key)
    if name_line(lines, point.line, profile.key_field) or name_line(lines, point.line):
        parts.extend(name_notes(ls.session, shown.path, shown.text, shown.checked))
    if not parts:
        return None
    return types.Hover(contents=ls.markup("\n\n---\n\n".join(parts), ls.hover_formats()))


def complete_at(ls: SkillServer, uri: str, point: types.Position) -> list[types.CompletionItem]:
    found = cursor(ls, uri, point)
    path = path_of(uri)
    if found is None or path is None:
        return []
    lines, character = found
    shown = ls.published.get(uri)
    profile = (shown.checked.profile if shown else None) or ls.session.profile_for(path)
    formats = ls.completion_formats()
    return [
        types.CompletionItem(
            label=offer.label,
            kind=types.CompletionItemKind.Property
            if offer.is_field
            else types.CompletionItemKind.Value,
            detail=offer.detail,
            documentation=ls.markup(offer.help, formats),
            insert_text=offer.insert,
        )
        for offer in completions(lines, point.line, character, profile)
    ]


def serve(profile: str | None = None, cache: bool = True) -> None:
    """Speak the protocol on stdin/stdout until the client says exit."""
    build(profile, cache).start_io()
