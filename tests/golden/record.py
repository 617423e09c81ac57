"""Golden outputs of the CLI: record them, or compare against the recorded ones.

The refactors of issue 16 must not change what the commands print. This module
runs `lint`, `list`, `match --explain`, `prompt` (tiers 0-3 and per request),
`activate` and `test`, in text and JSON, in-process through the CLI's `main()`,
over the bundled samples (each project under its own profile, and its roots
under every profile), the shared corpus (when present) and a few hundred
requests: the corpus evaluation set (tests/eval/corpus_requests.yaml) and
requests generated deterministically from the skills' own names and
description words plus fixed phrases.

The outputs hold absolute paths, and the prompt tiers count their tokens with
those paths in them (so which skills fit a small budget depends on how long
the checkout's path is). The cases therefore run on copies of `skills/` and
the corpus staged under a path of fixed length (`/tmp/skillstudio-golden-`
and eight random characters), and the paths are printed as `<repo>` and
`<corpus>`: the goldens hold on any checkout.

Each group (a sample project under one profile, the corpus under one profile) is
stored in tests/golden/data/<group>.json: per case its arguments, exit code and the
SHA-256 of stdout + stderr. `test_golden.py` recomputes and compares.

Re-record after a deliberate change of output (and say so in the commit):

    PYTHONPATH=. python -m tests.golden.record            # every group
    PYTHONPATH=. python -m tests.golden.record samples-oasis corpus-oasis
    PYTHONPATH=. python -m tests.golden.record --show CASE_ID   # print one output

`git diff tests/golden/data` then lists the cases whose output changed; run
`--show CASE_ID` on both commits to see how.
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
import zlib
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import yaml

from skillstudio.cli.main import main
from skillstudio.core.profiles import PROFILE_NAMES

from ..helpers import CORPUS as CHECKOUT_CORPUS
from ..helpers import REPO as CHECKOUT
from ..helpers import SAMPLES as CHECKOUT_SAMPLES

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
# claude-code also reads the personal and managed skill folders: never the real ones here
os.environ["CLAUDE_CONFIG_DIR"] = "/nonexistent/skillstudio-golden/claude-home"
os.environ["SKILLSTUDIO_CLAUDE_MANAGED_SKILLS"] = "/nonexistent/skillstudio-golden/managed"
os.environ["CODEX_HOME"] = "/nonexistent/skillstudio-golden/codex-home"
os.environ["SKILLSTUDIO_CODEX_ADMIN"] = "/nonexistent/skillstudio-golden/codex-admin"
# The cases read through the cache of what was read (as the CLI does), in a folder of
# their own: never the user's. The same output from a cold and a warm cache is checked.
_CACHE_HOME = tempfile.mkdtemp(prefix="skillstudio-golden-cache-")
atexit.register(shutil.rmtree, _CACHE_HOME, True)
os.environ["XDG_CACHE_HOME"] = _CACHE_HOME
REQUESTS = os.path.join(CHECKOUT, "tests", "eval", "corpus_requests.yaml")
# Requests that exercise the rules beyond a skill's own words.
FIXED = (
    "",
    "hello",
    "help me",
    "please review my code and write tests",
    "use the pdf skill to fill this form",
    "/help",
    "/",
    "summarize this document in three bullet points",
    "deploy the app to production",
    "what is the weather today?",
    "$ARGUMENTS",
    "UPPER CASE REQUEST WITH Mixed-Case words",
    "émoji 🚀 and ünïcode",
)

Case = tuple[str, list[str]]  # (case id, argv)


_STAGED: list[tuple[str, str, str]] = []  # a worker process is handed its parent's


def staged() -> tuple[str, str, str]:
    """(repo, samples, corpus): copies under a path whose length never changes."""
    if not _STAGED:
        _STAGED.append(_stage())
    return _STAGED[0]


def _stage() -> tuple[str, str, str]:
    base = "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()
    root = tempfile.mkdtemp(prefix="skillstudio-golden-", dir=base)
    atexit.register(shutil.rmtree, root, True)
    repo = os.path.join(root, "repo")
    samples = os.path.join(repo, "skills")
    corpus = os.path.join(root, "shared", "corpus")
    shutil.copytree(CHECKOUT_SAMPLES, samples, symlinks=True)
    if os.path.isdir(CHECKOUT_CORPUS):
        shutil.copytree(CHECKOUT_CORPUS, corpus, symlinks=True)
    return repo, samples, corpus


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, cwd=staged()[0], out=out, err=err)
    return code, normalise(out.getvalue() + "\n--stderr--\n" + err.getvalue())


_PADDING = re.compile(r" {2,}")


def normalise(text: str) -> str:
    """Checkout paths as `<repo>` and `<corpus>`; a run of blanks as two (the text
    tables pad their columns to the longest path, which differs per checkout)."""
    repo, _, corpus = staged()
    for path, mark in ((corpus, "<corpus>"), (repo, "<repo>")):
        text = text.replace(path, mark).replace(os.path.realpath(path), mark)
    return _PADDING.sub("  ", text)


def _skills(argv_scope: list[str]) -> list[dict[str, Any]]:
    out = io.StringIO()
    main(["list", *argv_scope, "--format", "json"], cwd=staged()[0], out=out, err=io.StringIO())
    try:
        data = json.loads(out.getvalue())
    except ValueError:
        return []
    skills: list[dict[str, Any]] = data.get("skills", [])
    return skills


_WORD = re.compile(r"[a-z][a-z0-9]+")


def generated_requests(skills: list[dict[str, Any]], limit: int) -> list[str]:
    """Requests from the skills' names and description words, in a fixed order."""
    out: list[str] = list(FIXED)
    for skill in skills:
        name = str(skill.get("name") or "")
        words = _WORD.findall(str(skill.get("description") or "").lower())
        out.append(name)
        out.append(f"/{name} some-file.txt --flag")
        out.append(f"use the {name} skill")
        out.append(name.replace("-", " "))
        if words:
            out.append(" ".join(words[:4]))
            out.append("can you " + " ".join(words[2::3][:5]))
    return list(dict.fromkeys(out))[:limit]


