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
    """Normal-approximation interval of the mean (shared wins make outcomes non-binary)."""
    n = len(xs)
    if n < 2:
        return (0.0, 1.0)
    m = _mean(xs)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return (max(0.0, m - half), min(1.0, m + half))
