"""Splices: one frontmatter entry's new lines, changing as few bytes as its shape allows.

libyaml's marks give every key, value and list item its exact span. Each strategy
handles one shape of edit: a one-line scalar replaced in place (its key, spacing,
quoting and trailing comment kept), a text over several lines rewrapped in its
style (wrapping.py), a block list's one-line items changed, appended
or removed, a one-line flow list grown at its end, a nested block mapping edited key
by key. The first that applies wins; an entry none of them fits is rewritten whole,
in its style. round_trip.py places the regions in the frontmatter and checks what
they make.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from ..reading import yaml_io
from ..reading.yaml_io import EditError, key_text, nested_lines, scalar_text, value_lines
from .wrapping import rewrap

_MISSING = object()


@dataclass(slots=True)
class Entry:
    """One key of a block mapping: its nodes and the lines its region spans."""

    key: str
    key_node: yaml.Node
    node: yaml.Node
    first: int  # first line (0-based, in the frontmatter)
    last: int  # last line of its region, trailing blank and comment lines excluded


def top_entries(fm: str, lines: list[str]) -> list[Entry]:
    """The keys of the frontmatter's block mapping (`lines` are its lines); EditError
    when it cannot be composed within bounds or is not a block mapping."""
    try:
        root = yaml_io.compose(fm, yaml_io.FRONTMATTER)
    except yaml_io.YamlRefused as exc:
        raise EditError(f"the frontmatter {exc.message}; edit it in the source view") from None
    if root is None:
        return []
    if not isinstance(root, yaml.MappingNode) or root.flow_style:
        raise EditError("the frontmatter is not a block mapping; edit the file's text instead")
    entries: list[Entry] = []
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
        entries.append(Entry(str(key_node.value), key_node, node, first, last))
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


def replace_entry(
    entry: Entry, value: Any, lines: list[str], newline: str, indent: str = "  "
) -> list[str] | None:
    """The new lines of an entry's region, or None when the value is unchanged.

    The edit strategies below are tried in turn, each for one shape of value and
    each touching as few bytes as it can; the first that applies wins, and an
    entry none of them fits is rewritten whole. `indent` is the indentation of
    the entry's children when they are rewritten.
    """
    old = _construct(entry.node)
    if old == value and type(old) is type(value):
        return None  # unchanged: keep every byte
    edit = _Edit(entry, value, old, lines, newline, _style_of(entry.node, lines))
    for strategy in _STRATEGIES:
        region = strategy(edit)
        if region is not None:
            return region
    return _rewrite_entry(edit, indent)


@dataclass(slots=True)
class _Edit:
    """One entry's edit as the strategies see it."""

    entry: Entry
    value: Any
    old: Any
    lines: list[str]
    newline: str
    style: dict[str, Any]

    @property
    def region(self) -> list[str]:
        return list(self.lines[self.entry.first : self.entry.last + 1])


def _scalars_only(values: list[Any]) -> bool:
    return all(not isinstance(v, dict | list) for v in values)


def _splice_scalar_value(edit: _Edit) -> list[str] | None:
    """A one-line scalar replaced by another: only the value's bytes change."""
    entry, node, value = edit.entry, edit.entry.node, edit.value
    if (
        not isinstance(node, yaml.ScalarNode)
        or isinstance(value, list | dict)
        or edit.style.get("block")
        or (isinstance(value, str) and "\n" in value)
    ):
        return None
    new_text = scalar_text(value, edit.style.get("scalar"))
    spliced: str | None
    if node.start_mark.line == entry.first and node.value == "" and node.style is None:
        spliced = edit.lines[entry.first].rstrip() + (" " + new_text if new_text else "")
    else:
        spliced = _splice_scalar(edit.lines[node.start_mark.line], node, new_text)
    if spliced is not None and node.start_mark.line == entry.first == entry.last:
        return [spliced]
    return None


def _rewrap_text(edit: _Edit) -> list[str] | None:
    """A text over several lines (plain, quoted, folded or literal) in its own layout."""
    return rewrap(edit.entry.node, edit.value, edit.region, edit.entry.first)


