"""Below everything else of the app: threads and background work, the settings store, the
file watcher, icons and theme, images, the open folder as the GUI thread holds it."""
