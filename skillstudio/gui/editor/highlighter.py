"""SkillHighlighter: YAML frontmatter and markdown body colours for the source view."""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from ..infra.theme import colour, is_dark

_FM_FENCE, _IN_FRONTMATTER, _IN_BODY, _IN_CODE = 1, 2, 3, 4
# Qt colours a document in one pass on the GUI thread when it is attached: about
# 0.9 s for 1 MB. Larger texts are shown without colours.
HIGHLIGHT_MAX_CHARS = 300_000


def _fmt(colour: str, bold: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(colour))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    fmt.setFontItalic(italic)
    return fmt


class SkillHighlighter(QSyntaxHighlighter):
    """Block states track where a line is: frontmatter, body, or a fenced code block."""

    _KEY = re.compile(r"^(\s*-?\s*)([A-Za-z0-9_.-]+)(\s*:)(?=\s|$)")
    _COMMENT = re.compile(r"(^|\s)#.*$")
    _STRING = re.compile(r"'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"")
    _HEADING = re.compile(r"^#{1,6}\s.*$")
    _INLINE_CODE = re.compile(r"`[^`]+`")
    _LINK = re.compile(r"!?\[[^\]]*\]\([^)]*\)")
    _EMPHASIS = re.compile(r"(\*\*[^*]+\*\*|__[^_]+__)")
    _LIST = re.compile(r"^\s*([-*+]|\d+[.)])\s")

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        if document.characterCount() > HIGHLIGHT_MAX_CHARS:
            self.setDocument(None)  # shown without colours
        self._dark: bool | None = None
        self._formats()

    def _formats(self) -> None:
        """The formats for the palette in use (rebuilt when it turns light or dark)."""
        dark = is_dark()
        if dark == self._dark:
            return
        self._dark = dark
        self.key = _fmt(colour("key", dark), bold=True)
        self.comment = _fmt(colour("comment", dark), italic=True)
        self.string = _fmt(colour("string", dark))
        self.fence = _fmt(colour("fence", dark), bold=True)
        self.heading = _fmt(colour("heading", dark), bold=True)
        self.code = _fmt(colour("code", dark))
        self.link = _fmt(colour("link", dark))
        self.emphasis = _fmt(colour("emphasis", dark), bold=True)
        self.list_mark = _fmt(colour("list_mark", dark), bold=True)

    def rehighlight_for_palette(self) -> None:
        before = self._dark
        self._formats()
        if before != self._dark:
            self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        previous = self.previousBlockState()
        first = self.currentBlock().blockNumber() == 0
        stripped = text.rstrip(" \t\r")
        if first:
            if stripped.lstrip("\ufeff") == "---":
                self.setFormat(0, len(text), self.fence)
                self.setCurrentBlockState(_IN_FRONTMATTER)
            else:
                self._body(text, _IN_BODY)
            return
        if previous == _IN_FRONTMATTER:
            if stripped == "---":
                self.setFormat(0, len(text), self.fence)
                self.setCurrentBlockState(_IN_BODY)
                return
            self._yaml(text)
            self.setCurrentBlockState(_IN_FRONTMATTER)
            return
        self._body(text, previous if previous in (_IN_BODY, _IN_CODE) else _IN_BODY)

    def _yaml(self, text: str) -> None:
        for match in self._STRING.finditer(text):
            self.setFormat(match.start(), match.end() - match.start(), self.string)
        key = self._KEY.match(text)
        if key:
            self.setFormat(key.start(2), key.end(2) - key.start(2), self.key)
        comment = self._COMMENT.search(text)
        if comment and not self._STRING.search(text[: comment.start() + 1]):
            self.setFormat(comment.start(), len(text) - comment.start(), self.comment)

    def _body(self, text: str, state: int) -> None:
        if text.lstrip().startswith(("```", "~~~")):
            self.setFormat(0, len(text), self.code)
            self.setCurrentBlockState(_IN_BODY if state == _IN_CODE else _IN_CODE)
            return
        if state == _IN_CODE:
            self.setFormat(0, len(text), self.code)
            self.setCurrentBlockState(_IN_CODE)
            return
        self.setCurrentBlockState(_IN_BODY)
        if self._HEADING.match(text):
            self.setFormat(0, len(text), self.heading)
            return
        mark = self._LIST.match(text)
        if mark:
            self.setFormat(mark.start(1), mark.end(1) - mark.start(1), self.list_mark)
        for regex, fmt in (
            (self._EMPHASIS, self.emphasis),
            (self._LINK, self.link),
            (self._INLINE_CODE, self.code),
        ):
            for match in regex.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), fmt)
