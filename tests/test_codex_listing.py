"""Codex's listing against Codex's own rules (docs/agents.md, "Codex"): the vectors of
codex-rs/core-skills/src/render.rs's tests @ 0899b7c, a plain transcription of its
round robin, and whole messages byte for byte on trees built here (system skills,
short and long paths, over the budget, the `r0/` fallback), then the corpus.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.profiles.codex import render, shipped
from skillstudio.core.profiles.codex.render import Budget, Entry

from .helpers import CORPUS, cli, codex_machine, lint_json, write

CHARS = 10**9  # a character budget nothing reaches (Codex's tests: usize::MAX)


@pytest.fixture(autouse=True)
def scopes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    machine: Path = codex_machine(tmp_path / "machine", monkeypatch)
    return machine


def tokens(text: str) -> int:
    """Codex's `approx_token_count`: UTF-8 bytes / 4, rounded up."""
    return -(-len(text.encode("utf-8")) // 4)


def made(name: str, scope: str = "repository", description: str = "desc", root: str = "") -> Entry:
    """Codex's tests' `make_skill`: /tmp/<name>/SKILL.md."""
    return Entry(name, description, f"/tmp/{name}/SKILL.md", render.SCOPE_RANK[scope], root)


def bare(entry: Entry, path: str | None = None) -> str:
    return f"- {entry.name}: (file: {path or entry.path})"


def shown_lines(listing: render.Listing) -> list[str]:
    return listing.lines


# -- the budget ----------------------------------------------------------------------
def test_the_budget_is_two_percent_of_the_whole_window_in_tokens() -> None:
    assert render.budget_for(200_000) == Budget(4_000, True)
    assert render.budget_for(272_000) == Budget(5_440, True)
    assert render.budget_for(99) == Budget(1, True)
    assert render.budget_for(None) == Budget(8_000, False)
    assert render.budget_for(-1) == Budget(8_000, False)


# -- render.rs's own test vectors ------------------------------------------------------
def test_descriptions_are_shortened_equally_before_any_skill_is_left_out() -> None:
    alpha, beta = (
        made("alpha-skill", description="abcdef"),
        made("beta-skill", description="uvwxyz"),
    )
    least = len(bare(alpha)) + 1 + len(bare(beta)) + 1
    out = render.render([beta, alpha], Budget(least + 6, False))
    assert out.lines == [
        f"- alpha-skill: ab (file: {alpha.path})",
        f"- beta-skill: uv (file: {beta.path})",
    ]
    assert (out.included, out.omitted, out.cut_chars, out.warning) == (2, 0, 8, None)


def test_no_warning_while_the_average_cut_is_at_most_a_hundred_characters() -> None:
    alpha = made("alpha-skill", description="abcdefghij")
    beta = made("beta-skill", description="uvwxyzabcd")
    least = len(bare(alpha)) + 1 + len(bare(beta)) + 1
    out = render.render([alpha, beta], Budget(least + 6, False))
    assert (out.included, out.cut_chars, out.warning) == (2, 16, None)


def test_a_warning_when_the_average_cut_passes_a_hundred_characters() -> None:
    long, empty = made("long-skill", description="a" * 250), made("empty-skill", description="")
    least = len(bare(long)) + 1 + len(bare(empty)) + 1
    out = render.render([long, empty], Budget(least + 49, False))
    assert (out.included, out.omitted, out.cut_chars) == (2, 0, 202)
    assert out.warning == (
        "Skill descriptions were shortened to fit the skills context budget. Codex can still "
        "see every skill, but some descriptions are shorter. Disable unused skills or plugins "
        "to leave more room for the rest."
    )
    tight = render.render([made("long-skill", description="a" * 1000)], Budget(1, True))
    one = tokens(bare(tight.entries[0]) + "\n")
    out = render.render(tight.entries, Budget(one + 1, True))
    assert out.warning is not None and "fit the 2% skills context budget" in out.warning


def test_what_a_short_description_leaves_goes_to_the_longer_ones() -> None:
    short, long = made("short-skill", description="x"), made("long-skill", description="abcdefghi")
    least = len(bare(short)) + 1 + len(bare(long)) + 1
    out = render.render([short, long], Budget(least + 11, False))
    assert out.lines == [
        f"- long-skill: abcdefgh (file: {long.path})",
        f"- short-skill: x (file: {short.path})",
    ]


def test_when_bare_lines_do_not_fit_they_are_kept_by_scope_priority() -> None:
    system, user = made("system-skill", "system"), made("user-skill", "user")
    repo, admin = made("repo-skill"), made("admin-skill", "admin")
    limit = len(bare(system)) + 1 + len(bare(admin)) + 1
    out = render.render([system, user, repo, admin], Budget(limit, False))
    assert out.lines == [bare(system), bare(admin)]
    assert (out.included, out.omitted) == (2, 2)
    assert out.warning == (
        "Exceeded skills context budget. All skill descriptions were removed and 2 additional "
        "skills were not included in the model-visible skills list."
    )
    out = render.render([system, user, repo, admin], Budget(tokens(bare(system) + "\n"), True))
    assert out.warning is not None and out.warning.startswith(
        "Exceeded skills context budget of 2%. All skill descriptions were removed and 3 "
        "additional skills were"
    )


def test_a_line_that_does_not_fit_is_skipped_and_the_next_one_tried() -> None:
    oversized = made("oversized-system-skill", "system", "desc " * 100)
    repo = made("repo-skill")
    out = render.render(
        [oversized, repo], Budget(len(f"- repo-skill: desc (file: {repo.path})\n"), False)
    )
    assert out.lines == [bare(repo)]
    assert out.warning == (
        "Exceeded skills context budget. All skill descriptions were removed and 1 additional "
        "skill was not included in the model-visible skills list."
    )


PLUGINS = "/Users/xl/.codex/plugins/cache/openai-curated"


def in_root(name: str, root: str, folder: str | None = None) -> Entry:
    return Entry(name, "desc", f"{root}/{folder or name}/SKILL.md", 3, root)


def test_no_aliases_without_budget_pressure() -> None:
    entries = [
        in_root("alpha-skill", "/tmp/skills", "alpha"),
        in_root("beta-skill", "/tmp/skills", "beta"),
    ]
    out = render.render(entries, Budget(CHARS, False), ["/tmp/skills"])
    assert out.root_lines == [] and out.included == 2


def test_aliases_when_they_let_more_skills_fit() -> None:
    root = f"{PLUGINS}/example/hash1234567890/skills-with-a-very-long-shared-prefix"
    entries = [in_root(f"shared-root-skill-{i}", root, f"skill-{i}") for i in range(12)]
    table = len(render.body([f"- `r0` = `{root}`"], [])) - len(render.body([], []))
    aliased = table + sum(len(bare(e, f"r0/skill-{i}/SKILL.md")) + 1 for i, e in enumerate(entries))
    assert aliased < sum(len(bare(e)) + 1 for e in entries)
    out = render.render(entries, Budget(aliased, False), [root])
    assert (out.included, out.omitted) == (12, 0)
    assert out.root_lines == [f"- `r0` = `{root}`"]
    assert "- shared-root-skill-0: (file: r0/skill-0/SKILL.md)" in out.lines
    assert "- shared-root-skill-11: (file: r0/skill-11/SKILL.md)" in out.lines
    assert out.used == aliased


def aliases(entries: list[Entry], roots: list[str]) -> tuple[list[str], list[str]]:
    """The roots table and the paths, with room for nothing but aliased bare lines."""
    plain = render.render(entries, Budget(1, False), roots)  # nothing fits: no aliasing
    assert plain.root_lines == []
    ordered = sorted(entries, key=render.sort_key)
    sizes = render._Sizes(ordered)
    out = render._aliased(ordered, sizes, roots, Budget(CHARS, False))
    assert out is not None
    return out.root_lines, out.paths


def test_a_plugin_version_with_one_skill_is_aliased_at_its_marketplace() -> None:
    root = f"{PLUGINS}/github/hash123/skills"
    table, paths = aliases([in_root("github:gh-fix-ci", root, "gh-fix-ci")], [root])
    assert table == [f"- `r0` = `{PLUGINS}`"]
    assert paths == ["r0/github/hash123/skills/gh-fix-ci/SKILL.md"]


def test_a_plugin_version_with_several_skills_is_aliased_at_its_root() -> None:
    root = f"{PLUGINS}/github/hash123/skills"
    entries = [in_root("github:gh-fix-ci", root, "gh-fix-ci"), in_root("github:yeet", root, "yeet")]
    table, paths = aliases(entries, [root])
    assert table == [f"- `r0` = `{root}`"]
    assert paths == ["r0/gh-fix-ci/SKILL.md", "r0/yeet/SKILL.md"]


def test_several_roots_of_one_plugin_version_are_aliased_each() -> None:
    skills, extra = f"{PLUGINS}/github/hash123/skills", f"{PLUGINS}/github/hash123/extra-skills"
    entries = [
        in_root("github:gh-fix-ci", skills, "gh-fix-ci"),
        in_root("github:yeet", extra, "yeet"),
    ]
    table, paths = aliases(entries, [skills, extra])
    assert table == [f"- `r0` = `{skills}`", f"- `r1` = `{extra}`"]
    assert paths == ["r0/gh-fix-ci/SKILL.md", "r1/yeet/SKILL.md"]


def test_small_plugins_and_versions_share_their_marketplace_alias() -> None:
    github, slack = f"{PLUGINS}/github/hash123/skills", f"{PLUGINS}/slack/hash456/skills"
    entries = [
        in_root("github:gh-fix-ci", github, "gh-fix-ci"),
        in_root("slack:daily-digest", slack, "daily-digest"),
    ]
    table, paths = aliases(entries, [github, slack])
    assert table == [f"- `r0` = `{PLUGINS}`"]
    assert paths == [
        "r0/github/hash123/skills/gh-fix-ci/SKILL.md",
        "r0/slack/hash456/skills/daily-digest/SKILL.md",
    ]
    other = f"{PLUGINS}/github/hash456/extra-skills"
    entries = [
        in_root("github:gh-fix-ci", github, "gh-fix-ci"),
        in_root("github:yeet", other, "yeet"),
    ]
    table, paths = aliases(entries, [github, other])
    assert table == [f"- `r0` = `{PLUGINS}`"]
    assert paths[1] == "r0/github/hash456/extra-skills/yeet/SKILL.md"


def test_the_table_comes_off_the_budget_before_the_lines() -> None:
    root = f"{PLUGINS}/example/hash1234567890/skills-with-a-very-long-shared-prefix"
    alpha, beta = in_root("alpha-skill", root, "alpha"), in_root("beta-skill", root, "beta")
    table = len(render.body([f"- `r0` = `{root}`"], [])) - len(render.body([], []))
    alpha_line = len("- alpha-skill: (file: r0/alpha/SKILL.md)\n")
    sizes = render._Sizes([alpha, beta])
    out = render._aliased([alpha, beta], sizes, [root], Budget(table + alpha_line, False))
    assert out is not None
    assert out.lines == ["- alpha-skill: (file: r0/alpha/SKILL.md)"]


# -- the round robin, against a plain transcription of Codex's loop ----------------------
def codex_loop(budget: Budget, bares: list[str], descriptions: list[str], room: int) -> list[int]:
    """`render_lines_with_description_budget`, character by character."""
    tables = []
    for line, text in zip(bares, descriptions, strict=True):
        chars, size = len(line) + 1, len(line.encode("utf-8")) + 1
        base = budget.cost_of(chars, size)
        extra, n, b = [0], 0, 0
        for ch in text:
            n, b = n + 1, b + len(ch.encode("utf-8"))
            extra.append(budget.cost_of(chars + n + 1, size + b + 1) - base)
        tables.append(extra)
    given, spent, left = [0] * len(bares), [0] * len(bares), room
    changed = True
    while changed:
        changed = False
        for i, extra in enumerate(tables):
            if given[i] >= len(extra) - 1:
                continue
            delta = extra[given[i] + 1] - spent[i]
            if delta <= left:
                given[i] += 1
                spent[i] = extra[given[i]]
                left -= delta
                changed = True
    return given


@pytest.mark.parametrize("seed", range(40))
def test_the_round_robin_gives_what_codex_loop_gives(seed: int) -> None:
    rng = random.Random(seed)
    words = ["a", "bc", "déjà", "naïve", "漢字", "🙂", "x" * 7, " ", "-"]
    count = rng.randint(1, 12)
    bares = [f"- s{i}: (file: /{'p' * rng.randint(1, 60)}/SKILL.md)" for i in range(count)]
    texts = ["".join(rng.choice(words) for _ in range(rng.randint(0, 60))) for _ in range(count)]
    budget = Budget(0, rng.random() < 0.6)
    room = rng.randint(0, 400)
    sizes = [(len(b), len(b.encode("utf-8"))) for b in bares]
    assert render._round_robin(budget, sizes, texts, room) == codex_loop(budget, bares, texts, room)


# -- whole messages, byte for byte ------------------------------------------------------
INTRO_ABSOLUTE = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and file path so you can open the source for full instructions when using a specific skill."
)
INTRO_ALIASES = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
HOW_TO_ABSOLUTE = """- Discovery: The list above is the skills available in this session (name + description + file path). Skill bodies live on disk at the listed paths.
- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, open its `SKILL.md`. Read only enough to follow the workflow.
  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them relative to the skill directory listed above first, and only consider other paths if needed.
  3) If `SKILL.md` points to extra folders such as `references/`, load only the specific files needed for the request; don't bulk-load everything.
  4) If `scripts/` exist, prefer running or patching them instead of retyping large code blocks.
  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.
- Coordination and sequencing:
  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.
  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.
- Context hygiene:
  - Keep context small: summarize long sections instead of pasting them; only load extra files when needed.
  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` unless you're blocked.
  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.
- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue."""  # noqa: E501
HOW_TO_ALIASES = (
    HOW_TO_ABSOLUTE.replace(
        "(name + description + file path). Skill bodies live on disk at the listed paths.",
        "(name + description + short path). Skill bodies live on disk at the listed paths "
        "after expanding the matching alias from `### Skill roots`.",
    )
    .replace(
        "1) After deciding to use a skill, open its `SKILL.md`.",
        "1) After deciding to use a skill, expand the listed short `path` with the matching "
        "alias from `### Skill roots`, then open its `SKILL.md`.",
    )
    .replace(
        "resolve them relative to the skill directory listed above first",
        "resolve them relative to the directory containing that expanded `SKILL.md` first",
    )
)


