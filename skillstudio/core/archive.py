"""`.skill` archives as skill-creator makes them: a zip with one top-level folder."""

from __future__ import annotations

import os
import stat
import zipfile

EXCLUDED_NAMES = frozenset({"__pycache__", "node_modules", ".DS_Store"})
EXCLUDED_SUFFIXES = (".pyc",)
MAX_FILES = 1000
MAX_BYTES = 100 * 1024 * 1024


class ArchiveError(Exception):
    """An archive refused for safety or shape; the message says which rule."""


def _excluded(rel: str) -> bool:
    parts = rel.split("/")
    if parts[0] == "evals":  # skill-creator leaves the root evals/ out
        return True
    return any(p in EXCLUDED_NAMES for p in parts) or rel.endswith(EXCLUDED_SUFFIXES)


def pack(skill_dir: str, output: str | None = None) -> str:
    """Zip a skill folder as `<name>.skill`; links are not followed or stored."""
    skill_dir = os.path.abspath(skill_dir)
    if not os.path.isfile(os.path.join(skill_dir, "SKILL.md")):
        raise ArchiveError(f"{skill_dir} has no SKILL.md")
    name = os.path.basename(skill_dir)
    output = output or os.path.join(os.getcwd(), f"{name}.skill")
    files: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(skill_dir):
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in EXCLUDED_NAMES and not os.path.islink(os.path.join(dirpath, d))
        )
        for filename in sorted(filenames):
            full = os.path.join(dirpath, filename)
            rel = os.path.relpath(full, skill_dir).replace(os.sep, "/")
            if os.path.islink(full) or _excluded(rel):
                continue
            files.append((full, f"{name}/{rel}"))
    if len(files) > MAX_FILES:
        raise ArchiveError(f"{len(files)} files; a .skill holds at most {MAX_FILES}")
    tmp = output + ".part"
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for full, arcname in files:
                zf.write(full, arcname)
        os.replace(tmp, output)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return output


def unpack(archive: str, root: str) -> str:
    """Extract a .skill into `root`; returns the new skill folder. Refuses anything unsafe."""
    try:
        zf = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile) as exc:
        raise ArchiveError(f"{archive} is not a zip archive ({exc})") from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_FILES:
            raise ArchiveError(f"{len(infos)} entries; at most {MAX_FILES} are unpacked")
        total = 0
        tops: set[str] = set()
        for info in infos:
            name = info.filename
            if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
                raise ArchiveError(f"absolute path in the archive: {name!r}")
            parts = name.replace("\\", "/").split("/")
            if ".." in parts:
                raise ArchiveError(f"'..' in an archive path: {name!r}")
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise ArchiveError(f"symbolic link in the archive: {name!r}")
            total += info.file_size
            if total > MAX_BYTES:
                raise ArchiveError(f"more than {MAX_BYTES // (1024 * 1024)} MB unpacked")
            tops.add(parts[0])
        if len(tops) != 1:
            raise ArchiveError(
                f"a .skill must hold exactly one top-level folder, not {sorted(tops)}"
            )
        top = tops.pop()
        if not top or not any(i.filename == f"{top}/SKILL.md" for i in infos):
            raise ArchiveError(f"no {top}/SKILL.md in the archive")
        target = os.path.join(os.path.abspath(root), top)
        if os.path.exists(target):
            raise ArchiveError(f"{target} already exists; remove or rename it first")
        os.makedirs(root, exist_ok=True)
        staging = target + ".unpacking"
        try:
            for info in infos:
                dest = os.path.normpath(os.path.join(staging, *info.filename.split("/")[1:]))
                if not (dest == staging or dest.startswith(staging + os.sep)):
                    raise ArchiveError(f"entry escapes the folder: {info.filename!r}")
                if info.is_dir():
                    os.makedirs(dest, exist_ok=True)
                    continue
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with zf.open(info) as src, open(dest, "wb") as out:
                    written = 0
                    while chunk := src.read(1 << 16):
                        written += len(chunk)
                        if written > info.file_size or written > MAX_BYTES:
                            raise ArchiveError(f"{info.filename!r} unpacks larger than declared")
                        out.write(chunk)
            os.replace(staging, target)
        except BaseException:
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
            raise
    return target
