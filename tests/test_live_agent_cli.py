"""`eval --agent-cli`: the real agent's CLI run in a throwaway folder, its skill call read
from its own event stream (issue 37). The agents are stand-ins: small Python scripts
named `claude`, `codex`, `gemini`, first on PATH, that log what they were given (argv,
stdin, the files in their folder) and print a recorded stream (tests/data/agent_streams,
written from the documented formats: docs/agents.md), hang, flood or print garbage.
Nothing here reaches a network."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from skillstudio.core.live import agent_cli
from skillstudio.core.live.agent_streams import read_claude, read_codex, read_gemini

from .helpers import cli, skill_text, write

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="stand-ins run by shebang")

STREAMS = Path(__file__).parent / "data" / "agent_streams"
SKILLS = {
    "pdf-forms": "Fill in PDF forms and read their fields.",
    "code-review": "Review a diff for bugs, style and missing tests.",
}
LAYOUT = {"claude": ".claude/skills", "codex": ".agents/skills", "gemini": ".gemini/skills"}
PROFILE = {"claude": "claude-code", "codex": "codex", "gemini": "agentskills"}
STANDIN = """#!{python}
import json, os, subprocess, sys, time
if sys.argv[1:] == ["--version"]:
    print({version!r})
    sys.exit(0)
mode = os.environ.get("STANDIN_MODE", "stream")
query = sys.stdin.read()
cwd = os.getcwd()
files = sorted(
    os.path.relpath(os.path.join(d, f), cwd).replace(os.sep, "/")
    for d, _, names in os.walk(cwd) for f in names
)
entry = {{"argv": sys.argv[1:], "cwd": cwd, "files": files, "query": query}}
if mode == "hang":  # a child of its own, which must die with it
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    entry["child"] = child.pid
with open(os.environ["STANDIN_LOG"], "a") as log:
    log.write(json.dumps(entry) + "\\n")
if mode == "hang":
    time.sleep(600)
elif mode == "flood":
    junk = b'{{"type": "assistant"}}' * 4096
    while True:
        sys.stdout.buffer.write(junk)
elif mode == "garbage":
    print("{{broken")
    print("Error: not logged in", file=sys.stderr)
    sys.exit(1)
elif mode == "fail-runs":
    sys.exit("this stand-in must not be run")
else:
    sys.stdout.write(open(os.environ["STANDIN_STREAM"]).read())
"""


def standin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, stream: str) -> Path:
    """The stand-in `name` first on PATH, printing the stream `stream`; its log's path.
    The answer cache is this test's own."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    exe = bin_dir / name
    exe.write_text(STANDIN.format(python=sys.executable, version=f"9.9.9 ({name} stand-in)"))
    exe.chmod(0o755)
    log = tmp_path / f"{name}.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("STANDIN_LOG", str(log))
    monkeypatch.setenv("STANDIN_STREAM", str(STREAMS / stream))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("STANDIN_MODE", raising=False)
    return log


def project(tmp_path: Path, agent: str) -> Path:
    base = tmp_path / "proj"
    for name, description in SKILLS.items():
        write(
            base, f"{LAYOUT[agent]}/{name}/SKILL.md", skill_text(name=name, description=description)
        )
    write(base, f"{LAYOUT[agent]}/pdf-forms/reference.md", "# Fields\n")
    write(base, "README.md", "not a skill: never copied\n")
    return base


