"""RootLabelDelegate: a root's row in the tree keeps the words that tell it apart.

A skill's or file's row too narrow for its name is cut at its end, after a whole word
("review-kit:security-…", not "review-kit:sec…" or "review-…-review"): the whole name
is in the row's tooltip.

A root reads "claude-code · plugin:review-kit · wins over project, commands". The
tree elided in the middle, which on a root cut the root's own name ("claude-code ·
pl…roject, commands"): three roots of one project could not be told apart. Where a
root's row is too narrow, this delegate shortens the precedence words at their end,
after a whole word, instead ("… · wins over project,…" or "… · wins over…"); they are
whole in the row's tooltip. A label still too long is cut in its middle, so a root
path keeps its project and its last folders.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ..models.skill_tree_model import KIND_ROLE

PRECEDENCE = ("wins over ", "yields to ")
SEPARATOR = " · "
MIN_TAIL = 40  # px of precedence words worth showing; below, they go


BREAKS = " -_:./·"  # a name's words end after these


def word_elided(label: str, width: int, measure: Callable[[str], int]) -> str:
    """`label` whole if it fits `width` px, else its longest start that ends after a
    word and fits with "…" (its first word cut if none does: the view elides it)."""
    if measure(label) <= width:
        return label
    ends = [i + 1 for i, char in enumerate(label[:-1]) if char in BREAKS]
    for end in reversed(ends):
        if measure(label[:end] + "…") <= width:
            return label[:end] + "…"
    return label


def fitted_root_label(label: str, width: int, measure: Callable[[str], int]) -> str:
    """`label` fitted to `width` px (`measure(text)`: its width): whole when it fits,
    else its precedence words shortened at their end, else without them."""
    if measure(label) <= width:
        return label
    head, sep, words = label.rpartition(SEPARATOR)
    if not sep or not words.startswith(PRECEDENCE):
        return label  # no precedence words: the view's own eliding applies
    room = width - measure(head + sep)
    if room < MIN_TAIL:
        return _without_the_agents_word(head, width, measure)
    cut = word_elided(words, room, measure)  # "wins over…", not "wins over co…"
    if not cut.endswith("…") or measure(cut) > room:
        return _without_the_agents_word(head, width, measure)
    return f"{head}{sep}{cut[:-1].rstrip(' ,')}…"


def _without_the_agents_word(head: str, width: int, measure: Callable[[str], int]) -> str:
    """A root's label without its precedence words ("project · folder · scope"): whole
    if it fits, else without the agent's word for the folder (the folder kept whole:
    "claude-code · .c…mands · commands" could not be told from its neighbours)."""
    parts = head.split(SEPARATOR)
    if measure(head) <= width or len(parts) < 3:
        return head
    return SEPARATOR.join(parts[:-1])


class RootLabelDelegate(QStyledItemDelegate):
    """Draws root rows with fitted_root_label, other rows with word_elided."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is None or not option.text:
            return
        text_rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
        metrics = option.fontMetrics
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1)
        if index.data(KIND_ROLE) != "root":
            option.text = word_elided(
                option.text, text_rect.width() - margin, metrics.horizontalAdvance
            )
            option.textElideMode = Qt.TextElideMode.ElideRight
            return
        option.text = fitted_root_label(
            option.text, text_rect.width() - margin, metrics.horizontalAdvance
        )
        # what still does not fit (a root without precedence words, or its own name
        # alone too long: "packages/web/…/.agents/skills") keeps its start and end,
        # as the tree's other rows do; the whole path is in the row's tooltip
        option.textElideMode = Qt.TextElideMode.ElideMiddle
