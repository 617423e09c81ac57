"""FormView: the profile's fields as typed widgets, one more view of the same text.

The text document stays the only model. A form edit becomes a core `Change`,
the round-trip writer produces the new text (only that value's bytes change),
and the difference is applied to the text document as one edit block, so the
document's undo history covers both views; consecutive edits in one field
join one step, and what is typed in the source after it is a step of its own.
Edits in the source view refresh the fields, except the one being typed in.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent, QKeySequence, QResizeEvent, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...core.editing.changes import Change
from ...core.editing.round_trip import apply_changes
from ...core.editing.values import parse_yaml_value
from ...core.model.document import Document
from ...core.model.fields import FieldSpec, yaml_spelling
from ...core.profile import Profile
from ...core.reading.yaml_io import EditError
from ..infra.theme import bar_style, colour, on_theme_change
from ..models.skill_document import SkillDocument, end_undo_step
from .field_notes import SeverityNote, empty_hint, field_note, missing_note, outline
from .field_widgets import KeyValueEditor, ListEditor, TriggersEditor, value_text
from .growing_text import GrowingTextBox

# Combo items never hold None: PySide6 6.12 loses a reference to None each time such
# an item's data is stored or read, and the interpreter aborts once it reaches zero.
NO_VALUE = ""
_TEXT_KINDS = ("string", "semver", "csv", "spaced", "int", "enum")
_STRUCTURED = (ListEditor, TriggersEditor, KeyValueEditor)


OTHER_ROW = "other-fields"  # add_below's name for the row of keys no field declares


def _parse_other(text: str) -> Any:
    """A value typed for an undeclared key: YAML scalar or flow list, else the text."""
    return parse_yaml_value(text) if text.strip() else ""


def _has_focus(widget: QWidget) -> bool:
    focus = QApplication.focusWidget()
    return focus is not None and (focus is widget or widget.isAncestorOf(focus))


class _Field:
    """One field's widget, its counter and its message line."""

    def __init__(
        self, spec: FieldSpec, widget: QWidget, counter: QLabel, note: SeverityNote
    ) -> None:
        self.spec = spec
        self.widget = widget
        self.counter = counter
        self.note = note
        self.as_list = False  # a text-or-list field follows the shape of its value


