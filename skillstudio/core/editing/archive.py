"""`.skill` archives as skill-creator makes them: a zip with one top-level folder.

Both directions share one set of limits (file count, total size, folder depth,
name length), so that what `pack` writes, `unpack` takes. `pack` stores regular
files only and says what it left out (links, special files, the settings folders of
tools that run commands, and unless asked files that look like secrets); `unpack`
checks the whole archive before writing a byte (its top folder must be a usable
skill folder name, core/model/filenames.py), extracts into a fresh private folder inside
the root and moves the result into place only when every entry was written.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
import zipfile
import zlib

from ..model.filenames import entry_name_problem, folder_name_problem, secret_kind, tool_folder
from ..model.paths import FileRefused
from ..model.text import counted
from ..reading.safefs import kind, open_regular, remove_tree, walk

EXCLUDED_NAMES = frozenset({"__pycache__", "node_modules", ".DS_Store"})
EXCLUDED_SUFFIXES = (".pyc",)
MAX_FILES = 1000
MAX_BYTES = 100 * 1024 * 1024
MAX_DEPTH = 32  # folders below the skill folder
MAX_NAME_BYTES = 255  # one file or folder name (NAME_MAX on Linux and macOS)
MAX_PATH_BYTES = 1024  # a whole path inside the archive
CHUNK = 1 << 16


class ArchiveError(Exception):
    """An archive refused for safety or shape; the message says which rule."""


def _excluded(rel: str) -> bool:
    parts = rel.split("/")
    if parts[0] == "evals":  # skill-creator leaves the root evals/ out
        return True
    return any(p in EXCLUDED_NAMES for p in parts) or rel.endswith(EXCLUDED_SUFFIXES)


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):,.1f} MB".replace(".0 MB", " MB")


def _short(name: str) -> str:
    """An archive name for a message: quoted, cut to 80 characters."""
    return repr(name if len(name) <= 80 else name[:40] + "…" + name[-39:])


def _path_problem(parts: list[str]) -> str | None:
    """Why a path (its parts below the top folder included) cannot be unpacked here."""
    if len(parts) - 1 > MAX_DEPTH:
        return f"it is {counted(len(parts) - 1, 'level')} deep; at most {MAX_DEPTH} are unpacked"
    if len("/".join(parts).encode("utf-8", "surrogateescape")) > MAX_PATH_BYTES:
        return f"the path is longer than {MAX_PATH_BYTES} bytes"
    for part in parts:
        if len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
            return f"a name is longer than {MAX_NAME_BYTES} bytes"
        problem = entry_name_problem(part)
        if problem:
            return problem
    return None


def _top_problem(name: str) -> str | None:
    """Why `name` cannot be a .skill's top folder (the skill folder it unpacks to)."""
    problem = folder_name_problem(name)
    return f"{_short(name)} is not a usable skill folder name: {problem}" if problem else None


# -- pack -------------------------------------------------------------------------------


