"""A generator of hostile skill trees: everything a real folder can throw at a scanner.

    python -m tests.hostile DIR [--big]

makes DIR/skills with one case per folder (see CASES) and DIR/archives with one
hostile .skill per case (see ARCHIVE_CASES); `--big` makes the slow variants real:
a 100 MB file written out (not sparse), a 100,000-entry folder and a 94 MB zip of
1,000,001 entries.
"""

from __future__ import annotations

import argparse
import os
import random
import struct
import zipfile

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
    # the likely ranking's body gist (core/reading/skill_words.py): 90,000 distinct words and a
    # 5,000-letter one; the gist reads the first 20,000 characters, keeps 300 stems
    "gist-words": "listed",
    # the gist's bundled markdown (issue 19): FIFOs, links out and to /dev/zero, a
    # folder and a 100 MB file named *.md beside SKILL.md and in references/
    "bundled-hostile": "listed",
    # files and folders (issue 14 items 4, 5, 9, 13): special files, links and toolsets
    "skill-loop": "symlink-skipped",  # SKILL.md -> SKILL.md (ELOOP)
    "skill-fifo": "unreadable",  # a FIFO named SKILL.md
    "skill-folder": "unreadable",  # a folder named SKILL.md
    "skill-outside-fifo": "symlink-skipped",  # SKILL.md -> a FIFO outside the root
    "special-files": "listed",  # a FIFO, a link to /dev/zero and a FIFO image beside SKILL.md
    "escape-codes": "listed",  # terminal escape codes in the folder and the name
    "toolset-quadratic": "toolset-missing",  # 128 KB of 'export {'
    "toolset-many-refs": "listed",  # 1,000 references to one file
    "toolset-leak": "toolset-missing",  # leak.py -> a file outside the root
    "toolset-fifo": "toolset-missing",  # a FIFO, and a link to a FIFO outside
    # codex (issue 17): the files Codex reads beside a skill
    "codex-openai-fifo": "listed",  # agents/openai.yaml is a FIFO
    "codex-openai-bomb": "listed",  # an alias bomb in agents/openai.yaml
    "codex-plugin-loop": "listed",  # .codex-plugin/plugin.json links to itself
    # skill regular expressions (toolsets) and placeholders (pegasus)
    "pattern-overflow": "pattern-invalid",
    "pattern-nested": "pattern-invalid",
    "pattern-slow": "pattern-invalid",
    "pattern-huge-repeat": "pattern-invalid",
    "dollar-digits": "listed",
    # issue 17: placeholder links that climb out of the skill or plugin folder
    "placeholder-escape": "link-broken",
    # issue 25: links through a symbolic link out of the skill, 100,000 links, SVGs
    # whose <image href> names /dev/stdin, a FIFO, a file outside and one inside
    "link-out": "link-broken",
    "links-100k": "scan-limit",
    "svg-reach": "listed",
    # Bounded YAML (core/reading/yaml_io.py). 5,000 levels ("deep-flow") fit in the C stack of
    # PyYAML's recursive composer; 50,000 overflow it and kill the process (exit 139).
    "deep-flow-50k": "yaml-depth",
    "deep-block": "yaml-depth",
    "deep-map": "yaml-depth",
    "huge-int": "yaml-number",
    "many-keys": "yaml-keys",
    "many-items": "yaml-items",
    # markup in a description: shown as text in the app's rich-text views (issue 19:
    # the likely explanation, "competes with", the overlap map), never rendered
    "html-markup": "listed",
}

HTML_DESCRIPTION = (
    "Reviews <b>pull requests</b> <a href='https://example.com/x'>click here</a> "
    "<img src=x onerror=alert(1)> <script>alert(2)</script> for pull request bugs."
)

SLOW_PATTERNS = 300  # each backtracks for ever: 300 × the 50 ms timeout took 15-44 s


