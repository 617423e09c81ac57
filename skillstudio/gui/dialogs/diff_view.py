"""A unified diff shown read-only in colour, long lines wrapped (the window may be
1024 px wide): the restore question's and the save-over question's."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ..infra.theme import colour, on_theme_change


class DiffHighlighter(QSyntaxHighlighter):
    """A unified diff in colour: lines added on green, removed on red, hunk heads muted."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.formats: dict[str, QTextCharFormat] = {}
        self.recolour()

    def recolour(self) -> None:
        """The formats in the theme's colours (again when the theme changes)."""
        for mark, name in (("+", "diff_add_bg"), ("-", "diff_del_bg")):
            style = QTextCharFormat()
            style.setBackground(QColor(colour(name)))
            self.formats[mark] = style
        head = QTextCharFormat()
        head.setForeground(QColor(colour("muted")))
        self.formats["@"] = head
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        if text.startswith(("+++", "---")):
            self.setFormat(0, len(text), self.formats["@"])
        elif text[:1] in self.formats:
            self.setFormat(0, len(text), self.formats[text[:1]])


class DiffView(QPlainTextEdit):
    """The diff `text`, coloured; a long line wraps at the view's width (a wrapped
    line keeps its colour), so no line is cut off and no sideways scrolling is needed."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setFont(QFont("DejaVu Sans Mono"))
        self.highlighter = DiffHighlighter(self.document())
        on_theme_change(self, self.highlighter.recolour)
        self.setPlainText(text)
