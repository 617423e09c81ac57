"""Round-trip frontmatter edits: change exactly what was edited, nothing else.

The writer composes the frontmatter with libyaml to get the exact span of
every key, value and list item, then splices new text into those spans:
a single-line scalar keeps its key, spacing, quoting style and trailing
comment; a list item edit replaces that item only; a new key goes after the
last key; a removed key takes only its own lines. Every result is re-parsed
and must equal the intended mapping, or nothing is returned.

Why not a round-trip YAML library: measured against these rules, ruamel.yaml
re-indents sequences, re-wraps long scalars and normalizes spacing after
colons on dump; splicing into libyaml's marks changes only the edited bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import yaml

from . import yaml_io
from .fastyaml import _PLAIN_START_BAD, _resolved_tag
from .fields import yaml_kind
from .frontmatter import BOM, Document, parse_text

if TYPE_CHECKING:
    from .profiles.base import Profile

_MISSING = object()
_KEY_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


class EditError(Exception):
    """An edit that cannot be made safely; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Change:
    """Set or remove a top-level key, or with `path` one entry inside its mapping.

    `Change("set", "metadata", "1.3", path=("version",))` sets `metadata.version`
    and keeps every other entry of `metadata` (and its comments) byte for byte.
    """

    kind: Literal["set", "unset"]
    key: str
    value: Any = None
    path: tuple[str, ...] = ()

    @property
    def dotted(self) -> str:
        return ".".join((self.key, *self.path))


# -- scalar styles -----------------------------------------------------------


def plain_ok(value: str, flow: bool = False) -> bool:
    """Whether `value` reads back as the same text when written plain."""
    if not value or value != value.strip() or "\n" in value or "\t" in value or "\r" in value:
        return False
    if value[0] in _PLAIN_START_BAD or value.startswith(("---", "...")):
        return False
    if ": " in value or " #" in value or value.endswith(":"):
        return False
    if flow and any(ch in value for ch in ",[]{}"):
        return False
    if not all(_printable(ch) for ch in value):
        return False
    return _resolved_tag(value) is None


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
            head = f"{indent}{_key_text(str(key))}:"
            lines += _nested(head, sub, indent + "  ")
        return lines
    text = scalar_text(value, style.get("scalar"))
    return [(" " + text) if text else ""]


def _nested(head: str, value: Any, indent: str) -> list[str]:
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
            out += _nested(f"{indent}{_key_text(str(key))}:", sub, indent + "  ")
        return out
    if isinstance(value, str) and "\n" in value:
        return [f"{head} {double_quoted(value)}"]
    text = scalar_text(value)
    return [f"{head} {text}" if text else head]


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key_text(str(k))}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and "\n" in value:
        return double_quoted(value)
    return scalar_text(value, flow=True)


def _key_text(key: str) -> str:
    return key if _KEY_OK.fullmatch(key) and _resolved_tag(key) is None else double_quoted(key)


# -- the writer --------------------------------------------------------------


@dataclass(slots=True)
class _Entry:
    key: str
    key_node: yaml.Node
    node: yaml.Node
    first: int  # first line (0-based, in the frontmatter)
    last: int  # last line of its region, trailing blank and comment lines excluded


def _entries(fm: str, lines: list[str]) -> list[_Entry]:
    try:
        root = yaml_io.compose(fm, yaml_io.FRONTMATTER)
    except yaml_io.YamlRefused as exc:
        raise EditError(f"the frontmatter {exc.message}; edit it in the source view") from None
    if root is None:
        return []
    if not isinstance(root, yaml.MappingNode) or root.flow_style:
        raise EditError("the frontmatter is not a block mapping; edit the file's text instead")
    entries: list[_Entry] = []
    pairs = root.value
    for index, (key_node, node) in enumerate(pairs):
        first = key_node.start_mark.line
        nxt = pairs[index + 1][0].start_mark.line if index + 1 < len(pairs) else len(lines)
        last = max(first, node.end_mark.line if node.end_mark.column else node.end_mark.line - 1)
        last = min(last, nxt - 1)
        # Blank lines and column-0 comments after a value belong to the layout, not to
        # the value (an indented '# …' may be content of a block scalar).
        while last > first and (not lines[last].strip() or lines[last].startswith("#")):
            last -= 1
        entries.append(_Entry(str(key_node.value), key_node, node, first, last))
    return entries


