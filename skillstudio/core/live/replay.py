"""A check asked through a template (docs/live.md, "Templates"): which template a
profile's requests use, the body it sends, and how its answer is read.

The rule: a template given (`eval --template FILE|NAME`) is used; else, when saved
templates are looked up (the CLI), the captured template saved under the name of the
profile's agent (`claude-code`, `codex`, `gemini`: core/live/templates.py's folder) is
used when it speaks the endpoint's API; else the built-in reconstruction
(core/live/questions.py) asks. A captured template always wins over the reconstruction;
`--template reconstruction` asks the reconstruction even when one is saved.

The answer is read as the template's agent reads it (questions.read_answer with that
agent's style): only a call of its skill tool (Claude Code's `Skill`, Gemini CLI's
`activate_skill`), or for Codex a read of a listed SKILL.md, is a pick; a call of any
other tool the template declares (Bash, Read, …) is not.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping

from .endpoints import AS_TEMPLATE, Endpoint, endpoint_api
from .questions import STYLES, TEMPLATE, Question, body, encode
from .templates import (
    LISTING,
    REQUEST,
    Template,
    TemplateError,
    fill,
    saved_for,
    tool_names,
)

RECONSTRUCTION = "reconstruction"  # `--template reconstruction`: the built-in requests
# (agent, the style its answers are read with: questions.STYLES)
AGENT_STYLES: tuple[tuple[str, str], ...] = (
    ("claude-code", "skill-tool"),
    ("codex", "skills-instructions"),
    ("gemini", "activate-skill"),
)


def agent_of(style_key: str) -> str | None:
    """The agent whose requests a profile's style reconstructs (None: no agent's)."""
    return next((agent for agent, key in AGENT_STYLES if key == style_key), None)


def check_api(template: Template, api: str) -> None:
    """TemplateError unless the endpoint's API (`api`: endpoints.APIS) sends the
    template's (endpoints.AS_TEMPLATE: the Responses API is `responses` at an endpoint,
    `openai-responses` in a template)."""
    wanted = endpoint_api(template.api)
    if wanted is None:
        raise TemplateError(
            f"the {template.label} speaks the {template.api} API, which eval does not send"
        )
    if AS_TEMPLATE.get(api) != template.api:
        raise TemplateError(
            f"the {template.label} speaks the {template.api} API but the endpoint speaks "
            f"{api}: choose an endpoint of the template's API (--api {wanted})"
        )


def chosen(
    given: Template | None,
    style_key: str,
    api: str,
    saved: bool,
    environ: Mapping[str, str] | None = None,
) -> Template | None:
    """The template a profile's requests use (None: the reconstruction), by the rule."""
    if given is not None:
        check_api(given, api)
        return given
    agent = agent_of(style_key)
    if not saved or agent is None:
        return None
    found = saved_for(agent, environ)
    if found is None or found.api != AS_TEMPLATE.get(api):
        return None
    return found


def reconstruction(q: Question, endpoint: Endpoint, model: str, temperature: float) -> Template:
    """The built-in request for a question, as a template like any other: the body
    questions.body builds, with the listing and the request as placeholders, labelled
    `reconstruction` with the agent it reconstructs (its style's key for a style no
    agent's) and the version
    questions.TEMPLATE. Filled, it gives exactly the bytes questions.body gives."""
    shaped = dataclasses.replace(q, listing=LISTING, query=REQUEST)
    return Template(
        "reconstruction",
        endpoint.template_api,
        agent_of(q.style.key) or q.style.key,  # the agent's name (a report says it)
        "",
        body(shaped, endpoint, model, temperature),
        fixed_version=TEMPLATE,
    )


def reading(q: Question, template: Template) -> Question:
    """The question with its answer read as the template's agent reads it."""
    key = dict(AGENT_STYLES).get(template.agent)
    if key is None or key not in STYLES:
        return q
    return dataclasses.replace(q, style=STYLES[key])


def request_bytes(template: Template, q: Question, model: str) -> bytes:
    """The exact bytes sent: the template filled with the question's listing, names and
    request, the model asked."""
    return encode(fill(template, q.listing, q.listed, q.query, model))


def shown(template: Template | None) -> str:
    """The template in words for a report (the reconstruction when None)."""
    if template is None:
        return f"{RECONSTRUCTION} (built in)"
    if template.kind == "reconstruction":
        return (
            f"{RECONSTRUCTION} of {template.agent} (built in, {template.api}, {template.version})"
        )
    count = len(tool_names(template))
    return f"{template.label}, {count} tools, {template.version}"


def pretty(template: Template) -> str:
    """The template's body as indented JSON (for `capture --show`)."""
    return json.dumps(template.body, ensure_ascii=False, indent=1)