def pack(
    skill_dir: str,
    output: str | None = None,
    left_out: list[str] | None = None,
    include_secrets: bool = False,
) -> str:
    """Zip a skill folder as `<name>.skill`; returns the archive's path.

    Only regular files are stored: links, FIFOs, devices and sockets are left
    out, and so are the settings folders of tools that run commands (`.git`,
    `.claude`, `.vscode`...: unpack refuses them) and, unless `include_secrets`,
    files that look like secrets (`.env`, keys, `.netrc`, `credentials*`...);
    each is named with the reason in `left_out` when a list is given. A folder
    beyond unpack's limits (files, bytes, depth, names) or whose own name is not
    a usable skill folder name is refused, so that an archive written here
    always unpacks. `output` may be a folder (the archive goes inside it) or a
    file in a folder that does not exist yet.
    """
    skill_dir = os.path.abspath(skill_dir)
    skill_md = os.path.join(skill_dir, "SKILL.md")
    try:
        st = os.lstat(skill_md)
    except OSError:
        raise ArchiveError(f"{skill_dir} has no SKILL.md") from None
    if not stat.S_ISREG(st.st_mode):
        what = "a link" if stat.S_ISLNK(st.st_mode) else kind(st.st_mode)
        raise ArchiveError(
            f"{skill_md} is {what}; a .skill holds regular files only, so the archive "
            "would have no SKILL.md. Put the file itself in the folder."
        )
    name = os.path.basename(skill_dir)
    problem = _top_problem(name)
    if problem:
        raise ArchiveError(f"{problem}; it would be the archive's top folder. Rename the folder.")
    output = output or os.path.join(os.getcwd(), f"{name}.skill")
    if output.endswith(("/", os.sep)) or os.path.isdir(output):  # a folder: the archive goes in it
        output = os.path.join(output, f"{name}.skill")
    output = os.path.abspath(output)
    notes = left_out if left_out is not None else []
    files = _pack_list(skill_dir, name, notes, include_secrets)
    try:
        os.makedirs(os.path.dirname(output), exist_ok=True)
    except OSError as exc:
        raise ArchiveError(f"cannot create {os.path.dirname(output)} ({exc.strerror})") from None
    tmp = output + ".part"
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            total = 0
            for full, arcname in files:
                total += _pack_file(zf, full, arcname, skill_dir, MAX_BYTES - total, notes)
        os.replace(tmp, output)
    except OSError as exc:
        raise ArchiveError(f"cannot write {output} ({exc.strerror or exc})") from None
    finally:
        with contextlib.suppress(OSError):
            os.remove(tmp)
    return output


def _left_out(rel: str, folder: bool, include_secrets: bool) -> str | None:
    """Why a file or folder is not packed on account of its name, or None."""
    name = rel.rsplit("/", 1)[-1]
    tool = tool_folder(name)
    if tool is not None:
        return (
            f"{rel}{'/' if folder else ''}: left out, it holds settings {tool} acts on "
            "(they can run commands); a .skill never holds them"
        )
    if not include_secrets and secret_kind(name, folder):
        return (
            f"{rel}{'/' if folder else ''}: left out, it looks like it holds secrets (keys, "
            "passwords, tokens); pack --include-secrets stores it"
        )
    return None


def _pack_list(
    skill_dir: str, name: str, notes: list[str], include_secrets: bool
) -> list[tuple[str, str]]:
    """(path, name in the archive) of every regular file to store; refuses what unpack would."""
    files: list[tuple[str, str]] = []
    total = 0
    for folder, subfolders, entries in walk(skill_dir):
        rel_folder = os.path.relpath(folder, skill_dir).replace(os.sep, "/")
        prefix = "" if rel_folder == "." else rel_folder + "/"
        kept = []
        for sub in subfolders:
            why = None if sub in EXCLUDED_NAMES else _left_out(prefix + sub, True, include_secrets)
            if why:
                notes.append(why)
            elif sub not in EXCLUDED_NAMES:
                kept.append(sub)
        subfolders[:] = kept
        if subfolders and prefix.count("/") >= MAX_DEPTH:
            raise ArchiveError(
                f"{_short(prefix + subfolders[0])} is more than {MAX_DEPTH} folders deep; a .skill "
                f"unpacks at most {MAX_DEPTH} levels"
            )
        for entry in entries:
            rel = prefix + entry.name
            if _excluded(rel):
                continue
            why = _left_out(rel, False, include_secrets)
            if why:
                notes.append(why)
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                notes.append(f"{rel}: left out, it cannot be read ({exc.strerror})")
                continue
            if stat.S_ISLNK(st.st_mode):
                notes.append(f"{rel}: left out, it is a link (links are never packed)")
                continue
            if not stat.S_ISREG(st.st_mode):
                notes.append(f"{rel}: left out, it is {kind(st.st_mode)}, not a regular file")
                continue
            problem = _path_problem([name, *rel.split("/")])
            if problem:
                raise ArchiveError(f"{_short(rel)}: {problem}; rename or move it")
            total += st.st_size
            if st.st_size > MAX_BYTES or total > MAX_BYTES:
                raise ArchiveError(
                    f"{rel} is {_mb(st.st_size)}; a .skill unpacks at most {_mb(MAX_BYTES)} "
                    "in all. Move large files out of the skill folder."
                )
            files.append((entry.path, f"{name}/{rel}"))
            if len(files) > MAX_FILES:
                raise ArchiveError(
                    f"more than {MAX_FILES} files; a .skill holds at most {MAX_FILES}"
                )
    return files