def patterns_skill(name: str, patterns: list[str]) -> str:
    """A toolsets skill with the given trigger patterns (single-quoted YAML)."""
    listed = "".join("    - '" + p.replace("'", "''") + "'\n" for p in patterns)
    return (
        f"---\nname: {name}\ndescription: Patterns that hurt the matcher.\n"
        f'triggers:\n  keywords: ["{name} request"]\n  patterns:\n{listed}---\nBody.\n'
    )


DEEP = 50_000  # levels: 100 KB of text
HUGE_DIGITS = 5_000  # past Python's 4,300-digit int <-> str limit
MANY_KEYS = 60_000  # keys in one frontmatter, and items in one list


def yaml_bombs() -> dict[str, str]:
    """SKILL.md texts whose frontmatter passes one of yaml_io's bounds (case -> text)."""
    keys = "".join(f"k{n}: v\n" for n in range(MANY_KEYS))
    return {
        "deep-flow-50k": "---\nname: deep-flow-50k\ndescription: " + "[" * DEEP + "\n---\nBody\n",
        "deep-block": "---\nname: deep-block\ndescription: Deep.\nmetadata:\n  "
        + "- " * DEEP
        + "x\n---\nBody\n",
        "deep-map": "---\nname: deep-map\ndescription: Deep.\nmetadata: "
        + "{a: " * DEEP
        + "\n---\nBody\n",
        "huge-int": f"---\nname: huge-int\ndescription: Big.\nversion: {'9' * HUGE_DIGITS}\n"
        "---\nBody\n",
        "many-keys": f"---\nname: many-keys\ndescription: Keys.\n{keys}---\nBody\n",
        "many-items": "---\nname: many-items\ndescription: Items.\ntoolsets:\n"
        + "  - a\n" * MANY_KEYS
        + "---\nBody\n",
    }


# Project cases: a folder with skills/neighbour (a normal skill) and a hostile
# skillstudio.yaml, suite or eval set (case -> (file name, text)).
def project_bombs() -> dict[str, tuple[str, str]]:
    query = "review " * 7_000  # 49 KB
    alias_suite = (
        f'q: &q "{query}"\nc: &c {{query: *q, expect: none}}\ncases: ['
        + ("*c," * 200_000)
        + "*c]\n"
    )
    return {
        "config-deep": ("skillstudio.yaml", "profile: " + "[" * DEEP + "\n"),
        "config-huge-int": ("skillstudio.yaml", f"max_skills: {'9' * HUGE_DIGITS}\n"),
        "config-huge-tokens": ("skillstudio.yaml", f"context_tokens: {'9' * HUGE_DIGITS}\n"),
        "config-big-int": ("skillstudio.yaml", f"max_skills: {'9' * 100}\n"),
        "suite-deep": ("suite.yaml", "cases: " + "[" * DEEP + "\n"),
        "suite-deep-block": ("suite.yaml", "cases:\n  " + "- " * DEEP + "x\n"),
        "suite-alias": ("suite.yaml", alias_suite),
        "suite-long-query": ("suite.yaml", f'cases:\n  - query: "{query}"\n    expect: none\n'),
        "eval-deep": ("eval_set.json", "[" * 100_000 + "]" * 100_000),
        "eval-huge-int": (
            "eval_set.json",
            f'[{{"query": "review this", "should_trigger": {"1" * HUGE_DIGITS}}}]',
        ),
    }


# claude-code plugin and marketplace manifests (case -> the diagnostic code a lint must
# give); each is a marketplace folder whose plugin `ok` holds a normal skill.
CLAUDE_CASES = {
    "market-deep": "manifest-invalid",  # 100,000 nested arrays
    "market-huge": "unreadable",  # 300 KB: past the 256 KiB bound
    "market-fifo": "unreadable",  # a FIFO named marketplace.json (reading would wait)
    "market-escape": "field-invalid",  # ./link -> a folder outside the marketplace
    "market-dotdot": "field-invalid",  # ../ in a source
    "plugin-fifo": "unreadable",  # a FIFO named plugin.json
    "plugin-skills-escape": "field-invalid",  # skills: ["./out"], out -> outside
    "plugin-not-object": "manifest-invalid",  # plugin.json holds a list
    # issue 25: strings no path or output can hold (each failed every command), and a
    # plugin whose skills/ is a link out of the repository (read as its own)
    "market-nul-source": "field-invalid",  # "./plugins/x\u0000"
    "market-surrogate-name": "field-invalid",  # a plugin named "b\ud800d"
    "plugin-surrogate-skills": "field-invalid",  # skills: ["./\ud800"]
    "plugin-skills-link-out": "symlink-skipped",  # plugins/out/skills -> outside
}


