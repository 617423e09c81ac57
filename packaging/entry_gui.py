"""The windowed entry (Windows and macOS builds): the app, without a console."""

import multiprocessing
import sys

from skillstudio.cli.main import gui_main

if __name__ == "__main__":
    # A scan's reader processes start this program again (spawn): PyInstaller's
    # freeze_support runs them here instead of the app.
    multiprocessing.freeze_support()
    sys.exit(gui_main())