def _both(case: str, argv: list[str], json_too: bool = True) -> Iterator[Case]:
    yield f"{case} text", argv
    if json_too:
        yield f"{case} json", [*argv, "--format", "json"]


def _scope_cases(prefix: str, scope: list[str], full: bool) -> Iterator[Case]:
    """lint, list and prompt tiers 0-3; `full` adds JSON and the other variants."""
    yield from _both(f"{prefix} lint", ["lint", *scope])
    if full:
        yield f"{prefix} lint -v", ["lint", *scope, "-v"]
    yield from _both(f"{prefix} list", ["list", *scope], full)
    for tier in range(4):
        yield from _both(
            f"{prefix} prompt tier {tier}", ["prompt", "--tier", str(tier), *scope], full
        )
    small = ["prompt", "--tier", "2", "--context-tokens", "2000", *scope]
    yield from _both(f"{prefix} prompt tier 2 small", small, full)


def _request_cases(prefix: str, scope: list[str], request: str, full: bool) -> Iterator[Case]:
    yield from _both(f"{prefix} match {request!r}", ["match", request, "--explain", *scope], full)
    if full:
        yield f"{prefix} prompt {request!r}", ["prompt", "--query", request, *scope]


def _activate_cases(prefix: str, scope: list[str], name: str, full: bool) -> Iterator[Case]:
    yield from _both(f"{prefix} activate {name}", ["activate", name, *scope], full)
    if full:
        user = ["activate", name, "a.pdf --short 'two words'", "--as", "user", *scope]
        yield f"{prefix} activate {name} user", user


def sample_projects() -> list[str]:
    """The bundled sample projects: one per profile that has a folder in skills/."""
    _, samples, _ = staged()
    return [name for name in PROFILE_NAMES if os.path.isdir(os.path.join(samples, name))]


def _picked(profile: str, item: str, share: int) -> bool:
    """Whether `item` is among the 1-in-`share` a profile's group takes: a choice that
    depends on the profile and the item alone, so a new profile leaves every other
    profile's group as it was (a rotation over all profiles did not)."""
    return zlib.crc32(f"{profile}\0{item}".encode()) % share == 0


