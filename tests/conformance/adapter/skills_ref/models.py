"""skills_ref.models, answered by SkillStudio (see __init__)."""

from . import *  # noqa: F403
