"""The try-a-request workbench: ranking, explanation, tiers, activation, session.

Everything shown is the engine's own answer (core.matching, core.disclosure,
core.activation) for the registry as it is on screen, unsaved edits included:
the window re-runs the panel whenever a document is re-validated. One widget a
module: query_panel (the panel), candidates, explanation, tier_view (with line_view),
activation_view, session_view.
"""
