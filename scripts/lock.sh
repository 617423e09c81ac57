#!/usr/bin/env bash
# Re-resolve the locks in requirements/ from pyproject.toml's ranges (the newest releases
# they allow), with the hashes of every file of each release:
#   requirements/test.txt       the app, its test tools and setuptools: what scripts/dev.sh installs
#   requirements/app.txt        the app alone (what the .deb and tarball freeze)
#   requirements/packaging.txt  PyInstaller, for packaging/build.sh
# Then run `scripts/dev.sh test` and commit the locks with the suite green.
#   scripts/lock.sh                 newest allowed releases of everything
#   scripts/lock.sh -P pyyaml       only that package moves (uv's --upgrade-package)
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-}
if [ -z "$UV" ]; then
  if command -v uv >/dev/null 2>&1; then
    UV=uv
  else  # uv itself, in a throwaway venv, pinned so the lock's format does not drift
    [ -x .venv-uv/bin/uv ] || { python3 -m venv .venv-uv && .venv-uv/bin/pip install -q 'uv==0.13.9'; }
    UV=.venv-uv/bin/uv
  fi
fi
upgrade=(--upgrade)
if [ "${1:-}" = "-P" ] && [ -n "${2:-}" ]; then upgrade=(--upgrade-package "$2"); fi
compile() {  # compile OUT ARGS...: universal (every platform and Python >= 3.11), hashed
  local out=$1; shift
  "$UV" pip compile --quiet --universal --python-version 3.11 --generate-hashes \
    --custom-compile-command scripts/lock.sh "$@" -o "$out"
}
compile requirements/test.txt "${upgrade[@]}" pyproject.toml --extra test requirements/tools.in
# The others take the test lock's versions, so the app frozen is the app tested.
compile requirements/app.txt pyproject.toml requirements/tools.in -c requirements/test.txt
compile requirements/packaging.txt requirements/packaging.in -c requirements/test.txt
grep -hE '^[A-Za-z0-9]' requirements/test.txt | sed 's/ \\$//'
