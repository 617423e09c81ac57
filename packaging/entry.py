"""The frozen program's entry: the command line, which opens the app with no command."""

import multiprocessing
import sys

from skillstudio.cli.entry import main

if __name__ == "__main__":
    # A scan's reader processes start this program again (spawn): PyInstaller's
    # freeze_support runs them here instead of the app.
    multiprocessing.freeze_support()
    sys.exit(main())
