"""Authoring advice (issue 29): every rule tells its bad fixture from its good one, at its
default severity (never an error), and the project's `rules:` settings change it.

Fixtures: tests/advice/<code>/{good,bad}/<skill folder>/..., the profile in
tests/advice/<code>/profile.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skillstudio.core.model.diagnostics import CODES
from skillstudio.core.model.explanations import ADVICE, EXPLANATIONS, explain
from tests.helpers import cli, lint_json, write

HERE = Path(__file__).parent / "advice"
RULES = sorted(p.name for p in HERE.iterdir() if p.is_dir())


def _copy(code: str, kind: str, tmp_path: Path) -> Path:
    target = tmp_path / kind
    shutil.copytree(HERE / code / kind, target)
    if code == "skill-too-large" and kind == "bad":
        with open(target / "pdf-forms" / "forms.bin", "wb") as fh:
            fh.truncate(9 * 1024 * 1024)  # sparse: the size counts, not the disk used
    return target


def _found(code: str, kind: str, tmp_path: Path) -> list[dict[str, object]]:
    profile = (HERE / code / "profile").read_text().strip()
    folder = _copy(code, kind, tmp_path)
    data = lint_json(str(folder / os.listdir(folder)[0]), "--profile", profile, "--no-cache")
    return data["diagnostics"]


def test_every_advice_rule_has_fixtures_a_code_and_an_explanation() -> None:
    assert sorted(ADVICE) == RULES
    for code, rule in ADVICE.items():
        assert code in CODES and code in EXPLANATIONS
        assert rule.severity in ("warning", "info"), code  # advice never fails a loaded skill
        assert rule.source


@pytest.mark.parametrize("code", RULES)
def test_the_rule_tells_the_bad_fixture_from_the_good_one(code: str, tmp_path: Path) -> None:
    bad = [d for d in _found(code, "bad", tmp_path) if d["code"] == code]
    good = [d for d in _found(code, "good", tmp_path) if d["code"] == code]
    assert bad, f"{code}: the bad fixture is not reported"
    assert not good, f"{code}: the good fixture is reported: {good}"
    assert {d["severity"] for d in bad} == {ADVICE[code].severity}
    assert all(d["line"] for d in bad)  # placed at a line


def test_advice_does_not_fail_lint(tmp_path: Path) -> None:
    folder = _copy("description-person", "bad", tmp_path) / "pdf-forms"
    run = cli("lint", str(folder), "--no-cache")
    assert run.code == 0 and "description-person" in run.out
    assert cli("lint", str(folder), "--strict", "--no-cache").code == 1


def test_seed_profiles_get_no_advice(tmp_path: Path) -> None:
    folder = _copy("name-vague", "bad", tmp_path) / "utils"
    data = lint_json(str(folder), "--profile", "pegasus", "--no-cache")
    assert not [d for d in data["diagnostics"] if d["code"] in ADVICE]


def test_rules_in_skillstudio_yaml_change_a_severity_or_turn_a_rule_off(tmp_path: Path) -> None:
    skills = _copy("description-person", "bad", tmp_path)
    write(tmp_path / "bad", "skillstudio.yaml", "rules:\n  description-person: error\n")
    data = lint_json(str(tmp_path / "bad"), "--no-cache")
    found = [d for d in data["diagnostics"] if d["code"] == "description-person"]
    assert [d["severity"] for d in found] == ["error"]
    assert cli("lint", str(skills), "--no-cache").code == 1
    write(tmp_path / "bad", "skillstudio.yaml", "rules:\n  description-person: off\n")
    data = lint_json(str(tmp_path / "bad"), "--no-cache")
    assert not [d for d in data["diagnostics"] if d["code"] == "description-person"]


def test_a_cross_skill_code_can_be_turned_off(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        write(tmp_path, f"skills/{folder}/SKILL.md", "---\nname: same\ndescription: x y\n---\n")
    write(tmp_path, "skillstudio.yaml", "roots: [skills]\n")
    codes = {d["code"] for d in lint_json(str(tmp_path), "--no-cache")["diagnostics"]}
    assert "duplicate-name" in codes
    write(tmp_path, "skillstudio.yaml", "roots: [skills]\nrules: {duplicate-name: off}\n")
    codes = {d["code"] for d in lint_json(str(tmp_path), "--no-cache")["diagnostics"]}
    assert "duplicate-name" not in codes


def test_a_bad_rule_setting_is_one_config_diagnostic(tmp_path: Path) -> None:
    _copy("description-person", "bad", tmp_path)
    write(
        tmp_path / "bad",
        "skillstudio.yaml",
        "rules:\n  no-such-code: off\n  description-person: loud\n  name-vague: info\n",
    )
    data = lint_json(str(tmp_path / "bad"), "--no-cache")
    config = [d for d in data["diagnostics"] if d["code"] == "config-invalid"]
    assert len(config) == 2
    assert {d["line"] for d in config} == {2, 3}
    # the rest of the file is used: the rule stays on at its default
    assert [d for d in data["diagnostics"] if d["code"] == "description-person"]


@pytest.mark.parametrize("code", sorted(CODES))
def test_explain_covers_every_code(code: str) -> None:
    text = explain(code)
    assert text is not None and text.startswith(code)
    run = cli("explain", code)
    assert run.code == 0 and CODES[code] in run.out


def test_explain_of_an_unknown_code_is_bad_usage() -> None:
    run = cli("explain", "no-such-code")
    assert run.code == 2 and "not a diagnostic code" in run.err
    listing = cli("explain")
    assert listing.code == 0 and all(code in listing.out for code in CODES)
    data = cli("explain", "bool-as-string", "--format", "json").json
    assert data["severity"] == "warning" and data["fix"] == "safe" and data["source"]


def test_a_reference_behind_a_link_out_is_not_read(tmp_path: Path) -> None:
    skills = _copy("reference-depth", "bad", tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text("see [details](details.md)\n")
    reference = skills / "pdf-forms" / "reference.md"
    reference.unlink()
    os.symlink(outside, reference)
    data = lint_json(str(skills / "pdf-forms"), "--no-cache")
    assert not [d for d in data["diagnostics"] if d["code"] == "reference-depth"]


def test_advice_in_fenced_code_is_not_advice(tmp_path: Path) -> None:
    text = (
        "---\nname: pdf-forms\ndescription: Fills PDF forms. Use when asked to fill one.\n---\n"
        "```powershell\nRun scripts\\fill.ps1 from C:\\Users\\bob\\forms\n```\n"
    )
    write(tmp_path, "pdf-forms/SKILL.md", text)
    codes = {d["code"] for d in lint_json(str(tmp_path / "pdf-forms"), "--no-cache")["diagnostics"]}
    assert not codes & {"path-backslash", "path-absolute"}


def test_every_code_the_code_emits_is_in_the_table_with_an_explanation() -> None:
    """A code written beside its severity anywhere in the package (`emit("x", "info"`,
    `Diagnostic("x", "error"`) is in CODES (so the docs' table and `explain` know it)
    and has an explanation of its own, not the fallback."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "skillstudio"
    written = re.compile(r'"([a-z][a-z0-9]*(?:-[a-z0-9]+)+)",\s*"(?:error|warning|info)"')
    emitted = {
        match.group(1)
        for source in package.rglob("*.py")
        for match in written.finditer(source.read_text(encoding="utf-8"))
    }
    assert len(emitted) > 10  # (the pattern still finds what it is for)
    assert sorted(emitted - set(CODES)) == []
    assert sorted(code for code in CODES if code not in EXPLANATIONS) == []


@pytest.mark.parametrize(
    ("body", "paths"),
    [
        ("Run scripts\\a.py and scripts\\b.py.", ["scripts\\a.py", "scripts\\b.py"]),
        ("Edit config\\_loader.py or docs\\.hidden.md.", []),  # Markdown escapes
        ("Edit `config\\_loader.py`.", ["config\\_loader.py"]),  # a code span keeps them
        ("\\`x\\_y.py and `a\\_b.py`", ["a\\_b.py"]),  # an escaped backtick opens none
        ("``x ` y\\_z.py`` then ``` c\\_d.py", ["y\\_z.py"]),  # ``` has no closer: text
        ("`a\nb\\_c.py`", ["b\\_c.py"]),  # a code span goes on over a line end ...
        ("`a\n\nb\\_c.py`", []),  # ... not over a blank line
        ("From C:\\Program Files\\Tool\\bin\\tool.exe", []),
        ("From \\\\server\\my share\\dir\\x.py", []),
        ("Copy C:\\Temp\\a.txt to docs\\b.txt", ["docs\\b.txt"]),  # a file name ends it
    ],
)
def test_backslash_paths_as_markdown_reads_them(body: str, paths: list[str]) -> None:
    from skillstudio.core.checking.advice_body import backslash_paths

    assert [path for _, path in backslash_paths(body)] == paths


def test_code_spans_take_linear_time_on_hostile_backticks() -> None:
    import time

    from skillstudio.core.checking.advice_body import backslash_paths, code_spans

    body = "".join("`" * (n % 300 + 1) + " x " for n in range(6_000)) + "`a\\b.py`"
    started = time.perf_counter()
    assert backslash_paths(body) == [(len(body) - 7, "a\\b.py")]
    assert code_spans("a `b` c")[0] == (2, 5)
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    ("description", "reported"),
    [
        ("You MUST use this before any creative work.", True),
        ("Use when you have a written implementation plan to execute.", True),  # obra's
        ("Use when the work is done and you need to decide how to merge it.", True),
        ("Creates posters. You should use this skill when the user asks for art.", True),
        ("Themes that you can apply to any slide deck.", True),
        ("Scores plugins. Use when calibrating thresholds for your marketplace.", True),
        ("Use when the user has a written implementation plan to execute.", False),
        ("Designs feeds like the X For You algorithm. Use when building a feed.", False),
        ('Answers questions. Use when the user asks "can you fix my build".', False),
    ],
)
def test_the_reader_addressed_as_you_is_second_person_wherever_it_is(
    description: str, reported: bool, tmp_path: Path
) -> None:
    """`description-person` flagged "You MUST use this" but not "Use when you have a
    plan" (obra-superpowers' executing-plans): both speak to the agent as "you"."""
    folder = tmp_path / "plans"
    write(folder, "SKILL.md", f"---\nname: plans\ndescription: '{description}'\n---\nDo it.\n")
    data = lint_json(str(folder), "--profile", "agentskills", "--no-cache")
    codes = [d["code"] for d in data["diagnostics"]]
    assert ("description-person" in codes) is reported


