"""The desktop app: widgets and adapters over skillstudio.core."""

from __future__ import annotations

import sys

# What PySide6 6.12.0 on Python 3.11 returns without taking the reference it hands
# over (measured by `python tests/benchmarks/bench_churn.py --probe`, 300 calls each):
#   None   every void method (setText, update, QTimer.start/stop, deleteLater...),
#          every null pointer or invalid QVariant (parent(), sender(), currentData()
#          of an item without data, QModelIndex().data(), currentWidget() of none);
#   True   SignalInstance.emit() (whatever the arguments, with or without slots) and
#          SignalInstance.disconnect(slot).
# False loses nothing, nor does anything else probed. (Small ints, '' and () are
# static objects whose count starts at 999,999,999 in 3.11; None, True and False
# start near zero.) Each lost reference lowers the count for good; at zero CPython
# 3.11 aborts ("Fatal Python error: bool_dealloc" / "none_dealloc", SIGABRT) and
# unsaved text is lost. A bare loop of emit() aborts after about 600 calls; the
# window on 3,000 skills, typed in while another thread rewrites files, after 15-20 s
# (True starts near 14,000 there and loses about 1,000 a second). 6.12.0 is the
# newest PySide6, so the cure is here: the three are pinned at import, before any
# Qt call, and the losses become harmless.
PINNED = (None, True, False)


def pin_amount() -> int:
    """The references added to each pinned object: a quarter of the count's range
    (2**61 on 64-bit), so neither 2**61 lost references (the bug) nor 2**61 extra
    ones (a leak the other way: PySide6 also keeps a reference to each True an
    event filter returns) can take the count to zero or past its maximum."""
    return sys.maxsize >> 2


def pin(obj: object) -> bool:
    """Make `obj` (a static singleton: None, True, False) immortal in effect, the way
    Python 3.12 makes them immortal itself: its reference count is raised by
    `pin_amount()` once, so no number of lost references can bring it to zero.

    The count is CPython's `ob_refcnt`, the object's first field in every build
    without Py_TRACE_REFS (whose extra list links come first: `sys.getobjects`
    exists there). The field is checked against `sys.getrefcount` before it is
    written; any doubt (another layout, another interpreter) leaves it untouched
    and returns False. The read-add-write runs in three bytecodes: a thread
    switch between them could lose a reference another thread took meanwhile,
    one reference against a margin of 2**61 (and it runs at import, before the
    app starts threads). True when the object is pinned (now or already)."""
    if sys.version_info >= (3, 12):
        return True  # immortal already (PEP 683)
    if sys.implementation.name != "cpython" or hasattr(sys, "getobjects"):
        return False
    import ctypes

    count = ctypes.c_ssize_t.from_address(id(obj))
    if count.value >= pin_amount() >> 1:
        return True  # pinned already (a second import, or a test)
    # getrefcount counts its own argument: the field holds one less (checked twice,
    # as both can move between the two reads when another thread runs).
    if not any(count.value == sys.getrefcount(obj) - 1 for _ in range(2)):
        return False
    count.value += pin_amount()
    return True


def pin_singletons() -> bool:
    """Pin None, True and False (see PINNED); True when all three are pinned."""
    return all([pin(obj) for obj in PINNED])


PINNED_OK = pin_singletons()