def _quote_of(node: yaml.Node) -> str:
    """A scalar's quoting ("'", '"' or "plain"); a nested list or map has none."""
    style = node.style if isinstance(node, yaml.ScalarNode) else None
    return {"'": "'", '"': '"'}.get(style or "", "plain")


def _style_of(node: yaml.Node, lines: list[str]) -> dict[str, Any]:
    style: dict[str, Any] = {}
    if isinstance(node, yaml.ScalarNode):
        style["scalar"] = {"'": "'", '"': '"'}.get(node.style or "", "plain")
        style["block"] = node.style in ("|", ">")
    elif isinstance(node, yaml.SequenceNode):
        style["flow"] = bool(node.flow_style)
        if node.value and not node.flow_style:
            first = node.value[0]
            line = lines[first.start_mark.line]
            dash = line.find("-")
            style["item_indent"] = line[:dash] if dash >= 0 else "  "
            style["item_style"] = _quote_of(first)
    elif isinstance(node, yaml.MappingNode):
        style["flow"] = bool(node.flow_style)
    return style


def _splice_scalar(line: str, node: yaml.Node, new_text: str) -> str | None:
    """Replace a one-line scalar in place, or None when it does not sit on one line."""
    if node.start_mark.line != node.end_mark.line:
        return None
    return line[: node.start_mark.column] + new_text + line[node.end_mark.column :]


def apply_changes(
    doc: Document,
    changes: list[Change],
    body: str | None = None,
    order: list[str] | None = None,
) -> str:
    """The new file text (BOM included) for `doc` with `changes` and an optional new body.

    `order` is the profile's field order: a new key it declares goes before the
    first existing key it declares later (name before description, and so on);
    any other new key goes after the last key.
    """
    newline = doc.newline
    text = doc.text
    if not changes:
        new_text = text if body is None else text[: doc.body_offset] + body
        return (BOM if doc.bom else "") + new_text
    if doc.has_frontmatter and (not doc.closed or doc.mapping is None):
        raise EditError(
            "the frontmatter cannot be parsed, so its fields cannot be edited safely; fix the "
            "YAML in the file first (the body can still be edited)"
        )
    fm_text = doc.fm_text
    if any(ch in fm_text for ch in "\x85\u2028\u2029") or "\r" in fm_text.replace("\r\n", ""):
        # libyaml counts these as line breaks and str.split does not: the marks
        # would point at the wrong lines.
        raise EditError(
            "the frontmatter contains line separators other than LF or CRLF (U+0085, U+2028, "
            "U+2029 or a lone CR); edit the file's text instead"
        )
    intended: dict[str, Any] = dict(doc.mapping or {})
    for change in changes:
        _apply(intended, change)
    # one whole-key change per top-level key touched, in the order keys were first touched
    changes = [
        Change("set", key, intended[key]) if key in intended else Change("unset", key)
        for key in dict.fromkeys(c.key for c in changes)
    ]
    fm = doc.fm_text
    lines = fm.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    raw_lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    entries = {e.key: e for e in _entries(fm, raw_lines)} if doc.has_frontmatter else {}
    out = list(raw_lines)
    # Edits are applied bottom-up so earlier line numbers stay valid.
    plan: list[tuple[int, int, list[str]]] = []  # (first, last, replacement lines)
    appended: list[str] = []
    rank = {key: index for index, key in enumerate(order or [])}
    for change in changes:
        entry = entries.get(change.key)
        if change.kind == "unset":
            if entry is not None:
                plan.append((entry.first, entry.last, []))
            continue
        if entry is None:
            head = f"{_key_text(change.key)}:"
            vals = value_lines(change.value, "  ", newline, {})
            new_lines = [head + vals[0], *vals[1:]]
            before = _natural_place(change.key, rank, entries)
            if before is None:
                appended += new_lines
            else:
                plan.append((before, before - 1, new_lines))  # an insertion
            continue
        replacement = _replace_entry(entry, change.value, raw_lines, newline)
        if replacement is not None:
            plan.append((entry.first, entry.last, replacement))
    # bottom-up; at one line, the entry there is rewritten before text is inserted above it
    for first, last, replacement in sorted(plan, key=lambda p: (p[0], p[1]), reverse=True):
        out[first : last + 1] = replacement
    if appended:
        anchor = _insert_at(out)
        out[anchor:anchor] = appended
    new_fm = newline.join(out) + (newline if out else "")
    if doc.has_frontmatter:
        head_end = text.find("\n") + 1
        close_start = head_end + len(fm)
        new_text = text[:head_end] + new_fm + text[close_start:]
        body_offset = len(text[:head_end]) + len(new_fm) + (doc.body_offset - close_start)
    else:
        prefix = f"---{newline}{new_fm}---{newline}"
        new_text = prefix + text
        body_offset = len(prefix)
    if body is not None:
        new_text = new_text[:body_offset] + body
    check = parse_text(Document(path=doc.path), new_text)
    if check.mapping is None or check.mapping != intended:
        got = check.mapping
        raise EditError(
            "the edited frontmatter would not read back as intended"
            + (f" (read back: {got!r})" if got is not None else "")
            + "; nothing was written"
        )
    return (BOM if doc.bom else "") + new_text


