"""The skill editor: one open skill's tab (source, form, preview, where it loads) and a
supporting file's read-only view."""
