#!/usr/bin/env bash
# Sets up everything SkillStudio needs on a Debian/Ubuntu machine, then runs it.
#   scripts/dev.sh run    the app on the bundled skills/ (no display: the CLI on them)
#   scripts/dev.sh test   the whole test suite, in .venv installed from requirements/test.txt
#   scripts/dev.sh test --quick    the same without the slow corpus goldens (a developer's loop)
#   scripts/dev.sh test --latest   the suite in .venv-latest, built from the newest releases
#                         pyproject.toml allows: says what moved past the lock and what failed
#   scripts/dev.sh bench  the performance benchmarks (prints ratios)
# Safe to run again: each step checks first and does only what is missing.
# The locks in requirements/ are refreshed with scripts/lock.sh (README, Development).
set -euo pipefail
cd "$(dirname "$0")/.."

# Qt needs these even offscreen (PLATFORM.md); python3-venv for the virtualenv.
SYSTEM_PACKAGES=(python3 python3-venv python3-pip libgl1 libxkbcommon0 libegl1 libglib2.0-0
  libfreetype6 libfontconfig1 libdbus-1-3 fonts-dejavu-core)
# Under CI the test run also builds and checks the desktop packages (tests marked
# `bundle`): PyInstaller wants binutils, the .deb wants dpkg-dev's tools, and the
# desktop entry and AppStream file are checked with their validators.
if [ -n "${CI:-}" ] && [ "${1:-}" = "test" ]; then
  export SKILLSTUDIO_BUNDLE=${SKILLSTUDIO_BUNDLE:-1}
fi
if [ "${SKILLSTUDIO_BUNDLE:-}" = "1" ]; then
  # xvfb and x11-apps: the test that opens the app through `dev.sh run` on a real X
  # server and takes a screenshot of it (xwd).
  SYSTEM_PACKAGES+=(binutils dpkg desktop-file-utils appstream xvfb x11-apps x11-utils)
fi
# On a desktop the app needs the X11 / Wayland client libraries Qt's xcb and wayland
# platforms load: the same list the .deb depends on. `test` stays offscreen.
if [ "${1:-run}" = "run" ]; then
  while read -r pkg; do
    case "$pkg" in ''|'#'*) ;; *) SYSTEM_PACKAGES+=("$pkg") ;; esac
  done < packaging/desktop-libs.txt
fi

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }

