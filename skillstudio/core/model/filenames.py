"""Which names a skill folder, and a file inside one, may have (docs/development.md).

A name is a name only if it is usable: a shell, a terminal, a file manager and
the programs that run commands from a folder's settings all take it as a plain
name. `folder_name_problem` is the one rule for a skill folder's own name (an
archive's top folder, the folder `pack` archives, `new`, rename, duplicate);
`entry_name_problem` the rule for every name inside an archive. Both answer
why a name is not usable, in words, or None.

What `pack` leaves out unless asked (`secret_kind`) is decided here too: files
and folders that hold keys, passwords or tokens by their usual names.
"""

from __future__ import annotations

import fnmatch
import unicodedata

# Folders whose settings a program acts on by itself when it works in (or below) the
# folder: git (core.fsmonitor, hooks: `git status` in a shell prompt runs them),
# Mercurial and Bazaar (hooks), Subversion, Claude Code (hooks in settings.json),
# VS Code (tasks that run when the folder is opened). A skill never needs one.
TOOL_FOLDERS = {
    ".git": "git",
    ".hg": "Mercurial",
    ".bzr": "Bazaar",
    ".svn": "Subversion",
    ".claude": "Claude Code",
    ".vscode": "VS Code",
}

# Unicode categories of characters a name may not hold: controls (newline, ESC,
# DEL, C1), format characters (bidi overrides and isolates, zero-width joiners and
# spaces, the byte-order mark), line and paragraph separators, and surrogates (a
# byte that is not UTF-8 in a file name).
_BAD_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (bidi or zero-width)",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Cs": "a byte that is not UTF-8",
}

# Names that hold secrets by convention (matched without regard to case).
SECRET_FILES = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    "_netrc",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".htpasswd",
    ".git-credentials",
    "credentials*",
)
SECRET_FOLDERS = (".ssh", ".aws", ".gnupg")


def canonical(name: str) -> str:
    """The name as a case-insensitive file system, or Windows, takes it: `.GIT` and
    `.git.` open the folder `.git`."""
    return name.rstrip(" .").casefold() or name


def character_problem(name: str) -> str | None:
    """Why a character of `name` makes it unusable (it would print as something else
    in a terminal, or hide), or None."""
    for char in name:
        what = _BAD_CATEGORIES.get(unicodedata.category(char))
        if what is not None:
            return f"it holds {what} (U+{ord(char):04X})"
    return None


def tool_folder(name: str) -> str | None:
    """The program that acts on a folder named `name` (".git": "git"), or None."""
    return TOOL_FOLDERS.get(canonical(name))


def entry_name_problem(name: str) -> str | None:
    """Why `name` cannot be a file or folder name inside a skill (archive), or None."""
    if "\0" in name:
        return "it holds a NUL character"
    problem = character_problem(name)
    if problem is not None:
        return problem
    tool = tool_folder(name)
    if tool is not None:
        return f"it is {canonical(name)}, whose settings {tool} acts on (they can run commands)"
    return None


def folder_name_problem(name: str) -> str | None:
    """Why `name` is not a usable skill folder name, or None: not empty, '.' or '..',
    no slash or colon, not hidden (which takes in .git, .claude, .vscode), no leading '-'
    (a command reads it as an option), no spaces at either end, no control, bidi or
    zero-width characters."""
    if name in ("", ".", ".."):
        return "it is empty" if not name else f"'{name}' is not a folder name"
    if "/" in name or "\\" in name:
        return "it holds a slash"
    if ":" in name:
        return "it holds a ':' (a drive or a stream on Windows, a slash in macOS's Finder)"
    problem = entry_name_problem(name)
    if problem is not None:
        return problem
    if name.startswith("."):
        return "it is hidden (it starts with '.')"
    if name.startswith("-"):
        return "it starts with '-', which a command reads as an option"
    if name != name.strip():
        return "it starts or ends with a space"
    return None


def secret_kind(name: str, folder: bool = False) -> bool:
    """Whether a file (or with `folder`, a folder) named `name` looks like it holds
    keys, passwords or tokens."""
    lowered = name.casefold()
    if folder:
        return lowered in SECRET_FOLDERS
    return any(fnmatch.fnmatchcase(lowered, pattern) for pattern in SECRET_FILES)
