"""skills_ref.parser, answered by SkillStudio (see __init__)."""

from . import *  # noqa: F403
