"""Bounded YAML and JSON reading: the one way the project turns untrusted text into data.

libyaml parses without recursion, but PyYAML's C composer recurses once per
nesting level: 50,000 nested `[` (100 KB) overflow the C stack and kill the
process (exit 139) before any Python exception can be raised.  Aliases let a
small document expand to gigabytes; 60,000 keys in a frontmatter (or items in
one list) cost memory in every later stage (a diagnostic each); an integer of
more than 4,300 digits makes the constructor raise ValueError (Python's
int-string limit).

So every reader calls `load` (or `compose`, `load_json`) with a `Limits`, and
text is checked before the composer sees it:

1. a quick upper bound from `str.count` (C speed): every collection needs a
   token (`[`, `{`, or `-`/`?`/`:` followed by a blank), so when these are few
   the document cannot be deep; keys are bounded by `:`, `?`, `,` and `{`,
   list items by `,`, `-` and `[`; a document without `*` has no aliases; without a
   long run of digits no huge number.  Real frontmatter always passes this
   test (the corpus: at most 13 such tokens), at the cost of a few counts;
2. otherwise libyaml's event stream (a state machine with heap stacks, no
   recursion) is walked once, counting the exact depth, the expanded size
   (values and characters, with every alias expanded), the keys of the
   top-level mapping, the entries of every other mapping and list and the
   length of numbers, and stopping at
   the first bound passed, with its line and column.

Only then does the C composer build the data.  Every failure is a
`YamlRefused` (bounds, huge numbers, values the constructor rejects) or a
`yaml.YAMLError` (syntax, with the caller's own wording); never a crash.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, NoReturn

import yaml
from yaml.resolver import Resolver

from ..model.text import counted

try:  # The C loader is a hard requirement for speed, but never for correctness.
    LOADER: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    LOADER = yaml.SafeLoader

# An integer longer than this (any base, underscores included) is refused: 1,000
# hexadecimal digits are about 1,200 decimal ones, well inside Python's 4,300-digit
# limit for int <-> str, so every integer that loads can also be printed.
MAX_INT_CHARS = 1000
_INT_TAG = "tag:yaml.org,2002:int"
_LONG_NUMBER = re.compile("[0-9][0-9a-fA-FxXoObB_:]{" + str(MAX_INT_CHARS - 1) + ",}")
_BLANKS = (" ", "\t", "\n", "\r")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one document may hold.

    depth: nested collections; nodes: values after expanding aliases (only
    checked when the document uses aliases); chars: characters after expanding
    aliases (a document without aliases holds about its own size); keys: keys
    of the top-level mapping (a frontmatter's fields); items: entries of any
    other mapping or list; size: characters of text.
    """

    depth: int = 64
    nodes: int = 10_000
    chars: int = 2 * 1024 * 1024
    keys: int = 256
    items: int = 5_000
    size: int = 1024 * 1024


FRONTMATTER = Limits()
CONFIG = Limits(size=256 * 1024)
SUITE = Limits(nodes=200_000, chars=8 * 1024 * 1024, items=10_000, size=4 * 1024 * 1024)
VALUE = Limits(size=64 * 1024)  # a value typed on the command line


class YamlRefused(Exception):
    """The text passes a bound or holds a value that cannot be built.

    `line` and `column` are 1-based within the text given (0 when unknown);
    `message` is a plain sentence fragment ("nests 50,000 levels deep; ...").
    """

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def load(text: str, limits: Limits = FRONTMATTER) -> Any:
    """The data of one YAML document, built only after the text is known to be within bounds."""
    try:
        check(text, limits)
        return yaml.load(text, Loader=LOADER)
    except (ValueError, OverflowError, TypeError, RecursionError, MemoryError) as exc:
        raise _refused(text, exc) from None