def alive(pid: int) -> bool:
    """A process that runs (a zombie, dead but not yet reaped by its new parent, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        return stat.read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    return True


def logged(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def ask(base: Path, agent: str, *extra: str, request: str = "fill in the tax form") -> Any:
    return cli(
        "eval",
        LAYOUT[agent],
        "--profile",
        PROFILE[agent],
        "--agent-cli",
        agent,
        "--request",
        request,
        "--yes",
        "--format",
        "json",
        *extra,
        cwd=base,
    )


# -- Claude Code ---------------------------------------------------------------------
def test_claude_runs_in_a_throwaway_folder_and_its_skill_call_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    base = project(tmp_path, "claude")
    run = ask(base, "claude", "--expect", "pdf-forms", "--runs", "3")
    assert run.code == 0, run.err
    calls = logged(log)
    assert len(calls) == 3
    for call in calls:  # a new folder each run, holding only the skills, removed after
        assert call["files"] == [
            ".claude/skills/code-review/SKILL.md",
            ".claude/skills/pdf-forms/SKILL.md",
            ".claude/skills/pdf-forms/reference.md",
        ]
        assert not Path(call["cwd"]).exists()
        assert not Path(call["cwd"]).is_relative_to(base)
        assert call["query"] == "fill in the tax form"  # on stdin, never in argv
        assert call["argv"][:4] == ["-p", "--output-format", "stream-json", "--verbose"]
        assert "fill in the tax form" not in call["argv"]
    assert len({c["cwd"] for c in calls}) == 3
    report = run.json["reports"][0]
    case = report["cases"][0]
    assert case["picks"] == {"pdf-forms": 3} and case["verdict"] == "pass"
    assert report["agent"]["name"] == "claude"
    assert report["agent"]["version"] == "9.9.9 (claude stand-in)"
    assert report["agent"]["argv"][0] == "claude"  # no path of this machine
    assert report["model"] == "claude-sonnet-4-5-20250929"  # as the agent reported it
    assert report["endpoint"]["api"] == "agent-cli"
    runs = case["runs"]
    assert all(r["reported_model"] == "claude-sonnet-4-5-20250929" for r in runs)
    assert runs[0]["input_tokens"] == 10 and runs[0]["output_tokens"] == 63
    assert len({r["request_sha256"] for r in runs}) == 1 and case["request_sha256"]


def test_claude_without_a_skill_call_picks_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    standin(tmp_path, monkeypatch, "claude", "claude_none.jsonl")
    base = project(tmp_path, "claude")
    run = ask(base, "claude", "--expect", "pdf-forms", request="what is the capital of France")
    assert run.code == 1, run.err  # 0 of 3: fails, as an answer (not inconclusive)
    case = run.json["reports"][0]["cases"][0]
    assert case["picks"] == {"none": 3} and case["verdict"] == "fail"
    assert case["runs"][0]["text"] == "Paris is the capital of France."


def test_the_cache_replays_offline_without_running_the_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    base = project(tmp_path, "claude")
    assert ask(base, "claude", "--expect", "pdf-forms").code == 0
    assert len(logged(log)) == 3
    monkeypatch.setenv("STANDIN_MODE", "fail-runs")  # `--version` still answers
    replay = ask(base, "claude", "--expect", "pdf-forms", "--offline")
    assert replay.code == 0, replay.err
    assert len(logged(log)) == 3  # not run again
    report = replay.json["reports"][0]
    assert report["cached_runs"] == 3 and report["cases"][0]["picks"] == {"pdf-forms": 3}
    # one changed byte of a skill file is another question: not replayed
    write(base, ".claude/skills/pdf-forms/reference.md", "# Fields!\n")
    missed = ask(base, "claude", "--expect", "pdf-forms", "--offline")
    assert missed.code == 3, missed.err
    assert missed.json["reports"][0]["cached_runs"] == 0


def test_a_hanging_agent_is_killed_at_the_timeout_and_the_case_is_inconclusive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    monkeypatch.setenv("STANDIN_MODE", "hang")
    base = project(tmp_path, "claude")
    start = time.monotonic()
    run = ask(base, "claude", "--expect", "pdf-forms", "--timeout", "1", "--concurrency", "3")
    assert time.monotonic() - start < 15
    assert run.code == 3, run.err
    case = run.json["reports"][0]["cases"][0]
    assert case["verdict"] == "inconclusive" and case["answered"] == 0
    assert all("timeout" in r["error"] for r in case["runs"])
    time.sleep(0.2)
    for call in logged(log):  # the agent's own child died with its process group
        assert not alive(call["child"])
        assert not Path(call["cwd"]).exists()


def test_garbage_and_floods_are_bounded_and_have_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    base = project(tmp_path, "claude")
    monkeypatch.setenv("STANDIN_MODE", "garbage")
    run = ask(base, "claude", "--expect", "pdf-forms")
    assert run.code == 3, run.err
    errors = {r["error"] for r in run.json["reports"][0]["cases"][0]["runs"]}
    assert errors == {"claude exited with status 1: Error: not logged in"}
    monkeypatch.setenv("STANDIN_MODE", "flood")
    monkeypatch.setattr(agent_cli, "MAX_OUTPUT", 1 << 20)
    flood = ask(base, "claude", "--expect", "pdf-forms", "--runs", "1", "--min-runs", "1")
    assert flood.code == 3, flood.err
    (only,) = flood.json["reports"][0]["cases"][0]["runs"]
    assert "output bound" in only["error"]
    assert len(only["raw"]) <= 4000


def test_a_missing_agent_is_exit_2_with_a_plain_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    base = project(tmp_path, "claude")
    run = ask(base, "claude", "--expect", "pdf-forms")
    assert run.code == 2
    assert "claude: not found on PATH" in run.err and "Traceback" not in run.err
    given = ask(base, "claude", "--agent-cli-path", str(tmp_path / "nowhere"))
    assert given.code == 2 and "not an executable file" in given.err


def test_slash_requests_are_the_harness_s_and_never_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = standin(tmp_path, monkeypatch, "claude", "claude_none.jsonl")
    base = project(tmp_path, "claude")
    run = ask(base, "claude", "--expect", "pdf-forms", request="/pdf-forms T-12")
    assert run.code == 0, run.err
    assert logged(log) == []
    assert run.json["reports"][0]["harness_runs"] == 3


def test_show_request_runs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    base = project(tmp_path, "claude")
    run = ask(base, "claude", "--show-request")
    assert run.code == 0, run.err
    assert logged(log) == []
    (shown,) = run.json["requests"]
    assert shown["descriptor"]["version"] == "9.9.9 (claude stand-in)"
    assert ".claude/skills/pdf-forms/SKILL.md" in shown["skills"]
    text = ask(base, "claude", "--show-request", "--format", "text")
    assert "request_sha256: " + shown["request_sha256"] in text.out


# -- Codex and Gemini CLI --------------------------------------------------------------
def test_codex_runs_sandboxed_and_a_read_of_a_listed_skill_md_is_its_pick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = standin(tmp_path, monkeypatch, "codex", "codex_read.jsonl")
    base = project(tmp_path, "codex")
    run = ask(base, "codex", "--expect", "pdf-forms")
    assert run.code == 0, run.err
    call = logged(log)[0]
    assert call["argv"][:5] == ["exec", "--json", "--sandbox", "read-only", "--skip-git-repo-check"]
    assert call["argv"][-1] == "-" and ".agents/skills/pdf-forms/SKILL.md" in call["files"]
    case = run.json["reports"][0]["cases"][0]
    assert case["picks"] == {"pdf-forms": 3}
    assert case["runs"][0]["input_tokens"] == 9120


def test_codex_ls_and_a_bak_file_are_not_reads(tmp_path: Path) -> None:
    stream = (STREAMS / "codex_ls.jsonl").read_bytes()
    folder = "/tmp/run"
    paths = ((f"{folder}/.agents/skills/pdf-forms/SKILL.md", "pdf-forms"),)
    read = read_codex(stream, paths, folder)
    assert read.pick is None and read.text == "Paris." and not read.error
    assert read_codex((STREAMS / "codex_read.jsonl").read_bytes(), paths, folder).pick == (
        "pdf-forms"
    )


def test_gemini_activate_skill_is_read_and_an_error_result_has_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = standin(tmp_path, monkeypatch, "gemini", "gemini_skill.jsonl")
    base = project(tmp_path, "gemini")
    run = ask(base, "gemini", "--expect", "pdf-forms", "--model", "gemini-2.5-pro")
    assert run.code == 0, run.err
    call = logged(log)[0]
    assert call["argv"][-2:] == ["--model", "gemini-2.5-pro"]
    assert (
        "--approval-mode" in call["argv"] and ".gemini/skills/pdf-forms/SKILL.md" in call["files"]
    )
    case = run.json["reports"][0]["cases"][0]
    assert case["picks"] == {"pdf-forms": 3}
    assert case["runs"][0]["text"] == "Which PDF should I fill in?"
    failed = read_gemini((STREAMS / "gemini_error.jsonl").read_bytes())
    assert failed.pick is None and "Quota exceeded" in failed.error


def test_stream_readers_skip_lines_that_are_not_events() -> None:
    stream = (
        b"warning: something\n[1,2]\n{not json\n" + (STREAMS / "claude_skill.jsonl").read_bytes()
    )
    read = read_claude(stream)
    assert read.pick == "pdf-forms" and read.events == 5
    block = {"type": "tool_use", "name": "Skill", "input": {"command": "/pdf-forms"}}
    older = json.dumps({"type": "assistant", "message": {"content": [block]}}).encode()
    assert read_claude(older).pick == "pdf-forms"
    assert read_claude(b"\x00\xff" * 1000).events == 0


def test_kill_reaches_the_process_group() -> None:
    """run_process's own bound, without the CLI: the agent and a child it started are
    gone at the timeout."""
    script = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    done = agent_cli.run_process([sys.executable, "-c", script], os.getcwd(), b"", 1.0)
    assert done.cut == "timeout" and done.status is None and done.seconds < 10
    time.sleep(0.2)
    assert not alive(int(done.stdout.split()[0]))


def test_text_report_names_the_agent_and_usage_errors_are_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    base = project(tmp_path, "claude")
    text = ask(base, "claude", "--expect", "pdf-forms", "--format", "text")
    assert text.code == 0, text.err
    head = text.out.splitlines()[0]
    assert "9.9.9 (claude stand-in)" in head and "run as Claude Code's own CLI" in head
    assert "About to run claude" in text.err  # said before running, even with --yes
    # relative to the working folder, as every PATH is
    exe = os.path.relpath(tmp_path / "bin" / "claude", base)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    given = ask(base, "claude", "--expect", "pdf-forms", "--agent-cli-path", exe)
    assert given.code == 0, given.err
    alone = cli("eval", ".claude/skills", "--agent-cli-path", exe, "--request", "q", cwd=base)
    assert alone.code == 2 and "goes with --agent-cli" in alone.err
    no_model = cli("eval", ".claude/skills", "--request", "q", "--yes", cwd=base)
    assert no_model.code == 2 and "--model is required" in no_model.err


def test_a_cancel_stops_the_agents_running_and_removes_their_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C (execute_agent's cancel): the agents in flight are killed with their
    children at once, their runs end `cancelled`, every throwaway folder is gone."""
    from skillstudio.core.live.agent_run import AgentSetup, execute_agent, plan_agent
    from skillstudio.core.live.client import Limits
    from skillstudio.core.live.planning import Settings
    from skillstudio.core.live.stats import LiveCase

    from .test_live_harness import registry_at

    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    monkeypatch.setenv("STANDIN_MODE", "hang")
    base = project(tmp_path, "claude")
    registry = registry_at(base, [".claude/skills"], "claude-code")
    agent = agent_cli.AGENTS["claude"]
    exe = agent_cli.find_executable(agent)
    setup = AgentSetup(agent, exe, agent_cli.agent_version(exe))
    files = agent_cli.skill_files(list(registry.active.values()))
    assert files.names == ("code-review", "pdf-forms")
    settings = Settings(setup.endpoint(), "", runs=2, limits=Limits(timeout=60))
    case = LiveCase("fill in the tax form", ["pdf-forms"])
    checked = plan_agent(registry, [case], settings, setup, files, None, {}, False)
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    start = time.monotonic()
    report = execute_agent(checked, None, cancel)
    assert time.monotonic() - start < 10
    assert report.cancelled
    assert [a.error for a in report.results[0].answers] == ["cancelled", "cancelled"]
    calls = logged(log)
    assert len(calls) == 2
    time.sleep(0.2)
    for call in calls:
        assert not alive(call["child"]) and not Path(call["cwd"]).exists()