def _natural_place(key: str, rank: dict[str, int], entries: dict[str, _Entry]) -> int | None:
    """The line before which a declared key belongs, or None to append it."""
    if key not in rank:
        return None
    later = [e.first for k, e in entries.items() if rank.get(k, -1) > rank[key]]
    return min(later) if later else None


def _apply(mapping: dict[str, Any], change: Change) -> None:
    """Apply one change to `mapping`; nested mappings on the way are copied, never mutated.

    A nested unset that leaves a mapping empty removes that mapping too.
    """
    if not change.path:
        if change.kind == "set":
            mapping[change.key] = change.value
        else:
            mapping.pop(change.key, None)
        return
    trail: list[tuple[dict[Any, Any], Any]] = []  # (mapping, key in it), outermost first
    current: dict[Any, Any] = mapping
    for depth, part in enumerate((change.key, *change.path)):
        key = next((k for k in current if str(k) == part), part) if depth else part
        trail.append((current, key))
        if depth == len(change.path):
            break
        child = current.get(key, _MISSING)
        if child is _MISSING or child is None:
            if change.kind == "unset":
                return  # nothing there to remove
            child = {}
        elif not isinstance(child, dict):
            where = ".".join((change.key, *change.path[:depth]))
            raise EditError(
                f"'{where}' holds {yaml_kind(child)}, not a mapping, so '{change.dotted}' "
                f"cannot be set inside it; replace '{where}' first (for example "
                f"--yaml '{where}={{}}') or --unset it"
            )
        child = dict(child)
        current[key] = child
        current = child
    mapping_at, last_key = trail[-1]
    if change.kind == "set":
        mapping_at[last_key] = change.value
        return
    if mapping_at.pop(last_key, _MISSING) is _MISSING:
        return
    for (parent, key), (child, _) in zip(reversed(trail[:-1]), reversed(trail[1:]), strict=True):
        if child:
            break
        parent.pop(key, None)


def _insert_at(lines: list[str]) -> int:
    """After the last line that holds a key or value (trailing comments stay last)."""
    index = len(lines)
    while index > 0 and (not lines[index - 1].strip() or lines[index - 1].lstrip().startswith("#")):
        index -= 1
    return index