install_system_packages() {
  command -v dpkg-query >/dev/null 2>&1 || { say "not a Debian system: skipping system packages"; return; }
  local missing=()
  for pkg in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  say "installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

find_python() {
  for py in python3.13 python3.12 python3.11 python3; do
    if command -v "$py" >/dev/null 2>&1 &&
       "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$py"; return
    fi
  done
  say "SkillStudio needs Python 3.11 or newer (Debian 12, Ubuntu 24.04 or later)"; exit 2
}

setup_venv() {
  if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys' 2>/dev/null; then
    say "creating .venv"
    rm -rf .venv
    "$(find_python)" -m venv .venv
  fi
  local stamp=.venv/.skillstudio-installed
  local want
  want=$(cat pyproject.toml requirements/test.txt | sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    say "installing SkillStudio and its test tools into .venv (requirements/test.txt)"
    # Exactly the tested versions, each file checked against the lock's hashes; then
    # the project itself, built by the locked setuptools (no isolated build env that
    # would fetch the newest one).
    .venv/bin/python -m pip install -q --require-hashes -r requirements/test.txt
    .venv/bin/python -m pip install -q --no-deps --no-build-isolation -e .
    echo "$want" > "$stamp"
  fi
}

# The newest releases pyproject.toml allows, in a venv of their own made afresh each
# time: a release that breaks the suite shows here before it reaches a lock.
setup_latest_venv() {
  say "building .venv-latest from the newest releases pyproject.toml allows"
  rm -rf .venv-latest
  "$(find_python)" -m venv .venv-latest
  .venv-latest/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  .venv-latest/bin/python -m pip install -q -e '.[test]'
}

# Each package whose version in .venv-latest differs from requirements/test.txt.
latest_changes() {
  .venv-latest/bin/python - <<'PY'
import re
from importlib import metadata
locked = {}
for line in open("requirements/test.txt", encoding="utf-8"):
    found = re.match(r"([A-Za-z0-9._-]+)==([^ ;\\]+)", line)
    if found:
        locked[re.sub(r"[-_.]+", "-", found[1]).lower()] = found[2]
installed = {
    re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower(): d.version
    for d in metadata.distributions()
}
tools = {"pip", "setuptools", "wheel", "skillstudio"}  # the venv's own, not the project's
moved = [
    f"  {name}: {locked[name]} (locked) -> {installed[name]}"
    for name in sorted(locked)
    if name in installed and installed[name] != locked[name] and name not in tools
]
new = [
    f"  {name} {installed[name]} (not in the lock)"
    for name in sorted(set(installed) - set(locked) - tools)
]
if moved or new:
    print("differs from the lock:")
    print("\n".join(moved + new))
else:
    print("every package is at its locked version: no newer release is allowed yet")
PY
}

# skills-ref 0.1.1 in its own venv: the reference the conformance test and the
# benchmarks compare against. Best effort; the tests that need it skip without it.
setup_skills_ref() {
  if [ ! -x .venv-skillsref/bin/python ] ||
     ! .venv-skillsref/bin/python -c 'import skills_ref' 2>/dev/null; then
    say "installing skills-ref 0.1.1 (reference for conformance and benchmarks)"
    rm -rf .venv-skillsref
    { "$(find_python)" -m venv .venv-skillsref &&
      .venv-skillsref/bin/python -m pip install -q skills-ref==0.1.1; } >/dev/null 2>&1 ||
      { say "skills-ref could not be installed; its comparisons will be skipped"; return; }
  fi
  export SKILLS_REF_PYTHON="$PWD/.venv-skillsref/bin/python"
  # Its source distribution ships its own tests, which tests/conformance runs against
  # the skillstudio CLI (skipped without it).
  if [ ! -f .venv-skillsref/skills_ref-0.1.1.tar.gz ]; then
    say "downloading the skills-ref 0.1.1 sdist (its test suite, for the conformance test)"
    .venv-skillsref/bin/python -m pip download -q --no-deps --no-binary :all: \
      skills-ref==0.1.1 -d .venv-skillsref >/dev/null 2>&1 ||
      say "the skills-ref sdist could not be downloaded; its suite will be skipped"
  fi
}

cmd=${1:-run}
shift || true
install_system_packages
setup_venv
case "$cmd" in
  run)
    if { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } &&
       .venv/bin/python -c 'import skillstudio.gui.app' 2>/dev/null; then
      exec .venv/bin/skillstudio gui skills "$@"
    fi
    say "no display (or no app yet): showing the command line on skills/"
    .venv/bin/skillstudio list
    exec .venv/bin/skillstudio lint skills "$@"
    ;;
  test)
    setup_skills_ref
    latest=0; args=()
    for arg in "$@"; do
      case "$arg" in
        --latest) latest=1 ;;
        # The corpus goldens are most of the suite's time; CI and a plain `test` run them.
        --quick) args+=(-m "not golden") ;;
        *) args+=("$arg") ;;
      esac
    done
    if [ "$latest" = 1 ]; then
      setup_latest_venv
      say "packages in .venv-latest against requirements/test.txt"
      latest_changes
      # The bundle tests freeze .venv (the locked one): not what this run is about.
      unset SKILLSTUDIO_BUNDLE
      set +e
      .venv-latest/bin/python -m pytest -p no:cacheprovider -q "${args[@]}"
      rc=$?
      set -e
      if [ "$rc" = 0 ]; then say "the newest releases pass the suite"
      else say "the newest releases FAIL the suite (pytest exit $rc): see the failures above"; fi
      exit "$rc"
    fi
    exec .venv/bin/python -m pytest "${args[@]}"
    ;;
  bench)
    setup_skills_ref
    exec .venv/bin/python tests/benchmarks/run.py "$@"
    ;;
  *)
    echo "usage: scripts/dev.sh run|test|bench [args...]" >&2; exit 2 ;;
esac
