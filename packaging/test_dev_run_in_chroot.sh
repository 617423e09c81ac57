#!/usr/bin/env bash
# The README's first command on a clean Debian 12 (debootstrap --variant=minbase), on a
# real X server: copy this checkout (git HEAD) into the chroot, start Xvfb there, run
# `scripts/dev.sh run` (which installs what it needs, the X11/Wayland client libraries
# included) and capture the screen once the SkillStudio window is up, to
# dist/chroot-dev-run.xwd. Xvfb and xwd are test tools, installed before dev.sh runs.
# Usage (as root): packaging/test_dev_run_in_chroot.sh [CHROOT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
CHROOT=${1:-build/chroot-dev-run}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
say() { printf '\033[1m[chroot]\033[0m %s\n' "$*" >&2; }

command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
if [ ! -x "$CHROOT/usr/bin/apt-get" ]; then
  say "debootstrap --variant=minbase bookworm $CHROOT"
  rm -rf "$CHROOT"
  debootstrap --variant=minbase bookworm "$CHROOT" "$MIRROR" >/dev/null
fi
cleanup() {
  umount "$CHROOT/proc" "$CHROOT/dev/shm" 2>/dev/null || true
  # each started in its own session: the whole group (dev.sh execs the app) ends
  [ -n "${APP_PID:-}" ] && kill -- "-$APP_PID" 2>/dev/null || true
  [ -n "${X_PID:-}" ] && kill -- "-$X_PID" 2>/dev/null || true
  sleep 1
}
trap cleanup EXIT
mount -t proc proc "$CHROOT/proc"
mkdir -p "$CHROOT/dev/shm" && mount -t tmpfs shm "$CHROOT/dev/shm"
cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
rm -rf "$CHROOT/src" && mkdir -p "$CHROOT/src"
git archive HEAD | tar -x -C "$CHROOT/src"
in_chroot() { chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  DEBIAN_FRONTEND=noninteractive "$@"; }
say "test tools only: xvfb, x11-apps (xwd), x11-utils (xwininfo)"
in_chroot sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends \
  xvfb x11-apps x11-utils >/dev/null"
setsid chroot "$CHROOT" /usr/bin/env -i PATH=/usr/bin:/bin sh -c "Xvfb :77 -screen 0 1280x800x24 -nolisten tcp >/tmp/xvfb.log 2>&1" &
X_PID=$!
sleep 2
say "scripts/dev.sh run (DISPLAY=:77)"
# A host whose pip needs its own CA bundle (a TLS-inspecting proxy) lends it to the chroot.
PIP_ENV=()
if [ -n "${PIP_CERT:-}" ] && [ -f "$PIP_CERT" ]; then
  cp "$PIP_CERT" "$CHROOT/etc/host-ca.crt"
  PIP_ENV=(PIP_CERT=/etc/host-ca.crt)
fi
setsid chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  DEBIAN_FRONTEND=noninteractive "${PIP_ENV[@]}" sh -c "cd /src && DISPLAY=:77 scripts/dev.sh run >/tmp/dev-run.log 2>&1" &
APP_PID=$!
for _ in $(seq 1 1200); do
  if in_chroot xwininfo -root -tree -display :77 2>/dev/null | grep -q SkillStudio; then
    break
  fi
  if ! kill -0 "$APP_PID" 2>/dev/null; then
    tail -40 "$CHROOT/tmp/dev-run.log"; say "dev.sh run ended without a window"; exit 1
  fi
  sleep 1
done
in_chroot xwininfo -root -tree -display :77 | grep SkillStudio || { say "no window"; exit 1; }
sleep 5
in_chroot xwd -root -silent -display :77 -out /tmp/screen.xwd
mkdir -p dist && cp "$CHROOT/tmp/screen.xwd" dist/chroot-dev-run.xwd
cp "$CHROOT/tmp/dev-run.log" dist/chroot-dev-run.log
say "ok: window up; screen in dist/chroot-dev-run.xwd, log in dist/chroot-dev-run.log"
