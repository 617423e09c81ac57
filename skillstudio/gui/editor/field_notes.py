"""What the form shows around a field: the notes under it, each line in its own
severity's colour and mark (SeverityNote), the words for an empty or required field,
and the outline of a field with a problem."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from ...core.model.fields import FieldSpec
from ...core.profile import Profile
from ..infra.theme import colour


def field_note(key: str, found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A field's (severity, message) pairs for the lines under it, each once: the field
    is right there, so "The name 'Foo--Bar' must be lowercase." reads "Must be
    lowercase."."""
    prefix = re.compile(rf"^(?:The {re.escape(key)}|'{re.escape(key)}') '.*?' (?=[a-z])")
    lines: dict[str, str] = {}
    for severity, message in found:
        short = prefix.sub("", message, count=1)
        lines.setdefault(short[:1].upper() + short[1:], severity)
    return [(severity, line) for line, severity in lines.items()]


# Each line of a note in its own diagnostic's colour and mark: an info beside an
# error was shown in the error's red (and orange under codex), as if both were wrong.
MARKS = {
    "error": ("error_text", "\u2716"),
    "warning": ("list_mark", "\u26a0"),
    "info": ("key", "\u2139"),
}


class SeverityNote(QLabel):
    """The message lines under a field, each in the colour of its own severity (error
    red, warning orange, info blue) with its mark. text() is the lines as read, one a
    line (the markup only colours them)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.lines: list[tuple[str, str]] = []

    def set_lines(self, lines: list[tuple[str, str]]) -> None:
        self.lines = lines
        rows = []
        for severity, line in lines:
            name, mark = MARKS.get(severity, MARKS["info"])
            # an info reads quieter than a warning: smaller, in its own colour
            size = ";font-size:small" if severity == "info" else ""
            style = f"color:{colour(name)}{size}"
            rows.append(f'<span style="{style}">{mark} {html.escape(line)}</span>')
        super().setText("<br>".join(rows))

    def text(self) -> str:
        return "\n".join(line for _severity, line in self.lines)


def missing_note(spec: FieldSpec, profile: Profile) -> str:
    """A required field left empty, said in the form's terms: what the agent does
    without it (the source's "add a line 'description: …'" read oddly under a box)."""
    return (
        f"{profile.the_agent} does not load this skill while its {spec.label.lower()} "
        f"is empty: it is required. {not_about_length(spec)}"
    ).rstrip()


def not_about_length(spec: FieldSpec) -> str:
    """A field's help less its sentences about the length limit: under an empty field
    "Over 1,024 characters Codex shows the first 1,021 and '...'" answered no question."""
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", spec.help)
    if spec.max_length is not None:
        sentences = [s for s in sentences if "character" not in s]
    return " ".join(sentences)


def empty_hint(spec: FieldSpec) -> str:
    """What an empty box stands for: the default the agent uses, or that it is needed."""
    if spec.required:
        return "Required"
    return f"If empty: {spec.default_note}" if spec.default_note else ""


def outline(widget: QWidget, tone: str | None) -> None:
    """A coloured outline round a field's box (its list or table for structured fields)."""
    target = getattr(widget, "list", None) or getattr(widget, "table", None) or widget
    if not isinstance(target, QWidget):
        return
    if not target.objectName():
        target.setObjectName("field-box")
    name = target.objectName()
    target.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, tone is not None)
    target.setStyleSheet(
        f"#{name}{{border:2px solid {tone};border-radius:3px;padding:1px}}" if tone else ""
    )
