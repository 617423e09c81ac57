"""Agent templates (docs/live.md, "Templates"): the request an agent sends, kept as data
with the skills listing and the user's request replaced by placeholders, so `eval` can
send exactly that request with this project's listing and another request.

A template is a JSON file:

    {"skillstudio_template": 1, "kind": "captured" | "reconstruction",
     "api": "anthropic" | "openai" | "openai-responses" | "gemini",
     "agent": "claude-code", "agent_version": "2.1.239", "captured": "<UTC date>",
     "listing": "<the agent's own listing text, as captured>",
     "body": {... the request body, the placeholders in place ...}}

`body` holds the placeholders LISTING and REQUEST inside its strings (the listing may
sit inside a longer text, the request is a whole text block) and NAMES as an element
of a list (Gemini CLI's `activate_skill` enum: the listed names go there). What is
never in a template: a header (the key's or any other: the agent and its version are
taken from the User-Agent and kept as two words), the request's `metadata` (Claude
Code puts a user id there), and the captured request text.

A template's version (`kind/agent@version/digest`) goes into the answer cache's key in
place of questions.TEMPLATE: the digest is the sha256 of the template's canonical JSON,
so an edited template never replays the answers of another one.

Where a template NAME is looked up: `$XDG_CONFIG_HOME/skillstudio/templates/NAME.json`
(`~/.config` when unset). A file is untrusted input: confined to that folder when named,
a regular file, at most MAX_BYTES, JSON of the expected shape; anything else is a
TemplateError saying what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..model.paths import FileRefused
from ..reading.safefs import read_bytes

FORMAT = 1  # `skillstudio_template`: the file format's version
MAX_BYTES = 8 * 2**20  # a template larger than this is not read (Claude Code's: ~0.3 MB)
MAX_DEPTH = 64  # levels of JSON a template may nest
MAX_SAVED = 100  # saved templates listed (the app's "Request as")
LISTING = "{{skillstudio:listing}}"
REQUEST = "{{skillstudio:request}}"
NAMES = "{{skillstudio:names}}"
_PLACEHOLDER = re.compile(r"\{\{skillstudio:(listing|request)\}\}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
TemplateApi = Literal["anthropic", "openai", "openai-responses", "gemini"]
TEMPLATE_APIS: tuple[TemplateApi, ...] = ("anthropic", "openai", "openai-responses", "gemini")
KINDS = ("captured", "reconstruction")
# fields dropped from a captured body: how the answer comes (eval reads it whole), and
# what identifies the user rather than the request
DROPPED = ("stream", "stream_options", "metadata")


class TemplateError(ValueError):
    """A template that cannot be read or used; the message says why."""


@dataclass(frozen=True, slots=True)
class Template:
    """A request as an agent sends it, the listing and the request left as placeholders."""

    kind: str
    api: TemplateApi
    agent: str
    agent_version: str
    body: dict[str, Any]
    listing: str = ""  # the listing as captured ("" for a reconstruction)
    captured: str = ""  # when (UTC), for a captured one
    fixed_version: str = ""  # a reconstruction's version (questions.TEMPLATE), kept as is

    def to_json(self) -> dict[str, Any]:
        return {
            "skillstudio_template": FORMAT,
            "kind": self.kind,
            "api": self.api,
            "agent": self.agent,
            "agent_version": self.agent_version,
            "captured": self.captured,
            "listing": self.listing,
            "body": self.body,
        }

    @property
    def digest(self) -> str:
        """The sha256 of the template's canonical JSON (sorted keys, compact)."""
        data = json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(data.encode("utf-8")).hexdigest()

    @property
    def version(self) -> str:
        """What goes into the cache key: kind, agent and version, and the digest (a
        reconstruction: its fixed version, so its cached answers stay valid)."""
        if self.fixed_version:
            return self.fixed_version
        return f"{self.kind}/{self.agent}@{self.agent_version or '?'}/{self.digest[:16]}"

    @property
    def label(self) -> str:
        """In words, for reports: "captured claude-code 2.1.239 template (anthropic)"."""
        version = f" {self.agent_version}" if self.agent_version else ""
        return f"{self.kind} {self.agent}{version} template ({self.api})"


def encode_template(template: Template) -> bytes:
    """The file's bytes: indented JSON, UTF-8, a final newline."""
    text = json.dumps(template.to_json(), ensure_ascii=False, indent=1)
    return (text + "\n").encode("utf-8")


def depth_ok(data: Any) -> bool:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return True


def parse_template(data: bytes, where: str) -> Template:
    """A template from a file's bytes; TemplateError says what is wrong with it."""
    try:
        found = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise TemplateError(f"{where}: not a template (not UTF-8 JSON)") from None
    if not isinstance(found, dict) or found.get("skillstudio_template") != FORMAT:
        raise TemplateError(f"{where}: not a template (no 'skillstudio_template': {FORMAT})")
    kind, api, body = found.get("kind"), found.get("api"), found.get("body")
    if kind not in KINDS:
        raise TemplateError(f"{where}: 'kind' must be one of {', '.join(KINDS)}")
    if api not in TEMPLATE_APIS:
        raise TemplateError(f"{where}: 'api' must be one of {', '.join(TEMPLATE_APIS)}")
    if not isinstance(body, dict) or not depth_ok(body):
        raise TemplateError(f"{where}: 'body' must be an object of at most {MAX_DEPTH} levels")
    texts = {k: found.get(k, "") for k in ("agent", "agent_version", "listing", "captured")}
    if not all(isinstance(v, str) for v in texts.values()):
        raise TemplateError(f"{where}: agent, agent_version, listing and captured are texts")
    if LISTING not in json.dumps(body, ensure_ascii=False):
        raise TemplateError(f"{where}: the body has no {LISTING} placeholder")
    return Template(
        kind,
        api,
        texts["agent"][:100],
        texts["agent_version"][:100],
        body,
        texts["listing"],
        texts["captured"][:40],
    )


