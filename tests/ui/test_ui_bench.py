"""bench/ui.py's busiest table builds and animates (no timing is asserted: CI machines vary;
the figures are printed by `python bench/ui.py`)."""

from bench import ui as bench


def test_the_benchmark_runs():
    m = bench.measure(12)
    assert len(m["total"]) == len(m["draw"]) == len(m["cpu"]) == 12
    assert all(x > 0 for x in m["draw"])
    assert m["sprites_at_end"] > 5  # the burst of coins and cards is in the air
