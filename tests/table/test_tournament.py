"""Tournament statistics (`simulate --rotate-seats --json`): per bot kind win rate with its
95% interval, mean money and mean rank; seats rotate so no kind profits from sitting first."""

import json

import pytest

from game.table.results import GameResult
from game.table.tournament import summarize
from main import main


def result(money, winners, bots):
    return GameResult(1, len(money), winners, money, 10, 2, 100, 0.1, bots)


def test_shared_wins_are_split_and_ranks_count_ties_as_equal():
    s = summarize(
        [
            result([30, 30, 10], [0, 1], ["a", "b", "b"]),
            result([5, 40, 40], [1, 2], ["a", "b", "b"]),
        ],
        1.0,
    )
    a, b = s["bots"]["a"], s["bots"]["b"]
    assert a["seats"] == 2 and b["seats"] == 4
    assert a["win_rate"] == pytest.approx(0.25)  # half a win, then nothing
    assert b["win_rate"] == pytest.approx((0.5 + 0 + 0.5 + 0.5) / 4)
    assert a["mean_rank"] == pytest.approx((1 + 3) / 2)  # tied for first, then last
    assert b["mean_rank"] == pytest.approx((1 + 3 + 1 + 1) / 4)
    assert a["mean_money"] == pytest.approx(17.5)


def test_the_interval_is_wilson_and_never_collapses_at_the_extremes():
    all_wins = summarize([result([50, 1], [0], ["h", "r"])] * 8, 1.0)["bots"]
    lo, hi = all_wins["h"]["win_rate_ci95"]
    assert hi == 1.0 and lo == pytest.approx(0.6756, abs=1e-3)  # 8 of 8: not [1, 1]
    lo, hi = all_wins["r"]["win_rate_ci95"]
    assert lo == 0.0 and hi == pytest.approx(0.3244, abs=1e-3)
    half = summarize([result([50, 1], [0], ["h", "r"]), result([1, 50], [1], ["h", "r"])] * 50, 1.0)
    lo, hi = half["bots"]["h"]["win_rate_ci95"]
    assert lo == pytest.approx(0.404, abs=2e-3) and hi == pytest.approx(0.596, abs=2e-3)


def test_simulate_rotates_seats_and_reports_each_bot_kind(capsys):
    assert main(["simulate", "--games", "3", "--players", "3", "--bots", "heuristic,random,random",
                 "--rotate-seats", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    bots = out["summary"]["bots"]
    assert bots["heuristic"]["seats"] == 3 and bots["random"]["seats"] == 6
    for d in bots.values():
        lo, hi = d["win_rate_ci95"]
        assert 0.0 <= lo <= d["win_rate"] <= hi <= 1.0
    assert sum(len(g["winners"]) > 0 for g in out["games"]) == 3
