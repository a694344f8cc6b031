"""Invariant sweep: many random engine games across player counts, variants and window modes,
with the engine invariants checked after every action (cards conserved, money paid equals
proceeds, tiles placed equal deals closed, no clan counted twice, agreements within the
proceeds), the redaction of every drawn card, and every few actions:
  - a hidden-information audit of one seat's view (a twin state that differs only in other
    hands, the draw order and the RNG gives the same view and the same legal actions);
  - an illegal-action probe: random actions (right shapes, any seat, any values) that are
    not in `legal_actions` must raise IllegalAction and leave the state hash unchanged;
and at the end of every game a save round trip (JSON save -> replay) that must reproduce
the final state bit for bit (what a resumed host relies on).

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
from dataclasses import fields

from game.rules import (
    ACTION_TYPES,
    IllegalAction,
    Settings,
    Source,
    SourceKind,
    Variant,
    WindowMode,
    apply,
    game_from_data,
    hidden_twin,
    legal_actions,
    view,
)
from game.rules.board import Clan
from game.rules.cards import Card
from game.rules.events import CardsDrawn
from game.rules.invariants import MoneyAudit
from game.table.simulate import simulate_game


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


def random_action(rng: random.Random, players: int):
    """Any action of any type with well-typed but arbitrary fields (mostly illegal)."""
    cls = rng.choice(list(ACTION_TYPES.values()))
    seat = rng.randrange(-1, players)

    def source():
        if rng.random() < 0.5:
            return Source(SourceKind.PLACARD, rng.randrange(len(Clan)))
        return Source(SourceKind.CARD, rng.randrange(0, 12))

    values = {"seat": seat}
    for name in (f.name for f in fields(cls)):
        if name == "seat":
            continue
        if name == "space":
            values[name] = rng.randrange(16)
        elif name in ("to", "of", "player"):
            values[name] = rng.randrange(players)
        elif name == "amount":
            values[name] = rng.choice([0, 1, 5, 12, rng.randrange(200)])
        elif name == "card":
            values[name] = rng.choice(list(Card))
        elif name == "clan":
            values[name] = rng.choice(list(Clan))
        elif name == "target":
            values[name] = source()
        elif name == "sources":
            values[name] = tuple(sorted({source() for _ in range(rng.randrange(4))}))
        elif name == "only_when_touched":
            values[name] = rng.random() < 0.5
        else:  # pragma: no cover - a new field: teach the probe about it
            raise AssertionError(f"random_action: unknown field {name}")
    return cls(**values)


def probe_illegal(st, rng: random.Random, tries: int = 4) -> int:
    """Apply random actions that are not legal; each must be refused and change nothing."""
    before = st.hash()
    probes = 0
    for _ in range(tries):
        action = random_action(rng, st.players)
        if action in legal_actions(st, action.seat):
            continue
        probes += 1
        try:
            apply(st, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"an illegal action was applied: {action.to_data()}")
        if st.hash() != before:
            raise AssertionError(f"a refused action changed the state: {action.to_data()}")
    return probes


def run_one(args: tuple[int, int]) -> dict:
    game_no, base_seed = args
    seed, settings = settings_for(game_no, base_seed)
    rng = random.Random(seed)
    counters = {"actions": 0, "audits": 0, "probes": 0}
    ledger: list = []

    def check(game, action, events):
        st = game.state
        if not ledger:
            ledger.append(MoneyAudit(st))
        ledger[0].check(st, events)
        for e in events:
            if isinstance(e, CardsDrawn):
                for s in range(st.players):
                    seen = e.for_seat(s)
                    assert (seen.cards is not None) == (s == e.seat), "a drawn card leaked"
        counters["actions"] += 1
        if counters["actions"] % 11 == 0:
            counters["probes"] += probe_illegal(st, rng)
        if counters["actions"] % 13 == 0:
            seat = rng.randrange(st.players)
            v = view(st, seat)
            twin = hidden_twin(st, seat, rng)
            assert view(twin, seat) == v, "a view depends on hidden information"
            assert legal_actions(twin, seat).to_data() == legal_actions(st, seat).to_data()
            counters["audits"] += 1

    try:
        game, result = simulate_game(
            settings.players, seed, ["random"] * settings.players, settings, on_step=check
        )
        again = game_from_data(json.loads(json.dumps(game.to_data())))
        assert again.state.hash() == game.state.hash(), "a save does not replay to the same state"
    except Exception as exc:  # report, don't die: the sweep's job is to find these
        return {
            "ok": False,
            "seed": seed,
            "settings": settings.to_data(),
            "error": f"{type(exc).__name__}: {exc}",
            "trace": traceback.format_exc(limit=6),
        }
    return {"ok": True, **counters}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    games = actions = audits = probes = 0
    failures = []
    jobs = [(i, args.seed) for i in range(args.games)]
    with mp.Pool(args.workers) as pool:
        for res in pool.imap_unordered(run_one, jobs, chunksize=8):
            games += 1
            if res["ok"]:
                actions += res["actions"]
                audits += res["audits"]
                probes += res["probes"]
            else:
                failures.append(res)
                print(json.dumps(res), file=sys.stderr)
            if games % 500 == 0:
                print(
                    f"  {games} games, {len(failures)} violations, {time.perf_counter() - t0:.0f} s",
                    flush=True,
                )
    out = {
        "games": games,
        "actions_checked": actions,
        "hidden_info_audits": audits,
        "illegal_action_probes": probes,
        "save_round_trips": games - len(failures),
        "violations": len(failures),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(json.dumps(out))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
