#!/usr/bin/env bash
# Install the built .deb on a clean Debian 12 (debootstrap --variant=minbase) with apt,
# then run the installed program there: --version, lint on its own samples, and the app
# offscreen, saving a screenshot of the painted window to dist/chroot-smoke.png.
# Usage (as root, after packaging/build.sh): packaging/test_in_chroot.sh [CHROOT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
CHROOT=${1:-build/chroot-bookworm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEB=$(ls -t dist/skillstudio_*_amd64.deb | head -1)
say() { printf '\033[1m[chroot]\033[0m %s\n' "$*" >&2; }

command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
if [ ! -x "$CHROOT/usr/bin/apt-get" ]; then
  say "debootstrap --variant=minbase bookworm $CHROOT"
  rm -rf "$CHROOT"
  debootstrap --variant=minbase bookworm "$CHROOT" "$MIRROR" >/dev/null
fi
cleanup() { umount "$CHROOT/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$CHROOT/proc"
cp "$DEB" "$CHROOT/tmp/"
name=$(basename "$DEB")
say "apt-get install ./$name"
chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c "apt-get update -qq && apt-get install -y -qq ./tmp/$name >/dev/null && dpkg -s skillstudio | head -3"
run() { chroot "$CHROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root QT_QPA_PLATFORM=offscreen "$@"; }
say "skillstudio --version"
run skillstudio --version
say "skillstudio lint on the bundled samples"
run skillstudio lint /opt/skillstudio/_internal/skillstudio/samples
say "the app, offscreen"
run skillstudio gui --smoke-test --screenshot /tmp/chroot-smoke.png
cp "$CHROOT/tmp/chroot-smoke.png" dist/chroot-smoke.png
say "every Qt plugin finds its libraries (the bundle's own first, as the program runs them)"
missing=$(run env LD_LIBRARY_PATH=/opt/skillstudio/_internal:/opt/skillstudio/_internal/PySide6/Qt/lib \
  sh -c 'for f in $(find /opt/skillstudio/_internal -name "*.so*" -type f); do
           ldd "$f" 2>/dev/null | grep "not found" | sed "s|^|$f: |"; done' | sort -u)
if [ -n "$missing" ]; then
  printf '%s\n' "$missing"; say "missing libraries (above)"; exit 1
fi
say "ok; screenshot in dist/chroot-smoke.png"
