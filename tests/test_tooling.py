"""ruff (lint + format) and mypy stay clean: CI enforces it through this test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from .helpers import REPO


def _tool(name: str) -> list[str]:
    local = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(local):
        return [local]
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return [found]


def test_ruff_check_is_clean() -> None:
    proc = subprocess.run([*_tool("ruff"), "check", "."], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean() -> None:
    proc = subprocess.run(
        [*_tool("ruff"), "format", "--check", "."], cwd=REPO, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean() -> None:
    proc = subprocess.run([*_tool("mypy")], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
