"""Tournament statistics over simulated games: per bot kind win rate (shared wins split),
its 95% confidence interval, mean money and mean rank."""

from __future__ import annotations

import math


def summarize(results, elapsed: float) -> dict:
    games = len(results)
    actions = sum(r.actions for r in results)
    summary = {
        "games": games,
        "games_per_second": round(games / elapsed, 3) if elapsed > 0 else None,
        "mean_actions": round(actions / games, 3) if games else 0.0,
    }
    per_kind: dict[str, dict[str, list[float]]] = {}
    for r in results:
        if not r.bots:
            continue
        for seat, spec in enumerate(r.bots):
            money = r.money[seat]
            win = 1.0 / len(r.winners) if seat in r.winners else 0.0
            rank = 1 + sum(1 for m in r.money if m > money)
            d = per_kind.setdefault(spec, {"win": [], "money": [], "rank": []})
            d["win"].append(win)
            d["money"].append(money)
            d["rank"].append(rank)
    if per_kind:
        summary["bots"] = {
            spec: {
                "seats": len(d["win"]),
                "win_rate": round(_mean(d["win"]), 4),
                "win_rate_ci95": [round(x, 4) for x in _ci95(d["win"])],
                "mean_money": round(_mean(d["money"]), 3),
                "mean_rank": round(_mean(d["rank"]), 3),
            }
            for spec, d in sorted(per_kind.items())
        }
    return summary


def _mean(xs) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _ci95(xs) -> tuple[float, float]:
    """Wilson score interval of the win rate. Unlike the normal approximation it does not
    collapse to a point at 0% or 100% (8 wins in 8 games is [0.68, 1], not [1, 1]). A
    shared win counts as a fraction, which varies less than a whole win or loss, so the
    binomial interval is on the safe (wider) side."""
    n = len(xs)
    if n == 0:
        return (0.0, 1.0)
    p = _mean(xs)
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))
