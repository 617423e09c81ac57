"""The docks: Problems, Try a Request (workbench/), Suites, Overlap Map, Ask a model, the
skill tree's view."""
