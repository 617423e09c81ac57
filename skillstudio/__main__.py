"""`python -m skillstudio` runs the command line."""

from skillstudio.cli.main import main

raise SystemExit(main())
