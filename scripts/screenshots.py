"""Save screenshots of the welcome page, the main window, Problems, the Try a Request
panel (a heuristic ranking, a selected skill, each tier), a form with an error, the
preview, the suite runner, Ask a model (a run of two turns, Test connection, Suites ›
Ask a model) and Add as test case on the bundled skills, in the light and dark palettes, at
the two laptop screens the app is checked on, 1366x768 and 1024x768: every file is
`<stem>-<light|dark>-<1366|1024>.png`.

Ask a model asks a loopback fake model (tests/live_fake.py, on 127.0.0.1: nothing
leaves the machine), "Request as" the captured Claude Code request of the tests' data
saved as a template in that home folder.

The app runs with a home folder of its own (HOME set to a new temporary folder); each
shot opens a fresh copy of the samples there as ~/skills (the demo collection as
~/team-skills), so the welcome page's recent folders and "Open:" line read "~/skills"
as they would on a user's machine (the app shows folders under the home folder that
way), not this machine's checkout or temporary paths.

The panel layout (issue 39) is shot at 1024x768, 1280x800 and 1366x768 too, from a
fresh window each (first-run sizes):
`layout-<try|headroom|ask|back|suites|problems|where|changes>-<scheme>-<width>.png`.

Usage: QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [OUT_DIR [layout]]
(`layout`: only the panel layout's shots)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QScrollArea

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from skillstudio.core.live.cache import AnswerCache  # noqa: E402
from skillstudio.core.live.locate import locate  # noqa: E402
from skillstudio.core.live.templates import Template, encode_template, named_path  # noqa: E402
from skillstudio.core.projects.suite_writing import add_case  # noqa: E402
from skillstudio.gui.infra.theme import apply_scheme  # noqa: E402
from skillstudio.gui.panels.workbench.add_case import AddCaseDialog, CaseQuestion  # noqa: E402
from skillstudio.gui.window.main_window import MainWindow  # noqa: E402


def new_window(settings: QSettings) -> MainWindow:
    """A window that opens no tab kept from the last shot (each shot opens a fresh
    ~/skills, which the app would take for the folder last closed) and discards its
    edits on close (a question would block an offscreen run)."""
    settings.remove("open_tabs")
    window = MainWindow(settings)
    window.dialogs.ask_save = lambda names: "discard"  # type: ignore[method-assign]
    return window


def open_and_wait(window: MainWindow, folder: str) -> None:
    loop = QEventLoop()
    window.scan_finished.connect(loop.quit)
    if window.open_path(folder):
        loop.exec()


def main() -> int:
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "docs"))
    os.makedirs(out, exist_ok=True)
    home = tempfile.mkdtemp(prefix="skillstudio-home-")
    os.environ["HOME"] = home  # before the app reads it (see the module's docstring)
    try:
        return take_all(out, sys.argv[2] if len(sys.argv) > 2 else "")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def fresh_samples() -> str:
    """A new copy of the samples as ~/skills (each shot changes its own)."""
    copy = os.path.join(os.path.expanduser("~"), "skills")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, "..", "skills"), copy)
    return copy


def take_all(out: str, only: str = "") -> int:
    """Every shot, or only the group `only` ("layout")."""
    app = QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    for name in ("light", "dark"):
        apply_scheme(app, name)
        for width, height in LAYOUT_SIZES:
            layout_shots(app, settings, out, name, width, height)
    if only == "layout":
        return 0
    for name in ("light", "dark"):
        apply_scheme(app, name)
        for width, height in PANEL_SIZES:
            shell_shots(app, settings, out, name, width, height).close()
            target = os.path.join(out, f"problems-{name}-{width}.png")
            problems_shot(app, settings, target, width, height)
            target = os.path.join(out, f"suites-{name}-{width}.png")
            suites_shot(app, settings, target, width, height)
        panel_shots(app, settings, out, name)
        likely_shots(app, settings, out, name)
        live_shots(app, settings, out, name)
    return 0


def shell_shots(
    app: QApplication, settings: QSettings, out: str, name: str, width: int, height: int
) -> MainWindow:
    """The welcome page (no folder yet, the samples among the recent folders), then the
    samples with two same-named skills open; first-run dock sizes."""
    suffix = f"-{width}"
    samples = fresh_samples()
    settings.setValue("recent", [samples])
    window = new_window(settings)
    window.resize(width, height)
    window.show()
    app.processEvents()
    save(window, os.path.join(out, f"welcome-{name}{suffix}.png"))
    open_and_wait(window, samples)
    for path in sorted(p for r in window.context.registries for p in r.by_path):
        if path.endswith(os.path.join("code-review", "SKILL.md")) and "oasis" not in path:
            window.open_skill(path, 7)
    window.problems_dock.raise_()
    save(window, os.path.join(out, f"main-window-{name}{suffix}.png"))
    return window


def problems_shot(
    app: QApplication, settings: QSettings, target: str, width: int, height: int
) -> None:
    """Problems grouped: a copy of the samples where three skills carry the same unknown
    field and one a bad name; at 1024 px with "Current skill only" on."""
    copy = fresh_samples()
    for skill in ("code-review", "commit", "explain-error"):
        path = os.path.join(copy, "oasis", "key_skills", skill, "SKILL.md")
        with open(path, encoding="utf-8") as file:
            text = file.read()
        text = text.replace("---\n", "---\ncolour: teal\n", 1)
        if skill == "commit":
            text = text.replace("id: commit", "id: Commit_Helper")
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    window = new_window(settings)
    window.resize(width, height)
    window.show()
    open_and_wait(window, copy)
    window.open_skill(os.path.join(copy, "oasis", "key_skills", "commit", "SKILL.md"))
    window.problems.current_only.setChecked(width < WIDE)
    window.problems.view.expandAll()
    wait_ms(app, 600)  # the opened skill's fields show their messages once validated
    save(window, target)
    window.close()


def save(window: MainWindow, target: str) -> None:
    QApplication.processEvents()
    window.grab().save(target)
    print(target)


def suites_shot(
    app: QApplication, settings: QSettings, target: str, width: int, height: int
) -> None:
    """The suite runner on a copy of the samples whose oasis suite has one failing case
    (at 1024 px with "Failures only" on)."""
    copy = fresh_samples()
    suite = os.path.join(copy, "oasis", "suites", "oasis.yaml")
    add_case(suite, "tidy up my history", ["commit"])
    window = new_window(settings)
    window.resize(width, height)
    window.show()
    open_and_wait(window, copy)
    window.suites_dock.show()
    window.suites_dock.raise_()
    window.resizeDocks([window.suites_dock], [height * 11 // 20], Qt.Orientation.Vertical)
    app.processEvents()
    window.suite_runner.open_suite(suite)
    window.suite_runner.run_to_end()
    wait_for(app, lambda: window.suite_runner.leaks is not None)  # the leaking cases marked
    window.suite_runner.failures_box.setChecked(width < WIDE)  # the failure in view
    app.processEvents()
    window.grab().save(target)
    print(target)
    window.close()


# -- the panel layout on first-run sizes: Try a Request in use, Problems, Where it loads --
LAYOUT_SIZES = ((1024, 768), (1280, 800), (1366, 768))


def layout_shots(
    app: QApplication, settings: QSettings, out: str, scheme: str, width: int, height: int
) -> None:
    """A fresh window (no sizes kept from another shot) on samples where three skills
    carry an unknown field and one a bad name: Try a Request in use (Ctrl+K), its
    Headroom and Ask a model tabs, View › Back to the Editor, Suites (the project's
    suite run), then Problems over the whole project, a plugin
    skill's Where it loads tab, and (the samples made a git repository, a description
    edited since) File › Compare With… HEAD in the Changes panel."""
    settings.remove("state")
    settings.remove("panel_heights")
    copy = fresh_samples()
    for skill in ("code-review", "commit", "explain-error"):
        path = os.path.join(copy, "oasis", "key_skills", skill, "SKILL.md")
        with open(path, encoding="utf-8") as file:
            text = file.read().replace("---\n", "---\ncolour: teal\n", 1)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text.replace("id: commit", "id: Commit_Helper"))
    window = new_window(settings)
    window.resize(width, height)
    window.show()
    open_and_wait(window, copy)
    plugin = os.path.join(copy, "claude-code", "plugins", "review-kit", "skills")
    skill = os.path.join(plugin, "security-review", "SKILL.md")
    editor = window.open_skill(skill)
    window.focus_query_panel()
    panel = window.query_panel
    panel.project_box.setCurrentIndex(
        next(i for i, p in enumerate(window.context.projects) if p.profile.name == "oasis")
    )
    panel.load_request("code review please, find bugs in my commit")
    wait_ms(app, 300)  # the panel's height given once the tab group has switched
    panel.update_now()
    panel.details.setCurrentIndex(0)
    save_shot(window, out, f"layout-try-{scheme}-{width}")
    for page, stem in ((panel.headroom, "headroom"), (panel.live_page, "ask")):
        panel.details.setCurrentWidget(page)
        wait_ms(app, 600)  # Headroom is worked out off the GUI thread after a pause
        save_shot(window, out, f"layout-{stem}-{scheme}-{width}")
    panel.details.setCurrentIndex(0)
    window.back_to_editor()  # View › Back to the Editor: the ranking alone, lower
    wait_ms(app, 300)
    save_shot(window, out, f"layout-back-{scheme}-{width}")
    window.suites_dock.show()
    window.suites_dock.raise_()  # the suites of the samples run once shown
    wait_for(app, lambda: window.suite_runner.report is not None)
    wait_ms(app, 300)
    save_shot(window, out, f"layout-suites-{scheme}-{width}")
    window.problems_dock.raise_()
    window.problems.current_only.setChecked(False)
    window.problems.view.expandAll()
    wait_ms(app, 300)
    save_shot(window, out, f"layout-problems-{scheme}-{width}")
    if editor is not None:
        editor.views.setCurrentIndex(editor.views.count() - 1)  # Where it loads
        wait_ms(app, 800)  # worked out off the GUI thread after a pause
        save_shot(window, out, f"layout-where-{scheme}-{width}")
    if committed(copy):
        changes = window.change_panel
        if changes.dock is not None:
            changes.dock.show()
            changes.dock.raise_()
        changes.compare("HEAD", False, copy)
        wait_for(app, lambda: changes.comparison is not None)
        wait_ms(app, 300)
        save_shot(window, out, f"layout-changes-{scheme}-{width}")
    window.close()


def committed(folder: str) -> bool:
    """`folder` made a git repository of one commit, then code-review's description
    edited (a change for Compare With… to report); False without git."""
    git = ["git", "-C", folder, "-c", "user.name=shots", "-c", "user.email=shots@example.com"]
    try:
        for words in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "samples"]):
            subprocess.run([*git, *words], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    path = os.path.join(folder, "oasis", "key_skills", "code-review", "SKILL.md")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    with open(path, "w", encoding="utf-8") as file:
        file.write(text.replace("description:", "description: Tidies imports.", 1))
    return True


# -- Try a Request, its tiers, the form and the preview, at two window sizes -------------
PANEL_SIZES = ((1366, 768), (1024, 768))  # the laptop screens of issue 30
WIDE = 1366
PANEL_SHOTS = (  # (file stem, profile, request, tier shown or None: the explanation)
    ("try-heuristic", "agentskills", "review this SQL migration for locking problems", None),
    ("try-selected", "oasis", "code review of the tests", None),
    ("tier-0", "oasis", "code review please, find bugs in my commit", 0),
    ("tier-1", "toolsets", "greet Bob and translate the greeting", 1),
    ("tier-2", "pegasus", "deploy the release to staging", 2),
    ("tier-3", "oasis", "code review please, find bugs in my commit", 3),
)


def panel_shots(app: QApplication, settings: QSettings, out: str, scheme: str) -> None:
    """Try a Request (heuristic ranking, a selected skill, each tier), a form with an
    error and the preview, as `<stem>-<scheme>-<width>.png`."""
    copy = fresh_samples()
    window = new_window(settings)
    window.show()
    open_and_wait(window, copy)
    panel = window.query_panel
    for width, height in PANEL_SIZES:
        window.resize(width, height)
        for stem, profile, request, tier in PANEL_SHOTS:
            window.focus_query_panel()
            window.resizeDocks([window.query_dock], [height * 11 // 20], Qt.Orientation.Vertical)
            panel.project_box.setCurrentIndex(
                next(i for i, p in enumerate(window.context.projects) if p.profile.name == profile)
            )
            panel.load_request(request)
            chooses = panel.project is not None and panel.project.profile.model_chooses
            wait_for(app, lambda c=chooses: not c or panel.likely is not None)  # built off-thread
            panel.update_now()
            if tier is None:
                panel.details.setCurrentIndex(0)
            else:
                panel.show_tier(tier)
            app.processEvents()
            save_shot(window, out, f"{stem}-{scheme}-{width}")
    skill = os.path.join(copy, "agentskills", ".agents", "skills", "sql-review", "SKILL.md")
    editor = window.open_skill(skill)
    if editor is not None:
        name = editor.form.fields["name"].widget
        if isinstance(name, QLineEdit):
            name.setText("SQL--Review")
            name.textEdited.emit("SQL--Review")
        for width, height in PANEL_SIZES:
            window.resize(width, height)
            editor.views.setCurrentIndex(0)
            window.problems_dock.raise_()
            window.resizeDocks([window.problems_dock], [height // 4], Qt.Orientation.Vertical)
            wait_ms(app, 600)  # validation runs after a pause in typing
            save_shot(window, out, f"form-error-{scheme}-{width}")
            editor.views.setCurrentWidget(editor.preview)
            wait_ms(app, 600)  # the preview renders on a worker thread
            save_shot(window, out, f"preview-{scheme}-{width}")
    window.close()


# -- likely candidates, "competes with", the overlap map (issue 19) ---------------------
DEMO_SKILLS = {  # a small collection where the model chooses, with deliberate overlaps
    "pytest-writer": "Writes pytest unit tests for Python functions, with fixtures and "
    "parametrized cases. Use when asked to add tests for Python code.",
    "python-test-author": "Writes unit tests for Python functions with pytest, fixtures "
    "and parametrized cases.",
    "unit-test-fixer": "Fixes failing pytest unit tests in Python projects and explains why "
    "they failed.",
    "pr-review": "Reviews a pull request diff for bugs, security holes and style before merging.",
    "merge-check": "Checks a pull request diff for bugs and security holes before merging.",
    "release-notes": "Drafts release notes and the changelog from merged pull requests, "
    "grouped by feature and fix.",
    "changelog-writer": "Writes the changelog and release notes from the pull requests "
    "merged since the last tag.",
    "sql-review": "Reviews SQL queries and migrations for correctness, index use and "
    "locking risks.",
    "docker-build": "Builds small Docker images with multi-stage Dockerfiles and layer caching.",
    "terraform-plan": "Reads a Terraform plan and explains which cloud resources change "
    "and what could break.",
    "api-docs": "Writes reference documentation for a REST API from its OpenAPI file.",
    "commit-message": "Writes a commit message in the team's style from the staged diff.",
}


def demo_collection() -> str:
    folder = os.path.join(os.path.expanduser("~"), "team-skills")
    with open(os.path.join(_mkdir(folder), "skillstudio.yaml"), "w", encoding="utf-8") as fh:
        fh.write("profile: agentskills\nroots: [skills]\n")
    for name, description in DEMO_SKILLS.items():
        target = os.path.join(_mkdir(os.path.join(folder, "skills", name)), "SKILL.md")
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(f"---\nname: {name}\ndescription: {description}\n---\n\n# {name}\n")
    return folder


def _mkdir(path: str) -> str:
    os.makedirs(path, exist_ok=True)
    return path


def wait_for(app: QApplication, done: Callable[[], bool], limit_ms: int = 20_000) -> None:
    """Run the event loop until `done()` (work off the GUI thread has landed)."""
    deadline = time.monotonic() + limit_ms / 1000
    while not done() and time.monotonic() < deadline:
        wait_ms(app, 20)


def likely_shots(app: QApplication, settings: QSettings, out: str, scheme: str) -> None:
    """Try a Request's bands and term weights with "would pick X instead", the form's
    "competes with" line, and the overlap map (pairs and matrix), on a demo collection."""
    folder = demo_collection()
    window = new_window(settings)
    window.show()
    open_and_wait(window, folder)
    panel = window.query_panel
    skills = os.path.join(folder, "skills")
    for width, height in PANEL_SIZES:
        window.resize(width, height)
        window.open_skill(os.path.join(skills, "release-notes", "SKILL.md"))  # being edited
        window.focus_query_panel()
        window.resizeDocks([window.query_dock], [height * 11 // 20], Qt.Orientation.Vertical)
        panel.for_open.setChecked(True)  # the request is meant for release-notes
        panel.query.setText("write the changelog for this release from the merged PRs")
        panel.query.home(False)  # the request's start in the picture, as a reader looks
        wait_for(app, lambda: panel.likely is not None)
        panel.update_now()
        panel.details.setCurrentIndex(0)
        app.processEvents()
        save_shot(window, out, f"try-likely-{scheme}-{width}")
        editor = window.open_skill(os.path.join(skills, "python-test-author", "SKILL.md"))
        line = editor.form.findChild(QLabel, "competes-with") if editor is not None else None
        if editor is not None and line is not None:
            editor.views.setCurrentIndex(0)
            window.problems_dock.raise_()
            window.resizeDocks([window.problems_dock], [height // 4], Qt.Orientation.Vertical)
            wait_for(app, lambda label=line: "unit-test-fixer" in label.text())
            save_shot(window, out, f"competes-{scheme}-{width}")
        window.overlap_dock.show()
        window.overlap_dock.raise_()
        window.resizeDocks([window.overlap_dock], [height * 11 // 20], Qt.Orientation.Vertical)
        wait_for(app, lambda: bool(window.overlap_map.pairs))
        window.overlap_map.views.setCurrentIndex(0)
        app.processEvents()
        save_shot(window, out, f"overlap-pairs-{scheme}-{width}")
        window.overlap_map.views.setCurrentIndex(1)
        app.processEvents()
        save_shot(window, out, f"overlap-matrix-{scheme}-{width}")
    window.close()
    shutil.rmtree(folder, ignore_errors=True)


# -- Ask a model, Test connection, Suites › Ask a model, Add as test case (issue 37) -----
CAPTURED = os.path.join(HERE, "..", "tests", "data", "captured", "claude-code-request.json")
LIVE_REQUEST = "check this diff for security problems"


def save_captured_template() -> None:
    """The tests' captured Claude Code request, saved as the template `claude-code`."""
    import json

    with open(CAPTURED, encoding="utf-8") as fh:
        located = locate("claude-code", "anthropic", json.load(fh))
    assert located is not None
    body = {k: v for k, v in located.body.items() if k not in ("stream", "metadata")}
    template = Template("captured", "anthropic", "claude-code", "2.1.239", body, located.listing)
    os.makedirs(os.path.dirname(named_path("claude-code")), exist_ok=True)
    with open(named_path("claude-code"), "wb") as fh:
        fh.write(encode_template(template))


