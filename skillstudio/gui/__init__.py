"""The desktop app: widgets and adapters over skillstudio.core."""

from __future__ import annotations

import sys


def _pin_none() -> None:
    """Make None effectively immortal on Python < 3.12 (3.12 does this itself).

    PySide6 6.12 drops a reference to None each time an invalid QVariant reaches
    Python (QComboBox.currentData() of an item without data, QModelIndex().data(),
    …). Over a long session None's count reaches zero and the interpreter aborts
    ("none_dealloc"). The app avoids such calls where it can; this makes the
    ones it cannot see harmless. Measured: 1,000 calls take 1,000 references.
    """
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes

    count = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt, the first field
    if count.value < 1 << 40:
        count.value += 1 << 42


_pin_none()