class FormView(QScrollArea):
    def __init__(
        self, document: SkillDocument, profile: Profile, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.document = document
        self.profile = profile
        self.fields: dict[str, _Field] = {}
        self._writing = False
        self._last_key: str | None = None
        # the text before the current run of edits in one field, read
        self._base: Document = Document(path=document.path)
        self._broken = False  # the frontmatter cannot be parsed
        # the clean document's text as the fields last showed it (None: unknown, after
        # the form's own edit): a clean text that differs was read again from disk
        self._shown: str | None = None
        self.setWidgetResizable(True)
        inner = QWidget(self)
        outer = QVBoxLayout(inner)
        self.banner = QLabel(inner)
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(bar_style("error"))
        self.banner.setVisible(False)
        outer.addWidget(self.banner)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        # Every field ends at one x: the counters' column is as wide on every row,
        # empty where a field has no limit (main: each field ended where its counter began).
        limits = [spec.max_length for spec in profile.fields if spec.max_length is not None]
        widest = max(limits, default=0)
        metrics = self.fontMetrics()
        self._counter_width = metrics.horizontalAdvance(f"{widest}/{widest}") + 4 if limits else 0
        for spec in profile.fields:
            self._add_field(form, spec)
        # Keys no field declares: a row like the others, its editor aligned with theirs.
        other_tip = (
            "Keys this profile does not declare: kept as they are. Values are read as YAML "
            "(text, numbers, true/false, [a, b] lists)."
        )
        self.other = KeyValueEditor("field", _parse_other, inner)
        self.other.setObjectName("other-fields")
        self.other.setToolTip(other_tip)
        self.other.edited.connect(lambda key: self._on_edited(key, typing=False))
        self._guard(self.other)
        self.other_box = self._beside(self.other, self._counter(None))
        # The notes on keys no field declares (Claude Code ignores `version`: an info),
        # under the rows that show those keys, each line naming its key (once).
        self.other_note = SeverityNote(self)
        self.other_note.setObjectName("other-notes")
        self.other_note.setVisible(False)
        other_column = self.other_box.layout()
        assert isinstance(other_column, QVBoxLayout)
        other_column.addWidget(self.other_note)
        other_label = QLabel("Other fields", inner)
        other_label.setToolTip(other_tip)
        form.addRow(other_label, self.other_box)
        outer.addLayout(form)
        outer.addStretch(1)
        self.setWidget(inner)
        self._fitting = False
        inner.installEventFilter(self)  # a field grown or rearranged: the page refits
        document.text_document.contentsChanged.connect(self._on_text_changed)
        document.diagnostics_changed.connect(self._on_diagnostics_changed)
        on_theme_change(self, self._recolour)
        self.refresh()

    def _recolour(self) -> None:
        """The banner, counters, notes and outlines in the colours of the new theme."""
        self.banner.setStyleSheet(bar_style("error"))
        for item in self.fields.values():
            self._update_counter(item)
        self._on_diagnostics_changed(None)

    # -- building -------------------------------------------------------------
    def _add_field(self, form: QFormLayout, spec: FieldSpec) -> None:
        widget: QWidget
        key = spec.key
        if spec.kind in ("bool", "enum") and (spec.kind == "bool" or spec.choices):
            combo = QComboBox(self)
            combo.addItem(
                "(default)"
                if spec.default is None
                else f"(default: {yaml_spelling(spec.default)})",
                NO_VALUE,
            )
            for choice in ("true", "false") if spec.kind == "bool" else spec.choices:
                combo.addItem(choice, choice)
            combo.currentIndexChanged.connect(lambda _i, k=key: self._on_edited(k, typing=False))
            widget = combo
        elif spec.kind in _TEXT_KINDS:
            line = QLineEdit(self)
            line.textEdited.connect(lambda _t, k=key: self._on_edited(k))
            widget = line
        elif spec.kind in ("text", "text_or_list"):
            box = GrowingTextBox(4 if spec.kind != "text" else 8, self)
            box.setTabChangesFocus(True)
            box.textChanged.connect(lambda k=key: self._on_edited(k))
            widget = box
        elif spec.kind == "list":
            items = ListEditor(spec.label.lower().rstrip("s"), self)
            items.edited.connect(lambda k=key: self._on_edited(k, typing=False))
            widget = items
        elif spec.kind == "triggers":
            groups = TriggersEditor(spec.subkeys, self)
            groups.edited.connect(lambda k=key: self._on_edited(k, typing=False))
            widget = groups
        elif spec.kind == "map":
            pairs = KeyValueEditor("entry", str, self)
            pairs.edited.connect(lambda sub, k=key: self._on_edited(k, typing=False, entry=sub))
            widget = pairs
        else:
            read_only = QLabel(self)
            read_only.setWordWrap(True)
            read_only.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            widget = read_only
        if isinstance(widget, QLineEdit | QPlainTextEdit):
            widget.setPlaceholderText(empty_hint(spec))
        self._guard(widget)
        widget.setToolTip(spec.describe())
        widget.setObjectName(f"field-{spec.key}")
        counter = self._counter(spec.max_length)
        box_widget = self._beside(widget, counter)
        note = SeverityNote(self)
        note.setVisible(False)
        column = box_widget.layout()
        assert isinstance(column, QVBoxLayout)
        column.addWidget(note)  # the message under the field
        label = QLabel(spec.label + (" *" if spec.required else ""), self)
        label.setToolTip(spec.describe())
        form.addRow(label, box_widget)
        self.fields[spec.key] = _Field(spec, widget, counter, note)

    def _counter(self, limit: int | None) -> QLabel:
        """A field's character counter: a column of one width on every row."""
        counter = QLabel(self)
        # Left-aligned: the count sits next to its field whatever the column's width.
        counter.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
        counter.setFixedWidth(self._counter_width)
        counter.setVisible(self._counter_width > 0)  # no column where no field counts
        if limit is not None:
            counter.setToolTip(f"Characters used, of at most {limit}")
        return counter

    def _beside(self, widget: QWidget, counter: QLabel) -> QWidget:
        """A field with its counter beside it, in a column that takes lines under it."""
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        beside = QHBoxLayout()
        beside.addWidget(widget, 1)
        beside.addWidget(counter, 0, Qt.AlignmentFlag.AlignBottom)
        column.addLayout(beside)
        return box

    def add_below(self, key: str, widget: QWidget) -> bool:
        """Put `widget` under a field's message line (the "competes with" line), or with
        `OTHER_ROW` under the notes on the keys no field declares."""
        item = self.fields.get(key)
        box = item.note.parentWidget() if item is not None else None
        if key == OTHER_ROW:
            box = self.other_box
        column = box.layout() if box is not None else None
        if not isinstance(column, QVBoxLayout):
            return False
        column.addWidget(widget)
        return True

    # -- document → form ----------------------------------------------------------
    def _on_text_changed(self) -> None:
        if not self._writing:
            self._last_key = None  # a source edit ends the merging of form edits
            self.refresh()

    def refresh(self, force: bool = False) -> None:
        """Show the document's values; the field being typed in is left alone unless `force`."""
        doc = self.document.parsed()
        mapping = doc.mapping
        broken = doc.has_frontmatter and mapping is None
        if broken != self._broken:
            self._broken = broken
            self._on_diagnostics_changed(None)
        self.banner.setVisible(broken)
        if broken:
            self.banner.setText(
                "The frontmatter cannot be parsed, so the fields cannot be edited here; fix "
                "the YAML in the Source view (the problem is listed there)."
            )
        # A clean document whose text changed under the form (the file read again after
        # a change on disk) is shown whole, the field in focus too: it kept its old
        # text, and the next keystroke wrote it back over the change on disk (a
        # reviewer's lost `git checkout`). Else the field in focus is left alone (the
        # form's own edits, a highlighter's formats: contentsChanged says both).
        text = None if self.document.modified else self.document.text()
        read_again = text is not None and self._shown is not None and text != self._shown
        self._shown = text
        for key, item in self.fields.items():
            item.widget.setEnabled(not broken)
            if not force and not broken and not read_again and _has_focus(item.widget):
                continue  # never overwrite what the user is typing
            self._show_value(item, (mapping or {}).get(key))
        unknown = {
            str(k): v for k, v in (mapping or {}).items() if self.profile.field(str(k)) is None
        }
        self.other_box.setEnabled(not broken)
        if force or broken or read_again or not _has_focus(self.other):
            self.other.set_value(unknown)

    def _show_value(self, item: _Field, value: Any) -> None:
        widget = item.widget
        widget.blockSignals(True)
        try:
            if isinstance(widget, QComboBox):
                text = (
                    None
                    if value is None
                    else str(value).lower()
                    if isinstance(value, bool)
                    else str(value)
                )
                index = widget.findData(NO_VALUE if text is None else text)
                widget.setCurrentIndex(index if index >= 0 else 0)
            elif isinstance(widget, QLineEdit):
                if widget.text() != value_text(value):  # (a cursor in it stays put)
                    widget.setText(value_text(value))
            elif isinstance(widget, QPlainTextEdit):
                if item.spec.kind == "text_or_list":
                    item.as_list = isinstance(value, list)
                if isinstance(value, list):
                    text = "\n".join(value_text(v) for v in value)
                else:
                    text = value_text(value)
                if widget.toPlainText() != text:
                    widget.setPlainText(text)
            elif isinstance(widget, _STRUCTURED):
                widget.set_value(value)
            elif isinstance(widget, QLabel):
                widget.setText(value_text(value) if value is not None else "—")
        finally:
            widget.blockSignals(False)
        self._update_counter(item)

    def _update_counter(self, item: _Field) -> None:
        limit = item.spec.max_length
        if limit is None:
            return
        widget = item.widget
        text = (
            widget.text()
            if isinstance(widget, QLineEdit)
            else (widget.toPlainText() if isinstance(widget, QPlainTextEdit) else "")
        )
        over = len(text) > limit
        item.counter.setText(f"{len(text)}/{limit}")
        item.counter.setStyleSheet(
            f"color:{colour('error_text')};font-weight:bold" if over else f"color:{colour('muted')}"
        )

    def _on_diagnostics_changed(self, _diagnostics: object) -> None:
        """Each field's problems under it, in a sentence that does not repeat the value,
        and an outline in the colour of the worst. With frontmatter that cannot be
        parsed the fields show nothing, so they say nothing either (the banner does)."""
        by_field: dict[str, list[tuple[str, str]]] = {}
        for diag in self.document.diagnostics if not self._broken else []:
            if diag.field:
                message = diag.message
                spec = self.profile.field(diag.field)
                if diag.code == "field-missing" and spec is not None and spec.required:
                    message = missing_note(spec, self.profile)
                by_field.setdefault(diag.field, []).append((diag.severity, message))
        for key, item in self.fields.items():
            found = by_field.get(key, [])
            worst = next(
                (s for s in ("error", "warning", "info") if any(f[0] == s for f in found)), ""
            )
            item.note.set_lines(field_note(key, found))
            item.note.setVisible(bool(found))
            tone = colour("error_text") if worst == "error" else colour("list_mark")
            outline(item.widget, tone if worst in ("error", "warning") else None)
        others = [
            (severity, line if line.startswith(f"'{key}'") else f"{key}: {line}")
            for key, found in by_field.items()
            if key not in self.fields
            for severity, line in field_note(key, found)
        ]
        self.other_note.set_lines(others)
        self.other_note.setVisible(bool(others))
        self.fit_page()

    def fit_page(self) -> None:
        """The page as tall as its rows need at this width: a wrapped message under a
        field counts (the scroll area plans with one line, and squeezed the boxes). With
        no message shown the rows' own heights count: a short form (1024×768 with
        Problems open) squeezed every text box to one line and cut its text."""
        page = self.widget()
        layout = page.layout() if page is not None else None
        if page is not None and layout is not None:
            layout.activate()
            page.setMinimumHeight(
                layout.totalHeightForWidth(self.viewport().width())
                if layout.hasHeightForWidth()
                else layout.sizeHint().height()
            )

    def _refit(self) -> None:
        self._fitting = False
        self.fit_page()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_page()

    # -- form → document -------------------------------------------------------------
    def value_of(self, key: str) -> Any:
        """The value a field's widget stands for (None = the key is removed)."""
        item = self.fields.get(key)
        if item is None:
            return (self.other.value() or {}).get(key)
        widget, kind = item.widget, item.spec.kind
        if isinstance(widget, QComboBox):
            data = widget.currentData()
            if data == NO_VALUE:
                return None
            return data == "true" if kind == "bool" else data
        if isinstance(widget, QLineEdit):
            text = widget.text()
            if not text:
                return None
            if kind == "int":
                try:
                    return int(text)
                except ValueError:
                    return text  # kept as typed; validation says what is wrong
            return text
        if isinstance(widget, QPlainTextEdit):
            text = widget.toPlainText()
            if item.as_list:
                items = [line.strip() for line in text.split("\n") if line.strip()]
                return items or None
            return text or None
        if isinstance(widget, _STRUCTURED):
            return widget.value()
        return None

    def _on_edited(self, key: str, typing: bool = True, entry: str | None = None) -> None:
        """A field changed: write it into the document (a typing run is one undo step).

        `entry`: one entry of a mapping field changed; only that entry is written (the
        same dotted-key edit as `skillstudio set KEY.ENTRY=VALUE`), the others keep
        their text, type and comments.
        """
        item = self.fields.get(key)
        if item is not None:
            self._update_counter(item)
        if entry is not None and item is not None and isinstance(item.widget, KeyValueEditor):
            value = item.widget.entry_value(entry)
            path: tuple[str, ...] = (entry,)
        else:
            value, path = self.value_of(key), ()
        change = (
            Change("unset", key, path=path) if value is None else Change("set", key, value, path)
        )
        if not typing:
            self._last_key = None
        if self._last_key != key:
            self._base = self.document.parsed()
        # Every keystroke of a run is written against the text before the run, so a
        # passing state (a trailing space that needs quotes) does not decide the style.
        doc = self._base
        try:
            new_text = apply_changes(doc, [change], order=[s.key for s in self.profile.fields])
        except EditError as exc:
            self.banner.setText(str(exc))
            self.banner.setVisible(True)
            return
        self.banner.setVisible(False)
        self._replace_text(new_text.lstrip("\ufeff"), merge=self._last_key == key)
        self._last_key = key if typing else None

    # -- undo ------------------------------------------------------------------------------
    def _guard(self, widget: QWidget) -> None:
        """Route Ctrl+Z / Ctrl+Shift+Z in a field to the document's one history."""
        widget.installEventFilter(self)
        for child in widget.findChildren(QWidget):
            child.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.LayoutRequest and watched is self.widget() and not self._fitting:
            self._fitting = True
            QTimer.singleShot(0, self, self._refit)  # not after the form goes
        if kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and isinstance(
            event, QKeyEvent
        ):
            redo = event.matches(QKeySequence.StandardKey.Redo)
            if redo or event.matches(QKeySequence.StandardKey.Undo):
                event.accept()
                if kind == QEvent.Type.KeyPress:
                    self.undo(redo)
                return True
        return super().eventFilter(watched, event)

    def undo(self, redo: bool = False) -> None:
        """One step of the document's history; every field shows the result."""
        self._last_key = None
        if redo:
            self.document.text_document.redo()
        else:
            self.document.text_document.undo()
        self.refresh(force=True)

    def _replace_text(self, new_text: str, merge: bool) -> None:
        old = self.document.text()
        if old == new_text:
            return
        start = 0
        limit = min(len(old), len(new_text))
        while start < limit and old[start] == new_text[start]:
            start += 1
        end_old, end_new = len(old), len(new_text)
        while end_old > start and end_new > start and old[end_old - 1] == new_text[end_new - 1]:
            end_old -= 1
            end_new -= 1
        cursor = QTextCursor(self.document.text_document)
        # the editor counts UTF-16 units (an emoji is two), Python code points
        begin = _utf16_len(old[:start])
        cursor.setPosition(begin)  # before the block: undo puts the source's cursor here
        if merge:
            cursor.joinPreviousEditBlock()
        else:
            cursor.beginEditBlock()
        cursor.setPosition(begin + _utf16_len(old[start:end_old]), QTextCursor.MoveMode.KeepAnchor)
        self._shown = None  # (the form's own edit: not a text read again)
        self._writing = True
        try:
            cursor.insertText(new_text[start:end_new])
            end_undo_step(cursor)  # typing in the source next is a step of its own
        finally:
            self._writing = False
            cursor.endEditBlock()


def _utf16_len(text: str) -> int:
    """The length of `text` in UTF-16 code units, as QTextDocument positions count."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)
