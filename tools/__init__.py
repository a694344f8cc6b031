"""Development tools, outside the game's package: the doc pictures
(`python -m tools.screenshot`) and the scripted player that drives the UI in tests and
benchmarks. Nothing in game/ or net/ imports them (tests/test_layers.py)."""
