"""The try-a-request workbench: ranking, explanation, tiers, activation, session.

Everything shown is the engine's own answer (core/ranking/matching.py and
likely_ranking.py, core/delivery/tiers.py and activation.py) for the registry as it
is on screen, unsaved edits included: the window re-runs the panel whenever a
document is re-validated. query_panel.py is the panel; the other modules are its
parts, a widget or a helper each. The package hands on no names: import each from
the module that defines it.
"""
