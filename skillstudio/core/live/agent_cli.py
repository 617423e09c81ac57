"""The real agent's CLI (`eval --agent-cli claude|codex|gemini`): how each agent is run
non-interactively, the throwaway folder it runs in, and one run as a subprocess.

An agent is data (AGENTS): its executable, the folder it reads project skills from,
its argv (the prompt goes on stdin: nothing a request says can become a flag), and the
reader of its event stream (core/live/agent_streams.py). Tools are denied or sandboxed
as each agent's documentation says (docs/agents.md, "The real agent's CLI"):

- Claude Code: `-p --output-format stream-json --verbose`, the tools that change files,
  run commands or reach the network removed (`--disallowedTools`), at most MAX_TURNS
  turns; the read tools stay (the folder holds only the skills).
- Codex: `exec --json --sandbox read-only --skip-git-repo-check --ephemeral`; `exec`
  never asks for approval.
- Gemini CLI: `--output-format stream-json --approval-mode default`: without a terminal
  a tool that needs approval is denied.

A run: the skills under test copied into a new temporary folder (only their regular
files, bounded: SkillFiles), the executable started there without a shell, the request
written to its stdin, stdout and stderr read in threads up to MAX_OUTPUT bytes each,
the whole run bounded by a timeout. On a timeout, a cancel (Ctrl+C) or output past the
bound the agent is killed with its process group. The environment is passed through
(the agent's own login) and never printed. The folder is removed after.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

from ..model.skills import Skill
from ..reading.safefs import is_regular, read_bytes, remove_tree, walk
from .agent_streams import Reader, read_claude, read_codex, read_gemini

MAX_TURNS = 4  # Claude Code's turns a run may take (a read, then the skill, then an answer)
MAX_OUTPUT = 16 * 1024 * 1024  # bytes of stdout kept (the stream); more kills the run
MAX_STDERR = 64 * 1024  # bytes of stderr kept
MAX_SKILL_FILES = 400  # files copied per skill
MAX_SKILL_BYTES = 8 * 1024 * 1024  # bytes copied for all the skills together
VERSION_TIMEOUT = 20.0  # seconds `--version` may take
TICK = 0.05  # seconds between looks at a running agent
TEMPLATE = "agent-cli/1"  # the version of how runs are made and read (part of the cache key)


class AgentError(Exception):
    """The agent cannot be run (missing executable, `--version` failing); the message
    says what to do."""


@dataclass(frozen=True, slots=True)
class Agent:
    name: str  # as `--agent-cli` names it
    executable: str  # looked up on PATH
    title: str  # in words, for reports
    skills_dir: str  # where the agent reads a project's skills, relative to the folder
    args: tuple[str, ...]  # after the executable; the prompt goes on stdin
    model_flag: str  # the flag naming a model
    reader: Reader  # reads the skill invoked from its stream (core/live/agent_streams.py)
    tool: str  # the tool whose call is a pick ("" for a read of the SKILL.md: Codex)
    stdin_dash: bool = False  # the prompt is `-` after the options (read from stdin)

    def argv(self, executable: str, model: str | None) -> list[str]:
        """The command line of one run (`executable`: the path found)."""
        out = [executable, *self.args]
        if model:
            out += [self.model_flag, model]
        if self.stdin_dash:
            out.append("-")
        return out


AGENTS: dict[str, Agent] = {
    a.name: a
    for a in (
        Agent(
            "claude",
            "claude",
            "Claude Code",
            ".claude/skills",
            (
                "-p",
                "--output-format",
                "stream-json",
                "--verbose",
                "--disallowedTools=Bash,Edit,Write,NotebookEdit,WebFetch,WebSearch",
                "--max-turns",
                str(MAX_TURNS),
            ),
            "--model",
            read_claude,
            "Skill",
        ),
        Agent(
            "codex",
            "codex",
            "Codex",
            ".agents/skills",
            (
                "exec",
                "--json",
                "--sandbox",
                "read-only",
                "--skip-git-repo-check",
                "--ephemeral",
            ),
            "--model",
            read_codex,
            "",
            stdin_dash=True,
        ),
        Agent(
            "gemini",
            "gemini",
            "Gemini CLI",
            ".gemini/skills",
            ("--output-format", "stream-json", "--approval-mode", "default"),
            "--model",
            read_gemini,
            "activate_skill",
        ),
    )
}


def find_executable(agent: Agent, given: str | None = None) -> str:
    """The agent's executable: `given` (a file), else its name on PATH; AgentError with
    a plain message when there is none."""
    if given:
        if not os.path.isfile(given) or not os.access(given, os.X_OK):
            raise AgentError(f"{given}: not an executable file (--agent-cli-path)")
        return os.path.abspath(given)
    found = shutil.which(agent.executable)
    if found is None:
        raise AgentError(
            f"{agent.executable}: not found on PATH; install {agent.title} (or give "
            "--agent-cli-path FILE); nothing was run"
        )
    return found


@dataclass(slots=True)
class Finished:
    """How a run ended: its exit status (None when killed), what it printed (bounded),
    and why it was cut ("" when it ended by itself)."""

    status: int | None
    stdout: bytes
    stderr: bytes
    cut: str = ""  # "timeout", "cancelled", or "output" (past MAX_OUTPUT)
    seconds: float = 0.0


def _group() -> dict[str, object]:
    """Popen's arguments starting the child in a process group of its own."""
    if sys.platform == "win32":
        return {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    return {"start_new_session": True}


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child and its process group (the agent's own children too; the group
    outlives its leader while a member runs, so its id cannot be reused before)."""
    if sys.platform != "win32":
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()


@dataclass(slots=True)
class _Sink:
    limit: int
    chunks: list[bytes] = field(default_factory=list)
    size: int = 0
    over: bool = False

    def drain(self, stream: IO[bytes] | None) -> None:
        if stream is None:
            return
        read = getattr(stream, "read1", stream.read)
        while True:
            try:
                chunk = read(65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            room = self.limit - self.size
            if room > 0:
                self.chunks.append(chunk[:room])
                self.size += min(len(chunk), room)
            if len(chunk) > room:
                self.over = True  # the rest is read and dropped until the run is killed

    def data(self) -> bytes:
        return b"".join(self.chunks)


def run_process(
    argv: list[str],
    cwd: str,
    stdin: bytes,
    timeout: float,
    cancel: threading.Event | None = None,
    env: dict[str, str] | None = None,
) -> Finished:
    """Run `argv` (no shell) in `cwd`, `stdin` written to it, until it ends, `timeout`
    seconds pass, `cancel` is set or its stdout passes MAX_OUTPUT: then it is killed
    with its process group. OSError when it cannot be started."""
    start = time.monotonic()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        **_group(),  # type: ignore[call-overload]
    )
    out, err = _Sink(MAX_OUTPUT), _Sink(MAX_STDERR)
    readers = [
        threading.Thread(target=out.drain, args=(proc.stdout,), daemon=True),
        threading.Thread(target=err.drain, args=(proc.stderr,), daemon=True),
    ]

    def feed() -> None:
        with contextlib.suppress(OSError, ValueError):
            assert proc.stdin is not None
            proc.stdin.write(stdin)
            proc.stdin.close()

    writer = threading.Thread(target=feed, daemon=True)
    for thread in (*readers, writer):
        thread.start()
    cut = ""
    try:
        while proc.poll() is None:
            if time.monotonic() - start > timeout:
                cut = "timeout"
            elif cancel is not None and cancel.is_set():
                cut = "cancelled"
            elif out.over:
                cut = "output"
            if cut:
                _kill(proc)
                break
            time.sleep(TICK)
    except BaseException:  # Ctrl+C here: the agent never outlives its run
        _kill(proc)
        raise
    finally:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        for thread in readers:  # the stream to its end (a child left behind may hold it)
            thread.join(2)
        _kill(proc)  # whatever the agent left running in its group goes with it
        for thread in readers:
            thread.join(2)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
    if not cut and out.over:
        cut = "output"
    status = None if cut else proc.returncode
    return Finished(status, out.data(), err.data(), cut, time.monotonic() - start)


def agent_version(executable: str, timeout: float = VERSION_TIMEOUT) -> str:
    """The first line `EXECUTABLE --version` prints (part of the cache key and of the
    report); AgentError when it cannot be run or fails."""
    name = os.path.basename(executable)
    try:
        done = run_process([executable, "--version"], os.getcwd(), b"", timeout)
    except OSError as exc:
        raise AgentError(f"{name} --version could not be run ({exc.strerror})") from None
    if done.cut or done.status != 0:
        why = "took too long" if done.cut == "timeout" else f"exited with {done.status}"
        raise AgentError(f"{name} --version {why}; is {name} installed and working?")
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    return lines[0].strip()[:200] if lines else ""


@dataclass(frozen=True, slots=True)
class SkillFiles:
    """The skills under test as copied into each run's folder: (path under the
    agent's skills folder, bytes), and the sha256 over all of them."""

    files: tuple[tuple[str, bytes], ...]
    digest: str
    names: tuple[str, ...]  # the skills' folder names (the names they are listed by)

    def paths(self, agent: Agent, folder: str) -> tuple[tuple[str, str], ...]:
        """(SKILL.md path in `folder`, name) of every skill: what a read must name."""
        base = os.path.join(folder, *agent.skills_dir.split("/"))
        out = []
        for name in self.names:
            path = os.path.join(base, name, "SKILL.md")
            out.append((path.replace(os.sep, "/"), name))
            real = os.path.realpath(path)
            if real != path:
                out.append((real.replace(os.sep, "/"), name))
        return tuple(out)

    def write(self, agent: Agent, folder: str) -> None:
        """The skills written under the agent's skills folder in `folder`."""
        base = os.path.join(folder, *agent.skills_dir.split("/"))
        for relative, data in self.files:
            path = os.path.join(base, *relative.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "xb") as out:
                out.write(data)


def skill_files(skills: list[Skill]) -> SkillFiles:
    """The regular files of each skill's folder (links, FIFOs and devices left out, and
    a subfolder holding another SKILL.md: another skill's), each under the skill's
    name, its own file as `SKILL.md`; at most MAX_SKILL_FILES a skill and
    MAX_SKILL_BYTES in all. A skill that is a lone file (not a SKILL.md) is copied
    alone. AgentError for two skills of one name (the agent's folder holds one), a
    name no folder can have, or a set past the bounds."""
    files: list[tuple[str, bytes]] = []
    names: list[str] = []
    total = [0]

    def read(path: str, top: str, name: str) -> bytes:
        try:
            data = read_bytes(path, top, MAX_SKILL_BYTES - total[0] + 1, truncate=True)
        except OSError as exc:
            raise AgentError(f"{name}: {exc}") from None
        total[0] += len(data)
        if total[0] > MAX_SKILL_BYTES:
            raise AgentError(f"the skills hold more than {MAX_SKILL_BYTES:,} bytes to copy")
        return data

    for skill in sorted(skills, key=lambda s: s.name):
        name = skill.name
        if name in names:
            raise AgentError(
                f"two skills are named {name!r}: the agent's skills folder holds one; "
                "ask about one of them (a PATH)"
            )
        if not name or name in (".", "..") or "/" in name or "\\" in name:
            raise AgentError(f"{name!r}: not a name a skills folder can hold")
        names.append(name)
        top = os.path.dirname(skill.path)
        files.append((f"{name}/SKILL.md", read(skill.path, top, name)))
        if os.path.basename(skill.path) != "SKILL.md":
            continue  # a lone file: its folder holds other things
        count = 1
        for folder, subfolders, entries in walk(top, max_depth=8):
            subfolders[:] = [
                n for n in subfolders if not os.path.lexists(os.path.join(folder, n, "SKILL.md"))
            ]
            for entry in entries:
                if not is_regular(entry) or os.path.samefile(entry.path, skill.path):
                    continue
                count += 1
                if count > MAX_SKILL_FILES:
                    raise AgentError(f"{name}: more than {MAX_SKILL_FILES} files to copy")
                relative = os.path.relpath(entry.path, top).replace(os.sep, "/")
                files.append((f"{name}/{relative}", read(entry.path, top, name)))
    digest = hashlib.sha256()
    for relative, data in files:
        digest.update(relative.encode("utf-8", "surrogatepass") + b"\0")
        digest.update(hashlib.sha256(data).digest())
    return SkillFiles(tuple(files), digest.hexdigest(), tuple(names))


@contextlib.contextmanager
def throwaway(agent: Agent, skills: SkillFiles) -> Iterator[str]:
    """A new temporary folder holding only the skills, in the agent's skills folder;
    removed after (whatever the agent wrote there too)."""
    folder = os.path.realpath(tempfile.mkdtemp(prefix="skillstudio-agent-"))
    try:
        skills.write(agent, folder)
        yield folder
    finally:
        remove_tree(folder)