def test_the_instruction_texts_character_for_character() -> None:
    assert shipped.INTRO_ABSOLUTE == INTRO_ABSOLUTE
    assert shipped.INTRO_ALIASES == INTRO_ALIASES
    assert shipped.HOW_TO_USE_ABSOLUTE == HOW_TO_ABSOLUTE
    assert shipped.HOW_TO_USE_ALIASES == HOW_TO_ALIASES
    assert HOW_TO_ALIASES.count("### Skill roots") == 2


def message(lines: list[str], roots: list[str] = ()) -> str:  # type: ignore[assignment]
    head = (
        ["## Skills", INTRO_ALIASES, "### Skill roots", *roots]
        if roots
        else ["## Skills", INTRO_ABSOLUTE]
    )
    how = HOW_TO_ALIASES if roots else HOW_TO_ABSOLUTE
    parts = [*head, "### Available skills", *lines, "### How to use skills", how]
    return "<skills_instructions>\n" + "\n".join(parts) + "\n</skills_instructions>"


def skill(base: Path, rel: str, name: str, description: str) -> str:
    return write(
        base, f"{rel}/SKILL.md", f"---\nname: {name}\ndescription: {description}\n---\n\nDo it.\n"
    )


def listing(*args: str) -> dict[str, Any]:
    run = cli("prompt", "--tier", "2", "--profile", "codex", "--format", "json", *args)
    assert run.code == 0, run.err
    data: dict[str, Any] = run.json
    return data


