"""The main window's menu bar, built from the commands the window and its controllers
offer; its actions are kept for the shortcuts' tests and the welcome page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu

from ..infra.recent_folders import RecentFolders

Command = Callable[[], object]
# the open skill's views, in the order of its tabs (editor/skill_editor.py)
EDITOR_VIEWS = ("Show Fo&rm", "Show Sour&ce", "Show Pre&view", "Show Where It &Loads")


@dataclass(frozen=True)
class Commands:
    """What the menus trigger, each a callable of no arguments."""

    open_folder: Command
    open_project: Command
    new_skill: Command
    unpack: Command
    compare_with: Command
    save: Command
    save_all: Command
    revert: Command
    reload: Command
    close_tab: Command
    close_folder: Command
    quit: Command
    undo: Command
    redo: Command
    find: Command
    go_to_line: Command
    filter_skills: Command
    settings: Command
    wrap_lines: Callable[[bool], object]
    show_view: Callable[[int], object]  # the open skill's Form, Source, Preview, Where it loads
    try_request: Command
    back_to_editor: Command
    run_suite: Command
    user_guide: Command
    shortcuts: Command
    about: Command


@dataclass(frozen=True)
class MenuActions:
    """The actions of the menu bar that are looked up again (tests, shortcuts)."""

    open_action: QAction
    recent_menu: QMenu
    new_action: QAction
    save_action: QAction
    save_all_action: QAction
    revert_action: QAction
    reload_action: QAction
    close_action: QAction
    close_folder_action: QAction
    quit_action: QAction
    undo_action: QAction
    redo_action: QAction
    find_action: QAction
    goto_action: QAction
    filter_action: QAction
    settings_action: QAction
    wrap_action: QAction
    editor_view_actions: list[QAction]
    overlap_action: QAction
    query_action: QAction
    run_suite_action: QAction
    guide_action: QAction
    shortcuts_action: QAction


def build_menus(
    window: QMainWindow,
    commands: Commands,
    recent: RecentFolders,
    open_recent: Callable[[str], object],
    panels: list[QDockWidget],
    overlap_dock: QDockWidget,
) -> MenuActions:
    """File, Edit, View and Help in `window`'s menu bar. `open_recent(folder)`: a
    recent folder chosen; `panels`: the docks View shows and hides, in their tabs'
    order (the Overlap Map's among them, `overlap_dock`)."""

    def action(
        menu: QMenu, text: str, shortcut: QKeySequence.StandardKey | str | None, slot: Command
    ) -> QAction:
        made = QAction(text, window)
        if shortcut is not None:
            made.setShortcut(shortcut)
        made.triggered.connect(lambda _checked=False: slot())
        menu.addAction(made)
        return made

    keys = QKeySequence.StandardKey
    file_menu = window.menuBar().addMenu("&File")
    open_action = action(file_menu, "&Open Folder…", keys.Open, commands.open_folder)
    action(file_menu, "Open &Project…", "Ctrl+Shift+O", commands.open_project)
    recent_menu = file_menu.addMenu("Open &Recent")
    recent_menu.aboutToShow.connect(lambda: recent.fill_menu(recent_menu, open_recent))
    recent.fill_menu(recent_menu, open_recent)
    new_action = action(file_menu, "&New Skill…", keys.New, commands.new_skill)
    action(file_menu, "&Unpack .skill Archive…", None, commands.unpack)
    action(file_menu, "Compare &With…", None, commands.compare_with)
    file_menu.addSeparator()
    save_action = action(file_menu, "&Save", keys.Save, commands.save)
    save_all_action = action(file_menu, "Save A&ll", "Ctrl+Shift+S", commands.save_all)
    revert_action = action(file_menu, "Re&vert", None, commands.revert)
    reload_action = action(file_menu, "&Reload Folder", keys.Refresh, commands.reload)
    close_action = action(file_menu, "&Close Tab", "Ctrl+W", commands.close_tab)
    close_action.setShortcuts([QKeySequence("Ctrl+W"), QKeySequence("Ctrl+F4")])
    close_folder_action = action(file_menu, "Close &Folder", None, commands.close_folder)
    file_menu.addSeparator()
    quit_action = action(file_menu, "&Quit", "Ctrl+Q", commands.quit)
    edit_menu = window.menuBar().addMenu("&Edit")
    undo_action = action(edit_menu, "&Undo", keys.Undo, commands.undo)
    redo_action = action(edit_menu, "&Redo", keys.Redo, commands.redo)
    redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    edit_menu.addSeparator()
    find_action = action(edit_menu, "&Find / Replace…", keys.Find, commands.find)
    goto_action = action(edit_menu, "&Go to Line…", "Ctrl+L", commands.go_to_line)
    filter_action = action(edit_menu, "Filter &Skills", "Ctrl+P", commands.filter_skills)
    edit_menu.addSeparator()
    settings_action = action(edit_menu, "Se&ttings…", "Ctrl+,", commands.settings)
    preferences = [k for k in QKeySequence.keyBindings(keys.Preferences) if not k.isEmpty()]
    settings_action.setShortcuts(list(dict.fromkeys([QKeySequence("Ctrl+,"), *preferences])))
    settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)  # macOS: the app menu
    view_menu = window.menuBar().addMenu("&View")
    # One entry per panel: Try a Request's (Ctrl+K) shows it and focuses its box.
    # A panel shown from View comes to the front: shown into a tab group it stayed
    # behind the tab in front (the Overlap Map opened hidden behind Problems). The
    # panels' entries have no keys (Changes had no entry: it came back only by
    # File › Compare With…, which compares again).
    for dock in panels:
        shown = dock.toggleViewAction()
        shown.triggered.connect(lambda on, d=dock: d.raise_() if on else None)
        view_menu.addAction(shown)
    overlap_action = overlap_dock.toggleViewAction()
    overlap_action.setText("&Overlap Map")
    view_menu.addSeparator()
    query_action = action(view_menu, "&Try a Request", "Ctrl+K", commands.try_request)
    # Ctrl+E alone is "end of line" in the request box (and every line edit on X11)
    action(view_menu, "Back to the &Editor", "Ctrl+Shift+E", commands.back_to_editor)
    run_suite_action = action(view_menu, "Run &Suite", "F6", commands.run_suite)
    view_menu.addSeparator()
    # The open skill's views, Ctrl+1…4 (as a browser's tabs; no other key of the app)
    editor_view_actions = [
        action(view_menu, text, f"Ctrl+{number + 1}", partial(commands.show_view, number))
        for number, text in enumerate(EDITOR_VIEWS)
    ]
    view_menu.addSeparator()
    wrap_action = QAction("&Wrap Long Lines in Source", window)
    wrap_action.setCheckable(True)
    wrap_action.toggled.connect(commands.wrap_lines)
    view_menu.addAction(wrap_action)
    help_menu = window.menuBar().addMenu("&Help")
    guide_action = action(help_menu, "User &Guide", "F1", commands.user_guide)
    shortcuts_action = action(help_menu, "&Keyboard Shortcuts", "Ctrl+/", commands.shortcuts)
    help_menu.addSeparator()
    action(help_menu, "&About SkillStudio", None, commands.about)
    return MenuActions(
        open_action=open_action,
        recent_menu=recent_menu,
        new_action=new_action,
        save_action=save_action,
        save_all_action=save_all_action,
        revert_action=revert_action,
        reload_action=reload_action,
        close_action=close_action,
        close_folder_action=close_folder_action,
        quit_action=quit_action,
        undo_action=undo_action,
        redo_action=redo_action,
        find_action=find_action,
        goto_action=goto_action,
        filter_action=filter_action,
        settings_action=settings_action,
        wrap_action=wrap_action,
        editor_view_actions=editor_view_actions,
        overlap_action=overlap_action,
        query_action=query_action,
        run_suite_action=run_suite_action,
        guide_action=guide_action,
        shortcuts_action=shortcuts_action,
    )