def _edit_block_list(edit: _Edit) -> list[str] | None:
    """A block list of one-line scalars, items changed in place and new ones appended."""
    entry, node, value, old = edit.entry, edit.entry.node, edit.value, edit.old
    if not (
        isinstance(node, yaml.SequenceNode)
        and isinstance(value, list)
        and isinstance(old, list)
        and not node.flow_style
        and len(value) >= len(old)
        and all(
            item.start_mark.line == item.end_mark.line and isinstance(item, yaml.ScalarNode)
            for item in node.value
        )
        and _scalars_only(value)
    ):
        return None
    region = edit.region
    for item_node, old_item, new_item in zip(node.value, old, value, strict=False):
        if old_item == new_item and type(old_item) is type(new_item):
            continue
        row = item_node.start_mark.line - entry.first
        quote = _quote_of(item_node)
        item_text = _splice_scalar(
            edit.lines[item_node.start_mark.line], item_node, scalar_text(new_item, quote)
        )
        if item_text is None:
            return None
        region[row] = item_text
    extra = value[len(old) :]
    if extra:
        last_item = node.value[-1] if node.value else None
        indent = edit.style.get("item_indent", "  ")
        new_rows = [f"{indent}- {scalar_text(v, edit.style.get('item_style'))}" for v in extra]
        at = (last_item.start_mark.line - entry.first + 1) if last_item else len(region)
        region[at:at] = new_rows
    return region


def _append_to_flow_list(edit: _Edit) -> list[str] | None:
    """A one-line flow list that grew at its end: the new items go before its ']', in
    the last item's quoting."""
    node, value, old = edit.entry.node, edit.value, edit.old
    if not (
        isinstance(node, yaml.SequenceNode)
        and node.flow_style
        and isinstance(value, list)
        and isinstance(old, list)
        and old
        and len(value) > len(old)
        and value[: len(old)] == old
        and node.start_mark.line == node.end_mark.line
        and _scalars_only(value)
    ):
        return None
    row = node.start_mark.line
    line = edit.lines[row]
    close = node.end_mark.column - 1
    if line[close : close + 1] != "]":
        return None
    quote = _quote_of(node.value[-1])
    tail = "".join(", " + scalar_text(v, quote, flow=True) for v in value[len(old) :])
    grown = edit.region
    grown[row - edit.entry.first] = line[:close].rstrip() + tail + line[close:]
    return grown


def _shrink_block_list(edit: _Edit) -> list[str] | None:
    node, value, old = edit.entry.node, edit.value, edit.old
    if (
        isinstance(node, yaml.SequenceNode)
        and isinstance(value, list)
        and isinstance(old, list)
        and not node.flow_style
        and 0 < len(value) < len(old)
    ):
        return _remove_items(edit.entry, value, old, edit.lines)
    return None


def _edit_mapping(edit: _Edit) -> list[str] | None:
    if (
        isinstance(edit.entry.node, yaml.MappingNode)
        and isinstance(edit.value, dict)
        and isinstance(edit.old, dict)
    ):
        return _replace_children(edit.entry, edit.value, edit.old, edit.lines, edit.newline)
    return None


def _rewrite_entry(edit: _Edit, indent: str) -> list[str]:
    """The entry written anew: its key as it was, the value in the entry's style."""
    entry = edit.entry
    first_line = edit.lines[entry.first]
    head = (
        first_line[: entry.key_node.end_mark.column]
        if entry.key_node.start_mark.line == entry.first
        else key_text(entry.key)
    )
    vals = value_lines(edit.value, indent, edit.newline, edit.style)
    return [head + ":" + vals[0], *vals[1:]]


_STRATEGIES: tuple[Callable[[_Edit], list[str] | None], ...] = (
    _splice_scalar_value,
    _rewrap_text,
    _edit_block_list,
    _append_to_flow_list,
    _shrink_block_list,
    _edit_mapping,
)


def _remove_items(
    entry: Entry, value: list[Any], old: list[Any], lines: list[str]
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


def _children(node: yaml.MappingNode, lines: list[str], end: int) -> list[Entry]:
    """The entries of a nested block mapping whose region ends at line `end`."""
    pairs = node.value
    out: list[Entry] = []
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
        out.append(Entry(str(key_node.value), key_node, sub, first, last))
    return out


def _replace_children(
    entry: Entry, value: dict[Any, Any], old: dict[Any, Any], lines: list[str], newline: str
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
            rows += nested_lines(f"{indent}{key_text(key)}:", value[key], indent + "  ")
        at = subs[-1].last - entry.first + 1
        region[at:at] = rows
    for sub in reversed(subs):
        start, stop = sub.first - entry.first, sub.last - entry.first + 1
        if sub.key not in value:
            del region[start:stop]
            continue
        replacement = replace_entry(sub, value[sub.key], lines, newline, indent + "  ")
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
