"""What a hover on the skill's name adds: which agents load the skill as it reads now
(portability: "loads in …; rejected by …") and the skills its description competes with
(at the score from which `skillstudio overlap` lists a pair, as the app's form shows)."""

from __future__ import annotations

import os

from ..core.model.document import Document
from ..core.model.skills import Root, Skill
from ..core.projects.portability import portability, summary
from ..core.ranking.overlap import THRESHOLD
from ..core.reading.frontmatter import parse_text
from .session import Checked, Session


def name_notes(session: Session, path: str, text: str, checked: Checked) -> list[str]:
    skill = checked.skill
    if skill is None:
        return []
    root = skill.root if skill.root.path else Root(os.path.dirname(os.path.dirname(path)), "")
    current = Skill(path=path, root=root, doc=parse_text(Document(path=path), text))
    out = [f"**Agents**: {summary(portability(current))}."]
    item = checked.loaded
    if item is not None:
        rivals = session.rivals(item, path, THRESHOLD)
        if rivals:
            names = ", ".join(f"{other.name} ({score:.2f})" for other, score in rivals)
            out.append(f"**Competes with**: {names}.")
        elif item.registry.profile.model_chooses:
            out.append("**Competes with**: no other skill.")
    return out
