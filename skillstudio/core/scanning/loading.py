"""Building one skill from its file, so that a fault of that one skill never fails
a scan (docs/development.md: the `internal` diagnostic)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from ..model.diagnostics import internal
from ..model.document import Document
from ..model.skills import Root, Skill
from ..profile import Profile
from ..reading.frontmatter import parse_bounded, read_document
from ..reading.skill_words import gist_of_skill

FAILED = -1  # the mtime_ns of a skill an internal error left out: never up to date


def build_skill(
    root: Root,
    path: str,
    stamp: tuple[int, int],
    profile: Profile,
    keep_text: bool,
    read: Callable[[], Document],
    validate: Callable[[Skill, Profile], None],
    gist: bool = True,
) -> Skill:
    """A validated skill from `read()`; never raises for a fault of this one skill.

    An unexpected exception while reading or validating (a bug, or input no
    check foresaw) gives the skill one `internal` diagnostic and leaves it out
    of matching (status skipped), so the scan goes on with every other skill.
    Its modification time is recorded as FAILED, so every refresh reads it again
    (the fault may have passed) instead of keeping the failure until the file changes.
    """
    stage = "reading"
    mtime_ns, size = stamp
    skill = Skill(path=path, root=root, doc=Document(path=path), mtime_ns=mtime_ns, size=size)
    try:
        skill.doc = read()
        stage = "validating"
        validate(skill, profile)
    except Exception as exc:
        fallback = skill.doc.fallback.get("name") if stage == "validating" else None
        name = fallback if isinstance(fallback, str) and fallback else skill.folder_name
        skill = Skill(
            path=path,
            root=root,
            doc=skill.doc,
            mtime_ns=FAILED,
            size=size,
            name=name,
            status="skipped",
            status_reason="SkillStudio failed on it (internal error)",
            diagnostics=[internal(path, name, stage, exc)],
        )
    if gist and profile.model_chooses and skill.doc.text:
        skill.gist = gist_of_skill(skill.doc.body, path)
    if not keep_text:
        skill.doc.text = ""
    return skill


def read_unsaved(path: str, text: str) -> Document:
    """The unsaved text of the SKILL.md at `path` read as a scan reads the file: what
    a re-validation checks, and what an editor shows in its form and preview (it
    parses the text once per change and hands that to the re-validation)."""
    return parse_bounded(Document(path=path), text)


def rebuild_job(
    previous: Skill,
    text: str | None,
    profile: Profile,
    flags: tuple[bool, bool],
    validate: Callable[[Skill, Profile], None],
    read_file: Callable[..., Document] = read_document,
    parsed: Document | None = None,
) -> Callable[[], Skill]:
    """Registry.reparse's build of the skill `previous` from `text` (unsaved edits) or
    from disk, with what it needs taken from the registry now (`flags`: keep the text,
    work out the gist). The build does every per-skill check and changes nothing
    shared: it may run on another thread (the app's, for a large document) while the
    registry goes on; `Registry.install` then puts its result in.

    `parsed`: `read_unsaved(path, text)` done already (the editor's): the build
    takes a copy of it (made here, on the caller's thread; the build sets the
    copy's text aside) instead of parsing the text again."""
    path = previous.path
    read: Callable[[], Document]
    if text is None:
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = (0, 0)
        # the file that is opened must still lie inside the skill's root
        read = partial(read_file, path, None, os.path.realpath(previous.root.boundary))
    elif parsed is not None and parsed.text == text:
        stamp = (previous.mtime_ns, previous.size)
        read = partial(_given, replace(parsed, problems=list(parsed.problems)))
    else:
        stamp = (previous.mtime_ns, previous.size)
        read = partial(read_unsaved, path, text)
    keep_text, gists = flags
    return partial(
        build_skill, previous.root, path, stamp, profile, keep_text, read, validate, gists
    )


def _given(doc: Document) -> Document:
    return doc