def system_lines(scopes: Path, path: str | None = None) -> list[str]:
    root = f"{scopes}/codex-home/skills/.system"
    return [
        f"- {s.name}: {s.description} (file: {path or root}/{s.name}/SKILL.md)"
        for s in shipped.SYSTEM_SKILLS
    ]


def test_system_skills_first_then_short_and_long_paths_whole(tmp_path: Path, scopes: Path) -> None:
    root = tmp_path / "root"
    short = skill(root, "a", "zeta", "Short path.")
    deep = "very-long-folder-name-" * 4
    long = skill(root, f"{deep}/b", "alpha", "Long path, ünïcode.")
    data = listing("--root", str(root), "--context-tokens", "272000")
    lines = [
        *system_lines(scopes),
        f"- alpha: Long path, ünïcode. (file: {long})",
        f"- zeta: Short path. (file: {short})",
    ]
    assert data["text"] == message(lines)
    assert (data["budget"], data["budget_unit"]) == (5440, "tokens")
    assert data["listed"] == [s.name for s in shipped.SYSTEM_SKILLS] + ["alpha", "zeta"]
    assert data["omitted"] == [] and data["note"] == ""


def test_unknown_window_counts_characters(tmp_path: Path, scopes: Path) -> None:
    skill(tmp_path / "root", "a", "alpha", "A.")
    data = listing("--root", str(tmp_path / "root"))
    assert data["budget"] == 8000 and "budget_unit" not in data