def make_claude_case(base: str, case: str) -> str:
    """base/<case>/repo: a marketplace listing plugins/ok (skill `ok`), made hostile."""
    repo = os.path.join(base, case, "repo")
    outside = os.path.join(base, case, "outside")
    write(os.path.join(outside, "x", "SKILL.md"), skill("x"))
    plugin = os.path.join(repo, "plugins", "ok")
    write(os.path.join(plugin, "skills", "ok", "SKILL.md"), skill("ok"))
    manifest = os.path.join(plugin, ".claude-plugin", "plugin.json")
    write(manifest, '{"name": "ok"}')
    sources = ['"./plugins/ok"']
    market = os.path.join(repo, ".claude-plugin", "marketplace.json")
    if case == "market-escape":
        os.symlink(outside, os.path.join(repo, "link"))
        sources.append('"./link"')
    elif case == "market-dotdot":
        sources.append('"./plugins/../../outside"')
    elif case == "market-nul-source":
        sources.append('"./plugins/x\\u0000"')
    elif case == "market-surrogate-name":
        sources.append('"./plugins/ok", "name": "b\\ud800d"')
    elif case == "plugin-skills-link-out":
        write(
            os.path.join(repo, "plugins", "out", ".claude-plugin", "plugin.json"), '{"name": "o"}'
        )
        os.symlink(outside, os.path.join(repo, "plugins", "out", "skills"))
        sources.append('"./plugins/out"')
    entries = ", ".join(f'{{"name": "p{n}", "source": {src}}}' for n, src in enumerate(sources))
    text = f'{{"name": "m", "owner": {{"name": "o"}}, "plugins": [{entries}]}}'
    if case == "market-deep":
        text = "[" * 100_000 + "]" * 100_000
    elif case == "market-huge":
        text = text[:-1] + ', "pad": "' + "x" * 300_000 + '"}'
    os.makedirs(os.path.dirname(market), exist_ok=True)
    if case == "market-fifo":
        os.mkfifo(market)
    else:
        write(market, text)
    if case == "plugin-fifo":
        os.remove(manifest)
        os.mkfifo(manifest)
    elif case == "plugin-skills-escape":
        os.symlink(outside, os.path.join(plugin, "out"))
        write(manifest, '{"name": "ok", "skills": ["./out"]}')
    elif case == "plugin-not-object":
        write(manifest, '["ok"]')
    elif case == "plugin-surrogate-skills":
        write(manifest, '{"name": "ok", "skills": ["./\\ud800"]}')
    return repo


