"""Legality figures: calls per second of the three questions the rules answer, over the
positions of seeded random-bot games (ask-around and real time, 2-6 players, variants):

- `legal_actions(state, seat)` with no list cached, for every seat and the host;
- `is_legal(state, action)` with no list built (the LAN host's check), for every listed
  move and a seeded draw of mostly illegal actions of every type;
- `explain_illegal(state, action)` for the refused ones (the error path).

Each call is timed `--repeat` times and its fastest time counts, so the figures move little
with the machine's load (printed); still, compare runs made side by side.

    python -m bench.legality [--games 6] [--repeat 5] [--json]
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
from game.table.simulate import play
from tests.rules.test_rules_answers import candidates

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


def _best(call, args, repeat: int, reset) -> float:
    """The fastest of `repeat` timings of one call, in seconds (the machine's load only
    ever adds time, so the minimum is the call's own cost)."""
    clock = time.perf_counter_ns
    best = None
    for _ in range(repeat):
        reset()
        t = clock()
        call(*args)
        took = clock() - t
        if best is None or took < best:
            best = took
    return best / 1e9


def measure(points: list[tuple], repeat: int) -> dict:
    """Calls per second of each question: one over the mean of each call's best time."""
    lists = checks = explains = 0.0
    n_lists = n_checks = n_explains = 0
    for state, asked in points:
        cache = state._legal_cache
        for seat in range(HOST, state.players):  # no list cached
            lists += _best(legal_actions, (state, seat), repeat, cache.clear)
            n_lists += 1
        for action in asked:  # no list built, the kept yes cleared: the LAN host's check
            checks += _best(is_legal, (state, action), repeat, cache.clear)
            n_checks += 1
            if not is_legal(state, action):
                explains += _best(explain_illegal, (state, action), repeat, cache.clear)
                n_explains += 1
    return {
        "legal_actions": n_lists / lists,
        "is_legal": n_checks / checks,
        "explain_illegal": n_explains / explains,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--repeat", type=int, default=5, help="timings of each call; the best counts")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    points = positions(args.games)
    rates = measure(points, args.repeat)
    out = {
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "positions": len(points),
        "actions_asked": sum(len(a) for _, a in points),
        **{f"{k}_calls_per_s": round(v) for k, v in rates.items()},
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>28}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
