"""The frozen program's entry: the command line, which opens the app with no command."""

import sys

from skillstudio.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