def load_with_nodes(text: str, limits: Limits = FRONTMATTER) -> tuple[Any, Any]:
    """The data of one YAML document and its node tree (for positions), parsed once:
    the same data as `load`, within the same bounds."""
    try:
        check(text, limits)
        node = yaml.compose(text, Loader=LOADER)
        if node is None:
            return None, None
        loader = LOADER("")
        try:
            return loader.construct_document(node), node
        finally:
            loader.dispose()
    except (ValueError, OverflowError, TypeError, RecursionError, MemoryError) as exc:
        raise _refused(text, exc) from None


def compose(text: str, limits: Limits = FRONTMATTER) -> Any:
    """The node tree of one YAML document (for positions), within the same bounds."""
    try:
        check(text, limits)
        return yaml.compose(text, Loader=LOADER)
    except (ValueError, OverflowError, TypeError, RecursionError, MemoryError) as exc:
        raise _refused(text, exc) from None


def _refused(text: str, exc: Exception) -> YamlRefused:
    """A value the constructor rejects (a date like 2024-13-45), or a lone surrogate."""
    if isinstance(exc, UnicodeEncodeError):
        line, column = _line_column(text, exc.start)
        code = ord(text[exc.start])
        return YamlRefused(f"holds U+{code:04X}, which is not a character", line, column)
    line, column = _long_number_at(text)
    return YamlRefused(f"holds a value that cannot be read ({exc})", line, column)


def check(text: str, limits: Limits = FRONTMATTER) -> None:
    """Raise YamlRefused when `text` passes one of `limits`; yaml.YAMLError on bad syntax
    met while checking (the load would meet it too)."""
    if len(text) > limits.size:
        raise YamlRefused(
            f"is {counted(len(text), 'character')} long; at most {limits.size:,} are read"
        )
    if _quick_ok(text, limits):
        return
    try:
        _walk(text, limits)
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" not in str(exc.problem) or exc.problem_mark is None:
            raise
        _refuse_too_deep(text, limits, exc.problem_mark)


# libyaml 0.2.6 (PyYAML 6.0.4's wheels) stops at 1,000 open flow collections by itself,
# with a ScannerError raised before any event of the document is seen. The same text
# must get the same answer whichever libyaml reads it: walk the part before that mark
# (still too deep for our own bound, and short of libyaml's) and refuse where our bound
# is passed; the mark itself only if that walk does not reach it.
def _refuse_too_deep(text: str, limits: Limits, mark: Any) -> NoReturn:
    index = getattr(mark, "index", None)
    if isinstance(index, int) and 0 < index <= len(text):
        try:
            _walk(text[: index - 1], limits)
        except YamlRefused:
            raise
        except yaml.YAMLError:
            pass  # the cut text ends inside a collection: expected, and not the reason
    raise YamlRefused(
        f"nests more than {counted(limits.depth, 'level')} deep (lists or mappings inside "
        "each other); flatten it",
        mark.line + 1,
        mark.column + 1,
    )


def _blank_after(text: str, char: str) -> int:
    return sum(text.count(char + blank) for blank in _BLANKS) + text.endswith(char)


def _quick_ok(text: str, limits: Limits) -> bool:
    """True when counting tokens alone proves every bound holds (no parse needed)."""
    if "*" in text or "!" in text:  # aliases expand; a tag can make any text a number
        return False
    colons, questions, braces = text.count(":"), text.count("?"), text.count("{")
    commas = text.count(",")
    if colons + questions + commas + braces >= limits.keys:
        return False
    entries = commas + text.count("-") + text.count("[") + colons + questions + braces
    if entries >= limits.items:
        return False
    # A flow sequence can hold one implicit single-pair mapping per level: count it twice.
    flow = 2 * text.count("[") + braces + 1
    if flow + text.count("-") + colons + questions > limits.depth:  # every '-' ':' '?'
        blanks = _blank_after(text, "-") + _blank_after(text, ":") + _blank_after(text, "?")
        if flow + blanks > limits.depth:  # only those followed by a blank
            return False
    return len(text) < MAX_INT_CHARS or _LONG_NUMBER.search(text) is None


