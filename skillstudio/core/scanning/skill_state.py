"""A skill as a compact tuple and back: what a reader process sends the scan (built by
our own code from a skill it read; never bytes of a skill file handed to pickle)."""

from __future__ import annotations

from typing import Any

from ..model.diagnostics import Diagnostic
from ..model.document import Document, Problem
from ..model.positions import NO_CHILDREN, FieldPos
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
    below = {k: _pos_from(v) for k, v in children.items()} if children else NO_CHILDREN
    return FieldPos(kl, kc, vl, vc, el, ec, items or (), below)


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
        # its own key, not the `<collection>:<name>` a registry gave it (winners.py
        # `_qualify`): a state lent to another registry is qualified there, or not
        skill.key[len(skill.qualifier) + 1 :] if skill.qualifier and skill.key else skill.key,
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


def well_formed(data: Any) -> bool:
    """Whether JSON read back has the shape `to_json` gives (its fixed parts' types). A
    cache file is signed (scanning/state_cache.py); this guards the code that reads
    the state from one signed with a stolen key or by another version of this code."""
    if not (type(data) is list and len(data) >= 13):
        return False
    path, mtime, size, name, key, description, fields, status, reason, diags, phrases = data[:11]
    ds = data[11]
    if not (
        type(path) is str
        and type(mtime) is int
        and type(size) is int
        and type(name) is str
        and (key is None or type(key) is str)
        and type(description) is str
        and type(fields) is dict
        and status in ("active", "skipped", "disabled", "shadowed")
        and type(reason) is str
        and type(diags) is list
        and type(phrases) is list
        and (data[12] is None or type(data[12]) is str)
        and type(ds) is list
        and len(ds) == 18
    ):
        return False
    for row in diags:
        if not (type(row) is list and len(row) == 8 and type(row[4]) is int):
            return False
        code, severity, message, where, _, column, field, skill = row
        if not (
            type(code) is str
            and severity in ("error", "warning", "info")
            and type(message) is str
            and type(where) is str
            and type(column) is int
            and (field is None or type(field) is str)
            and (skill is None or type(skill) is str)
        ):
            return False
    for row in phrases:
        if not (type(row) is list and len(row) == 4 and type(row[0]) is str):
            return False
    text, bom, newline, encoding, has_fm, closed, fm_text = ds[:7]
    mapping, problems, fallback, fallback_pos, readable, positions, raw = ds[11:]
    return (
        type(text) is str
        and type(fm_text) is str
        and type(newline) is str
        and type(encoding) is str
        and all(type(x) is bool for x in (bom, has_fm, closed, readable))
        and all(type(x) is int for x in ds[7:11])
        and (mapping is None or type(mapping) is dict)
        and type(problems) is list
        and all(type(p) is list and len(p) == 5 for p in problems)
        and type(fallback) is dict
        and type(fallback_pos) is dict
        and all(type(v) is list and len(v) == 2 for v in fallback_pos.values())
        and (
            positions is None or (type(positions) is dict and all(map(_pos_ok, positions.values())))
        )
        and (raw is None or (type(raw) is dict and all(map(_raw_ok, raw.values()))))
    )


def _pos_ok(value: Any, depth: int = 0) -> bool:
    return (
        type(value) is list
        and len(value) == 8
        and all(type(x) is int for x in value[:6])
        and type(value[6]) is list
        and all(type(i) is list and len(i) == 2 for i in value[6])
        and type(value[7]) is dict
        and depth < EXACT_DEPTH
        and all(_pos_ok(child, depth + 1) for child in value[7].values())
    )


def _raw_ok(value: Any) -> bool:
    return (
        type(value) is list
        and len(value) == 7
        and all(type(x) is int for x in value[:6])
        and type(value[6]) is list
        and all(type(i) is list and len(i) == 2 for i in value[6])
    )


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
