"""Compare `skillstudio lint --profile agentskills` with skills-ref 0.1.1, skill by skill.

Usage: python tests/conformance/compare_skills_ref.py [CORPUS_DIR] [--python PY] [--json]
       [--profile NAME]

`--profile claude-code` (or `codex`) reports the same corpus under an agent's own profile:
where that agent loads a skill skills-ref rejects, the reason is the agent's
documented leniency (docs/profiles.md, 3.8); anything else is unexplained.

skills-ref is run in its own interpreter (`--python`, default: this one) so the
project never depends on it. Each disagreement is classified by the deliberate
differences of docs/profiles.md; anything unclassified is printed as such and
makes the script exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "corpus"))

SKILLS_REF_SNIPPET = r"""
import json, sys
from pathlib import Path
from skills_ref.validator import validate
out = {}
for d in json.load(sys.stdin):
    try:
        out[d] = validate(Path(d))
    except Exception as exc:  # skills-ref crashes count as a rejection with the crash text
        out[d] = [f"crash: {type(exc).__name__}: {exc}"]
json.dump(out, sys.stdout)
"""


def skill_dirs(corpus: str) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(corpus):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", "node_modules"))
        if "SKILL.md" in filenames:
            found.append(os.path.abspath(dirpath))
    return sorted(found)


def run_skills_ref(python: str, dirs: list[str]) -> dict[str, list[str]]:
    proc = subprocess.run(
        [python, "-c", SKILLS_REF_SNIPPET],
        input=json.dumps(dirs),
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, list[str]] = json.loads(proc.stdout)
    return result


def run_ours(dirs: list[str], profile: str = "agentskills") -> dict[str, list[dict[str, Any]]]:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "skillstudio",
            "lint",
            "--profile",
            profile,
            "--format",
            "json",
            *dirs,
        ],
        capture_output=True,
        text=True,
    )
    data = json.loads(proc.stdout)
    errors: dict[str, list[dict[str, Any]]] = {d: [] for d in dirs}
    for diag in data["diagnostics"]:
        if diag["severity"] == "error":
            errors.setdefault(os.path.dirname(diag["path"]), []).append(diag)
    return errors


def classify(skill_dir: str, ref_errors: list[str], our_errors: list[dict[str, Any]]) -> str:
    """Name the deliberate difference that explains a disagreement, or 'UNEXPLAINED'."""
    with open(os.path.join(skill_dir, "SKILL.md"), "rb") as fh:
        raw = fh.read()
    text = raw.decode("utf-8", "replace")
    if ref_errors and not our_errors:
        joined = " ".join(ref_errors)
        if "Invalid YAML" in joined:
            fm = text.split("\n---", 1)[0]
            if any(ch in fm for ch in "[{") or "found a flow" in joined.lower():
                return "flow-style YAML (accepted on purpose, docs/profiles.md)"
            return "YAML that PyYAML reads but strictyaml rejects (docs/profiles.md)"
        if raw.startswith(b"\xef\xbb\xbf") or b"\r\n" in raw:
            return "BOM or CRLF (accepted on purpose, docs/profiles.md)"
        if "---" in text.split("\n---", 2)[1] if text.count("\n---") >= 1 else False:
            return "'---' inside a value (kept whole on purpose, docs/profiles.md)"
        return "UNEXPLAINED"
    codes = {e["code"] for e in our_errors}
    if codes <= {"field-type"}:
        return "YAML-typed value (PyYAML types it; strictyaml reads text)"
    return "UNEXPLAINED"


# What skills-ref rejects that an agent loads, by skills-ref's message (docs/profiles.md, 3.8).
LENIENT = {
    "claude-code": (
        ("Unexpected fields", "unknown keys: Claude Code ignores them (info)"),
        ("exceeds 1024", "long description: Claude Code cuts it at 1,536 in its listing"),
        ("must match", "the name is a display label; the folder names the command"),
        ("Invalid YAML", "YAML that PyYAML reads but strictyaml rejects (docs/profiles.md)"),
    ),
    "codex": (  # docs/profiles.md
        ("Unexpected fields", "Codex ignores keys other than name, description, metadata"),
        ("exceeds 1024", "Codex cuts a long description to 1,021 + '...'"),
        ("must match", "Codex does not compare the name with the folder"),
        ("must be lowercase", "Codex does not check the name's format"),
        ("consecutive hyphens", "Codex does not check the name's format"),
        ("invalid characters", "Codex does not check the name's format"),
        ("start or end with a hyphen", "Codex does not check the name's format"),
        ("Invalid YAML", "YAML that PyYAML reads but strictyaml rejects (docs/profiles.md)"),
    ),
}


def classify_lenient(profile: str, ref_errors: list[str], our_errors: list[dict[str, Any]]) -> str:
    """Why an agent's profile loads a skill skills-ref rejects, or 'UNEXPLAINED'."""
    if our_errors:
        return "UNEXPLAINED"
    joined = " ".join(ref_errors)
    reasons = [why for text, why in LENIENT.get(profile, ()) if text in joined]
    return "; ".join(reasons) or "UNEXPLAINED"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", default=DEFAULT_CORPUS)
    parser.add_argument("--python", default=sys.executable, help="interpreter with skills-ref")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", default="agentskills", help="agentskills or claude-code")
    args = parser.parse_args()
    if not os.path.isdir(args.corpus):
        print(f"no corpus at {args.corpus}; nothing to compare")
        return 0
    collections = sorted(
        d for d in os.listdir(args.corpus) if os.path.isdir(os.path.join(args.corpus, d))
    )
    rows = []
    unexplained = 0
    summary = []
    for collection in collections:
        dirs = skill_dirs(os.path.join(args.corpus, collection))
        ref = run_skills_ref(args.python, dirs)
        ours = run_ours(dirs, args.profile)
        agree = 0
        reasons: dict[str, int] = {}
        for d in dirs:
            ref_bad, our_bad = bool(ref[d]), bool(ours.get(d))
            if ref_bad == our_bad:
                agree += 1
                continue
            if args.profile == "agentskills":
                reason = classify(d, ref[d], ours.get(d, []))
            else:
                reason = classify_lenient(args.profile, ref[d], ours.get(d, []))
            reasons[reason] = reasons.get(reason, 0) + 1
            unexplained += reason == "UNEXPLAINED"
            rows.append(
                {
                    "skill": os.path.relpath(d, args.corpus),
                    "skills_ref": ref[d],
                    "skillstudio": [f"{e['code']}: {e['message']}" for e in ours.get(d, [])],
                    "reason": reason,
                }
            )
        summary.append(
            {
                "collection": collection,
                "skills": len(dirs),
                "agree": agree,
                "skills_ref_rejects": sum(bool(ref[d]) for d in dirs),
                "skillstudio_errors": sum(bool(ours.get(d)) for d in dirs),
                "differences": reasons,
            }
        )
    if args.json:
        print(json.dumps({"summary": summary, "differences": rows}, indent=2))
    else:
        print(f"profile {args.profile} against skills-ref 0.1.1")
        print(f"{'collection':<20} {'skills':>6} {'agree':>6} {'ref rejects':>11} {'we reject':>9}")
        for s in summary:
            print(
                f"{s['collection']:<20} {s['skills']:>6} {s['agree']:>6} "
                f"{s['skills_ref_rejects']:>11} {s['skillstudio_errors']:>9}"
            )
            for reason, count in s["differences"].items():
                print(f"    {count:>3} × {reason}")
        for row in rows:
            if row["reason"] == "UNEXPLAINED":
                print(
                    f"UNEXPLAINED {row['skill']}: ref={row['skills_ref']} ours={row['skillstudio']}"
                )
    return 1 if unexplained else 0


if __name__ == "__main__":
    raise SystemExit(main())
