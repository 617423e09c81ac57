"""Shared fixtures; Qt runs offscreen for any GUI test."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`bundle` tests build the desktop packages (about a minute); they run when
    SKILLSTUDIO_BUNDLE=1, which `scripts/dev.sh test` sets under CI."""
    if os.environ.get("SKILLSTUDIO_BUNDLE") == "1":
        return
    skip = pytest.mark.skip(reason="builds the packages: set SKILLSTUDIO_BUNDLE=1")
    for item in items:
        if "bundle" in item.keywords:
            item.add_marker(skip)
