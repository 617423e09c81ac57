"""Check, or rebuild, an evaluation corpus from the commits its manifest pins.

Stand-alone script (not collected by pytest, never run by the tests). Run:

    python tests/eval/corpora/fetch.py --check          # sha256 of every stored file
    python tests/eval/corpora/fetch.py                  # download the files that are missing
    python tests/eval/corpora/fetch.py --dest DIR --all # rebuild the whole corpus in DIR

The manifest (default: blind/sources.json beside this script) lists, for each skill,
the repository, the 40-hex commit, the path in the repository, the size and the sha256
of the file. A file is fetched from raw.githubusercontent.com/<repo>/<commit>/<path>,
read up to its manifest size (and never more than MAX_BYTES), checked against its sha256
and only then written, with a temporary file and a rename, to
<dest>/<owner>__<repo>/<path>; a path that is not a plain relative path, or that would
land outside <dest> (through "..", an absolute part or a link), is refused. Redirects are
not followed. Nothing is written for a file whose bytes differ from the manifest.
Exit status: 0 when every file checked or fetched is right, 1 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import re
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

MAX_BYTES = 512 * 1024  # a SKILL.md is text; the largest in the blind corpus is 69 KB
TIMEOUT = 30.0
HOST = "https://raw.githubusercontent.com"
REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
COMMIT = re.compile(r"[0-9a-f]{40}")
PART = re.compile(r"[A-Za-z0-9_.+@-]+")
HERE = pathlib.Path(__file__).resolve().parent


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _parts(path: str) -> list[str]:
    """The parts of a manifest path, or ValueError if it is not plain and relative."""
    parts = path.split("/")
    for part in parts:
        if part in ("", ".", "..") or not PART.fullmatch(part):
            raise ValueError(f"refused path {path!r}")
    return parts


def target(dest: pathlib.Path, entry: dict[str, Any]) -> pathlib.Path:
    """Where an entry lives under dest; ValueError when it would leave dest."""
    repo = str(entry["repo"])
    if not REPO.fullmatch(repo) or ".." in repo:
        raise ValueError(f"refused repository {repo!r}")
    out = dest.joinpath(repo.replace("/", "__"), *_parts(str(entry["path"])))
    root = dest.resolve()
    if root not in out.resolve().parents:
        raise ValueError(f"{out} lies outside {root}")
    return out


def _download(entry: dict[str, Any]) -> bytes:
    commit = str(entry["commit"])
    if not COMMIT.fullmatch(commit):
        raise ValueError(f"refused commit {commit!r}")
    size = int(entry["bytes"])
    if not 0 < size <= MAX_BYTES:
        raise ValueError(f"refused size {size}")
    quoted = "/".join(urllib.parse.quote(p) for p in _parts(str(entry["path"])))
    url = f"{HOST}/{entry['repo']}/{commit}/{quoted}"
    opener = urllib.request.build_opener(_NoRedirect())
    with opener.open(url, timeout=TIMEOUT) as response:
        data: bytes = response.read(size + 1)
    if len(data) != size:
        raise ValueError(f"{url}: {len(data)} bytes, the manifest says {size}")
    return data


def _write(path: pathlib.Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".fetch-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        pathlib.Path(tmp).unlink(missing_ok=True)
        raise


def _digest(path: pathlib.Path) -> str | None:
    if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=pathlib.Path, default=HERE / "blind" / "sources.json")
    parser.add_argument("--dest", type=pathlib.Path, help="default: the manifest's folder")
    parser.add_argument("--check", action="store_true", help="verify stored files, no network")
    parser.add_argument("--all", action="store_true", help="fetch present files too")
    args = parser.parse_args(argv)
    manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    dest: pathlib.Path = args.dest or args.manifest.parent
    failed = 0
    for entry in manifest["skills"]:
        try:
            path = target(dest, entry)
        except ValueError as exc:
            print(f"refused: {exc}", file=sys.stderr)
            failed += 1
            continue
        have = _digest(path)
        if args.check:
            if have != entry["sha256"]:
                print(f"{'differs' if have else 'missing'}: {path}")
                failed += 1
            continue
        if have == entry["sha256"] and not args.all:
            continue
        try:
            data = _download(entry)
        except (OSError, ValueError, urllib.error.URLError) as exc:
            print(f"not fetched: {entry['repo']} {entry['path']}: {exc}", file=sys.stderr)
            failed += 1
            continue
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            print(f"sha256 differs, not written: {entry['repo']} {entry['path']}", file=sys.stderr)
            failed += 1
            continue
        _write(path, data)
        print(f"fetched: {path}")
    print(f"{len(manifest['skills'])} entries, {failed} not right")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
