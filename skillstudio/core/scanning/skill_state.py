"""A skill as a compact tuple and back: what a reader process sends the scan (built by
our own code from a skill it read; never bytes of a skill file handed to pickle)."""

from __future__ import annotations

from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.document import Document, Problem
from ..model.positions import FieldPos
from ..model.skills import Root, Skill
from ..reading.frontmatter import compose_positions


def _pos_state(pos: FieldPos) -> tuple[Any, ...]:
    return (
        pos.key_line,
        pos.key_column,
        pos.value_line,
        pos.value_column,
        pos.end_line,
        pos.end_column,
        pos.items,
        {k: _pos_state(v) for k, v in pos.children.items()},
    )


def _pos_from(state: tuple[Any, ...]) -> FieldPos:
    kl, kc, vl, vc, el, ec, items, children = state
    return FieldPos(kl, kc, vl, vc, el, ec, items, {k: _pos_from(v) for k, v in children.items()})


def _diag_state(d: Diagnostic) -> tuple[Any, ...]:
    return (d.code, d.severity, d.message, d.path, d.line, d.column, d.field, d.skill)


def skill_state(skill: Skill) -> tuple[Any, ...]:
    doc = skill.doc
    positions = doc._positions
    return (
        skill.path,
        skill.mtime_ns,
        skill.size,
        skill.name,
        skill.key,
        skill.description,
        skill.fields,
        skill.status,
        skill.status_reason,
        [_diag_state(d) for d in skill.diagnostics],
        skill.phrases,
        (
            doc.text,
            doc.bom,
            doc.newline,
            doc.encoding,
            doc.has_frontmatter,
            doc.closed,
            doc.fm_text,
            doc.fm_first_line,
            doc.fm_close_line,
            doc.body_offset,
            doc.body_line,
            doc.mapping,
            [(p.code, p.message, p.line, p.column, p.field) for p in doc.problems],
            doc.fallback,
            doc.fallback_pos,
            doc.readable,
            None if positions is None else {k: _pos_state(v) for k, v in positions.items()},
            doc._raw_positions,
        ),
        skill.gist,
        skill.namespace,
    )


def skill_from_state(state: tuple[Any, ...], root: Root) -> Skill:
    (
        path,
        mtime_ns,
        size,
        name,
        key,
        description,
        fields,
        status,
        reason,
        diags,
        phrases,
        ds,
        gist,
        namespace,
    ) = state
    doc = Document(
        path=path,
        text=ds[0],
        bom=ds[1],
        newline=ds[2],
        encoding=ds[3],
        has_frontmatter=ds[4],
        closed=ds[5],
        fm_text=ds[6],
        fm_first_line=ds[7],
        fm_close_line=ds[8],
        body_offset=ds[9],
        body_line=ds[10],
        mapping=ds[11],
        problems=[Problem(*p) for p in ds[12]],
        fallback=ds[13],
        fallback_pos=ds[14],
        readable=ds[15],
        position_reader=compose_positions,
    )
    if ds[16] is not None:
        doc._positions = {k: _pos_from(v) for k, v in ds[16].items()}
    doc._raw_positions = ds[17]
    return Skill(
        path=path,
        root=root,
        doc=doc,
        mtime_ns=mtime_ns,
        size=size,
        name=name,
        key=key,
        description=description,
        fields=fields,
        status=status,
        status_reason=reason,
        diagnostics=[Diagnostic(*d) for d in diags],
        phrases=phrases,
        phrase_set=frozenset(p[0] for p in phrases),
        gist=gist,
        namespace=namespace,
    )


# -- the state as JSON (the cache of what was read, core/scanning/state_cache.py) ----------
# JSON has no tuples and only text keys. A state goes to JSON only when every free-form
# value in it (the frontmatter mapping, the profile's fields, the fallback lines) is
# plain JSON (`exact`), so that `from_json(json.loads(json.dumps(to_json(s))))` is `s`
# again; the tuples of the fixed parts are rebuilt where they stood.
EXACT_DEPTH = 64  # nesting followed by `exact` (the YAML reader's own bound is lower)


SCALARS = frozenset({str, int, bool, type(None)})


def exact(value: Any, depth: int = 0) -> bool:
    """Whether JSON gives `value` back as it is (types included). (Run on every state
    stored: the scalars that most values are never cost a call.)"""
    kind = type(value)
    if kind in SCALARS:
        return True
    if kind is float:
        return bool(value - value == 0)  # finite (NaN and infinities are not)
    if depth >= EXACT_DEPTH:
        return False
    if kind is list:
        items = value
    elif kind is dict:
        for key in value:
            if type(key) is not str:
                return False
        items = value.values()
    else:
        return False
    scalars = SCALARS
    return all(type(item) in scalars or exact(item, depth + 1) for item in items)


def to_json(state: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The state ready for json.dumps (positions that `_positions` can rebuild from the
    fast path's are left out), or None when a free-form value in it is not plain JSON."""
    ds = state[11]
    if not (exact(state[6]) and exact(ds[11]) and exact(ds[13]) and exact(list(state[12:]))):
        return None
    scalars = SCALARS
    for row in (*state[9], *state[10]):  # diagnostics and trigger phrases: flat tuples
        for part in row:
            if type(part) not in scalars and not exact(part):
                return None
    if ds[17] is not None and ds[16] is not None:
        ds = (*ds[:16], None, ds[17])
        return (*state[:11], ds, *state[12:])
    return state


def _pos_tuple(state: list[Any]) -> tuple[Any, ...]:
    kl, kc, vl, vc, el, ec, items, children = state
    return (
        kl,
        kc,
        vl,
        vc,
        el,
        ec,
        [tuple(item) for item in items],
        {k: _pos_tuple(v) for k, v in children.items()},
    )


def from_json(data: list[Any]) -> tuple[Any, ...]:
    """The state `to_json` gave, from its JSON (lists where it had tuples)."""
    ds = data[11]
    positions = ds[16]
    raw = ds[17]
    doc = (
        *ds[:14],
        {key: tuple(value) for key, value in ds[14].items()},
        ds[15],
        None if positions is None else {k: _pos_tuple(v) for k, v in positions.items()},
        None
        if raw is None
        else {k: (*v[:6], [tuple(item) for item in v[6]]) for k, v in raw.items()},
    )
    return (
        *data[:9],
        [tuple(d) for d in data[9]],
        [tuple(p) for p in data[10]],
        doc,
        *data[12:],  # the gist, and what follows it: plain values
    )
