"""Endpoints as data: the wire formats (Anthropic Messages, OpenAI-compatible Chat
Completions, OpenAI's Responses API, Gemini's `generateContent`), the services that
speak them, and where an endpoint's key comes from.

A key is read from an environment variable, else from the system keyring (the
`keyring` package: Secret Service, Keychain, Windows Credential Locker), at the moment a
request is sent. It is never written to a file, a log, the cache or a report: an
`Endpoint` holds only the *name* of the variable and of the keyring entry.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import quote, urlsplit, urlunsplit

from .templates import TemplateApi

Api = Literal["anthropic", "openai", "responses", "gemini"]
APIS: tuple[Api, ...] = ("anthropic", "openai", "responses", "gemini")
# the API's path under the base URL (`responses`: the Responses API current Codex
# speaks, on an endpoint that offers it, core/live/responses_api.py; `gemini`: the
# model is named in the path, not in the body, core/live/gemini_api.py)
PATHS: dict[str, str] = {
    "anthropic": "/messages",
    "openai": "/chat/completions",
    "responses": "/responses",
    "gemini": "/models/{model}:generateContent",
}
# The one map between an endpoint's API and a template's (core/live/templates.py
# names the Responses API after its vendor, as `capture` records it)
AS_TEMPLATE: dict[str, TemplateApi] = {
    "anthropic": "anthropic",
    "openai": "openai",
    "responses": "openai-responses",
    "gemini": "gemini",
}
KEYRING_SERVICE = "skillstudio"  # keyring entries: (service, endpoint name)
ANTHROPIC_VERSION = "2023-06-01"  # the `anthropic-version` header the Messages API asks for
DEFAULT_KEY_ENV = "SKILLSTUDIO_API_KEY"  # a remote URL given without a known service


def endpoint_api(template_api: str) -> Api | None:
    """The endpoint API that sends a template of `template_api` (AS_TEMPLATE read
    backwards; None: none does)."""
    return next((a for a in APIS if AS_TEMPLATE[a] == template_api), None)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where requests go: base URL (the part before `/messages`, `/chat/completions`,
    `/responses` or `/models/{model}:generateContent`), the wire format, where the key
    comes from, and the role of an agent's developer message (local servers that know
    only system/user/assistant get `system`)."""

    name: str
    base_url: str
    api: Api
    key_env: str = ""  # the environment variable holding the key ("" none)
    keyring: str = ""  # the keyring entry's user name under KEYRING_SERVICE ("" none)
    developer_role: str = "system"

    @property
    def url(self) -> str:
        """Where requests go (Gemini's with `{model}` in the place of the model:
        `url_for` fills it)."""
        return self.base_url.rstrip("/") + PATHS[self.api]

    def url_for(self, model: str) -> str:
        """Where a request for `model` goes: for Gemini the model in the path (quoted:
        a model id never adds a path segment or a query), else `url`."""
        return self.url.replace("{model}", quote(model, safe="-._~"))

    def addressed(self, model: str) -> str:
        """What names the server and the model asked beyond the request's bytes, for
        the answer cache: the base URL, and for an API whose body does not hold the
        model (Gemini's) the URL with the model in it."""
        return self.url_for(model) if "{model}" in PATHS[self.api] else self.base_url

    @property
    def template_api(self) -> TemplateApi:
        """The API as a template names it (AS_TEMPLATE)."""
        return AS_TEMPLATE[self.api]

    @property
    def plain_http(self) -> bool:
        """Requests go unencrypted (the scheme as parsed, whatever its case)."""
        return urlsplit(self.base_url).scheme.lower() == "http"

    def is_local(self) -> bool:
        """The host is this machine: a loopback address, or a name the resolver returns
        only loopback addresses for (it may ask DNS: not on the GUI thread)."""
        return resolves_to_loopback(urlsplit(self.base_url).hostname or "")

    def to_json(self) -> dict[str, str]:
        """What a report says of the endpoint: never the key."""
        return {"name": self.name, "url": self.base_url, "api": self.api}