def test_only_each_skill_s_own_regular_files_are_copied(tmp_path: Path) -> None:
    from .test_live_harness import registry_at

    base = project(tmp_path, "claude")
    skills = base / ".claude" / "skills"
    (skills / "pdf-forms" / "link.md").symlink_to(base / "README.md")
    os.mkfifo(skills / "pdf-forms" / "pipe")
    write(base, ".claude/skills/pdf-forms/scripts/fill.py", "print('fill')\n")
    registry = registry_at(base, [".claude/skills"], "claude-code")
    files = agent_cli.skill_files(list(registry.active.values()))
    assert [path for path, _ in files.files] == [
        "code-review/SKILL.md",
        "pdf-forms/SKILL.md",
        "pdf-forms/reference.md",
        "pdf-forms/scripts/fill.py",
    ]
    before = files.digest
    write(base, ".claude/skills/pdf-forms/scripts/fill.py", "print('fill!')\n")
    assert agent_cli.skill_files(list(registry.active.values())).digest != before
    # the bound: a set past MAX_SKILL_BYTES is refused, naming it
    write(base, ".claude/skills/pdf-forms/data.bin", "x" * 5000)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agent_cli, "MAX_SKILL_BYTES", 4000)
        with pytest.raises(agent_cli.AgentError, match="more than 4,000 bytes"):
            agent_cli.skill_files(list(registry.active.values()))


