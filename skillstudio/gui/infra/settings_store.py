"""What the app keeps between runs besides window geometry: the theme, the default
profile, the profile chosen per folder, the context window for budgets (and the model
it was taken from; the models themselves are core's, kept in models.yaml), the tabs open
per folder, the template Ask a model sends from per folder, the suites a case was added
to that a project's skillstudio.yaml does not list, and the model endpoints (their
keys in the system keyring, never in the settings file). One QSettings under it: tests
pass a settings file of their own. (A project's advice rules are its skillstudio.yaml's:
settings_dialog.py writes them.)"""

from __future__ import annotations

import os
from dataclasses import dataclass

from PySide6.QtCore import QSettings

from ...core.live.endpoints import APIS, EndpointError, endpoint_for
from ...core.live.endpoints import KEYRING_SERVICE as LIVE_KEYRING_SERVICE
from ...core.live.templates import is_name

THEMES = ("system", "light", "dark")
API_KINDS: tuple[str, ...] = APIS  # the APIs an endpoint can speak (core/live/endpoints.py)
KEYRING_SERVICE = "SkillStudio model endpoint"
MAX_TABS = 30  # tabs restored per folder
MAX_ENDPOINTS = 20
MAX_KEPT_SUITES = 50  # suites remembered per project folder


@dataclass(frozen=True)
class Endpoint:
    """A model endpoint for the live checks: where, which API, which model."""

    url: str
    kind: str  # one of API_KINDS
    model: str


def _folder_key(folder: str) -> str:
    """A settings key for a folder (QSettings treats '/' and '\\' as group separators)."""
    return os.path.abspath(folder).replace("\\", "|").replace("/", "|")


class AppSettings:
    """Typed access to the app's settings; values from the file are checked, never trusted."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    # -- appearance -------------------------------------------------------------------
    def theme(self) -> str:
        value = self.settings.value("theme", "system")
        return value if value in THEMES else "system"

    def set_theme(self, theme: str) -> None:
        self.settings.setValue("theme", theme if theme in THEMES else "system")

    # -- profiles and budgets -----------------------------------------------------------
    def default_profile(self) -> str:
        """The profile new folders are read as ("" = auto: skillstudio.yaml or detection)."""
        value = self.settings.value("default_profile", "")
        return value if isinstance(value, str) else ""

    def set_default_profile(self, name: str) -> None:
        self.settings.setValue("default_profile", name)

    def folder_profile(self, folder: str) -> str:
        """The profile the user chose for a project folder ("" for none chosen)."""
        value = self.settings.value(f"folder_profiles/{_folder_key(folder)}", "")
        return value if isinstance(value, str) else ""

    def set_folder_profile(self, folder: str, name: str) -> None:
        key = f"folder_profiles/{_folder_key(folder)}"
        if name:
            self.settings.setValue(key, name)
        else:
            self.settings.remove(key)

    def context_tokens(self) -> int:
        """The context window (tokens) budgets are worked out for; 0 = the agent's default."""
        value = self.settings.value("context_tokens", 0)
        try:
            number = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return 0
        return min(max(number, 0), 100_000_000)

    def set_context_tokens(self, tokens: int) -> None:
        self.settings.setValue("context_tokens", int(tokens))

    def default_model(self) -> str:
        """The model whose window Settings' context window was filled from ("" = none
        chosen; the window is the number alone)."""
        value = self.settings.value("default_model", "")
        return value[:200] if isinstance(value, str) else ""

    def set_default_model(self, name: str) -> None:
        self.settings.setValue("default_model", name)

    # -- tabs ---------------------------------------------------------------------------
    def open_tabs(self, folder: str) -> list[str]:
        """The files open in tabs when `folder` was last closed, current one first."""
        value = self.settings.value(f"open_tabs/{_folder_key(folder)}", [], list)
        paths = [p for p in value if isinstance(p, str)] if isinstance(value, list) else []
        return paths[:MAX_TABS]

    def set_open_tabs(self, folder: str, paths: list[str], views: list[str] | None = None) -> None:
        """`views`: the view each tab showed ("Form", "Source"…; "" for a file's tab)."""
        self.settings.setValue(f"open_tabs/{_folder_key(folder)}", paths[:MAX_TABS])
        self.settings.setValue(f"open_tab_views/{_folder_key(folder)}", (views or [])[:MAX_TABS])

    def open_tab_views(self, folder: str) -> dict[str, str]:
        """The view each kept tab showed, by its path."""
        value = self.settings.value(f"open_tab_views/{_folder_key(folder)}", [], list)
        views = [v if isinstance(v, str) else "" for v in value] if isinstance(value, list) else []
        return dict(zip(self.open_tabs(folder), views, strict=False))

    # -- suites -------------------------------------------------------------------------
    def kept_suites(self, folder: str) -> list[str]:
        """The suite files a case was added to in the project at `folder` that its
        skillstudio.yaml does not list (the user chose not to list them there)."""
        value = self.settings.value(f"kept_suites/{_folder_key(folder)}", [], list)
        paths = [p for p in value if isinstance(p, str)] if isinstance(value, list) else []
        return paths[:MAX_KEPT_SUITES]

    def keep_suite(self, folder: str, path: str) -> None:
        kept = self.kept_suites(folder)
        path = os.path.abspath(path)
        if path not in kept:
            self.settings.setValue(
                f"kept_suites/{_folder_key(folder)}", [*kept, path][-MAX_KEPT_SUITES:]
            )

    # -- Ask a model's "Request as" -------------------------------------------------------
    def request_as(self, folder: str) -> str:
        """The template Ask a model sends from in the project at `folder`: a saved
        template's NAME (`eval --template NAME`), "reconstruction", or "" (none chosen)."""
        value = self.settings.value(f"request_as/{_folder_key(folder)}", "")
        return value if isinstance(value, str) and is_name(value) else ""

    def set_request_as(self, folder: str, name: str) -> None:
        key = f"request_as/{_folder_key(folder)}"
        if name and is_name(name):
            self.settings.setValue(key, name)
        else:
            self.settings.remove(key)

    # -- model endpoints ----------------------------------------------------------------
    def endpoints(self) -> list[Endpoint]:
        size = self.settings.beginReadArray("endpoints")
        found: list[Endpoint] = []
        for number in range(min(size, MAX_ENDPOINTS)):
            self.settings.setArrayIndex(number)
            url, kind, model = (
                self.settings.value("url", ""),
                self.settings.value("kind", ""),
                self.settings.value("model", ""),
            )
            if isinstance(url, str) and kind in API_KINDS and isinstance(model, str):
                found.append(Endpoint(url, str(kind), model))
        self.settings.endArray()
        return found

    def set_endpoints(self, endpoints: list[Endpoint]) -> None:
        self.settings.remove("endpoints")
        self.settings.beginWriteArray("endpoints", len(endpoints))
        for number, endpoint in enumerate(endpoints[:MAX_ENDPOINTS]):
            self.settings.setArrayIndex(number)
            self.settings.setValue("url", endpoint.url)
            self.settings.setValue("kind", endpoint.kind)
            self.settings.setValue("model", endpoint.model)
        self.settings.endArray()


