"""The strings of a JSON manifest (marketplace.json, plugin.json), checked where the
manifest is parsed, before any of them reaches a path, a name or the output.

JSON can carry what no file name or printed name can: a NUL (`\\u0000`, which every
file call refuses), a lone surrogate (`\\ud800`, which cannot be written as UTF-8),
control and bidi characters. Each such string is one diagnostic at its line and
column; its entry is left out and the rest of the manifest is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

from ..checking.lookalike import CONTROL as _CONTROL
from ..checking.lookalike import text_problem as problem
from ..reading import yaml_io

# In a path or a name (the last key of these, or anything under `skills`), control,
# bidi and zero-width characters are refused too.
STRICT_KEYS = frozenset({"name", "source"})
# A lone surrogate escape in JSON text (not one after an escaped backslash): YAML, which
# places the diagnostics, refuses it; for positions it becomes letters of the same length.
_SURROGATE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}")

Report = Callable[[tuple[Any, ...], str], None]


def _strict(keys: tuple[Any, ...]) -> bool:
    last = next((k for k in reversed(keys) if isinstance(k, str)), None)
    return last in STRICT_KEYS or (bool(keys) and keys[0] == "skills")


def _where(keys: tuple[Any, ...]) -> str:
    out = ""
    for key in keys:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "the manifest"


def checked(data: Any, report: Report) -> Any:
    """The data with every unusable string left out: a key holding one is dropped, a
    value (or list item) is replaced by None. `report(keys, message)` is called for
    each, with the key path of the entry (walked without recursion)."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        node, keys = stack.pop()
        if isinstance(node, dict):
            for key in list(node):
                why = problem(key, True) if isinstance(key, str) else None
                if why is not None:
                    shown = key.encode("utf-8", "backslashreplace").decode("utf-8")
                    shown = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", shown)
                    report((*keys, key), f"The key '{shown}' in {_where(keys)} {why}")
                    del node[key]
                    continue
                value = node[key]
                sub = (*keys, key)
                if isinstance(value, str):
                    why = problem(value, _strict(sub))
                    if why is not None:
                        report(sub, f"'{_where(sub)}' {why}")
                        node[key] = None
                elif isinstance(value, dict | list):
                    stack.append((value, sub))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                sub = (*keys, index)
                if isinstance(value, str):
                    why = problem(value, _strict(sub))
                    if why is not None:
                        report(sub, f"'{_where(sub)}' {why}")
                        node[index] = None
                elif isinstance(value, dict | list):
                    stack.append((value, sub))
    return data


def key_positions(text: str) -> dict[tuple[Any, ...], tuple[int, int]]:
    """Where each key and list item starts (JSON read as YAML, which keeps marks); lone
    surrogate escapes, which YAML refuses, are read as letters of the same length."""
    text = _SURROGATE_ESCAPE.sub(lambda m: m.group(1) + "uXXXXX", text)
    out: dict[tuple[Any, ...], tuple[int, int]] = {}
    try:
        root = yaml_io.compose(text, yaml_io.CONFIG)
    except (yaml.YAMLError, yaml_io.YamlRefused):
        return out
    stack: list[tuple[tuple[Any, ...], Any]] = [((), root)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                sub = (*path, key_node.value)
                out[sub] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                stack.append((sub, value_node))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                sub = (*path, index)
                out[sub] = (item.start_mark.line + 1, item.start_mark.column + 1)
                stack.append((sub, item))
    return out
