"""skills_ref.validator, answered by SkillStudio (see __init__)."""

from . import *  # noqa: F403