_START = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_END = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def _walk(text: str, limits: Limits) -> None:
    """Walk libyaml's events once, with every alias expanded by arithmetic, not by copying."""
    # One frame per open collection: [children, nodes at start, chars at start,
    # levels of its deepest child, anchor, is mapping]. A node's levels: the
    # collections on its longest downward path (0 for a scalar).
    stack: list[list[Any]] = []
    anchors: dict[str, tuple[int, int, int]] = {}  # anchor -> (nodes, chars, levels)
    open_anchors: set[str] = set()
    nodes = chars = 0
    aliased = False

    def refuse(message: str, event: Any) -> YamlRefused:
        mark = event.start_mark
        return YamlRefused(message, mark.line + 1, mark.column + 1)

    def added(event: Any, count: int, weight: int, levels: int) -> None:
        nonlocal nodes, chars
        nodes += count
        chars += weight
        if aliased and nodes > limits.nodes:
            raise refuse(
                f"expands (aliases *name repeat anchors &name) to more than "
                f"{counted(limits.nodes, 'value')}; write the values out",
                event,
            )
        if chars > limits.chars:
            raise refuse(
                f"expands to more than {counted(limits.chars, 'character')}; at most that "
                "much is read" + (" (aliases *name repeat anchors &name)" if aliased else ""),
                event,
            )
        if stack:
            frame = stack[-1]
            frame[0] += 1
            frame[3] = max(frame[3], levels)
            entries = (frame[0] + 1) // 2 if frame[5] else frame[0]  # a key counts at once
            if len(stack) == 1 and frame[5] and frame[0] > 2 * limits.keys:
                raise refuse(
                    f"has more than {counted(limits.keys, 'key')} (at most {limits.keys:,} "
                    "are allowed); remove the extra keys",
                    event,
                )
            if not (len(stack) == 1 and frame[5]) and entries > limits.items:
                kind = "mapping" if frame[5] else "list"
                raise refuse(
                    f"has a {kind} of more than {counted(limits.items, 'entry', 'entries')} "
                    f"(at most {limits.items:,} are allowed); shorten it",
                    event,
                )
            if len(stack) + levels > limits.depth:
                raise refuse(
                    f"nests more than {counted(limits.depth, 'level')} deep (lists or mappings "
                    "inside each other, here through an alias); flatten it",
                    event,
                )

    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.ScalarEvent):
            value = event.value
            if len(value) > MAX_INT_CHARS and _is_int(event):
                raise refuse(
                    f"holds a whole number of {counted(len(value), 'character')}; numbers are "
                    f"at most {counted(MAX_INT_CHARS, 'character')} long (put it in quotes if "
                    "it is text)",
                    event,
                )
            added(event, 1, len(value) + 1, 0)
            if event.anchor is not None:
                anchors[event.anchor] = (1, len(value) + 1, 0)
        elif isinstance(event, _START):
            if len(stack) >= limits.depth:
                raise refuse(
                    f"nests more than {counted(limits.depth, 'level')} deep (lists or mappings "
                    "inside each other); flatten it",
                    event,
                )
            if event.anchor is not None:
                open_anchors.add(event.anchor)
            mapping = isinstance(event, yaml.MappingStartEvent)
            stack.append([0, nodes, chars, 0, event.anchor, mapping])
        elif isinstance(event, _END):
            _children, nodes0, chars0, below, anchor, _mapping = stack.pop()
            count, weight = nodes - nodes0 + 1, chars - chars0 + 1
            nodes, chars = nodes0, chars0  # re-added below, with the frame's own node
            added(event, count, weight, below + 1)
            if anchor is not None:
                open_anchors.discard(anchor)
                anchors[anchor] = (count, weight, below + 1)
        elif isinstance(event, yaml.AliasEvent):
            aliased = True
            if event.anchor in open_anchors:
                raise refuse(
                    f"refers to itself (*{event.anchor} inside &{event.anchor}); write the "
                    "values out",
                    event,
                )
            known = anchors.get(str(event.anchor))
            if known is None:
                continue  # undefined: the composer reports it with its own message
            added(event, *known)


