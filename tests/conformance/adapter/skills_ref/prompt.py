"""skills_ref.prompt, answered by SkillStudio (see __init__)."""

from . import *  # noqa: F403
