"""Keystroke to diagnostics in `skillstudio lsp` (docs/performance.md: an edited document
re-validated within the app's keystroke budget, ≤ 50 ms at 1,000 skills; here also at
10,000), against re-reading the whole tree, which a server that re-checks the tree on
every keystroke would do, measured in the same run.

    python tests/benchmarks/bench_lsp.py [--counts 1000 10000] [--keys 40] [--workdir DIR]

For each count a folder of synthetic skills (synth.generate) is read under two profiles:
oasis (its rules decide: no overlap index) and agentskills (the model chooses: the
"competes with" note is worked out from the overlap index, kept current per key). The
server runs as a user runs it (`python -m skillstudio lsp`, stdio) and is driven by a
minimal JSON-RPC client here: initialize with the folder, open one skill, then type
`--keys` characters into its description, and into its name (a name edit changes who
wins: the cross-skill checks run again over the registry), one didChange at a time,
each timed from the write of the change to the publishDiagnostics of that version.
Prints the median and the worst key, and the ratio to a full scan of the same tree
(in this process). Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)

from tests.benchmarks.synth import generate  # noqa: E402


class Client:
    """Just enough of an LSP client over the server's stdin/stdout."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=REPO)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "skillstudio", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.next_id = 0
        self.received = 0  # bytes of the bodies of the messages read
        self.length = 0  # of the last one

    def send(self, method: str, params: Any, request: bool = False) -> int | None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        ident = None
        if request:
            self.next_id += 1
            ident = message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return ident

    def read(self) -> dict[str, Any]:
        out = self.proc.stdout
        assert out is not None
        length = 0
        while True:
            line = out.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        self.received += length
        self.length = length
        message: dict[str, Any] = json.loads(out.read(length))
        return message

    def answer(self, ident: int) -> dict[str, Any]:
        while True:
            message = self.read()
            if message.get("id") == ident and "method" not in message:
                return message

    def diagnostics(self, uri: str, version: int) -> list[Any]:
        while True:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                if params["uri"] == uri and params.get("version") == version:
                    found: list[Any] = params["diagnostics"]
                    return found

    def close(self) -> None:
        ident = self.send("shutdown", None, request=True)
        if ident is not None:
            self.answer(ident)
        self.send("exit", None)
        self.proc.wait(timeout=30)


def change(uri: str, version: int, line: int, character: int, text: str) -> dict[str, Any]:
    point = {"line": line, "character": character}
    return {
        "textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"range": {"start": point, "end": point}, "text": text}],
    }


def session(folder: str, keys: int) -> dict[str, Any]:
    """Initialize on `folder`, open its first skill, type `keys` characters into its
    description and its name; the times (ms) of each key, and the start-up (s)."""
    root = Path(folder, "key_skills")
    skill = sorted(root.iterdir())[0] / "SKILL.md"
    uri = skill.as_uri()
    text = skill.read_text(encoding="utf-8")
    lines = text.split("\n")
    name_line = next(i for i, line in enumerate(lines) if line.startswith("name:"))
    desc_line = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    client = Client()
    start = time.perf_counter()
    ident = client.send(
        "initialize",
        {
            "processId": os.getpid(),
            "capabilities": {},
            "workspaceFolders": [{"uri": Path(folder).as_uri(), "name": "bench"}],
        },
        request=True,
    )
    assert ident is not None
    client.answer(ident)
    client.send("initialized", {})
    document = {"uri": uri, "languageId": "markdown", "version": 1, "text": text}
    client.send("textDocument/didOpen", {"textDocument": document})
    client.diagnostics(uri, 1)
    ready = time.perf_counter() - start
    version = 1
    times: dict[str, list[float]] = {"description": [], "name": []}
    for where, line in (("description", desc_line), ("name", name_line)):
        column = len(lines[line])
        for key in range(keys):
            version += 1
            letter = "abcdefghij"[key % 10]
            began = time.perf_counter()
            client.send("textDocument/didChange", change(uri, version, line, column, letter))
            client.diagnostics(uri, version)
            times[where].append((time.perf_counter() - began) * 1000)
            column += 1
    client.close()
    return {"ready": ready, **times}


HOSTILE_ITEMS = 4_000
HOSTILE_BYTES = 960_000


