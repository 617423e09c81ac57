"""skills_ref.errors, answered by SkillStudio (see __init__)."""

from . import *  # noqa: F403
