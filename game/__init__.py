"""I'm the Boss!: rules engine (rules), bots (bots) and the pygame client (ui)."""
