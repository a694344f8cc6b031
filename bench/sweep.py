"""Invariant sweep: many random engine games across player counts, variants and window modes,
with the engine invariants checked after every action (cards conserved, money paid equals
proceeds, tiles placed equal deals closed, no clan counted twice, agreements within the
proceeds) and, every few actions, a hidden-information audit of one seat's view.

    python -m bench.sweep --games 10000 [--workers 2] [--seed 1]

Prints the number of games, actions, checks and violations; a violation prints the seed and
settings to replay it and the script exits 1.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
import traceback

from game.rules import Settings, Variant, WindowMode, legal_actions, view
from game.rules.cards import CARDS
from game.rules.invariants import Ledger
from game.simulate import simulate_game


def settings_for(game_no: int, base_seed: int) -> tuple[int, Settings]:
    rng = random.Random(base_seed * 1_000_003 + game_no)
    players = rng.randint(2, 6)
    variants = frozenset(v for v in Variant if rng.random() < 0.3)
    settings = Settings(
        players=players,
        variants=variants,
        window_mode=rng.choice(list(WindowMode)),
        short_game=rng.random() < 0.25,
        negotiation_limit=rng.choice([60, 60, 20, 8]),
        ask_only_when_touched=tuple(rng.random() < 0.3 for _ in range(players)),
    )
    return rng.randrange(1 << 31), settings


def hidden_twin(state, seat, rng):
    other = state.clone()
    pool = list(other.deck)
    others = [s for s in range(other.players) if s != seat]
    for s in others:
        for kind, count in enumerate(other.hands[s]):
            pool.extend([kind] * count)
            other.hands[s][kind] = 0
    rng.shuffle(pool)
    for s in others:
        for _ in range(state.hand_size(s)):
            other.hands[s][pool.pop()] += 1
    other.deck = [CARDS[k] for k in pool]
    other.rng.state ^= 0x5A5A5A5A
    return other


def run_one(args: tuple[int, int]) -> dict:
    game_no, base_seed = args
    seed, settings = settings_for(game_no, base_seed)
    rng = random.Random(seed)
    counters = {"actions": 0, "audits": 0}
    ledger: list = []

    def check(game, action, events):
        st = game.state
        if not ledger:
            ledger.append(Ledger(st))
        ledger[0].check(st, events)
        counters["actions"] += 1
        if counters["actions"] % 13 == 0:
            seat = rng.randrange(st.players)
            v = view(st, seat)
            twin = hidden_twin(st, seat, rng)
            assert view(twin, seat) == v, "a view depends on hidden information"
            assert legal_actions(twin, seat).to_data() == legal_actions(st, seat).to_data()
            counters["audits"] += 1

    try:
        game, result = simulate_game(settings.players, seed, ["random"] * settings.players, settings, on_step=check)
    except Exception as exc:  # report, don't die: the sweep's job is to find these
        return {
            "ok": False,
            "seed": seed,
            "settings": settings.to_data(),
            "error": f"{type(exc).__name__}: {exc}",
            "trace": traceback.format_exc(limit=6),
        }
    return {"ok": True, "actions": counters["actions"], "audits": counters["audits"]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    games = actions = audits = 0
    failures = []
    jobs = [(i, args.seed) for i in range(args.games)]
    with mp.Pool(args.workers) as pool:
        for res in pool.imap_unordered(run_one, jobs, chunksize=8):
            games += 1
            if res["ok"]:
                actions += res["actions"]
                audits += res["audits"]
            else:
                failures.append(res)
                print(json.dumps(res), file=sys.stderr)
            if games % 500 == 0:
                print(f"  {games} games, {len(failures)} violations, {time.perf_counter() - t0:.0f} s", flush=True)
    out = {
        "games": games,
        "actions_checked": actions,
        "hidden_info_audits": audits,
        "violations": len(failures),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
