"""The `skillstudio` command as a shell runs it (`python -m skillstudio`, the installed
script, the bundle): a read-only command whose recording still holds is served from it
(cli/replay.py) before anything else is imported; any other runs the command line
(cli/main.py)."""

from __future__ import annotations

import sys

from .replay import run


def _command_line(argv: list[str]) -> int:
    from .main import main as command_line

    return command_line(argv)


def main() -> int:
    return run(sys.argv[1:], _command_line)


def gui_main() -> int:
    from .main import gui_main as app

    return app()