# The services, as data (docs/live.md). Local servers need no key.
PRESETS: dict[str, Endpoint] = {
    e.name: e
    for e in (
        Endpoint(
            "anthropic",
            "https://api.anthropic.com/v1",
            "anthropic",
            "ANTHROPIC_API_KEY",
            "anthropic",
        ),
        Endpoint(
            "openai",
            "https://api.openai.com/v1",
            "openai",
            "OPENAI_API_KEY",
            "openai",
            developer_role="developer",
        ),
        Endpoint(
            "openrouter",
            "https://openrouter.ai/api/v1",
            "openai",
            "OPENROUTER_API_KEY",
            "openrouter",
        ),
        Endpoint(
            "gemini",
            "https://generativelanguage.googleapis.com/v1beta",
            "gemini",
            "GEMINI_API_KEY",
            "gemini",
        ),
        Endpoint("ollama", "http://localhost:11434/v1", "openai"),
        Endpoint("llama.cpp", "http://localhost:8080/v1", "openai"),
        Endpoint("vllm", "http://localhost:8000/v1", "openai"),
        Endpoint("lmstudio", "http://localhost:1234/v1", "openai"),
    )
}


class EndpointError(ValueError):
    """An endpoint that cannot be used as given; the message says what to do."""


def endpoint_for(given: str, api: str | None = None, key_env: str | None = None) -> Endpoint:
    """A preset by name, or a base URL (http or https) with its API (`anthropic` when the
    host is Anthropic's, Gemini's when it is Google's Generative Language API, else the
    OpenAI-compatible one, unless `api` says). `responses` goes with an
    OpenAI-compatible endpoint only (whether it offers the path is the server's to
    say)."""
    if api and api not in APIS:
        raise EndpointError(f"--api must be one of {', '.join(APIS)}")
    preset = PRESETS.get(given.lower())
    if preset is not None:
        found = preset
        if api == "responses" and preset.api == "openai":
            found = replace(preset, api="responses")
        elif api and api != preset.api:
            raise EndpointError(f"{preset.name} speaks the {preset.api} API, not {api}")
    else:
        parts = urlsplit(given)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            names = ", ".join(PRESETS)
            raise EndpointError(
                f"endpoint {given!r} is neither a base URL (http://… or https://…) nor one of: "
                f"{names}"
            )
        if parts.username or parts.password:
            raise EndpointError("put the key in an environment variable, not in the URL")
        host = parts.hostname
        base = urlunsplit(parts)  # the scheme in lower case: `HTTP://` is http
        chosen: Api = "openai"
        if host.endswith("anthropic.com"):
            chosen = "anthropic"
        elif host.endswith("generativelanguage.googleapis.com"):
            chosen = "gemini"
        if api:
            chosen = next(a for a in APIS if a == api)
        known = next((p for p in PRESETS.values() if urlsplit(p.base_url).hostname == host), None)
        local = host == "localhost" or loopback_address(host)  # no key looked up by default
        found = Endpoint(
            host,
            base.rstrip("/"),
            chosen,
            key_env=known.key_env if known else ("" if local else DEFAULT_KEY_ENV),
            keyring=known.keyring if known else ("" if local else host),
            developer_role=known.developer_role if known else "system",
        )
    if key_env:
        found = replace(found, key_env=key_env)
    return found


def api_key(endpoint: Endpoint, environ: Mapping[str, str] = os.environ) -> str | None:
    """The endpoint's key: its environment variable, else its keyring entry; None when
    neither has one (a local server needs none). A keyring that is missing or fails
    counts as no entry."""
    if endpoint.key_env:
        value = environ.get(endpoint.key_env, "").strip()
        if value:
            return value
    if not endpoint.keyring or environ.get("SKILLSTUDIO_NO_KEYRING"):
        return None
    try:
        import keyring

        stored = keyring.get_password(KEYRING_SERVICE, endpoint.keyring)
    except Exception:  # no backend, a locked or broken one: no key from there
        return None
    return stored.strip() if isinstance(stored, str) and stored.strip() else None


def loopback_address(address: str) -> bool:
    """An IP address (as text) in 127.0.0.0/8 or ::1; an IPv4-mapped IPv6 address counts
    by its IPv4 address. A name is not an address: False."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def resolves_to_loopback(host: str) -> bool:
    """`host` is a loopback address, or a name every address of which the resolver
    returns is a loopback one (`localhost` as /etc/hosts has it; `x.localhost` only if
    the resolver says so). A name that does not resolve is not local."""
    host = host.strip("[]")
    if not host:
        return False
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    else:
        return loopback_address(host)
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        return False
    addresses = {str(info[4][0]) for info in found}
    return bool(addresses) and all(loopback_address(a) for a in addresses)