def _pack_file(
    zf: zipfile.ZipFile, full: str, arcname: str, base: str, room: int, notes: list[str]
) -> int:
    """Store one file (re-checked as it is opened: it may have changed); its size."""
    try:
        fd, st = open_regular(full, base)
    except FileRefused as exc:
        notes.append(f"{arcname.split('/', 1)[1]}: left out, {exc.reason}")
        return 0
    with os.fdopen(fd, "rb") as src:
        if st.st_size > room:
            raise ArchiveError(f"{arcname} grew; a .skill unpacks at most {_mb(MAX_BYTES)}")
        info = zipfile.ZipInfo(
            arcname, time.localtime(min(max(st.st_mtime, 315532800), 4102444800))[:6]
        )
        info.external_attr = (stat.S_IFREG | stat.S_IMODE(st.st_mode)) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        written = 0
        with zf.open(info, "w") as out:
            while chunk := src.read(CHUNK):
                written += len(chunk)
                if written > room:
                    raise ArchiveError(f"{arcname} grew; a .skill unpacks at most {_mb(MAX_BYTES)}")
                out.write(chunk)
    return written


# -- unpack -----------------------------------------------------------------------------


def _open_zip(archive: str) -> zipfile.ZipFile:
    """The archive as a ZipFile, after its end record says it is small enough.

    zipfile reads the whole central directory into objects before anyone can
    count them (1,000,001 entries: 551 MB); the end record gives the count and
    the directory's size first.
    """
    try:
        fd, _st = open_regular(archive)
    except FileRefused as exc:
        raise ArchiveError(f"{archive} cannot be read: {exc.reason}") from None
    fh = os.fdopen(fd, "rb")
    try:
        end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]  # zipfile's own reading
        if end is None:
            raise zipfile.BadZipFile("no end of central directory record")
        entries, size = end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]
        if entries > MAX_FILES:
            raise ArchiveError(
                f"{counted(entries, 'entry', 'entries')}; at most {MAX_FILES} are unpacked"
            )
        if size > MAX_FILES * (46 + 2 * MAX_PATH_BYTES):
            raise ArchiveError(f"the archive's directory is {_mb(size)}; too large for a .skill")
        fh.seek(0)
        return zipfile.ZipFile(fh)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as exc:
        fh.close()
        raise ArchiveError(f"{archive} is not a zip archive ({exc})") from None
    except BaseException:
        fh.close()
        raise


def _plan(infos: list[zipfile.ZipInfo]) -> tuple[str, list[tuple[zipfile.ZipInfo, list[str]]]]:
    """The top folder and each entry's path parts; refuses an unsafe or clashing archive."""
    total = 0
    tops: set[str] = set()
    planned: list[tuple[zipfile.ZipInfo, list[str]]] = []
    files: set[tuple[str, ...]] = set()
    folders: set[tuple[str, ...]] = set()
    for info in infos:
        name = info.filename
        if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
            raise ArchiveError(f"absolute path in the archive: {_short(name)}")
        parts = name.replace("\\", "/").split("/")
        if ".." in parts:
            raise ArchiveError(f"'..' in an archive path: {_short(name)}")
        if info.is_dir():
            parts = parts[:-1] if parts[-1] == "" else parts
        if any(p in ("", ".") for p in parts):
            raise ArchiveError(f"an empty or '.' name in an archive path: {_short(name)}")
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise ArchiveError(f"symbolic link in the archive: {_short(name)}")
        problem = None if parts[0] in tops else _top_problem(parts[0])
        if problem:
            raise ArchiveError(f"the top folder {problem}")
        problem = _path_problem(parts)
        if problem:
            raise ArchiveError(f"{_short(name)}: {problem}")
        total += info.file_size
        if total > MAX_BYTES:
            raise ArchiveError(f"more than {MAX_BYTES // (1024 * 1024)} MB unpacked")
        tops.add(parts[0])
        key = tuple(parts)
        if info.is_dir():
            folders.add(key)
        elif key in files:
            raise ArchiveError(f"{_short(name)} is in the archive twice")
        else:
            files.add(key)
        folders.update(key[:i] for i in range(1, len(key)))
        planned.append((info, parts))
    if len(tops) != 1:
        raise ArchiveError(f"a .skill must hold exactly one top-level folder, not {sorted(tops)}")
    top = tops.pop()
    clash = files & folders
    if clash:
        raise ArchiveError(
            f"{_short('/'.join(min(clash)))} is both a file and a folder in the archive"
        )
    if (top, "SKILL.md") not in files:
        raise ArchiveError(f"no {top}/SKILL.md file in the archive")
    return top, planned