def _replace_entry(
    entry: _Entry, value: Any, lines: list[str], newline: str, indent: str = "  "
) -> list[str] | None:
    """The new lines of an entry's region, or None when the value is unchanged.

    `indent` is the indentation of the entry's children when they are rewritten.
    """
    node = entry.node
    style = _style_of(node, lines)
    old = _construct(node)
    if old == value and type(old) is type(value):
        return None  # unchanged: keep every byte
    first_line = lines[entry.first]
    if (
        isinstance(node, yaml.ScalarNode)
        and not isinstance(value, list | dict)
        and not style.get("block")
        and not (isinstance(value, str) and "\n" in value)
    ):
        new_text = scalar_text(value, style.get("scalar"))
        spliced: str | None
        if node.start_mark.line == entry.first and node.value == "" and node.style is None:
            spliced = first_line.rstrip() + (" " + new_text if new_text else "")
        else:
            spliced = _splice_scalar(lines[node.start_mark.line], node, new_text)
        if spliced is not None and node.start_mark.line == entry.first == entry.last:
            return [spliced]
    if (
        isinstance(node, yaml.SequenceNode)
        and isinstance(value, list)
        and isinstance(old, list)
        and not node.flow_style
        and len(value) >= len(old)
        and all(
            item.start_mark.line == item.end_mark.line and isinstance(item, yaml.ScalarNode)
            for item in node.value
        )
        and all(not isinstance(v, dict | list) for v in value)
    ):
        region = list(lines[entry.first : entry.last + 1])
        for item_node, old_item, new_item in zip(node.value, old, value, strict=False):
            if old_item == new_item and type(old_item) is type(new_item):
                continue
            row = item_node.start_mark.line - entry.first
            quote = _quote_of(item_node)
            item_text = _splice_scalar(
                lines[item_node.start_mark.line], item_node, scalar_text(new_item, quote)
            )
            if item_text is None:
                break
            region[row] = item_text
        else:
            extra = value[len(old) :]
            if extra:
                last_item = node.value[-1] if node.value else None
                indent = style.get("item_indent", "  ")
                new_rows = [f"{indent}- {scalar_text(v, style.get('item_style'))}" for v in extra]
                at = (last_item.start_mark.line - entry.first + 1) if last_item else len(region)
                region[at:at] = new_rows
            return region
    if (
        isinstance(node, yaml.SequenceNode)
        and node.flow_style
        and isinstance(value, list)
        and isinstance(old, list)
        and old
        and len(value) > len(old)
        and value[: len(old)] == old
        and node.start_mark.line == node.end_mark.line
        and all(not isinstance(v, dict | list) for v in value)
    ):
        # append to a one-line flow list before its ']', in the last item's quoting
        row = node.start_mark.line
        line = lines[row]
        close = node.end_mark.column - 1
        if line[close : close + 1] == "]":
            quote = _quote_of(node.value[-1])
            tail = "".join(", " + scalar_text(v, quote, flow=True) for v in value[len(old) :])
            grown = list(lines[entry.first : entry.last + 1])
            grown[row - entry.first] = line[:close].rstrip() + tail + line[close:]
            return grown
    if (
        isinstance(node, yaml.SequenceNode)
        and isinstance(value, list)
        and isinstance(old, list)
        and not node.flow_style
        and 0 < len(value) < len(old)
    ):
        shrunk = _remove_items(entry, value, old, lines)
        if shrunk is not None:
            return shrunk
    if isinstance(node, yaml.MappingNode) and isinstance(value, dict) and isinstance(old, dict):
        children = _replace_children(entry, value, old, lines, newline)
        if children is not None:
            return children
    key_text = (
        first_line[: entry.key_node.end_mark.column]
        if entry.key_node.start_mark.line == entry.first
        else _key_text(entry.key)
    )
    vals = value_lines(value, indent, newline, style)
    return [key_text + ":" + vals[0], *vals[1:]]


def _remove_items(
    entry: _Entry, value: list[Any], old: list[Any], lines: list[str]
) -> list[str] | None:
    """A block list that lost items (the rest in order): only their lines go."""
    node = entry.node
    assert isinstance(node, yaml.SequenceNode)
    rows = [item.start_mark.line for item in node.value]
    if len(set(rows)) != len(rows) or rows[0] <= entry.first:
        return None
    if not all(
        isinstance(item, yaml.ScalarNode) and item.start_mark.line == item.end_mark.line
        for item in node.value
    ):
        return None
    drop: list[int] = []
    want = 0
    for index, item in enumerate(old):
        if want < len(value) and value[want] == item and type(value[want]) is type(item):
            want += 1
        else:
            drop.append(index)
    if want != len(value):
        return None  # not a plain removal
    region = list(lines[entry.first : entry.last + 1])
    for index in reversed(drop):
        del region[rows[index] - entry.first]
    return region