@pytest.mark.parametrize(
    ("description", "word"),
    [
        # anthropics-skills' internal-comms, in its words' shape: the skill speaks as "me"
        ("Resources to help me write memos, in the formats that my company likes.", "me"),
        ("Reviews pull requests; my job is to find the bugs.", "my"),
        ("Writes memos. When I need one, I write it in the house style.", "I"),
        # the user's words, quoted or reported, are not the description's voice
        ("Writes memos. Use when the user says 'help me write a memo'.", None),
        ("Writes memos. Use when the user says help me write a memo.", None),
        ("Writes memos. Use when asked: draft my status report.", None),
        # no person at all: a numeral, I/O, a name in code or joined by a hyphen
        ("Finds Type I errors in Phase I trials and I/O-bound code.", None),
        ("Configures `my-app` and the my-app folder from me.json.", None),
    ],
)
def test_the_skill_speaking_as_i_or_me_anywhere_is_first_person(
    description: str, word: str | None, tmp_path: Path
) -> None:
    """A reviewer found internal-comms' "help me write ... my company likes" unreported
    while "you" was: only an opening "I" or "I can" was looked for. The first person
    anywhere in the description's own words is reported, naming the word; the user's
    words (quoted, or after "says") are not."""
    folder = tmp_path / "memos"
    write(folder, "SKILL.md", f'---\nname: memos\ndescription: "{description}"\n---\nDo it.\n')
    data = lint_json(str(folder), "--profile", "agentskills", "--no-cache")
    found = [d for d in data["diagnostics"] if d["code"] == "description-person"]
    if word is None:
        assert found == []
    else:
        assert len(found) == 1 and f"('{word}'" in str(found[0]["message"])
        assert found[0]["column"] == 15 + description.index(word)