def unpack(archive: str, root: str) -> str:
    """Extract a .skill into `root`; returns the new skill folder. Refuses anything unsafe.

    The archive is checked whole before anything is written; entries go into a
    fresh private folder inside `root` (never a name the archive chooses), which
    becomes `root/<top>` in one rename when every entry was written.
    """
    with _open_zip(archive) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_FILES:
            raise ArchiveError(f"{len(infos)} entries; at most {MAX_FILES} are unpacked")
        top, planned = _plan(infos)
        root = os.path.abspath(root)
        target = os.path.join(root, top)
        if os.path.lexists(target):
            raise ArchiveError(f"{target} already exists; remove or rename it first")
        try:
            os.makedirs(root, exist_ok=True)
            staging = tempfile.mkdtemp(prefix=".unpacking-", dir=root)
        except OSError as exc:
            raise ArchiveError(f"cannot write in {root} ({exc.strerror or exc})") from None
        try:
            _extract(zf, planned, staging)
            try:
                os.mkdir(target)  # reserves the name: a folder made meanwhile is never merged
            except FileExistsError:
                raise ArchiveError(f"{target} already exists; remove or rename it first") from None
            try:
                os.replace(os.path.join(staging, top), target)  # onto the empty reservation
            except OSError:
                os.rmdir(target)
                raise
        except OSError as exc:
            raise ArchiveError(f"cannot unpack into {root} ({exc.strerror or exc})") from None
        finally:
            remove_tree(staging)
    return target


def _extract(
    zf: zipfile.ZipFile, planned: list[tuple[zipfile.ZipInfo, list[str]]], staging: str
) -> None:
    for info, parts in planned:
        dest = os.path.join(staging, *parts)
        if info.is_dir():
            os.makedirs(dest, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(dest, flags, 0o666)
        with os.fdopen(fd, "wb") as out:
            written = 0
            try:
                with zf.open(info) as src:
                    while chunk := src.read(CHUNK):
                        written += len(chunk)
                        if written > info.file_size or written > MAX_BYTES:
                            raise ArchiveError(
                                f"{_short(info.filename)} unpacks larger than declared"
                            )
                        out.write(chunk)
            except (
                zipfile.BadZipFile,
                zlib.error,
                EOFError,
                RuntimeError,
                NotImplementedError,
            ) as exc:
                raise ArchiveError(f"{_short(info.filename)} cannot be unpacked: {exc}") from None
            _restore_execute_bits(fd, info)


def _restore_execute_bits(fd: int, info: zipfile.ZipInfo) -> None:
    """Scripts keep their execute bits: owner/group/other x from the archive where the
    new file is readable; never setuid, setgid or sticky."""
    wanted = (info.external_attr >> 16) & 0o111
    if not wanted or info.create_system != 3 or not hasattr(os, "fchmod"):
        return  # create_system 3: made on Unix, so the mode bits mean something
    current = stat.S_IMODE(os.fstat(fd).st_mode)
    os.fchmod(fd, current | (wanted & ((current & 0o444) >> 2)))
