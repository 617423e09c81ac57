"""A generator of hostile skill trees: everything a real folder can throw at a scanner.

    python -m tests.hostile DIR [--big]

makes DIR/skills with one case per folder (see CASES); `--big` makes the slow
variants real: a 100 MB file written out (not sparse) and a 100,000-entry folder.
"""

from __future__ import annotations

import argparse
import os
import random

ALIAS_BOMB = (
    "---\nname: alias-bomb\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "description: [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n---\nbody\n"
)

# case -> what a report must say about it (a diagnostic code, or "listed" when the
# case is a valid skill that must simply come through, or "absent" when it must not
# be read at all).
CASES = {
    "alias-bomb": "yaml-aliases",
    "huge-file": "file-too-large",
    "binary": "encoding",
    "latin1": "encoding",
    "loop": "absent",
    "escape": "absent",
    "wide": "listed",
    "deep": "listed",
    "newline-name": "listed",
    "unicode": "listed",
    "vanishing": "listed",
    "backtracking": "listed",
    "deep-flow": "yaml-syntax",
    "unclosed-quote": "yaml-syntax",
    "typed-metadata": "listed",
    # costly to preview (the app renders them off its GUI thread, bounded)
    "preview-table": "listed",
    "preview-make": "listed",
}


def big_table(size: int) -> str:
    """A markdown table of about `size` characters (200 KB took 8-48 s to preview)."""
    rows = ["| name | value | note |", "|---|:-:|--:|"]
    length = sum(len(r) + 1 for r in rows)
    while length < size:
        n = len(rows)
        rows.append(f"| cell {n} | value {n} | x{n} |")
        length += len(rows[-1]) + 1
    return "\n".join(rows) + "\n"


def make_blocks(count: int = 5, size: int = 19_980) -> str:
    """Code blocks on which Pygments' make lexer is quadratic (five: 48 s to preview)."""
    return "".join(f"```make\n{'a/' * (size // 2)}\n```\n\n" for _ in range(count))


def skill(name: str, description: str = "A hostile test case for the scanner.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nBody.\n"


def write(path: str, data: str | bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


def make(base: str, big: bool = False, wide: int = 5_000) -> str:
    """Build the tree under base/skills; returns that root."""
    root = os.path.join(base, "skills")
    os.makedirs(root, exist_ok=True)
    write(os.path.join(root, "alias-bomb", "SKILL.md"), ALIAS_BOMB)
    huge = os.path.join(root, "huge-file", "SKILL.md")
    write(huge, skill("huge-file"))
    with open(huge, "r+b") as fh:
        if big:  # written out: the disk really holds 100 MB
            block = b"x" * (1024 * 1024)
            fh.seek(0, os.SEEK_END)
            for _ in range(100):
                fh.write(block)
        else:  # sparse: the same size to stat(), no disk used
            fh.truncate(100 * 1024 * 1024)
    rng = random.Random(7)
    write(
        os.path.join(root, "binary", "SKILL.md"),
        b"---\x00\xff\xfe" + bytes(rng.randrange(256) for _ in range(4096)),
    )
    write(
        os.path.join(root, "latin1", "SKILL.md"),
        "---\nname: latin1\ndescription: Café crème\n---\n".encode("latin-1"),
    )
    loop = os.path.join(root, "loop")
    write(os.path.join(loop, "SKILL.md"), skill("loop"))
    os.symlink(loop, os.path.join(loop, "again"))  # a folder that contains itself
    os.symlink(root, os.path.join(loop, "root"))
    outside = os.path.join(base, "outside")
    write(os.path.join(outside, "SKILL.md"), skill("outside"))
    os.symlink(outside, os.path.join(root, "escape"))  # leaves the root
    write(os.path.join(root, "wide", "SKILL.md"), skill("wide"))
    entries = 100_000 if big else wide
    for n in range(entries):
        open(os.path.join(root, "wide", f"f{n:06d}.txt"), "wb").close()
    deep = os.path.join(root, "deep")
    write(os.path.join(deep, "SKILL.md"), skill("deep"))
    nested = deep
    for _ in range(1000):  # os.makedirs recurses once per level
        nested = os.path.join(nested, "d")
        os.mkdir(nested)
    write(os.path.join(nested, "SKILL.md"), skill("deepest"))
    write(os.path.join(root, "newline\nname", "SKILL.md"), skill("newline-name"))
    write(os.path.join(root, "ünï-cødé 名前", "SKILL.md"), skill("unicode"))
    write(os.path.join(root, "vanishing", "SKILL.md"), skill("vanishing"))
    write(
        os.path.join(root, "backtracking", "SKILL.md"),
        "---\nname: backtracking\ndescription: Patterns that backtrack for ever.\n"
        "triggers:\n  patterns:\n    - '(a+)+$'\n    - '(x|x|x)*y'\n    - '(.*a){25}'\n---\nBody\n",
    )
    write(
        os.path.join(root, "deep-flow", "SKILL.md"),
        "---\nname: deep-flow\ndescription: " + "[" * 5000 + "\n---\nBody\n",
    )
    write(  # a quote opened on line 3 and never closed, 200,000 characters on
        os.path.join(root, "unclosed-quote", "SKILL.md"),
        '---\nname: unclosed-quote\ndescription: "' + "word " * 40_000 + "\nlicense: MIT\n---\nB\n",
    )
    write(  # 2,000 metadata entries that YAML reads as numbers and booleans
        os.path.join(root, "typed-metadata", "SKILL.md"),
        "---\nname: typed-metadata\ndescription: Numbers where text was meant.\nmetadata:\n"
        + "".join(f"  k{n}: {'1.10' if n % 2 else 'yes'}\n" for n in range(2000))
        + "---\nBody\n",
    )
    for name, body in (("preview-table", big_table(200_000)), ("preview-make", make_blocks())):
        write(
            os.path.join(root, name, "SKILL.md"),
            f"---\nname: {name}\ndescription: Costly to preview.\n---\n{body}",
        )
    return root


def remove(path: str) -> None:
    """Delete a tree without recursion (shutil.rmtree recurses once per level on
    Python 3.11 and fails on the 1,000-deep case); links are removed, not followed."""
    stack = [path]
    while stack:
        folder = stack[-1]
        try:
            entries = list(os.scandir(folder))
        except FileNotFoundError:
            stack.pop()
            continue
        subfolders = [e.path for e in entries if e.is_dir(follow_symlinks=False)]
        for entry in entries:
            if not entry.is_dir(follow_symlinks=False):
                os.unlink(entry.path)
        if subfolders:
            stack.extend(subfolders)
        else:
            os.rmdir(folder)
            stack.pop()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--big", action="store_true")
    args = parser.parse_args()
    print(make(args.dir, args.big))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
