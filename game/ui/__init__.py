"""pygame-ce client: scenes, widgets, fonts, sounds and translations."""
