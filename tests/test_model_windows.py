"""The context window comes from the model (issue 36; core/projects/model_windows.py):
the built-in table and its sources, the user's models.yaml (good, bad, huge, a link
out), skillstudio.yaml `model:`, `--model` on every command that takes a window, and
the precedence --context-tokens > --model > context_tokens > model > the default."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.projects import model_windows
from skillstudio.core.projects.config import load_config
from skillstudio.core.projects.model_windows import (
    BUILTIN,
    load_models,
    save_user_models,
    user_models_path,
    window_choice,
    with_window,
)

from .helpers import REPO, cli, skill_text, write


@pytest.fixture
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def user_file(home: Path, text: str | bytes) -> Path:
    path = home / "skillstudio" / "models.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# -- the built-in table -------------------------------------------------------------------
def test_every_builtin_row_has_a_source_a_date_and_a_place_in_the_docs() -> None:
    names = [row.name for row in BUILTIN]
    assert len(names) == len(set(names))
    docs = Path(REPO, "docs", "agents.md").read_text(encoding="utf-8")
    section = docs.split("## Models and context windows", 1)[1]
    for row in BUILTIN:
        assert row.source and row.checked == "2026-12-02", row
        assert 1_000 <= row.context_tokens <= 10_000_000, row
        assert f"`{row.name}`" in section, row.name  # each row named with its source
        if not row.confirmed:
            assert "id unconfirmed" in section.split(f"`{row.name}`", 1)[1].split("\n")[0]
    vendors = {row.vendor for row in BUILTIN}
    assert vendors == {"anthropic", "openai", "google"}


def test_lookups_and_claude_codes_1m_suffix(config_home: Path) -> None:
    table = load_models()
    assert table.diagnostics == [] and table.user == []  # no file: the built-in rows
    assert table.get("gpt-5.2-codex").context_tokens == 272_000  # type: ignore[union-attr]
    assert table.get("claude-opus-4-6").context_tokens == 1_000_000  # type: ignore[union-attr]
    assert table.get("claude-haiku-4-5").context_tokens == 200_000  # type: ignore[union-attr]
    longer = table.get("claude-sonnet-4-5-20250929[1m]")
    assert longer is not None and longer.context_tokens == 1_000_000
    assert table.get("gpt-5.2[1m]") is None  # the suffix is Claude Code's
    assert table.get("claude-nope[1m]") is None
    assert table.get("GPT-5.2") is None  # ids are exact
    assert "claude-opus-4-6" in table.close_names("claude-opus-4-66")
    message = table.unknown_message("gpt-5.22")
    assert "Unknown model 'gpt-5.22'" in message and "gpt-5.2" in message
    assert str(config_home) in message  # where to add it


# -- the user's file ----------------------------------------------------------------------
def test_user_rows_add_and_replace(config_home: Path) -> None:
    user_file(config_home, "models:\n  my-local: 32768\n  claude-opus-4-6: 200000\n")
    table = load_models()
    assert table.diagnostics == []
    assert table.get("my-local").context_tokens == 32_768  # type: ignore[union-attr]
    mine = table.get("claude-opus-4-6")
    assert mine is not None and mine.context_tokens == 200_000 and not mine.builtin
    assert [r.name for r in table.rows].count("claude-opus-4-6") == 1
    assert user_models_path() == str(config_home / "skillstudio" / "models.yaml")


def test_save_then_load_round_trips_and_refuses_bad_rows(config_home: Path) -> None:
    path = save_user_models([("local-a", 8192), ("gpt-5.2", 400_000)])
    assert path == user_models_path() and os.path.isfile(path)
    table = load_models()
    assert [(r.name, r.context_tokens) for r in table.user] == [
        ("local-a", 8192),
        ("gpt-5.2", 400_000),
    ]
    for bad in ([("", 10)], [("x", 0)], [("x", 10**9)], [("a\x1bb", 10)], [(" x", 10)]):
        with pytest.raises(ValueError):
            save_user_models(bad)
    assert len(load_models().user) == 2  # nothing written by a refused save


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("models: [a, b]\n", 1, "'models' must map"),
        ("models:\n  ok: 1000\n  bad: lots\n", 3, "'bad': a context window is a whole number"),
        ("models:\n  ok: 1000\n  neg: -5\n", 3, "'neg'"),
        ("models:\n  ok: 1000\nextra: 1\n", 3, "Unknown key 'extra'"),
        ("models: {ok: 1000\n", 2, "not valid YAML"),
        ("- a\n- b\n", 1, "must be a mapping"),
    ],
)
def test_a_bad_user_file_is_a_diagnostic_at_its_line(
    config_home: Path, text: str, line: int, words: str
) -> None:
    path = user_file(config_home, text)
    table = load_models()
    assert table.diagnostics, text
    diag = table.diagnostics[0]
    assert diag.code == "config-invalid" and diag.path == str(path)
    assert words in diag.message and diag.line == line, diag
    if "ok: 1000" in text and "{" not in text:
        assert table.get("ok") is not None  # the rest is used


def test_a_huge_or_binary_user_file_is_refused_without_a_traceback(config_home: Path) -> None:
    user_file(config_home, "models:\n" + "".join(f"  m{i}: 1000\n" for i in range(40_000)))
    table = load_models()
    assert table.user == [] and "at most" in table.diagnostics[0].message
    user_file(config_home, b"\xff\xfe models")
    assert "not UTF-8" in load_models().diagnostics[0].message
    user_file(config_home, "models:\n" + "".join(f"  m{i}: 1000\n" for i in range(1_500)))
    table = load_models()
    assert len(table.user) == model_windows.MAX_USER_ROWS
    assert "at most 1,000 are read" in table.diagnostics[-1].message


def test_a_user_file_that_links_out_of_its_folder_is_not_read(
    config_home: Path, tmp_path: Path
) -> None:
    outside = write(tmp_path, "elsewhere/secret.yaml", "models:\n  leaked: 1000\n")
    folder = config_home / "skillstudio"
    folder.mkdir(parents=True)
    os.symlink(outside, folder / "models.yaml")
    table = load_models()
    assert table.get("leaked") is None
    assert "outside" in table.diagnostics[0].message


# -- skillstudio.yaml's model and the precedence ------------------------------------------
def test_skillstudio_yaml_model_gives_the_window_unless_context_tokens_is_set(
    tmp_path: Path, config_home: Path
) -> None:
    write(tmp_path, "a/skillstudio.yaml", "model: gpt-5.2-codex\n")
    config = load_config(str(tmp_path / "a"))
    assert config is not None and config.diagnostics == []
    assert (
        config.options["context_tokens"] == 272_000 and config.options["model"] == "gpt-5.2-codex"
    )
    write(tmp_path, "b/skillstudio.yaml", "context_tokens: 50000\nmodel: gpt-5.2-codex\n")
    config = load_config(str(tmp_path / "b"))
    assert config is not None and config.options["context_tokens"] == 50_000
    write(tmp_path, "c/skillstudio.yaml", "roots: [skills]\nmodel: gpt-5.2-codx\n")
    config = load_config(str(tmp_path / "c"))
    assert config is not None and "context_tokens" not in config.options
    (diag,) = config.diagnostics
    assert diag.code == "config-invalid" and diag.line == 2 and diag.column == 1
    assert "Unknown model 'gpt-5.2-codx'" in diag.message and "gpt-5.2-codex" in diag.message
    user_file(config_home, "models:\n  gpt-5.2-codx: 1234\n  bad: x\n")
    config = load_config(str(tmp_path / "c"))
    assert config is not None and config.options["context_tokens"] == 1234
    assert [d.severity for d in config.diagnostics] == ["warning"]  # the user file's entry


def test_precedence_of_the_command_line() -> None:
    table = load_models()
    assert window_choice(5, "gpt-5.2", table).context_tokens == 5  # type: ignore[union-attr]
    assert window_choice(None, "gpt-5.2", table).context_tokens == 272_000  # type: ignore[union-attr]
    assert window_choice(None, None, table) is None
    with pytest.raises(ValueError, match="Unknown model"):
        window_choice(None, "nope", table)
    project = {"context_tokens": 9, "model": "x", "threshold": 3}
    assert with_window(project, None) == project
    by_model = with_window(project, window_choice(None, "gpt-5.2", table))
    assert by_model == {"context_tokens": 272_000, "model": "gpt-5.2", "threshold": 3}
    by_tokens = with_window(project, window_choice(7, None, table))
    assert by_tokens == {"context_tokens": 7, "threshold": 3}


# -- each command's flag ------------------------------------------------------------------
def big_set(base: Path, count: int = 27, config: str = "") -> Path:
    """`count` claude-code skills of about 500-character descriptions: over the
    8,000-character budget of an unknown window, inside a 1M window's 40,000."""
    write(base, ".claude/settings.json", "{}\n")
    if config:
        write(base, "skillstudio.yaml", config)
    for i in range(count):
        words = " ".join(f"word{i}x{j}" for j in range(60))
        text = skill_text(name=f"skill-{i:02d}", description=f"Handle task {i}. {words}.")
        write(base, f".claude/skills/skill-{i:02d}/SKILL.md", text)
    return base