def test_over_the_budget_round_robin_without_an_ellipsis_on_aliased_paths(
    tmp_path: Path, scopes: Path
) -> None:
    root = tmp_path / "root"
    texts = {"alpha": "A" * 40, "beta": "Bb " * 5, "gamma": "G" * 100}
    paths = {n: skill(root, n, n, t) for n, t in texts.items()}
    system = f"{scopes}/codex-home/skills/.system"
    rows = [(s.name, s.description, f"{system}/{s.name}", "r0") for s in shipped.SYSTEM_SKILLS]
    rows += [(n, " ".join(t.split()), os.path.dirname(paths[n]), "r1") for n, t in texts.items()]
    full = [f"- {n}: (file: {folder}/SKILL.md)" for n, _, folder, _ in rows]
    short = [f"- {n}: (file: {alias}/{n}/SKILL.md)" for n, _, _, alias in rows]
    limit = sum(len(b) + 1 for b in full) + 60  # 60 characters for descriptions
    write(tmp_path, "skillstudio.yaml", f"profile: codex\nroots: [root]\nchar_budget: {limit}\n")
    data = listing("--project", str(tmp_path))
    # with full paths 60 characters are shared; aliased, the table comes off the budget
    # and what the shorter paths save goes to the descriptions: fewer are cut
    roots = [f"- `r0` = `{system}`", f"- `r1` = `{root}`"]
    table = len(message([], roots)) - len(message([]))
    room = limit - table - sum(len(b) + 1 for b in short)
    descriptions = [d for _, d, _, _ in rows]
    shown = codex_loop(Budget(0, False), short, descriptions, room)
    absolute = codex_loop(Budget(0, False), full, descriptions, 60)
    assert sum(map(len, descriptions)) - sum(shown) < sum(map(len, descriptions)) - sum(absolute)
    lines = [
        f"- {n}: {d[:k]} (file: {alias}/{n}/SKILL.md)" if k else short[i]
        for i, ((n, d, _, alias), k) in enumerate(zip(rows, shown, strict=True))
    ]
    assert data["text"] == message(lines, roots)
    assert shown[6] == len(descriptions[6]) and 0 < shown[7] < 100  # beta whole, gamma cut
    assert "..." not in "".join(lines)
    assert data["omitted"] == [] and len(data["listed"]) == 8
    assert data["note"].startswith("Skill descriptions were shortened to fit the skills")


