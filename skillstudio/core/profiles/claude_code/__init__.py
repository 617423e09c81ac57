"""Claude Code: fields, layout and plugins, listing budget, invocation."""