def groups() -> dict[str, list[Case]]:
    """Every group's cases (ids are unique within a group). A group is one sample
    project read under one profile (`samples-<project>/<profile>`: its own profile adds
    the project's own cases) or the corpus under one profile (`corpus-<profile>`):
    adding a profile adds groups and changes none."""
    out: dict[str, list[Case]] = {}
    _, samples, corpus = staged()
    for project in sample_projects():
        folder = os.path.join(samples, project)
        scope = ["--project", folder]
        skills = _skills(scope)
        names = sorted({str(s["name"]) for s in skills})
        own = list(_scope_cases("own", scope, True))
        own += _both("own test", ["test", *scope])
        for request in generated_requests(skills, 50):
            own += _request_cases("own", scope, request, True)
        for name in names:
            own += _activate_cases("own", scope, name, True)
        roots = sorted({str(s["root"]) for s in skills})
        root_scope = [arg for root in roots for arg in ("--root", root)]
        for profile in PROFILE_NAMES:  # the same skills under every profile's rules
            cases = list(own) if profile == project else []
            other = [*root_scope, "--profile", profile]
            cases += _scope_cases(profile, other, False)
            for request in generated_requests(skills, 30)[len(FIXED) - 4 :]:
                cases += _request_cases(profile, other, request, False)
            for name in names:
                cases += _activate_cases(profile, other, name, False)
            out[f"samples-{project}/{profile}"] = cases
    if os.path.isdir(corpus):
        requests = corpus_requests()
        for profile in PROFILE_NAMES:
            cases = list(_both("lint PATH", ["lint", corpus, "--profile", profile]))
            scope = ["--project", corpus, "--profile", profile]
            cases += _scope_cases("", scope, False)
            # an eighth of the evaluation requests per profile; JSON for every third
            for number, request in enumerate(requests):
                if _picked(profile, request, 8):
                    match = ["match", request, "--explain", *scope]
                    cases += _both(f"match {request!r}", match, number // 6 % 3 == 0)
            names = sorted({str(s["name"]) for s in _skills(scope)})
            for name in names:
                if _picked(profile, name, 40):
                    cases += _activate_cases("", scope, name, False)
            out[f"corpus-{profile}"] = cases
    return out


def corpus_requests() -> list[str]:
    with open(REQUESTS, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return [str(case["query"]) for case in data["cases"]]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def compute(cases: list[Case], workers: int | None = None) -> dict[str, list[Any]]:
    """Each case's [exit code, digest]. A large group is shared among worker processes
    (one per core, at most 4): each case runs the CLI on its own, so the outputs are
    those of a sequential run; a corpus group took about a minute on one core."""
    if workers is None:
        workers = min(os.cpu_count() or 1, 4) if len(cases) >= PARALLEL_FROM else 1
    if workers <= 1:
        return _compute_part(cases)
    # spawn, not fork: the test process may hold Qt's and watchdog's threads
    context = multiprocessing.get_context("spawn")
    parts = [cases[start :: workers * 4] for start in range(workers * 4)]
    result: dict[str, list[Any]] = {}
    with ProcessPoolExecutor(workers, context, initializer=_adopt, initargs=staged()) as pool:
        for part in pool.map(_compute_part, parts):
            result.update(part)
    return result


PARALLEL_FROM = 40  # cases: below this, starting the workers costs more than it saves


def _adopt(repo: str, samples: str, corpus: str) -> None:
    """A worker runs on its parent's staged copies (the outputs name their paths)."""
    _STAGED[:] = [(repo, samples, corpus)]


def _compute_part(cases: list[Case]) -> dict[str, list[Any]]:
    result: dict[str, list[Any]] = {}
    for case, argv in cases:
        code, text = _run(argv)
        result[case.strip()] = [code, digest(text)]
    return result


def path_of(group: str) -> str:
    return os.path.join(DATA, f"{group}.json")


def load(group: str) -> dict[str, list[Any]]:
    with open(path_of(group), encoding="utf-8") as fh:
        data: dict[str, list[Any]] = json.load(fh)
    return data


def save(group: str, result: dict[str, list[Any]]) -> None:
    os.makedirs(os.path.dirname(path_of(group)), exist_ok=True)
    with open(path_of(group), "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=0, ensure_ascii=False, sort_keys=True)
        fh.write("\n")


def show(case_id: str) -> str:
    for cases in groups().values():
        for case, argv in cases:
            if case.strip() == case_id:
                return _run(argv)[1]
    raise KeyError(case_id)


def cli(argv: list[str]) -> int:
    if argv[:1] == ["--show"]:
        sys.stdout.write(show(argv[1]))
        return 0
    every = groups()
    for group in argv or sorted(every):
        save(group, compute(every[group]))
        print(f"{group}: {len(every[group])} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(cli(sys.argv[1:]))