def test_a_child_left_running_by_an_agent_that_exits_goes_with_its_group() -> None:
    script = (
        "import subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(child.pid, flush=True)\n"
    )
    done = agent_cli.run_process([sys.executable, "-c", script], os.getcwd(), b"", 30.0)
    assert done.cut == "" and done.status == 0 and done.seconds < 10
    time.sleep(0.2)
    assert not alive(int(done.stdout.split()[0]))


# -- the shared run loop: the agent's runs are run.py's, made by another sender ----------
def _runs_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cases: list[Any], **kw: Any
) -> dict[str, list[tuple[list[str], Any]]]:
    """The same cases run twice (`runs` 2 then 3) by the stand-in Claude Code
    (execute_agent) and by a fake Messages endpoint answering Skill pdf-forms
    (execute), each with its own cache: per path, per execution, the progress messages
    (the query left out) and the report."""
    from skillstudio.core.live.agent_run import AgentSetup, execute_agent, plan_agent
    from skillstudio.core.live.cache import AnswerCache
    from skillstudio.core.live.client import Limits
    from skillstudio.core.live.endpoints import endpoint_for
    from skillstudio.core.live.planning import Settings, plan
    from skillstudio.core.live.run import execute

    from .live_fake import FakeModel
    from .test_live_harness import registry_at

    standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    registry = registry_at(project(tmp_path, "claude"), [".claude/skills"], "claude-code")
    agent = agent_cli.AGENTS["claude"]
    exe = agent_cli.find_executable(agent)
    setup = AgentSetup(agent, exe, agent_cli.agent_version(exe))
    files = agent_cli.skill_files(list(registry.active.values()))
    out: dict[str, list[tuple[list[str], Any]]] = {"agent": [], "api": []}

    def progress(seen: list[str]) -> Any:
        return lambda done, total, message: seen.append(message.split(": ")[-1])

    with FakeModel([("tool", "Skill", {"skill": "pdf-forms"})]) as fake:
        caches = {path: AnswerCache(str(tmp_path / path)) for path in out}
        for runs in (2, 3):
            limits = Limits(**kw)
            ours = Settings(setup.endpoint(), "", runs=runs, limits=limits)
            checked = plan_agent(registry, cases, ours, setup, files, caches["agent"], {}, False)
            seen: list[str] = []
            report = execute_agent(checked, caches["agent"], None, progress(seen))
            out["agent"].append((seen, report))
            theirs = Settings(endpoint_for(fake.url, "anthropic"), "m", runs=runs, limits=limits)
            asked = plan(registry, cases, theirs, {}, caches["api"], False)
            seen = []
            out["api"].append((seen, execute(asked, caches["api"], None, progress(seen))))
    return out


