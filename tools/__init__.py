"""Development tools, outside the game's package: the doc pictures
(`python -m tools.screenshot`), the scripted player that drives the UI in tests and
benchmarks, and the layout probe the layout audit reads (`layout_probe`). Nothing in game/
or net/ imports them or names the probe (tests/test_layers.py)."""
