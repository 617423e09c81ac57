"""`skillstudio lsp` and the listing's budget note (issue 39, last round): a note about
the whole listing stands on skillstudio.yaml's line that sets the budget, as `lint`
puts it; the editor shows it there, never on a skill, and it follows a description
lengthened in an open skill before it is saved."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .helpers import lint_json, skill_text, write
from .test_lsp import SERVER, opened, typed, until, uri_of

CODE = "listing-over-budget"
CONFIG = "profile: claude-code\ncontext_tokens: 10000\nbundled_skills: false\n"  # 400 chars


def description(i: int, words: int) -> str:
    return f"Handle task {i}. " + " ".join(f"w{i}x{j}" for j in range(words)) + "."


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    """Three short skills that fit a 400-character listing (about 120 characters)."""
    write(tmp_path, "skillstudio.yaml", CONFIG)
    write(tmp_path, ".claude/settings.json", "{}\n")
    for i in range(3):
        text = skill_text(name=f"s{i}", description=description(i, 2))
        write(tmp_path, f".claude/skills/s{i}/SKILL.md", text)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="ws")],
        )
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_the_note_is_on_skillstudio_yaml_and_follows_unsaved_edits(
    client: LanguageClient, tmp_path: Path
) -> None:
    config = uri_of(tmp_path, "skillstudio.yaml")
    assert [d.code for d in await opened(client, config, CONFIG)] == []  # within budget
    skill = uri_of(tmp_path, ".claude/skills/s0/SKILL.md")
    text = (tmp_path / ".claude/skills/s0/SKILL.md").read_text(encoding="utf-8")
    await opened(client, skill, text)
    # the description lengthened, unsaved, to 60 words: the set no longer fits
    line = next(n for n, row in enumerate(text.splitlines()) if row.startswith("description:"))
    end = len(text.splitlines()[line])
    longer = f"description: {description(0, 60)}"
    found = await typed(client, skill, 2, (line, 0), (line, end), longer)
    assert CODE not in {d.code for d in found}  # not on the skill
    await until(lambda: CODE in {d.code for d in client.diagnostics.get(config, [])})
    (note,) = [d for d in client.diagnostics[config] if d.code == CODE]
    assert (note.range.start.line, note.range.start.character) == (1, 0)  # context_tokens
    # what lint says of the set as saved with that description: the same note, there
    (tmp_path / ".claude/skills/s0/SKILL.md").write_text(
        text.replace(text.splitlines()[line], longer), encoding="utf-8"
    )
    (linted,) = [d for d in lint_json(cwd=tmp_path)["diagnostics"] if d["code"] == CODE]
    assert (linted["path"], linted["line"]) == (str(tmp_path / "skillstudio.yaml"), 2)
    assert linted["message"] == note.message
    # the description shortened again, unsaved: the note goes
    await typed(
        client, skill, 3, (line, 0), (line, len(longer)), f"description: {description(0, 2)}"
    )
    await until(lambda: CODE not in {d.code for d in client.diagnostics.get(config, [])})