def templates_folder(environ: Mapping[str, str] | None = None) -> str:
    """`$XDG_CONFIG_HOME/skillstudio/templates` (`~/.config` when unset or relative)."""
    env = os.environ if environ is None else environ
    home = env.get("XDG_CONFIG_HOME", "")
    if not home or not os.path.isabs(home):
        home = os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(home, "skillstudio", "templates")


def is_name(word: str) -> bool:
    """A template NAME (letters, digits, `.`, `_`, `-`; no path), not a FILE."""
    return bool(_NAME.fullmatch(word)) and not word.endswith(".json")


def named_path(name: str, environ: Mapping[str, str] | None = None) -> str:
    return os.path.join(templates_folder(environ), name + ".json")


def load_template(path: str, base: str | None = None) -> Template:
    """A template file (confined to `base` when given), bounded; TemplateError else."""
    try:
        data = read_bytes(path, base, MAX_BYTES)
    except FileRefused as exc:
        raise TemplateError(f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise TemplateError(f"{path}: cannot be read ({exc.strerror})") from None
    return parse_template(data, path)


def find_template(word: str, cwd: str, environ: Mapping[str, str] | None = None) -> Template:
    """`--template FILE|NAME`: a path (relative to `cwd`) when one exists there or the
    word is not a NAME, else the saved template NAME (confined to the templates folder)."""
    path = os.path.join(cwd, word)
    if os.path.lexists(path) or not is_name(word):
        if not os.path.lexists(path):
            raise TemplateError(f"{word}: no such template file")
        return load_template(path)
    named = named_path(word, environ)
    if not os.path.lexists(named):
        raise TemplateError(
            f"{word}: no template of that name (looked for {named}; `skillstudio capture "
            f"--save` writes one there), and no such file"
        )
    return load_template(named, templates_folder(environ))


def saved_names(
    environ: Mapping[str, str] | None = None, limit: int = MAX_SAVED
) -> list[tuple[str, str]]:
    """(NAME, path) of each file `--template NAME` finds, sorted, at most `limit`: a
    `.json` file of the templates folder whose name is a NAME. No folder: none."""
    folder = templates_folder(environ)
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return []
    found: list[tuple[str, str]] = []
    for entry in entries:
        name = entry[: -len(".json")]
        if entry.endswith(".json") and is_name(name):
            found.append((name, os.path.join(folder, entry)))
        if len(found) >= limit:
            break
    return found


def load_saved(path: str, environ: Mapping[str, str] | None = None) -> Template:
    """A saved template (confined to the templates folder, bounded); TemplateError."""
    return load_template(path, templates_folder(environ))


def saved_templates(
    environ: Mapping[str, str] | None = None, limit: int = MAX_SAVED
) -> list[tuple[str, Template | TemplateError]]:
    """The templates `--template NAME` finds, by NAME (saved_names): each read or the
    TemplateError saying why it cannot be used."""
    found: list[tuple[str, Template | TemplateError]] = []
    for name, path in saved_names(environ, limit):
        try:
            found.append((name, load_saved(path, environ)))
        except TemplateError as exc:
            found.append((name, exc))
    return found


def saved_for(agent: str, environ: Mapping[str, str] | None = None) -> Template | None:
    """The captured template saved under the agent's name, if there is a readable one
    (the rule: a captured template wins over the reconstruction)."""
    path = named_path(agent, environ)
    if not os.path.lexists(path):
        return None
    found = load_template(path, templates_folder(environ))
    return found if found.kind == "captured" else None


def fill(
    template: Template, listing: str, names: list[str] | tuple[str, ...], query: str, model: str
) -> dict[str, Any]:
    """The body to send: a copy of the template's with LISTING and REQUEST replaced in
    every text (once, never inside what was put in), NAMES in a list replaced by the
    listed names, and `model` set to the model asked. Nothing else changes."""
    values = {"listing": listing, "request": query}

    def text(value: str) -> str:
        return _PLACEHOLDER.sub(lambda m: values[m.group(1)], value)

    def copy(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            out: list[Any] = []
            for item in value:
                if item == NAMES:
                    out.extend(names)
                else:
                    out.append(copy(item))
            return out
        if isinstance(value, dict):
            return {k: copy(v) for k, v in value.items()}
        return value

    body = copy(template.body)
    assert isinstance(body, dict)
    if "model" in body or template.api != "gemini":
        body["model"] = model
    return body


def tool_names(template: Template) -> list[str]:
    """The names of the tools the template declares (Gemini's declarations included)."""
    tools = template.body.get("tools")
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        if not isinstance(tool, dict):
            continue
        function = tool.get("function")
        named = function if isinstance(function, dict) else tool
        if isinstance(named.get("name"), str):
            names.append(named["name"])
        declarations = tool.get("functionDeclarations")
        for declared in declarations if isinstance(declarations, list) else []:
            if isinstance(declared, dict) and isinstance(declared.get("name"), str):
                names.append(declared["name"])
    return names