def _children(node: yaml.MappingNode, lines: list[str], end: int) -> list[_Entry]:
    """The entries of a nested block mapping whose region ends at line `end`."""
    pairs = node.value
    out: list[_Entry] = []
    for index, (key_node, sub) in enumerate(pairs):
        first = key_node.start_mark.line
        nxt = pairs[index + 1][0].start_mark.line if index + 1 < len(pairs) else end + 1
        last = max(first, sub.end_mark.line if sub.end_mark.column else sub.end_mark.line - 1)
        last = min(last, nxt - 1)
        block = isinstance(sub, yaml.ScalarNode) and sub.style in ("|", ">")
        while last > first and (
            not lines[last].strip() or (not block and lines[last].lstrip().startswith("#"))
        ):
            last -= 1
        out.append(_Entry(str(key_node.value), key_node, sub, first, last))
    return out


def _replace_children(
    entry: _Entry, value: dict[Any, Any], old: dict[Any, Any], lines: list[str], newline: str
) -> list[str] | None:
    """A nested block mapping edited key by key: untouched keys keep every byte.

    Handles changed, removed and appended keys; anything else (reordered keys,
    flow style, keys on the entry's own line) returns None and the entry is
    rewritten whole.
    """
    node = entry.node
    assert isinstance(node, yaml.MappingNode)
    if node.flow_style or not node.value or not all(isinstance(k, str) for k in (*old, *value)):
        return None
    subs = _children(node, lines, entry.last)
    if subs[0].first <= entry.first or [s.key for s in subs] != list(old):
        return None
    kept = [k for k in value if k in old]
    added = [k for k in value if k not in old]
    if kept != [k for k in old if k in value] or list(value) != kept + added:
        return None
    column = subs[0].key_node.start_mark.column
    if any(s.key_node.start_mark.column != column for s in subs):
        return None
    indent = lines[subs[0].first][:column]
    if indent.strip():
        return None
    region = list(lines[entry.first : entry.last + 1])
    if added:
        rows: list[str] = []
        for key in added:
            rows += _nested(f"{indent}{_key_text(key)}:", value[key], indent + "  ")
        at = subs[-1].last - entry.first + 1
        region[at:at] = rows
    for sub in reversed(subs):
        start, stop = sub.first - entry.first, sub.last - entry.first + 1
        if sub.key not in value:
            del region[start:stop]
            continue
        replacement = _replace_entry(sub, value[sub.key], lines, newline, indent + "  ")
        if replacement is not None:
            region[start:stop] = replacement
    return region


def _construct(node: yaml.Node) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    except yaml.YAMLError:
        return _MISSING
    finally:
        loader.dispose()


def parse_yaml_value(text: str) -> Any:
    """A value typed where YAML is expected: a scalar or flow list, else the text itself.

    Text after ' #' is kept (YAML would read it as a comment and drop it).
    """
    try:
        value = yaml_io.load(text, yaml_io.VALUE)
    except (yaml.YAMLError, yaml_io.YamlRefused):
        return text
    if isinstance(value, dict) or (isinstance(value, list) and not text.lstrip().startswith("[")):
        return text
    if isinstance(value, str) and " #" in text:
        return text
    return value


ValueMode = Literal["text", "string", "yaml"]
_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}
_INT_TEXT = re.compile(r"[-+]?[0-9]{1,18}")
MAX_CLI_VALUE = 64 * 1024