def test_the_agent_path_runs_in_the_shared_loop_cache_and_runs_as_the_api_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--runs 2, then --runs 3: the first two runs of each request come from the cache,
    the third is made; the harness's request needs no run. The progress the loop says
    and the statistics are the same for the agent as for a model asked over HTTP."""
    from skillstudio.core.live.stats import LiveCase

    cases = [
        LiveCase("fill in the tax form", ["pdf-forms"]),
        LiveCase("/code-review", ["code-review"]),
    ]
    both = _runs_both_ways(tmp_path, monkeypatch, cases, timeout=30.0)
    for path in ("agent", "api"):
        (first_seen, first), (second_seen, second) = both[path]
        assert first_seen[0] == "2 of 4 runs resolved by the harness (no model call)"
        assert first.to_json()["cached_runs"] == 0 and sorted(first_seen[1:]) == ["pdf-forms"] * 2
        assert second_seen[0] == (
            "2 of 6 runs from the cache; 3 of 6 runs resolved by the harness (no model call)"
        )
        assert sorted(second_seen[1:]) == ["pdf-forms"]  # the one run made
        data = second.to_json()
        assert data["cached_runs"] == 2 and data["harness_runs"] == 3
        assert [c["picks"] for c in data["cases"]] == [{"pdf-forms": 3}, {"code-review": 3}]
        assert [c["verdict"] for c in data["cases"]] == ["pass", "pass"]
        assert [a.turn for a in second.results[1].answers] == [1, 1, 1]
    agent, api = both["agent"][1][1].to_json(), both["api"][1][1].to_json()
    for key in ("passed", "failed", "inconclusive", "unanswered", "per_skill", "confusion"):
        assert agent[key] == api[key], key
    assert [c["first_turn"] for c in agent["cases"]] == [c["first_turn"] for c in api["cases"]]


def test_a_timed_out_agent_run_is_the_shared_loop_s_inconclusive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every run of the stand-in hangs past the timeout: no answer, so the case is
    inconclusive (never "no skill"), the runs are not cached, and the next execution
    runs them again."""
    from skillstudio.core.live.agent_run import AgentSetup, execute_agent, plan_agent
    from skillstudio.core.live.cache import AnswerCache
    from skillstudio.core.live.client import Limits
    from skillstudio.core.live.planning import Settings
    from skillstudio.core.live.stats import LiveCase

    from .test_live_harness import registry_at

    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    monkeypatch.setenv("STANDIN_MODE", "hang")
    registry = registry_at(project(tmp_path, "claude"), [".claude/skills"], "claude-code")
    agent = agent_cli.AGENTS["claude"]
    exe = agent_cli.find_executable(agent)
    setup = AgentSetup(agent, exe, agent_cli.agent_version(exe))
    files = agent_cli.skill_files(list(registry.active.values()))
    settings = Settings(setup.endpoint(), "", runs=3, concurrency=3, limits=Limits(timeout=1.0))
    cache = AnswerCache(str(tmp_path / "cache"))
    seen: list[str] = []
    for _ in range(2):
        cases = [LiveCase("fill in the tax form", ["pdf-forms"])]
        checked = plan_agent(registry, cases, settings, setup, files, cache, {}, False)
        assert not checked.cached and checked.calls == 3
        report = execute_agent(checked, cache, None, lambda d, t, m: seen.append(m))
        assert report.counts() == (0, 0, 1) and report.unanswered() == 1
        data = report.to_json()
        assert data["errors"] == 3 and data["cases"][0]["verdict"] == "inconclusive"
    assert seen.count("starting") == 2
    assert sum("within the 1 s timeout" in m for m in seen) == 6
    assert len(logged(log)) == 6