def _is_int(event: Any) -> bool:
    if event.tag == _INT_TAG:
        return True
    if event.tag is not None or event.style or not event.implicit[0]:
        return False
    for tag, regexp in Resolver.yaml_implicit_resolvers.get(event.value[0], []):
        if regexp.match(event.value):
            return bool(tag == _INT_TAG)
    return False


def _line_column(text: str, index: int) -> tuple[int, int]:
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _long_number_at(text: str) -> tuple[int, int]:
    found = _LONG_NUMBER.search(text)
    return (0, 0) if found is None else _line_column(text, found.start())


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},]')


def load_json(text: str, limits: Limits = SUITE) -> Any:
    """JSON within the same bounds on size, depth (Python's parser recurses per level)
    and count: at most `limits.nodes` lists, objects and separated values, counted
    before anything is built (4 MB of `[],` would otherwise build 1.4 million lists).

    Raises json.JSONDecodeError for bad syntax, YamlRefused for a bound passed.
    """
    if len(text) > limits.size:
        raise YamlRefused(
            f"is {counted(len(text), 'character')} long; at most {limits.size:,} are read"
        )
    if text.count("[") + text.count("{") + text.count(",") > limits.depth:
        depth = 0
        values = 0
        for token in _JSON_TOKEN.finditer(text):
            kind = token.group()
            if kind == "[" or kind == "{":
                depth += 1
                values += 1
                if depth > limits.depth:
                    raise YamlRefused(
                        f"nests more than {counted(limits.depth, 'level')} deep; flatten it",
                        *_line_column(text, token.start()),
                    )
            elif kind == "]" or kind == "}":
                depth -= 1
            elif kind == ",":
                values += 1
            else:
                continue
            if values > limits.nodes:
                raise YamlRefused(
                    f"holds more than {counted(limits.nodes, 'value')}; split it",
                    *_line_column(text, token.start()),
                )
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise
        line, column = _long_number_at(text)
        raise YamlRefused(f"holds a value that cannot be read ({exc})", line, column) from None


class EditError(Exception):
    """An edit that cannot be made safely; the message says why and what to do."""


# -- writing: how libyaml reads a plain scalar, and scalars written to read back -------
PLAIN_START_BAD = set("-?:,[]{}#&*!|>'\"%@`")  # a plain scalar cannot start with these
_RESOLVERS = Resolver.yaml_implicit_resolvers
_WILDCARD = _RESOLVERS.get(None, [])
_KEY_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_BY_FIRST: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {}


def resolved_tag(value: str) -> str | None:
    """The tag libyaml's resolver gives a plain scalar (the same table, same order)."""
    first = value[0]
    table = _BY_FIRST.get(first)
    if table is None:
        table = tuple(_RESOLVERS.get(first, [])) + tuple(_WILDCARD)
        _BY_FIRST[first] = table
    for tag, regexp in table:
        if regexp.match(value):
            return str(tag)
    return None


def plain_ok(value: str, flow: bool = False) -> bool:
    """Whether `value` reads back as the same text when written plain."""
    if not value or value != value.strip() or "\n" in value or "\t" in value or "\r" in value:
        return False
    if value[0] in PLAIN_START_BAD or value.startswith(("---", "...")):
        return False
    if ": " in value or " #" in value or value.endswith(":"):
        return False
    if flow and any(ch in value for ch in ",[]{}"):
        return False
    if not all(_printable(ch) for ch in value):
        return False
    return resolved_tag(value) is None


def _printable(ch: str) -> bool:
    """YAML 1.1's printable set, as libyaml's reader enforces it."""
    code = ord(ch)
    if code < 0x20:
        return False
    if 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF:
        return False
    return ch not in "\ufeff\ufffe\uffff\u2028\u2029"


def single_quoted(value: str) -> str | None:
    if not all(_printable(ch) for ch in value):
        return None
    return "'" + value.replace("'", "''") + "'"


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def double_quoted(value: str) -> str:
    """A YAML double-quoted scalar; every non-printable character is escaped."""
    out = ['"']
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _printable(ch):
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