def over_budget(run: Any) -> bool:
    return any(d["code"] == "listing-over-budget" for d in run.json["diagnostics"])


def test_lint_model_and_its_precedence(tmp_path: Path) -> None:
    base = big_set(tmp_path)
    args = ("lint", "--format", "json", "--profile", "claude-code")
    assert over_budget(cli(*args, cwd=base))  # the agent's default: 8,000 characters
    assert not over_budget(cli(*args, "--model", "claude-opus-4-6", cwd=base))
    assert over_budget(cli(*args, "--model", "claude-haiku-4-5", cwd=base))  # 200k: 8,000
    # --context-tokens wins over --model
    both = cli(*args, "--model", "claude-opus-4-6", "--context-tokens", "100000", cwd=base)
    assert over_budget(both)
    # skillstudio.yaml: model, then context_tokens over it, then --model over both
    write(base, "skillstudio.yaml", "model: claude-opus-4-6\n")
    assert not over_budget(cli(*args, cwd=base))
    write(base, "skillstudio.yaml", "model: claude-opus-4-6\ncontext_tokens: 100000\n")
    assert over_budget(cli(*args, cwd=base))
    assert not over_budget(cli(*args, "--model", "claude-sonnet-4-6", cwd=base))


@pytest.mark.parametrize("command", ["lint", "match", "prompt", "headroom", "test"])
def test_an_unknown_model_is_a_usage_error_naming_close_ones(tmp_path: Path, command: str) -> None:
    base = big_set(tmp_path, 2)
    write(base, "suites/s.yaml", 'cases:\n  - query: "/skill-00"\n    expect: skill-00\n')
    words = {"match": ["match", "task"], "test": ["test", "suites/s.yaml"]}.get(command, [command])
    run = cli(*words, "--model", "claude-opus-4-66", cwd=base)
    assert run.code == 2, run.err
    assert "Unknown model 'claude-opus-4-66'" in run.err and "claude-opus-4-6" in run.err
    assert run.out == ""


