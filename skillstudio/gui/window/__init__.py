"""The main window: its layout, menus, centre, welcome page, and its shell between runs."""