def make_project(base: str, case: str) -> str:
    """base/<case>: skills/neighbour plus the hostile file; returns the folder."""
    folder = os.path.join(base, case)
    write(os.path.join(folder, "skills", "neighbour", "SKILL.md"), skill("neighbour"))
    name, text = project_bombs()[case]
    write(os.path.join(folder, name), text)
    return folder


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
    words = " ".join(f"w{n:07d}" for n in range(90_000))  # 810 KB: under the 1 MB bound
    write(
        os.path.join(root, "gist-words", "SKILL.md"),
        f"---\nname: gist-words\ndescription: Many words.\n---\n{'z' * 5_000} {words}\n",
    )
    special_files(root, base)
    codex_side_files(root)
    bundled_files(root, base)
    write(
        os.path.join(root, "placeholder-escape", "SKILL.md"),
        skill("placeholder-escape")
        + "[a](${CLAUDE_PLUGIN_ROOT}/../../../../../../etc/passwd)\n"
        + "[b]({baseDir}/../../secret.py) [c](${CLAUDE_SKILL_DIR}/../placeholder-escape/x)\n",
    )
    write(
        os.path.join(root, "pattern-overflow", "SKILL.md"),
        patterns_skill("pattern-overflow", ["a{4294967296}"]),  # OverflowError in re
    )
    write(
        os.path.join(root, "pattern-nested", "SKILL.md"),
        patterns_skill("pattern-nested", ["(" * 5000 + ")" * 5000]),  # RecursionError
    )
    write(  # the regex engine writes a counted repeat out: 320 MB here (a{99999999}: 26 GB)
        os.path.join(root, "pattern-huge-repeat", "SKILL.md"),
        patterns_skill("pattern-huge-repeat", ["a{999999}"]),
    )
    write(  # distinct texts, so that no cache hides the cost
        os.path.join(root, "pattern-slow", "SKILL.md"),
        patterns_skill(
            "pattern-slow", [f"(.|..)+(?!x{{0,{n + 1}}})" for n in range(SLOW_PATTERNS)]
        ),
    )
    write(
        os.path.join(root, "dollar-digits", "SKILL.md"),
        "---\nname: dollar-digits\ndescription: A placeholder with 5,000 digits.\n---\n"
        "Run $" + "7" * 5000 + " with $ARGUMENTS[" + "8" * 5000 + "] and $0.\n",
    )
    for case, text in yaml_bombs().items():
        write(os.path.join(root, case, "SKILL.md"), text)
    content_cases(root, base)
    return root


SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'


def content_cases(root: str, base: str) -> None:
    """Issue 25's cases of what a skill shows (see CASES): a link out through a link,
    a body of 100,000 links, SVG images that reach outside or multiply."""
    out = os.path.join(root, "link-out")
    write(
        os.path.join(out, "SKILL.md"),
        skill("link-out") + "Read [notes](refs/notes.md) and [shared](shared/SKILL.md).\n",
    )
    os.makedirs(os.path.join(out, "refs"))
    os.symlink("/etc/passwd", os.path.join(out, "refs", "notes.md"))
    os.symlink(os.path.join(base, "outside"), os.path.join(out, "shared"))
    write(
        os.path.join(root, "links-100k", "SKILL.md"),
        skill("links-100k") + "".join(f"[]({n:x})\n" for n in range(100_000)),
    )
    svg = os.path.join(root, "svg-reach")
    images = {
        "stdin": '<image width="9" height="9" xlink:href="/dev/stdin"/>',
        "pipe": '<image width="9" height="9" xlink:href="pipe"/>',
        "disk": f'<image width="9" height="9" href="{os.path.join(base, "outside.png")}"/>',
        "inside": '<image width="9" height="9" href="inside.png"/>',
        "bomb": '<g id="l0"><rect width="1" height="1"/></g>'
        + "".join(f'<g id="l{n + 1}">' + f'<use href="#l{n}"/>' * 10 + "</g>" for n in range(9)),
        "entities": "",
    }
    write(
        os.path.join(svg, "SKILL.md"),
        skill("svg-reach") + " ".join(f"![{name}]({name}.svg)" for name in images) + "\n",
    )
    for name, inner in images.items():
        write(os.path.join(svg, f"{name}.svg"), SVG_HEAD + inner + "</svg>")
    write(
        os.path.join(svg, "entities.svg"),
        '<!DOCTYPE svg [<!ENTITY e SYSTEM "/dev/stdin">]>' + SVG_HEAD + "<text>&e;</text></svg>",
    )
    os.mkfifo(os.path.join(svg, "pipe"))
    write(os.path.join(svg, "inside.png"), b"\x89PNG\r\n\x1a\n not really")
    write(os.path.join(base, "outside.png"), b"\x89PNG\r\n\x1a\n not really")