def test_a_denied_activation_and_newer_codex_events_keep_the_pick(tmp_path: Path) -> None:
    """As the sources read 2026-12-03 have it (docs/agents.md): Gemini CLI prints a
    `tool_use` when the model asks for `activate_skill`, before its non-interactive
    policy may deny the call, so a denied activation is still the model's pick; Codex's
    newer events (`item.plan.delta`, `request_user_input`, a `plan` item) are skipped,
    and a `declined` read of a listed SKILL.md is its pick."""
    call = {"type": "tool_use", "tool_name": "activate_skill", "tool_id": "a-1"}
    denied = [
        {"type": "init", "model": "gemini-2.5-pro"},
        dict(call, parameters={"name": "pdf-forms"}),
        {"type": "tool_result", "tool_id": "a-1", "status": "error", "error": {"message": "x"}},
        {"type": "result", "status": "error", "error": {"message": "denied by policy"}},
    ]
    read = read_gemini("\n".join(json.dumps(e) for e in denied).encode())
    assert read.pick == "pdf-forms" and "denied by policy" in read.error
    folder = "/tmp/run"
    paths = ((f"{folder}/.agents/skills/pdf-forms/SKILL.md", "pdf-forms"),)
    command = {"type": "command_execution", "command": "cat .agents/skills/pdf-forms/SKILL.md"}
    codex = [
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.plan.delta", "item_id": "p", "delta": "look"},
        {"type": "item.completed", "item": {"id": "p", "type": "plan", "text": "look"}},
        {"type": "request_user_input", "id": "1", "call_id": "c", "questions": []},
        {"type": "item.completed", "item": dict(command, id="c1", status="declined")},
        {"type": "turn.completed", "usage": {"input_tokens": 5, "output_tokens": 2}},
    ]
    read = read_codex("\n".join(json.dumps(e) for e in codex).encode(), paths, folder)
    assert read.pick == "pdf-forms" and not read.error and read.input_tokens == 5


