"""Folders as the app names them: a path as a reader writes it (~/skills/team), and the
bundled samples beside the package."""

from __future__ import annotations

import os


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