def live_shots(app: QApplication, settings: QSettings, out: str, scheme: str) -> None:
    """Ask a model after a run of two turns (a shell command, then the skill), Test
    connection, Suites › Ask a model after a suite's run, and Add as test case."""
    from tests.live_fake import FakeModel, turn_of

    def by_turn(body: dict[str, object]) -> tuple[object, ...]:
        if turn_of(body) == 1:
            return ("tool", "Bash", {"command": "git diff --stat"})
        return ("tool", "Skill", {"skill": "review-kit:security-review"})

    save_captured_template()
    copy = fresh_samples()
    window = new_window(settings)
    window.show()
    open_and_wait(window, copy)
    panel, live = window.query_panel, window.query_panel.live
    finished: list[object] = []  # the reports of the checks sent
    with FakeModel([by_turn]) as fake:
        for width, height in PANEL_SIZES:
            cache = AnswerCache(tempfile.mkdtemp())  # every run asked: each turn shown
            live.cache = window.suite_live.cache = cache
            window.resize(width, height)
            window.focus_query_panel()
            window.resizeDocks([window.query_dock], [height * 3 // 4], Qt.Orientation.Vertical)
            panel.project_box.setCurrentIndex(
                next(
                    i
                    for i, p in enumerate(window.context.projects)
                    if p.profile.name == "claude-code"
                )
            )
            panel.load_request(LIVE_REQUEST)
            wait_for(app, lambda: panel.likely is not None)
            panel.update_now()
            panel.details.setCurrentWidget(panel.live_page)
            live.set_endpoint(fake.url, "demo-model", "anthropic")
            live.runs.setValue(3)
            live.turns.setValue(2)
            live.ask()
            finished.clear()
            live.finished.connect(finished.append)
            live.send()
            wait_for(app, lambda: bool(finished))
            live.finished.disconnect(finished.append)
            app.processEvents()  # the dock's height holds once the window is laid out
            window.resizeDocks([window.query_dock], [height * 3 // 4], Qt.Orientation.Vertical)
            app.processEvents()
            total = sum(panel.split.sizes())
            panel.split.setSizes([total * 2 // 5, total - total * 2 // 5])  # as a user drags
            bar = panel.live_page.verticalScrollBar()
            app.processEvents()
            bar.setValue(live.table.y() - 2)  # the picks and the record of the exchange
            save_shot(window, out, f"ask-model-{scheme}-{width}")
            live.test_connection()
            wait_for(app, lambda: live.test_button.isEnabled())
            bar.setValue(0)  # the status, above the fields
            save_shot(window, out, f"test-connection-{scheme}-{width}")
            add_case_shot(app, window, out, f"add-case-{scheme}-{width}")
            suite = os.path.join(copy, "claude-code", "suites", "claude-code.yaml")
            window.suites_dock.show()
            window.suites_dock.raise_()
            window.resizeDocks([window.suites_dock], [height * 11 // 20], Qt.Orientation.Vertical)
            runner = window.suite_runner
            runner.open_suite(suite)
            runner.run_to_end()
            runner.tabs.setCurrentIndex(runner.tabs.count() - 1)  # Ask a model
            asker = window.suite_live
            asker.set_endpoint(fake.url, "demo-model", "anthropic")
            asker.turns.setValue(2)
            asker.ask()
            asker.finished.connect(finished.append)
            finished.clear()
            asker.send()
            wait_for(app, lambda: bool(finished))
            asker.finished.disconnect(finished.append)
            app.processEvents()
            window.resizeDocks([window.suites_dock], [height * 3 // 4], Qt.Orientation.Vertical)
            app.processEvents()
            area = asker.parentWidget().parentWidget()  # scrolled(): viewport, area
            if isinstance(area, QScrollArea):
                area.verticalScrollBar().setValue(asker.bar.y() - 2)  # progress, cases, bands
            save_shot(window, out, f"suites-ask-{scheme}-{width}")
            window.query_dock.raise_()
            panel.fit.moved = False  # the next size's own shares
    window.close()


def add_case_shot(app: QApplication, window: MainWindow, out: str, stem: str) -> None:
    """Add as test case on the request shown: the dialog as the app opens it (its
    "Written as" key proposed from what the panel shows), saved, then cancelled."""
    panel = window.query_panel

    def shot(question: CaseQuestion) -> None:
        dialog = AddCaseDialog(question, "", panel)
        dialog.show()
        wait_ms(app, 50)
        target = os.path.join(out, f"{stem}.png")
        dialog.grab().save(target)
        print(target)
        dialog.close()
        return None

    panel.ask_case = shot  # type: ignore[method-assign, assignment]
    panel.add_test_case()
    del panel.ask_case


def wait_ms(app: QApplication, ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def save_shot(window: MainWindow, out: str, stem: str) -> None:
    target = os.path.join(out, f"{stem}.png")
    for _ in range(2):  # a label's new height lays the panel out once more
        QApplication.processEvents()
    window.grab().save(target)
    print(target)


if __name__ == "__main__":
    raise SystemExit(main())