def old_keyring_entry(endpoint: Endpoint) -> tuple[str, str]:
    """Where Settings kept the endpoint's key in earlier versions (an entry
    nothing read: read_key moves a key found there)."""
    return KEYRING_SERVICE, f"{endpoint.kind} {endpoint.url}"


def keyring_entry(endpoint: Endpoint) -> tuple[str, str]:
    """(service, account) of the endpoint's key in the system keyring: the entry the
    live checks read (core/live/endpoints.py: service "skillstudio", the host's
    account), so a key typed in Settings is the key Ask a model and `skillstudio eval`
    send. (Keys were kept under an entry of this module's own before, which nothing
    read.) An endpoint core keeps no key for (a local server) keeps the old entry."""
    try:
        account = endpoint_for(endpoint.url, endpoint.kind).keyring
    except EndpointError:
        account = ""
    if account:
        return LIVE_KEYRING_SERVICE, account
    return old_keyring_entry(endpoint)


def read_key(endpoint: Endpoint) -> str:
    """The endpoint's key from the system keyring ("" when none or no keyring works).
    A key still under the old entry (old_keyring_entry) while the live checks' entry
    has none is moved there once: written under the new entry, then the old deleted,
    so `skillstudio eval` and Ask a model send the key typed in an earlier version."""
    entry = keyring_entry(endpoint)
    old = old_keyring_entry(endpoint)
    try:
        import keyring

        found = keyring.get_password(*entry) or ""
        if found or entry == old:
            return found
        kept = keyring.get_password(*old) or ""
        if kept:
            keyring.set_password(*entry, kept)
            keyring.delete_password(*old)
        return kept
    except Exception:  # no backend, a locked keyring: the key is simply not known
        return ""


def store_key(endpoint: Endpoint, key: str) -> str:
    """Keep `key` in the system keyring ("" kept = deleted); a message when that failed."""
    entry = keyring_entry(endpoint)
    try:
        import keyring

        if key:
            keyring.set_password(*entry, key)
        elif keyring.get_password(*entry):
            keyring.delete_password(*entry)
    except Exception as exc:
        return f"The key was not stored: no system keyring is available ({type(exc).__name__})"
    return ""