def scalar_text(value: Any, style: str | None = None, flow: bool = False) -> str:
    """One-line YAML for a scalar, keeping `style` ("plain", "'", '"') when it can."""
    if value is None:
        return "null" if flow else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
        return text if isinstance(value, int) or "." in text or "e" in text else text + ".0"
    if not isinstance(value, str):
        raise EditError(f"cannot write a {type(value).__name__} value")
    if style == "'":
        quoted = single_quoted(value)
        if quoted is not None:
            return quoted
    if style == '"':
        return double_quoted(value)
    if plain_ok(value, flow):
        return value
    return single_quoted(value) or double_quoted(value)


def _block_ok(value: str) -> bool:
    """Whether a literal block scalar carries `value` exactly (else it is double-quoted)."""
    if not value or value[0] in " \t\n" or not all(_printable(ch) or ch in "\n\t" for ch in value):
        return False
    return all(line.strip() or not line for line in value.rstrip("\n").split("\n"))


def _block_scalar(value: str, indent: str) -> list[str]:
    chomp = "" if value.endswith("\n") and not value.endswith("\n\n") else "-"
    if value.endswith("\n\n"):
        chomp = "+"
    body = value[:-1] if value.endswith("\n") and chomp == "" else value
    if chomp == "+":
        body = value.rstrip("\n")
    lines = body.split("\n")
    out = ["|" + chomp]  # literal style keeps every line break exactly
    for line in lines:
        out.append((indent + line) if line else "")
    if chomp == "+":
        out += [""] * (len(value) - len(value.rstrip("\n")) - 1)
    return out


def value_lines(value: Any, indent: str, newline: str, style: dict[str, Any]) -> list[str]:
    """The value of a top-level key: first element continues the `key:` line."""
    if isinstance(value, str) and (
        "\n" in value.rstrip("\n") or (style.get("block") and "\n" in value)
    ):
        if not _block_ok(value):
            return [" " + double_quoted(value)]
        block = _block_scalar(value, indent)
        return [" " + block[0], *block[1:]]
    if isinstance(value, list):
        if not value:
            return [" []"]
        if style.get("flow"):
            items = ", ".join(_flow(v) for v in value)
            return [f" [{items}]"]
        item_indent = style.get("item_indent", indent)
        lines = [""]
        for item in value:
            if isinstance(item, dict | list):
                lines.append(f"{item_indent}- {_flow(item)}")
            else:
                lines.append(f"{item_indent}- {scalar_text(item, style.get('item_style'))}")
        return lines
    if isinstance(value, dict):
        if not value:
            return [" {}"]
        if style.get("flow"):
            return [" " + _flow(value)]
        lines = [""]
        for key, sub in value.items():
            head = f"{indent}{key_text(str(key))}:"
            lines += nested_lines(head, sub, indent + "  ")
        return lines
    text = scalar_text(value, style.get("scalar"))
    return [(" " + text) if text else ""]


def nested_lines(head: str, value: Any, indent: str) -> list[str]:
    if isinstance(value, list):
        if not value:
            return [head + " []"]
        return [head] + [
            f"{indent}- {_flow(v) if isinstance(v, dict | list) else scalar_text(v)}" for v in value
        ]
    if isinstance(value, dict):
        if not value:
            return [head + " {}"]
        out = [head]
        for key, sub in value.items():
            out += nested_lines(f"{indent}{key_text(str(key))}:", sub, indent + "  ")
        return out
    if isinstance(value, str) and "\n" in value:
        return [f"{head} {double_quoted(value)}"]
    text = scalar_text(value)
    return [f"{head} {text}" if text else head]


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key_text(str(k))}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and "\n" in value:
        return double_quoted(value)
    return scalar_text(value, flow=True)


def key_text(key: str) -> str:
    return key if _KEY_OK.fullmatch(key) and resolved_tag(key) is None else double_quoted(key)


# -- the writer --------------------------------------------------------------
