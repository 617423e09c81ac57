"""Gemini CLI: the skills section of its system prompt and its `activate_skill` tool."""
