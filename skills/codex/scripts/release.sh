#!/bin/sh
# The sample project's own release script, which its `deploy` skill tells Codex to run
# (`scripts/release.sh <tag> <environment>`). A stand-in: it says what it would do.
echo "would deploy ${1:?tag} to ${2:?environment}: https://example.invalid/releases/$1"
