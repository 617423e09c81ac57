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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