def test_a_suite_s_cases_eval_does_not_judge_are_listed_as_the_api_path_lists_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On main before this, `eval --agent-cli SUITE` dropped the suite's `expect: none`
    cases in silence, while `eval SUITE` against a model named them NOT JUDGED."""
    log = standin(tmp_path, monkeypatch, "claude", "claude_skill.jsonl")
    base = project(tmp_path, "claude")
    suite = (
        "cases:\n"
        '  - query: "fill in the tax form"\n'
        "    expect_model: pdf-forms\n"
        '  - query: "please look over my pull request"\n'
        "    expect: none\n"
    )
    write(base, "suite.yaml", suite)
    args = ["--profile", "claude-code", "--agent-cli", "claude", "--yes"]
    run = cli("eval", "suite.yaml", *args, cwd=base)
    assert run.code == 0, run.err
    assert "NOT JUDGED  suite.yaml:4: 'please look over my pull request'" in run.out
    assert run.out.rstrip().endswith("1 passed, 0 failed, 1 not judged by eval")
    assert {c["query"] for c in logged(log)} == {"fill in the tax form"}  # never asked
    data = cli("eval", "suite.yaml", *args, "--offline", "--format", "json", cwd=base)
    assert [(n["line"], n["query"]) for n in data.json["not_judged"]] == [
        (4, "please look over my pull request")
    ]
