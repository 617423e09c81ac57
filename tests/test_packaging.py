"""Packaging: the icon, the desktop entry, AppStream, MIME, pre-commit hooks (fast), and
the built bundle, tarball, .deb and wheel (marked `bundle`: run by CI through
`scripts/dev.sh test`, or by hand with `SKILLSTUDIO_BUNDLE=1 pytest -m bundle`)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml

from skillstudio import __version__
from skillstudio.gui.app import DESKTOP_ID

from .helpers import REPO

ROOT = Path(REPO)
LINUX = ROOT / "resources" / "linux"
ICONS = ROOT / "skillstudio" / "data" / "icons"
OFFSCREEN = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(LINUX / f"{DESKTOP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_icons_are_rendered_from_the_svg() -> None:
    """The PNGs in the package are what packaging/render_icons.py makes of the SVG."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "render_icons.py"), "--check"],
        env=OFFSCREEN,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    source = (ROOT / "resources" / "icons" / f"{DESKTOP_ID}.svg").read_bytes()
    assert (ICONS / f"{DESKTOP_ID}.svg").read_bytes() == source


def test_the_icon_check_tells_rounding_from_a_changed_picture() -> None:
    """The check passes a PNG whose edge pixels another CPU rounded by 1 (it failed on a
    fresh machine: 11 of 262,144 pixels), and fails one whose picture changed."""
    script = f"""
import sys
sys.path.insert(0, {str(ROOT / "packaging")!r})
import render_icons as r
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QGuiApplication, QImage
app = QGuiApplication([])
def png(image):
    data = QByteArray(); buffer = QBuffer(data); buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG"); return bytes(data.data())
rendered = r.render(128)
image = QImage.fromData(rendered).convertToFormat(QImage.Format.Format_ARGB32)
rounded, changed = image.copy(), image.copy()
for x in range(10):
    p = rounded.pixel(60 + x, 64)
    rounded.setPixel(60 + x, 64, p ^ 1)
for x in range(128):
    changed.setPixel(x, 64, 0xFF00FF00)
print(r.same_picture(rendered, rendered), r.same_picture(png(rounded), rendered),
      r.same_picture(png(changed), rendered))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], env=OFFSCREEN, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split() == ["True", "True", "False"], done.stdout + done.stderr


def test_desktop_entry_mime_and_metainfo_agree() -> None:
    entry = desktop_entry()
    assert entry["Icon"] == DESKTOP_ID
    assert entry["Exec"].split()[0] == "skillstudio"
    mime = ElementTree.parse(LINUX / f"{DESKTOP_ID}.xml").getroot()
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    types = mime.findall("m:mime-type", ns)
    assert [t.get("type") for t in types] == [entry["MimeType"].rstrip(";")]
    assert types[0].find("m:glob", ns).get("pattern") == "*.skill"  # type: ignore[union-attr]
    meta = ElementTree.parse(LINUX / f"{DESKTOP_ID}.metainfo.xml").getroot()
    assert meta.findtext("id") == DESKTOP_ID
    assert meta.findtext("launchable") == f"{DESKTOP_ID}.desktop"
    assert meta.find("releases/release").get("version") == __version__  # type: ignore[union-attr]


@pytest.mark.skipif(not shutil.which("desktop-file-validate"), reason="desktop-file-utils")
def test_desktop_entry_validates() -> None:
    done = subprocess.run(
        ["desktop-file-validate", str(LINUX / f"{DESKTOP_ID}.desktop")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstream not installed")
def test_metainfo_validates() -> None:
    done = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(LINUX / f"{DESKTOP_ID}.metainfo.xml")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout


def test_pre_commit_hooks_run_real_commands(tmp_path: Path) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    by_id = {hook["id"]: hook for hook in hooks}
    assert set(by_id) == {
        "skillstudio-lint",
        "skillstudio-lint-strict",
        "skillstudio-test",
        "skillstudio-diff",
    }
    for hook in hooks:
        assert hook["entry"].split()[0] == "skillstudio" and hook["language"] == "python"
    # What pre-commit would run: the entry with the staged SKILL.md files appended.
    from skillstudio.cli.main import main

    skill = tmp_path / "skills" / "bad" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: Bad Name\n---\nbody\n")
    good = ROOT / "skills" / "oasis" / "key_skills" / "commit" / "SKILL.md"
    args = by_id["skillstudio-lint"]["entry"].split()[1:]
    assert main([*args, str(good)]) == 0
    assert main([*args, str(good), str(skill)]) == 1
    assert "\\.md" in by_id["skillstudio-lint"]["files"]
    assert not by_id["skillstudio-test"]["pass_filenames"]


# -- the built artefacts ---------------------------------------------------------------
DIST = ROOT / "dist"


@pytest.fixture(scope="session")
def built() -> Path:
    """Build once per session (packaging/build.sh, about a minute on 2 cores)."""
    done = subprocess.run(
        ["bash", str(ROOT / "packaging" / "build.sh")],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return DIST / "skillstudio"


def frozen(bundle: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bundle / "skillstudio"), *args],
        env=OFFSCREEN,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.bundle
def test_frozen_program_runs_the_cli_and_the_app(built: Path, tmp_path: Path) -> None:
    assert frozen(built, "--version").stdout.strip() == f"skillstudio {__version__}"
    samples = built / "_internal" / "skillstudio" / "samples"
    lint = frozen(built, "lint", str(samples), "--format", "json")
    assert lint.returncode == 0, lint.stderr
    assert '"errors": 0' in lint.stdout.replace(" ", " ")
    suite = frozen(built, "test", cwd=samples / "oasis")
    assert suite.returncode == 0 and "0 failed" in suite.stdout, suite.stdout + suite.stderr
    shot = tmp_path / "smoke.png"
    smoke = frozen(built, "gui", "--smoke-test", "--screenshot", str(shot), cwd=tmp_path)
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert "smoke test: ok" in smoke.stdout and shot.stat().st_size > 10_000
    assert "skills in" in smoke.stdout and " 0 skills" not in smoke.stdout
    # A large folder is read by reader processes: the frozen program starts itself again
    # as one (multiprocessing's spawn, answered by freeze_support in the entry).
    from .benchmarks.synth import generate

    generate(str(tmp_path / "many"), 2100)
    large = frozen(built, "gui", "--smoke-test", str(tmp_path / "many"), cwd=tmp_path)
    assert large.returncode == 0, large.stdout + large.stderr
    assert "2,100 skills" in large.stdout and " 0 pieces read" not in large.stdout, large.stdout


@pytest.mark.bundle
def test_frozen_program_speaks_lsp_and_reaches_a_model(built: Path, tmp_path: Path) -> None:
    """The language server (pygls) and the live checks (httpx) are imported lazily by
    their commands: the bundle must hold them (a missing hidden import shows only here)."""
    import json

    def message(body: dict[str, object]) -> bytes:
        data = json.dumps(body).encode()
        return b"Content-Length: %d\r\n\r\n" % len(data) + data

    session = (
        message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
        + message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        + message({"jsonrpc": "2.0", "method": "exit"})
    )
    lsp = subprocess.run(
        [str(built / "skillstudio"), "lsp"], input=session, capture_output=True, timeout=60
    )
    assert lsp.returncode == 0, lsp.stderr[-2000:]
    assert b'"textDocumentSync"' in lsp.stdout and b'"id": 2' in lsp.stdout

    from .live_fake import FakeModel

    samples = built / "_internal" / "skillstudio" / "samples" / "agentskills"
    with FakeModel([("text", "none of them")]) as fake:
        ask = frozen(
            built, "eval", "--request", "hello", "--endpoint", fake.url, "--api", "openai",
            "--model", "m", "--runs", "1", "--yes", "--root", str(samples), "--format", "json",
            cwd=tmp_path,
        )  # fmt: skip
    assert ask.returncode in (0, 1), ask.stdout + ask.stderr
    assert len(fake.received) == 1 and '"unanswered": 0' in ask.stdout, ask.stdout


@pytest.mark.bundle
def test_tarball_and_deb_hold_the_bundle_and_desktop_files(built: Path) -> None:
    arch = os.uname().machine
    tarball = DIST / f"skillstudio-{__version__}-linux-{arch}.tar.gz"
    top = f"skillstudio-{__version__}-linux-{arch}"
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
    assert f"{top}/skillstudio" in names
    assert f"{top}/share/applications/{DESKTOP_ID}.desktop" in names
    assert f"{top}/share/icons/hicolor/256x256/apps/{DESKTOP_ID}.png" in names
    deb = next(DIST.glob(f"skillstudio_{__version__}_*.deb"))
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True)
    contents = listing.stdout
    for path in (
        "./opt/skillstudio/skillstudio",
        "./usr/bin/skillstudio -> /opt/skillstudio/skillstudio",
        f"./usr/share/applications/{DESKTOP_ID}.desktop",
        f"./usr/share/metainfo/{DESKTOP_ID}.metainfo.xml",
        f"./usr/share/mime/packages/{DESKTOP_ID}.xml",
        f"./usr/share/icons/hicolor/scalable/apps/{DESKTOP_ID}.svg",
        f"./usr/share/icons/hicolor/16x16/apps/{DESKTOP_ID}.png",
    ):
        assert path in contents, path
    assert "root/root" in contents and "./usr/local" not in contents
    control = subprocess.run(
        ["dpkg-deb", "-f", str(deb), "Version", "Depends"], capture_output=True, text=True
    ).stdout
    assert f"Version: {__version__}" in control
    for need in ("libgl1", "libegl1", "fontconfig-config", "fonts-dejavu-core"):
        assert need in control
    info = subprocess.run(["dpkg-deb", "-I", str(deb)], capture_output=True, text=True).stdout
    assert (
        "zstd" in info
        or subprocess.run(["ar", "t", str(deb)], capture_output=True, text=True).stdout.count(
            ".zst"
        )
        >= 1
    )


@pytest.mark.bundle
def test_wheel_carries_samples_and_icons(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    wheel = next(tmp_path.glob("skillstudio-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        entry_points = zf.read(f"skillstudio-{__version__}.dist-info/entry_points.txt").decode()
    samples = {
        p.relative_to(ROOT / "skills").as_posix()
        for p in (ROOT / "skills").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert {f"skillstudio/samples/{s}" for s in samples} <= names
    assert {f"skillstudio/data/icons/{p.name}" for p in ICONS.glob("*.png")} <= names
    assert "skillstudio = skillstudio.cli.entry:main" in entry_points
    assert "skillstudio-gui = skillstudio.cli.main:gui_main" in entry_points


# -- `scripts/dev.sh run` on a real X server ---------------------------------------------
def xwd_image(data: bytes) -> tuple[int, int, set[bytes]]:
    """Width, height and the distinct pixels (every other row and column) of a
    ZPixmap XWD dump of a true-colour screen (24 or 32 bits a pixel)."""
    fields = [int.from_bytes(data[i : i + 4], "big") for i in range(0, 100, 4)]
    header_size, width, height = fields[0], fields[4], fields[5]
    bytes_per_line, ncolors = fields[12], fields[19]
    step = bytes_per_line // width  # Xvfb stores 24-bit pixels in 4 bytes
    assert step in (3, 4), fields[11]
    start = header_size + 12 * ncolors
    pixels = {
        data[at : at + 3]
        for row in range(0, height, 2)
        for at in range(
            start + row * bytes_per_line, start + row * bytes_per_line + width * step, 2 * step
        )
    }
    return width, height, pixels


@pytest.mark.bundle
@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("Xvfb", "xwd", "xwininfo")),
    reason="needs Xvfb, xwd (x11-apps) and xwininfo (x11-utils)",
)
def test_dev_sh_run_opens_the_app_on_an_x_server(tmp_path: Path) -> None:
    """`scripts/dev.sh run` installs what Qt's xcb platform loads and opens the window on
    a real X server (Xvfb, not offscreen); the screen is then captured with xwd."""
    display = f":{90 + os.getpid() % 500}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=display, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    app = None
    try:
        import time

        deadline = time.monotonic() + 10
        while subprocess.run(
            ["xwininfo", "-root", "-display", display], env=env, capture_output=True
        ).returncode:
            assert time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.2)
        log = (tmp_path / "run.log").open("w")
        app = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "dev.sh"), "run"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 600  # the first run may install system packages
        while True:
            tree = subprocess.run(
                ["xwininfo", "-root", "-tree", "-display", display],
                env=env,
                capture_output=True,
                text=True,
            ).stdout
            if "SkillStudio" in tree:
                break
            assert app.poll() is None, (tmp_path / "run.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "no SkillStudio window after 600 s"
            time.sleep(0.5)
        time.sleep(3)  # the scan and the first paint
        shot = tmp_path / "screen.xwd"
        subprocess.run(
            ["xwd", "-root", "-silent", "-display", display, "-out", str(shot)],
            env=env,
            check=True,
            timeout=60,
        )
        width, height, pixels = xwd_image(shot.read_bytes())
        assert (width, height) == (1280, 800)
        # An empty X screen is one colour; the painted window has text (anti-aliased),
        # icons and the palette: hundreds.
        assert len(pixels) >= 50, len(pixels)
        assert app.poll() is None, (tmp_path / "run.log").read_text()[-3000:]
    finally:
        if app is not None and app.poll() is None:
            os.killpg(app.pid, 15)
            app.wait(timeout=30)
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.bundle
@pytest.mark.skipif(
    os.environ.get("SKILLSTUDIO_CHROOT") != "1" or os.geteuid() != 0,
    reason="a clean Debian chroot: root, network, ~5 min (SKILLSTUDIO_CHROOT=1)",
)
def test_dev_sh_run_opens_the_app_on_a_clean_debian(tmp_path: Path) -> None:
    """packaging/test_dev_run_in_chroot.sh: debootstrap, then `scripts/dev.sh run` under
    Xvfb in the chroot; the captured screen shows the painted window."""
    done = subprocess.run(
        ["bash", str(ROOT / "packaging" / "test_dev_run_in_chroot.sh"), str(tmp_path / "root")],
        capture_output=True,
        text=True,
        timeout=3000,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    width, height, pixels = xwd_image((DIST / "chroot-dev-run.xwd").read_bytes())
    assert (width, height) == (1280, 800) and len(pixels) >= 50, len(pixels)
