"""SkillStudio: edit, validate and test agent skills offline."""

__version__ = "0.1.0"
