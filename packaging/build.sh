#!/usr/bin/env bash
# Build SkillStudio as a desktop program (Linux x86_64):
#   dist/skillstudio/                                  the one-folder PyInstaller bundle
#   dist/skillstudio-<version>-linux-<arch>.tar.gz    that folder, with share/ (desktop entry, icons)
#   dist/skillstudio_<version>_<debarch>.deb          /opt/skillstudio, /usr/bin/skillstudio, share/
# Usage: packaging/build.sh   (uses .venv, made by scripts/dev.sh; PYTHON=... to choose another)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
ID=io.github.skillstudio.SkillStudio
say() { printf '\033[1m[build]\033[0m %s\n' "$*" >&2; }

"$PY" -c 'import PyInstaller' 2>/dev/null || {
  say "installing PyInstaller (requirements/packaging.txt)"
  "$PY" -m pip install -q --require-hashes -r requirements/packaging.txt
}
# What is frozen is what was tested: every package of the app's lock must be installed at
# its locked version (scripts/dev.sh installs them; requirements/app.txt lists them).
say "checking the environment against requirements/app.txt"
"$PY" - <<'PY'
import re
import sys
from importlib import metadata

wrong = []
for line in open("requirements/app.txt", encoding="utf-8"):
    found = re.match(r"([A-Za-z0-9._-]+)==([^ ;\\]+)(?: ; (.*))?", line)
    marker = (found[3] or "") if found else ""
    if not found or "win32" in marker or "darwin" in marker:  # not this platform's
        continue
    try:
        have = metadata.version(found[1])
    except metadata.PackageNotFoundError:
        have = "missing"
    if have != found[2]:
        wrong.append(f"{found[1]} {have} (the lock says {found[2]})")
if wrong:
    sys.exit("not the locked versions (run scripts/dev.sh test first): " + ", ".join(wrong))
PY
VERSION=$("$PY" -c 'import skillstudio; print(skillstudio.__version__)')
ARCH=$(uname -m)
case "$ARCH" in x86_64) DEBARCH=amd64 ;; aarch64) DEBARCH=arm64 ;; *) DEBARCH=$ARCH ;; esac

say "checking the icons are rendered from resources/icons"
QT_QPA_PLATFORM=offscreen "$PY" packaging/render_icons.py --check

say "freezing with PyInstaller (one folder)"
rm -rf dist/skillstudio build/pyinstaller
"$PY" -m PyInstaller --noconfirm --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/skillstudio.spec

# share/: what a desktop needs to list the app, its icon and the .skill type.
share() {  # share DEST_ROOT
  local dest=$1
  install -Dm644 "resources/linux/$ID.desktop" "$dest/applications/$ID.desktop"
  install -Dm644 "resources/linux/$ID.metainfo.xml" "$dest/metainfo/$ID.metainfo.xml"
  install -Dm644 "resources/linux/$ID.xml" "$dest/mime/packages/$ID.xml"
  install -Dm644 "resources/icons/$ID.svg" "$dest/icons/hicolor/scalable/apps/$ID.svg"
  for png in skillstudio/data/icons/*.png; do
    local size
    size=$(basename "$png" .png)
    install -Dm644 "$png" "$dest/icons/hicolor/${size}x${size}/apps/$ID.png"
  done
}

say "tarball"
TAR_NAME=skillstudio-$VERSION-linux-$ARCH
rm -rf "build/$TAR_NAME" && mkdir -p "build/$TAR_NAME"
cp -a dist/skillstudio/. "build/$TAR_NAME/"
share "build/$TAR_NAME/share"
tar -C build -czf "dist/$TAR_NAME.tar.gz" "$TAR_NAME"

say "Debian package"
DEB_ROOT=build/deb
rm -rf "$DEB_ROOT" && mkdir -p "$DEB_ROOT/DEBIAN" "$DEB_ROOT/opt" "$DEB_ROOT/usr/bin"
cp -a dist/skillstudio "$DEB_ROOT/opt/skillstudio"
ln -s /opt/skillstudio/skillstudio "$DEB_ROOT/usr/bin/skillstudio"
share "$DEB_ROOT/usr/share"
SIZE=$(du -sk --exclude=DEBIAN "$DEB_ROOT" | cut -f1)
DEPENDS=$(grep -v '^#' packaging/desktop-libs.txt | paste -sd, - | sed 's/,/, /g')
cat > "$DEB_ROOT/DEBIAN/control" <<CONTROL
Package: skillstudio
Version: $VERSION
Architecture: $DEBARCH
Maintainer: The SkillStudio developers <skillstudio@users.noreply.github.com>
Installed-Size: $SIZE
Depends: $DEPENDS
Section: devel
Priority: optional
Homepage: https://pypi.org/project/skillstudio/
Description: edit, validate and test agent skills offline
 SkillStudio is a desktop app and a command-line tool for people who write
 agent skills (folders with a SKILL.md). It validates skills for six skill
 systems, shows which skill a request selects and why, previews exactly what
 the agent is shown, and runs hand-made request suites, offline.
CONTROL
find "$DEB_ROOT" -type d -exec chmod 755 {} +
DEB=dist/skillstudio_${VERSION}_${DEBARCH}.deb
dpkg-deb --root-owner-group -Zzstd --build "$DEB_ROOT" "$DEB" >/dev/null

say "built:"
du -sh dist/skillstudio "dist/$TAR_NAME.tar.gz" "$DEB" >&2
