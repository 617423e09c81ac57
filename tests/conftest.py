"""Shared fixtures; Qt runs offscreen for any GUI test."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The claude-code profile reads the personal (~/.claude) and managed skill folders:
# tests never read the real ones (a test that needs them points these at tmp_path).
os.environ["CLAUDE_CONFIG_DIR"] = "/nonexistent/skillstudio-tests/claude-home"
os.environ["SKILLSTUDIO_CLAUDE_MANAGED_SKILLS"] = "/nonexistent/skillstudio-tests/managed-skills"
# Likewise codex's user ($CODEX_HOME) and admin scopes.
os.environ["CODEX_HOME"] = "/nonexistent/skillstudio-tests/codex-home"
os.environ["SKILLSTUDIO_CODEX_ADMIN"] = "/nonexistent/skillstudio-tests/codex-admin"
# The cache of what was read (core/scanning/state_cache.py) is on for the CLI: in a
# folder of the test run's own, never the user's (a test that needs another sets its own).
CACHE_HOME = tempfile.mkdtemp(prefix="skillstudio-test-cache-")
os.environ["XDG_CACHE_HOME"] = CACHE_HOME
# The user's table of models (core/projects/model_windows.py): never the real one.
CONFIG_HOME = tempfile.mkdtemp(prefix="skillstudio-test-config-")
os.environ["XDG_CONFIG_HOME"] = CONFIG_HOME


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`bundle` tests build the desktop packages (about a minute); they run when
    SKILLSTUDIO_BUNDLE=1, which `scripts/dev.sh test` sets under CI."""
    if os.environ.get("SKILLSTUDIO_BUNDLE") == "1":
        return
    skip = pytest.mark.skip(reason="builds the packages: set SKILLSTUDIO_BUNDLE=1")
    for item in items:
        if "bundle" in item.keywords:
            item.add_marker(skip)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The hostile tests build 1,000-deep folders. pytest later deletes old
    temporary folders with shutil.rmtree, which recurses once per level and
    fails on them: cut such trees down now, without recursion."""
    from skillstudio.core.reading.safefs import remove_tree

    shutil.rmtree(CACHE_HOME, ignore_errors=True)
    shutil.rmtree(CONFIG_HOME, ignore_errors=True)

    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is None or getattr(factory, "_basetemp", None) is None:
        return
    stack = [(str(factory.getbasetemp()), 0)]
    while stack:
        folder, depth = stack.pop()
        if depth >= 40:
            remove_tree(folder)
            continue
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        stack.extend(
            (entry.path, depth + 1) for entry in entries if entry.is_dir(follow_symlinks=False)
        )


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SKILL.md files the scans parse from now on (not those served from a cache)."""
    from skillstudio.core.scanning import parallel  # after the environment above is set

    seen: list[str] = []
    real = parallel.read_document

    def counting(path: str, *args: object, **kwargs: object) -> object:
        seen.append(path)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "read_document", counting)
    return seen