def special_files(root: str, base: str) -> None:
    """The cases of issue 14 about files and folders (see CASES)."""
    loop = os.path.join(root, "skill-loop")
    os.makedirs(loop)
    os.symlink("SKILL.md", os.path.join(loop, "SKILL.md"))
    os.makedirs(os.path.join(root, "skill-fifo"))
    os.mkfifo(os.path.join(root, "skill-fifo", "SKILL.md"))
    os.makedirs(os.path.join(root, "skill-folder", "SKILL.md"))
    outside_fifo = os.path.join(base, "outside.fifo")
    os.mkfifo(outside_fifo)
    os.makedirs(os.path.join(root, "skill-outside-fifo"))
    os.symlink(outside_fifo, os.path.join(root, "skill-outside-fifo", "SKILL.md"))
    special = os.path.join(root, "special-files")
    write(
        os.path.join(special, "SKILL.md"),
        skill("special-files") + "![zero](zero.png) ![pipe](pipe.png)\n",
    )
    os.mkfifo(os.path.join(special, "pipe.png"))
    os.symlink("/dev/zero", os.path.join(special, "zero.png"))
    os.symlink(outside_fifo, os.path.join(special, "outside-pipe.txt"))
    write(os.path.join(root, "escape\x1b[2Jcodes", "SKILL.md"), skill("escape-codes\x1b[31m"))
    write(os.path.join(root, "html-markup", "SKILL.md"), skill("html-markup", HTML_DESCRIPTION))
    quadratic = os.path.join(root, "toolset-quadratic")
    write(os.path.join(quadratic, "SKILL.md"), toolsets_skill("toolset-quadratic", ["t.js:Foo"]))
    write(os.path.join(quadratic, "t.js"), "export {" * (128 * 1024 // 8))
    many = os.path.join(root, "toolset-many-refs")
    refs = [f"t.js:C{n}" for n in range(1000)]
    write(os.path.join(many, "SKILL.md"), toolsets_skill("toolset-many-refs", refs))
    filler = "// a line of ordinary code to make the file large\n" * 18_000
    write(
        os.path.join(many, "t.js"),
        filler + "".join(f"export class C{n} {{}}\n" for n in range(1000)),
    )
    leak = os.path.join(root, "toolset-leak")
    write(os.path.join(leak, "SKILL.md"), toolsets_skill("toolset-leak", ["leak.py:root"]))
    write(os.path.join(base, "secret.py"), "root = 'outside the root: never read'\n")
    os.symlink(os.path.join(base, "secret.py"), os.path.join(leak, "leak.py"))
    fifo = os.path.join(root, "toolset-fifo")
    write(os.path.join(fifo, "SKILL.md"), toolsets_skill("toolset-fifo", ["f.py:X", "g.py:Y"]))
    os.mkfifo(os.path.join(fifo, "f.py"))
    os.symlink(outside_fifo, os.path.join(fifo, "g.py"))


def codex_side_files(root: str) -> None:
    """The files the codex profile reads beside a skill, made hostile (see CASES)."""
    fifo = os.path.join(root, "codex-openai-fifo")
    write(os.path.join(fifo, "SKILL.md"), skill("codex-openai-fifo"))
    os.makedirs(os.path.join(fifo, "agents"))
    os.mkfifo(os.path.join(fifo, "agents", "openai.yaml"))
    bomb = os.path.join(root, "codex-openai-bomb")
    write(os.path.join(bomb, "SKILL.md"), skill("codex-openai-bomb"))
    write(os.path.join(bomb, "agents", "openai.yaml"), ALIAS_BOMB.split("---\n")[1])
    loop = os.path.join(root, "codex-plugin-loop")
    write(os.path.join(loop, "SKILL.md"), skill("codex-plugin-loop"))
    os.makedirs(os.path.join(loop, ".codex-plugin"))
    os.symlink("plugin.json", os.path.join(loop, ".codex-plugin", "plugin.json"))


BUNDLED_SECRET = "outsidesecretword"  # in a file outside the root: never in a gist


def bundled_files(root: str, base: str) -> None:
    """The markdown the likely ranking's gist reads beside a skill, made hostile."""
    folder = os.path.join(root, "bundled-hostile")
    refs = os.path.join(folder, "references")
    write(os.path.join(folder, "SKILL.md"), skill("bundled-hostile"))
    os.mkfifo(os.path.join(folder, "a-pipe.md"))
    os.symlink("/dev/zero", os.path.join(folder, "b-zero.md"))
    write(os.path.join(base, "secret.md"), f"{BUNDLED_SECRET} " * 50)
    os.symlink(os.path.join(base, "secret.md"), os.path.join(folder, "c-secret.md"))
    os.makedirs(os.path.join(refs, "d-folder.md"))
    outside_fifo = os.path.join(base, "bundled.fifo")
    os.mkfifo(outside_fifo)
    os.symlink(outside_fifo, os.path.join(refs, "e-outside-pipe.md"))
    with open(os.path.join(refs, "f-huge.md"), "wb") as fh:
        fh.write(b"bundledword " * 1000)
        fh.truncate(100 * 1024 * 1024)  # sparse: 100 MB to stat(), read 32 KB at most
    os.symlink("g-loop.md", os.path.join(refs, "g-loop.md"))


def toolsets_skill(name: str, refs: list[str]) -> str:
    items = "".join(f"  - {ref}\n" for ref in refs)
    return f"---\nname: {name}\ndescription: Toolset references.\ntoolsets:\n{items}---\nBody.\n"


# -- hostile archives (issue 14 items 7, 11, 13; issue 15 item 9) -------------------------

# archive case -> what `unpack` must say when it refuses it (None: it unpacks)
ARCHIVE_CASES = {
    "good": None,
    "modes": None,  # execute bits come back, setuid/setgid/sticky never
    "crc": "CRC",
    "clash": "both a file and a folder",
    "skill-md-folder": "both a file and a folder",
    "long-name": "longer than 255 bytes",
    "deep-path": "levels deep",
    "dot-top": "'.'",
    "many-entries": "entries; at most 1000",  # 1,000,001 with --big, else 100,001
}
# issue 25 item 2: a top folder must be a usable skill folder name; no tool settings inside
TOP_NAMES = {
    "top-git": ".git",  # HEAD, config with core.fsmonitor, objects/, refs/: `git status` runs it
    "top-claude": ".claude",
    "top-vscode": ".vscode",
    "top-hg": ".hg",
    "top-github": ".github",
    "top-dash": "-rf",
    "top-newline": "x\ny",
    "top-esc": "x\x1b[2Jy",
    "top-bidi": "x\u202egpj.y",
    "top-zero-width": "x\u200by",
    "top-git-case": ".GIT",
    "top-space": " x",
}
ARCHIVE_CASES.update(
    {case: "not a usable skill folder name" for case in TOP_NAMES}
    | {"nested-git": "settings git acts on", "nested-escape": "control character"}
)
FSMONITOR = b"[core]\n\tfsmonitor = touch /tmp/skillstudio-pwned\n"

SKILL_BYTES = b"---\nname: x\ndescription: An archived skill.\n---\nBody.\n"


def _zip(path: str, entries: list[tuple[str, bytes, int]]) -> str:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = mode << 16
            zf.writestr(info, data)
    return path


def many_entries_zip(path: str, count: int) -> str:
    """A zip of `count` empty entries, written directly (zipfile takes minutes for a
    million): 94 MB for 1,000,001 entries."""
    local, central = bytearray(), bytearray()
    for n in range(count):
        name = f"x/{n:07d}".encode()
        offset = len(local)
        local += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0)
        local += name
        central += struct.pack(
            "<4s6H3L5H2L",
            b"PK\x01\x02",
            20,
            20,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            len(name),
            0,
            0,
            0,
            0,
            0,
            min(offset, 0xFFFFFFFF),
        )
        central += name
    with open(path, "wb") as fh:
        fh.write(local)
        fh.write(central)
        start = len(local)
        if count >= 0xFFFF:  # zip64 end record and locator
            fh.write(
                struct.pack(
                    "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(central), start
                )
            )
            fh.write(struct.pack("<4sLQL", b"PK\x06\x07", 0, start + len(central), 1))
        fh.write(
            struct.pack(
                "<4s4H2LH",
                b"PK\x05\x06",
                0,
                0,
                min(count, 0xFFFF),
                min(count, 0xFFFF),
                min(len(central), 0xFFFFFFFF),
                min(start, 0xFFFFFFFF),
                0,
            )
        )
    return path


def make_archives(folder: str, big: bool = False) -> dict[str, str]:
    """One hostile .skill per case, in `folder`; {case: path}."""
    os.makedirs(folder, exist_ok=True)
    file, script = 0o100644, 0o100755
    out = {
        "good": _zip(os.path.join(folder, "good.skill"), [("x/SKILL.md", SKILL_BYTES, file)]),
        "crc": _zip(
            os.path.join(folder, "crc.skill"),
            [("x/SKILL.md", SKILL_BYTES, file), ("x/data.txt", b"checksum " * 100, file)],
        ),
        "clash": _zip(
            os.path.join(folder, "clash.skill"),
            [("x/SKILL.md", SKILL_BYTES, file), ("x/a", b"a file", file), ("x/a/b", b"", file)],
        ),
        "skill-md-folder": _zip(
            os.path.join(folder, "skill-md-folder.skill"),
            [("x/SKILL.md/", b"", 0o40755), ("x/SKILL.md", SKILL_BYTES, file)],
        ),
        "long-name": _zip(
            os.path.join(folder, "long-name.skill"),
            [("x/SKILL.md", SKILL_BYTES, file), ("x/" + "n" * 300, b"", file)],
        ),
        "deep-path": _zip(
            os.path.join(folder, "deep-path.skill"),
            [("x/SKILL.md", SKILL_BYTES, file), ("x/" + "d/" * 2000 + "f", b"", file)],
        ),
        "dot-top": _zip(os.path.join(folder, "dot-top.skill"), [("./SKILL.md", SKILL_BYTES, file)]),
        "modes": _zip(
            os.path.join(folder, "modes.skill"),
            [
                ("x/SKILL.md", SKILL_BYTES, file),
                ("x/scripts/run.sh", b"#!/bin/sh\necho hi\n", script),
                ("x/scripts/setuid", b"#!/bin/sh\n", 0o106755),  # setuid + sticky asked for
            ],
        ),
        "many-entries": many_entries_zip(
            os.path.join(folder, "many-entries.skill"), 1_000_001 if big else 100_001
        ),
        "nested-git": _zip(
            os.path.join(folder, "nested-git.skill"),
            [("x/SKILL.md", SKILL_BYTES, file), ("x/.git/config", FSMONITOR, file)],
        ),
        "nested-escape": _zip(
            os.path.join(folder, "nested-escape.skill"),
            [("x/SKILL.md", SKILL_BYTES, file), ("x/a\x1b]0;owned\x07", b"", file)],
        ),
    }
    for case, top in TOP_NAMES.items():
        git = [("HEAD", b"ref: refs/heads/main\n"), ("config", FSMONITOR), ("refs/heads/", b"")]
        entries = [(f"{top}/SKILL.md", SKILL_BYTES, file)]
        entries += [(f"{top}/{name}", data, file) for name, data in git]
        out[case] = _zip(os.path.join(folder, f"{case}.skill"), entries)
    with open(out["crc"], "r+b") as fh:
        crc = fh.read()
        fh.seek(crc.find(b"checksum"))
        fh.write(b"C")  # the stored CRC no longer matches
    return out


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
    print(os.path.dirname(make_archives(os.path.join(args.dir, "archives"), args.big)["good"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
