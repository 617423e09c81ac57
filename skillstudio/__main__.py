"""`python -m skillstudio` runs the command line."""

from skillstudio.cli.entry import main

raise SystemExit(main())
