"""Legality figures: calls per second of the three questions the rules answer, over the
positions of seeded random-bot games (ask-around and real time, 2-6 players, variants):

- `legal_actions(state, seat)` with no list cached, for every seat and the host;
- `is_legal(state, action)` with no list built (the LAN host's check), for every listed
  move and a seeded draw of mostly illegal actions of every type;
- `explain_illegal(state, action)` for the refused ones (the error path).

Wall-clock figures move with the machine's load (printed): compare runs made side by side.

    python -m bench.legality [--games 12] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time

from game.bots import make_bot
from game.rules import (
    HOST,
    Game,
    Settings,
    Variant,
    WindowMode,
    explain_illegal,
    is_legal,
    legal_actions,
)
from game.simulate import play
from tests.test_rules_answers import candidates

#: (players, window mode, variants) of the games, cycled over the seeds
TABLES = (
    (4, WindowMode.ASK_AROUND, ()),
    (3, WindowMode.REAL_TIME, (Variant.V1, Variant.V2)),
    (5, WindowMode.ASK_AROUND, (Variant.V3, Variant.V5)),
    (6, WindowMode.REAL_TIME, ()),
    (2, WindowMode.ASK_AROUND, tuple(Variant)),
)


def positions(games: int) -> list[tuple]:
    """(state, candidate actions) at every position of `games` seeded games."""
    out = []
    for seed in range(games):
        players, mode, variants = TABLES[seed % len(TABLES)]
        rules = Settings(players=players, window_mode=mode, variants=variants)
        game = Game([f"P{i}" for i in range(players)], 500 + seed, rules)
        rng = random.Random(seed)

        def keep(game, _action, _events, rng=rng):
            state = game.state
            asked = candidates(state, rng)
            twin = state.clone()
            out.append((twin, asked))

        play(game, [make_bot("random", s, seed) for s in range(players)], on_step=keep)
    return out


def _rate(calls: int, seconds: float) -> float:
    return calls / seconds if seconds > 0 else float("inf")


def measure(points: list[tuple]) -> dict:
    clock = time.perf_counter
    # legal lists: every seat and the host at every position, no list cached
    calls = 0
    t0 = clock()
    for state, _ in points:
        cache = state._legal_cache
        for seat in range(HOST, state.players):
            cache.clear()
            legal_actions(state, seat)
            calls += 1
    lists = _rate(calls, clock() - t0)
    # is_legal with no list built, each asked afresh (the kept yes cleared)
    calls = 0
    refused = []
    t0 = clock()
    for state, asked in points:
        cache = state._legal_cache
        for action in asked:
            cache.clear()
            if not is_legal(state, action):
                refused.append((state, action))
            calls += 1
    checks = _rate(calls, clock() - t0)
    t0 = clock()
    for state, action in refused:
        explain_illegal(state, action)
    explains = _rate(len(refused), clock() - t0)
    return {"legal_actions": lists, "is_legal": checks, "explain_illegal": explains}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--repeat", type=int, default=3, help="runs; the best of each is printed")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    points = positions(args.games)
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for k, v in measure(points).items():
            best[k] = max(best.get(k, 0.0), v)
    out = {
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "positions": len(points),
        "actions_asked": sum(len(a) for _, a in points),
        **{f"{k}_calls_per_s": round(v) for k, v in best.items()},
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>28}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