def test_the_full_paths_fall_back_to_root_aliases(tmp_path: Path, scopes: Path) -> None:
    repo = tmp_path / ("a-long-folder-name-for-a-repository-" * 3) / "repo"
    (repo / ".git").mkdir(parents=True)
    names = [f"skill-{i:02}" for i in range(12)]
    for name in names:
        skill(repo, f".agents/skills/{name}", name, f"Does {name}.")
    system_root = f"{scopes}/codex-home/skills/.system"
    agents_root = f"{repo}/.agents/skills"
    roots = [f"- `r0` = `{system_root}`", f"- `r1` = `{agents_root}`"]
    aliased = system_lines(scopes, "r0") + [
        f"- {n}: Does {n}. (file: r1/{n}/SKILL.md)" for n in names
    ]
    absolute = system_lines(scopes) + [
        f"- {n}: Does {n}. (file: {agents_root}/{n}/SKILL.md)" for n in names
    ]
    table = tokens(message([], roots)) - tokens(message([]))
    fits = table + sum(tokens(line + "\n") for line in aliased)
    assert sum(tokens(line + "\n") for line in absolute) > fits  # full paths would be cut
    data = listing("--project", str(repo), "--context-tokens", str(fits * 50))
    assert data["budget"] == fits
    assert data["text"] == message(aliased, roots)
    assert "r0/... after a ### Skill roots table" in data["note"]