def parse_typed_value(text: str, kind: str | None, dotted: str, mode: ValueMode = "text") -> Any:
    """A KEY=VALUE value, by the declared type of its field (`kind`, a FieldSpec kind).

    Text stays text, whatever YAML would make of it, unless the field is declared
    bool, int or list: then the value is parsed for that type or refused.
    `mode="string"` takes it as text whatever the type; `mode="yaml"` reads it as
    YAML (structured values: mappings, lists, numbers).
    """
    if len(text) > MAX_CLI_VALUE:
        raise EditError(f"the value of '{dotted}' is over {MAX_CLI_VALUE:,} characters")
    if mode == "string":
        return text
    if mode == "yaml":
        try:
            value = yaml_io.load(text, yaml_io.VALUE)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc)
            raise EditError(f"the value of '{dotted}' is not valid YAML ({problem})") from None
        except yaml_io.YamlRefused as exc:
            raise EditError(f"the value of '{dotted}' {exc.message}") from None
        if not text.strip():
            return ""
        return value
    word = text.strip()
    if kind == "bool":
        if word.lower() in _TRUE | _FALSE:
            return word.lower() in _TRUE
        raise EditError(
            f"'{dotted}' is true or false, not '{text}'; write {dotted}=true or {dotted}=false "
            "(--string writes the text as it is)"
        )
    if kind == "int":
        if _INT_TEXT.fullmatch(word):
            return int(word)
        raise EditError(
            f"'{dotted}' is a whole number such as 50, not '{text}' "
            "(--string writes the text as it is)"
        )
    if kind == "list":
        value = None
        if word.startswith("[") and word.endswith("]"):
            try:  # items stay text: the base loader resolves no types
                yaml_io.check(word, yaml_io.VALUE)
                value = yaml.load(word, Loader=yaml.BaseLoader)
            except (yaml.YAMLError, yaml_io.YamlRefused, ValueError):
                value = None
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
        raise EditError(
            f"'{dotted}' is a list: write it as {dotted}='[first item, second item]' "
            "(quote an item that holds a comma, bracket or ' #')"
        )
    if kind in ("map", "triggers"):
        raise EditError(
            f"'{dotted}' is a mapping: set one entry with {dotted}.KEY=VALUE, or give the "
            f"whole mapping with --yaml (for example --yaml '{dotted}={{key: value}}')"
        )
    return text


def field_kind(profile: Profile, change_key: str, path: tuple[str, ...] = ()) -> str | None:
    """The declared kind of a top-level field or of an entry inside one (None: undeclared)."""
    spec = profile.field(change_key)
    if spec is None:
        return None
    if not path:
        return spec.kind
    if len(path) == 1 and spec.kind == "triggers" and path[0] in spec.subkeys:
        return "list"
    if len(path) == 1 and spec.kind == "map":
        return "string"
    return None


def change_for(
    dotted: str, mapping: dict[str, Any] | None, kind: Literal["set", "unset"], value: Any = None
) -> Change:
    """A change for KEY, where a dotted KEY (`metadata.version`) names an entry inside a
    mapping; a top-level key that is itself spelt with dots is edited as it is."""
    if "." not in dotted or dotted in (mapping or {}):
        return Change(kind, dotted, value)
    parts = dotted.split(".")
    if not all(part.strip() for part in parts):
        raise EditError(f"'{dotted}' has an empty part; write KEY or KEY.SUBKEY")
    return Change(kind, parts[0], value, path=tuple(parts[1:]))


def typed_sources(doc: Document) -> dict[str, str]:
    """The source text of every plain scalar YAML reads as something other than text.

    Keyed by dotted path (`metadata.version`, list items as `triggers.2`):
    `version: 1.10` is read as the number 1.1, and this keeps the "1.10" the
    author wrote so that nothing is reported as something it is not.
    """
    if not doc.has_frontmatter or doc.mapping is None:
        return {}
    try:
        root = yaml_io.compose(doc.fm_text, yaml_io.FRONTMATTER)
    except (yaml.YAMLError, yaml_io.YamlRefused):
        return {}
    out: dict[str, str] = {}
    stack: list[tuple[str, yaml.Node, int]] = [("", root, 0)] if root is not None else []
    while stack:
        prefix, node, depth = stack.pop()
        if depth > 8:
            continue
        if isinstance(node, yaml.MappingNode):
            pairs = [(str(k.value), v) for k, v in node.value if isinstance(k, yaml.ScalarNode)]
        elif isinstance(node, yaml.SequenceNode):
            pairs = [(str(i), v) for i, v in enumerate(node.value)]
        else:
            pairs = []
        for key, child in pairs:
            path = f"{prefix}.{key}" if prefix else key
            if isinstance(child, yaml.ScalarNode):
                if not child.style and child.tag != "tag:yaml.org,2002:str" and child.value:
                    out[path] = child.value
            else:
                stack.append((path, child, depth + 1))
    return out
