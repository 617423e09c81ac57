"""Folders as the app names them: a path as a reader writes it (~/skills/team), and the
bundled samples beside the package, and the user's copy of them when the app is
installed (edits never change the installation)."""

from __future__ import annotations

import functools
import os
import shutil
import sys

from ...core.model.paths import is_inside


def home_relative(path: str) -> str:
    """`path` as a reader writes it: '~/skills/team' for a folder under the home folder."""
    home = os.path.expanduser("~")
    if not os.path.isabs(home) or os.path.dirname(home) == home:
        return path  # no home folder, or the root
    try:
        relative = os.path.relpath(path, home)
    except ValueError:  # another drive
        return path
    if relative == os.curdir:
        return "~"
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return path
    return os.path.join("~", relative)


def samples_folder() -> str:
    """The bundled samples: skills/ beside the package in a source tree, else the copy
    the wheel and the frozen bundle carry as skillstudio/samples."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for candidate in (
        os.path.join(os.path.dirname(package), "skills"),
        os.path.join(package, "samples"),
        os.path.join(os.getcwd(), "skills"),
    ):
        if os.path.isdir(candidate):
            return candidate
    return os.getcwd()


def installed(path: str) -> bool:
    """Whether `path` is part of an installation rather than a folder of the user's: inside
    site-packages (or dist-packages), the Python prefix, a frozen bundle, or not writable."""
    real = os.path.realpath(path)
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts or getattr(sys, "frozen", False):
        return True
    if is_inside(real, os.path.realpath(sys.prefix)):
        return True
    return not os.access(real, os.W_OK)


def user_data_folder() -> str:
    """SkillStudio's folder in the user's data folder (XDG_DATA_HOME on Linux)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~")
    elif sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "SkillStudio")


def copy_samples(bundled: str, target: str) -> tuple[str, str | None]:
    """The samples a user may edit: `bundled` itself in a source tree; when it is part
    of an installation, the copy at `target`, made once (whole or not at all), with the
    message that says so. A copy already there is the user's: it is never replaced."""
    if not installed(bundled):
        return bundled, None
    if os.path.isdir(target):
        return target, None
    staging = f"{target}.partial-{os.getpid()}"
    try:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(bundled, staging, symlinks=True)
        os.replace(staging, target)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        return bundled, (
            f"The samples could not be copied to {home_relative(target)} "
            f"({exc.strerror or exc}); edits to them would change the installed copy"
        )
    return target, (
        f"The samples were copied to {home_relative(target)} so that your edits do not "
        "change the installed copy"
    )


@functools.cache
def editable_samples() -> tuple[str, str | None]:
    """`copy_samples` of this installation's samples, once per run (the window's welcome
    page and the first folder opened share the answer and its message)."""
    return copy_samples(samples_folder(), os.path.join(user_data_folder(), "samples"))