def test_skills_read_from_codex_system_root_are_not_listed_twice(
    tmp_path: Path, scopes: Path
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    skill(repo, ".agents/skills/mine", "mine", "Mine.")
    skill(scopes, "codex-home/skills/.system/skill-creator", "skill-creator", "Installed copy.")
    data = listing("--project", str(repo))
    assert data["listed"] == ["skill-creator", "mine"]
    assert "Installed copy." in data["text"] and "imagegen" not in data["text"]


def test_no_skill_the_model_may_invoke_gives_no_message(tmp_path: Path, scopes: Path) -> None:
    skill(scopes, "codex-home/skills/.system/quiet", "quiet", "Explicit only.")
    write(
        scopes,
        "codex-home/skills/.system/quiet/agents/openai.yaml",
        "policy:\n  allow_implicit_invocation: false\n",
    )
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".agents" / "skills").mkdir(parents=True)
    data = listing("--project", str(repo))
    assert data["text"] == "" and data["listed"] == []
    assert [o["skill"] for o in data["omitted"]] == ["quiet"]


def test_the_headroom_counts_tokens_at_a_known_window(tmp_path: Path) -> None:
    for i in range(40):
        skill(tmp_path / "root", f"s{i}", f"s{i}", "Word " * 60)
    run = cli(
        "headroom",
        "--agent",
        "codex",
        "--context-tokens",
        "100000",
        "--format",
        "json",
        "--root",
        str(tmp_path / "root"),
    )
    (row,) = run.json["agents"]
    assert (row["budget"], row["unit"]) == (2000, "tokens")
    assert row["needed"] > row["budget"] >= row["used"]
    assert len(row["shortened"]) == 45 and row["dropped"] == []
    text = cli(
        "headroom",
        "--agent",
        "codex",
        "--context-tokens",
        "100000",
        "--root",
        str(tmp_path / "root"),
    ).out
    assert "budget 2,000 tokens" in text


# -- the corpus ----------------------------------------------------------------------------
@pytest.mark.skipif(not os.path.isdir(CORPUS), reason="no ../shared/corpus")
def test_the_corpus_at_a_272000_token_window_keeps_every_description_with_aliases() -> None:
    active = [
        s for s in lint_json(CORPUS, "--profile", "codex")["skills"] if s["status"] == "active"
    ]
    data = listing(CORPUS, "--context-tokens", "272000")
    assert (data["budget"], data["budget_unit"]) == (5440, "tokens")
    assert len(data["listed"]) == len(active) + len(shipped.SYSTEM_SKILLS) and data["omitted"] == []
    text = data["text"]
    _, rest = text.split("### Skill roots\n", 1)
    roots, rest = rest.split("### Available skills\n", 1)
    lines, _ = rest.split("\n### How to use skills\n", 1)
    entries = lines.split("\n")
    assert len(entries) == len(data["listed"])
    assert all(" (file: r" in e and ": (file: " not in e for e in entries)  # every one described
    assert roots.startswith("- `r0` = `")
    table = tokens(message([], roots.rstrip("\n").split("\n"))) - tokens(message([]))
    assert table + sum(tokens(e + "\n") for e in entries) <= 5440


def test_the_order_compares_paths_folder_by_folder_only_for_one_name() -> None:
    a = Entry("same", "d", "/x/b/c/SKILL.md", 2)
    b = Entry("same", "d", "/x/b-c/SKILL.md", 2)
    c = Entry("other", "d", "/x/a/SKILL.md", 3)
    d = Entry("zeta", "d", "/y/SKILL.md", 0)
    assert render.ordered([c, b, a, d]) == [d, a, b, c]
    assert render.ordered([c, b, a, d]) == sorted([c, b, a, d], key=render.sort_key)
