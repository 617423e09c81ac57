"""Shared fixtures; Qt runs offscreen for any GUI test."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