def hostile(folder: str) -> Path:
    """A 0.96 MB SKILL.md within every parse bound (1 MiB a file, 5,000 items a list):
    under agentskills, 'metadata' maps 'tags' to a 4,000-item list where text is
    expected (about 600 KB of items); the rest is body. Returns its path."""
    skill = Path(folder, "skills", "big", "SKILL.md")
    skill.parent.mkdir(parents=True, exist_ok=True)
    Path(folder, "skillstudio.yaml").write_text(
        "profile: agentskills\nroots: [skills]\n", encoding="utf-8"
    )
    item = "lorem ipsum dolor sit amet " * 5
    items = "".join(f"    - item {i:04d} {item}\n" for i in range(HOSTILE_ITEMS))
    text = (
        "---\nname: big\ndescription: Summarize PDF files into short notes. Use when asked "
        f"for a summary.\nmetadata:\n  tags:\n{items}---\n# Big\n\n"
    )
    line = "Read the PDF, keep each heading, and write one short note per section.\n"
    text += line * ((HOSTILE_BYTES - len(text)) // len(line))
    skill.write_text(text, encoding="utf-8")
    return skill


def hostile_session(folder: str, keys: int, burst: int) -> dict[str, Any]:
    """Open the hostile skill and type `keys` characters at the end of its description,
    one at a time, each followed at once by a hover request: the time until the hover
    is answered (the server is free for the next key), until the diagnostics of that
    version arrive, and the bytes of diagnostics published for the key. Then `burst`
    characters sent without waiting: the time until the diagnostics of the last one,
    and how many times diagnostics were published meanwhile."""
    skill = hostile(folder)
    uri = skill.as_uri()
    text = skill.read_text(encoding="utf-8")
    lines = text.split("\n")
    line = next(i for i, row in enumerate(lines) if row.startswith("description:"))
    column = len(lines[line])
    client = Client()
    ident = client.send(
        "initialize",
        {
            "processId": os.getpid(),
            "capabilities": {},
            "workspaceFolders": [{"uri": Path(folder).as_uri(), "name": "bench"}],
        },
        request=True,
    )
    assert ident is not None
    client.answer(ident)
    client.send("initialized", {})
    document = {"uri": uri, "languageId": "markdown", "version": 1, "text": text}
    client.send("textDocument/didOpen", {"textDocument": document})
    client.diagnostics(uri, 1)
    version = 1
    free: list[float] = []
    answered: list[float] = []
    sent: list[int] = []
    for key in range(keys):
        version += 1
        began = time.perf_counter()
        client.send(
            "textDocument/didChange", change(uri, version, line, column, "abcdefghij"[key % 10])
        )
        column += 1
        hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
        ident = client.send("textDocument/hover", hover, request=True)
        published = 0
        while not (len(free) > key and len(answered) > key):
            message = client.read()
            if message.get("id") == ident and "method" not in message:
                free.append((time.perf_counter() - began) * 1000)
            elif message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                if params["uri"] == uri:
                    published += client.length
                    if params.get("version") == version:
                        answered.append((time.perf_counter() - began) * 1000)
        sent.append(published)
    began = time.perf_counter()
    for key in range(burst):
        version += 1
        client.send("textDocument/didChange", change(uri, version, line, column, "xyz"[key % 3]))
        column += 1
    publishes = 0
    while True:
        message = client.read()
        if message.get("method") == "textDocument/publishDiagnostics":
            params = message["params"]
            if params["uri"] == uri:
                publishes += 1
                if params.get("version") == version:
                    break
    last = time.perf_counter() - began
    client.close()
    return {"free": free, "answered": answered, "sent": sent, "last": last, "publishes": publishes}


def print_hostile(work: str, keys: int, burst: int) -> None:
    result = hostile_session(os.path.join(work, "hostile"), keys, burst)
    print(
        f"\nhostile SKILL.md of {HOSTILE_BYTES / 1e6:.2f} MB ({HOSTILE_ITEMS:,}-item list "
        "where text is expected, agentskills):"
    )
    print(
        f"{'keys':>5} {'free median ms':>14} {'free worst ms':>13} {'diag median ms':>14} "
        f"{'diag worst ms':>13} {'bytes per key':>13} {'burst':>5} {'last answer s':>13} "
        f"{'publishes':>9}"
    )
    free, answered = result["free"], result["answered"]
    print(
        f"{keys:>5} {statistics.median(free):>14.1f} {max(free):>13.1f} "
        f"{statistics.median(answered):>14.1f} {max(answered):>13.1f} "
        f"{statistics.median(result['sent']):>13,.0f} {burst:>5} {result['last']:>13.2f} "
        f"{result['publishes']:>9}",
        flush=True,
    )


def full_scan_ms(folder: str) -> float:
    """Reading and validating the whole tree once, as `lint` does (in this process)."""
    from skillstudio.core.projects.project import resolve_projects

    start = time.perf_counter()
    for project in resolve_projects([], [], None, None, folder):
        project.registry(gists=False).scan()
    return (time.perf_counter() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--keys", type=int, default=40)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--hostile-keys", type=int, default=10, help="0: not that case")
    parser.add_argument("--burst", type=int, default=20)
    args = parser.parse_args(argv)
    print(
        f"{'skills':>7} {'profile':<12} {'edit':<12} {'median ms':>9} {'worst ms':>9} "
        f"{'full scan ms':>12} {'ratio':>7} {'ready s':>8}"
    )
    with tempfile.TemporaryDirectory(dir=args.workdir) as work:
        for count in args.counts:
            folder = os.path.join(work, f"n{count}")
            generate(folder, count)
            for profile in ("oasis", "agentskills"):
                with open(os.path.join(folder, "skillstudio.yaml"), "w", encoding="utf-8") as fh:
                    fh.write(f"profile: {profile}\nroots: [key_skills]\n")
                scan = full_scan_ms(folder)
                result = session(folder, args.keys)
                for edit in ("description", "name"):
                    times = result[edit]
                    median = statistics.median(times)
                    print(
                        f"{count:>7,} {profile:<12} {edit:<12} {median:>9.1f} {max(times):>9.1f} "
                        f"{scan:>12.0f} {scan / median:>6.0f}x {result['ready']:>8.1f}",
                        flush=True,
                    )
        if args.hostile_keys:
            print_hostile(work, args.hostile_keys, args.burst)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
