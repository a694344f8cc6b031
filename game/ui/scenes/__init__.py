"""The scenes of the client: title, settings, new game, hand-off, results, rules, menus."""