def test_description_person_quotes_the_words_and_points_at_the_first(tmp_path: Path) -> None:
    """A reviewer could not tell which word `description-person` meant: the message
    quotes the first one found (and counts the rest) and its column is that word's, on
    a plain value and on a folded one whose word is on a later line."""
    write(
        tmp_path,
        "a/SKILL.md",
        "---\nname: a\ndescription: Fixes bugs. You MUST use this when you have a bug.\n---\n",
    )
    write(
        tmp_path,
        "b/SKILL.md",
        '---\nname: b\ndescription: >\n  Answers "can you help". Fixes bugs.\n  Use when\n'
        "  your tests fail.\n---\n",
    )
    found = {}
    for name in ("a", "b"):
        data = lint_json(str(tmp_path / name), "--profile", "agentskills", "--no-cache")
        found[name] = next(d for d in data["diagnostics"] if d["code"] == "description-person")
    assert found["a"]["message"].startswith(
        "The description speaks in the first or second person ('You', and 1 more); "
    )
    assert (found["a"]["line"], found["a"]["column"]) == (3, 26)  # the "You" of "You MUST"
    assert "('your');" in found["b"]["message"]  # the quoted "can you" is the user's
    assert (found["b"]["line"], found["b"]["column"]) == (6, 3)
    assert found["a"]["severity"] == found["b"]["severity"] == "warning"


def test_every_true_false_field_spelt_otherwise_gets_one_note(tmp_path: Path) -> None:
    """bool-word: one rule over the profile's bool fields; 1/0 are numbers to YAML 1.2,
    yes/no/on/off text; true/false in any case, and quoted text (bool-as-string), not."""
    write(
        tmp_path,
        "ship/SKILL.md",
        "---\nname: ship\ndescription: Ships the build when the user asks to ship it.\n"
        "disable-model-invocation: 1\nuser-invocable: NO\nbackground: False\n"
        "context: fork\n---\n\nBuild, tag and push the release.\n",
    )
    found = lint_json(str(tmp_path / "ship"), "--profile", "claude-code", "--no-cache")
    notes = {d["field"]: d for d in found["diagnostics"] if d["code"] == "bool-word"}
    assert sorted(notes) == ["disable-model-invocation", "user-invocable"]
    assert notes["disable-model-invocation"]["message"].startswith(
        "Write disable-model-invocation: true. '1' is read as true here, but as a number"
    )
    assert (
        "'NO' is read as false here, but as text by YAML 1.2" in notes["user-invocable"]["message"]
    )
    assert (notes["user-invocable"]["line"], notes["user-invocable"]["column"]) == (5, 17)
