"""What the window does, over the widgets: scans, refresh, the tree, the tabs, actions on
skills, quick fixes, recovery, profiles per project."""
