"""Which listed SKILL.md a shell call reads, as Codex's harness counts it: the model
opens a skill by reading its file with its shell tool, so a call is a pick only when it
runs a read command (`cat`, `sed`, `head`, ...) on the exact path a listed skill has.

`ls <path>` lists, `cat SKILL.md.bak` reads another file, and `review/SKILL.md` is the
file of whichever skill has that folder relative to where the command runs: none of
them is a read of a listed skill. A relative path counts only when the call's own
`workdir` makes it the listed path. The command is read from the call's arguments
(`command` as an argv list or a command line, `cmd`), a `bash -lc '...'` unwrapped once,
its `&&`, `||`, `;` and `|` parts each a command of its own.
"""

from __future__ import annotations

import posixpath
import shlex
from typing import Any

# programs that print a file's text (the basename of argv[0])
READERS = frozenset(
    {
        "cat",
        "bat",
        "batcat",
        "head",
        "tail",
        "sed",
        "awk",
        "less",
        "more",
        "nl",
        "view",
        "type",
        "get-content",
        "gc",
    }
)
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "pwsh", "powershell"})
OPERATORS = frozenset({"&&", "||", ";", "|", "&", ";;", "(", ")"})
MAX_COMMAND = 20_000  # characters of a command line looked at (a call may hold megabytes)


def _slashes(text: str) -> str:
    return text.replace("\\\\", "/").replace("\\", "/")


def _words(line: str) -> list[str]:
    """A command line's words and operators (shell quoting; a line it cannot read,
    such as an unclosed quote, split on blanks)."""
    line = line[:MAX_COMMAND]
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return line.split()


def _commands(words: list[str]) -> list[list[str]]:
    """Simple commands: words between operators, with leading `VAR=value` dropped and
    a shell's `-c SCRIPT` read as the commands of SCRIPT (once)."""
    out: list[list[str]] = []
    current: list[str] = []
    for word in [*words, ";"]:
        if word not in OPERATORS:
            if current or "=" not in word or word.startswith(("-", "/", ".")):
                current.append(word)
            continue
        if current:
            out.append(current)
        current = []
    return out


def _unwrap(argv: list[str]) -> list[list[str]]:
    """A shell's `-c SCRIPT` as the commands of SCRIPT; any other command as it is."""
    shell = len(argv) >= 3 and posixpath.basename(_slashes(argv[0])).lower() in SHELLS
    if shell and argv[1] in ("-c", "-lc", "-ic", "-Command", "-command"):
        return _commands(_words(argv[2]))
    return [argv]


def _argv_lists(arguments: Any) -> list[list[str]]:
    """The simple commands a shell call runs."""
    if isinstance(arguments, str):
        command: Any = arguments
    elif isinstance(arguments, dict):
        command = arguments.get("command", arguments.get("cmd"))
    else:
        return []
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        return _unwrap([w[:MAX_COMMAND] for w in command[:200]])
    if isinstance(command, str):
        return [argv for found in _commands(_words(command)) for argv in _unwrap(found)]
    return []


def read_pick(arguments: Any, paths: tuple[tuple[str, str], ...]) -> str | None:
    """The name of the listed skill whose SKILL.md the call reads, or None.

    `paths`: (the SKILL.md path as listed, with `/` separators; the name as listed)."""
    by_path = {posixpath.normpath(_slashes(p)): name for p, name in paths}
    workdir = arguments.get("workdir") if isinstance(arguments, dict) else None
    base = _slashes(workdir) if isinstance(workdir, str) and workdir else ""
    for argv in _argv_lists(arguments):
        if not argv or posixpath.basename(_slashes(argv[0])).lower() not in READERS:
            continue
        for word in argv[1:]:
            if word.startswith("-") or not word:
                continue
            path = _slashes(word)
            if not posixpath.isabs(path) and path[1:3] != ":/":
                if not posixpath.isabs(base):
                    continue
                path = posixpath.join(base, path)
            found = by_path.get(posixpath.normpath(path))
            if found is not None:
                return found
    return None