def test_prompt_and_headroom_use_the_models_window(tmp_path: Path) -> None:
    base = big_set(tmp_path)
    head = cli("headroom", "--model", "claude-opus-4-6", "--agent", "claude-code", cwd=base)
    assert head.code == 0, head.err
    assert "at a 1,000,000-token context (claude-opus-4-6)" in head.out
    assert "budget 40,000" in head.out
    data = cli(
        "headroom", "--model", "gpt-5.2-codex", "--agent", "codex", "--format", "json", cwd=base
    ).json
    assert data["context_tokens"] == 272_000 and data["model"] == "gpt-5.2-codex"
    (row,) = data["agents"]
    assert row["budget"] == 5_440 and row["unit"] == "tokens" and row["model"] == "gpt-5.2-codex"
    prompt = cli("prompt", "--model", "claude-opus-4-6", "--format", "json", cwd=base).json
    assert prompt["budget"] == 40_000 and prompt["omitted"] == []
    default = cli("prompt", "--format", "json", cwd=base).json
    assert default["budget"] == 8_000


def test_match_and_test_pass_the_models_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillstudio.core.projects import suites
    from skillstudio.core.ranking import matching

    base = big_set(tmp_path, 2)
    write(base, "suites/s.yaml", 'cases:\n  - query: "/skill-00"\n    expect: skill-00\n')
    seen: list[Any] = []
    real_match, real_run = matching.match, suites.run_suite

    def spy_match(*args: Any, **kwargs: Any) -> Any:
        seen.append(("match", (kwargs.get("options") or {}).get("context_tokens")))
        return real_match(*args, **kwargs)

    def spy_run(suite: Any, registry: Any, options: Any = None, *rest: Any) -> Any:
        seen.append(("test", (options or {}).get("context_tokens")))
        return real_run(suite, registry, options, *rest)

    monkeypatch.setattr(matching, "match", spy_match)
    monkeypatch.setattr(suites, "run_suite", spy_run)
    assert cli("match", "task", "--model", "gpt-5.2", cwd=base).code == 0
    assert (
        cli("match", "task", "--context-tokens", "1234", "--model", "gpt-5.2", cwd=base).code == 0
    )
    run = cli("test", "suites/s.yaml", "--model", "claude-opus-4-6", cwd=base)
    assert run.code == 0, run.out + run.err
    assert cli("test", "suites/s.yaml", "--context-tokens", "777", cwd=base).code == 0
    assert ("match", 272_000) in seen and ("match", 1234) in seen
    assert ("test", 1_000_000) in seen and ("test", 777) in seen


def test_eval_model_gives_the_listing_its_window_when_known(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from .live_fake import FakeModel

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    base = big_set(tmp_path / "p")
    last = "word26x59"  # in the last skill's description: cut at the default budget
    sent: dict[str, str] = {}
    for model in ("some-local-model", "claude-opus-4-6"):
        with FakeModel([("text", "No skill.")]) as fake:
            run = cli(
                "eval", "--request", "task 3", "--endpoint", fake.url, "--api", "anthropic",
                "--model", model, "--runs", "1", "--yes", cwd=base,
            )  # fmt: skip
            assert run.code == 0, run.out + run.err
            sent[model] = fake.received[0][2].decode("utf-8", "replace")
    assert last not in sent["some-local-model"]  # an unknown id: the agent's default window
    assert last in sent["claude-opus-4-6"]  # the table's 1M window: every description
