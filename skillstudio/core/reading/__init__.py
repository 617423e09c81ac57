"""Reading untrusted files: bounded opens and walks, YAML, frontmatter, a body's words."""
