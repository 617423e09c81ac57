"""The dialogs and windows the app opens over the main window, and the questions it asks."""
