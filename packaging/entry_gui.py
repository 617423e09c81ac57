"""The windowed entry (Windows and macOS builds): the app, without a console."""

import sys

from skillstudio.cli.main import gui_main

if __name__ == "__main__":
    sys.exit(gui_main())
