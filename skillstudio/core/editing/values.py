"""Values typed by a person (`set KEY=VALUE`, the app's form): read as the field's
type says, refused with a message when they cannot be; and the text a value was
written as, beside what YAML read it as."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

import yaml

from ..model.document import Document
from ..reading import yaml_io
from ..reading.yaml_io import EditError

if TYPE_CHECKING:
    from ..profile import Profile


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
