"""Engine figures: random 4-player games per second in one process, p50/p99 microseconds of
`apply`, of `legal_actions` and of `is_legal` with no list built, peak RSS; and, as yardsticks, what the API's shape alone
costs per action with no rules at all (`shape_only`), and (ask-around) the same games with
no bot scheduler (`engine_only`), hence what the bot scheduler costs per simulated action.

    python -m bench.engine [--games 200] [--players 4] [--real-time] [--json] [--shape-actions N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import time

from game.bots import make_bot
from game.rules import (
    Card,
    Game,
    LayClan,
    LegalActions,
    Offer,
    PassFloor,
    Phase,
    PlayTravel,
    SetAskPreference,
    Settings,
    WindowMode,
    apply,
    default_action,
    is_legal,
    legal_actions,
    waiting_for,
)
from game.rules.actions import TermsChoice, interned
from game.rules.board import CLANS
from game.rules.events import FloorPassed
from game.rules.state import PLACARD_SOURCES
from game.table.seat_view import seat_view
from game.table.simulate import play


def bare_play(game: Game, bots: list) -> None:
    """The engine and the bots with no bot scheduler: the seat the game waits for moves at once.
    Ask-around only (real time needs the bot scheduler's clocks); with random bots these are the
    very games the bot scheduler plays, so the difference in time is the bot scheduler's."""
    st = game.state
    while st.phase is not Phase.GAME_OVER:
        seat = waiting_for(st)[0]
        action = bots[seat].choose(seat_view(st, seat), legal_actions(st, seat).moves(), True)
        game.apply(action if action is not None else default_action(st, seat))


def games_per_second(
    games: int, players: int, mode: WindowMode, driver=play
) -> tuple[float, float]:
    settings = Settings(players=players, window_mode=mode)
    t0 = time.perf_counter()
    actions = 0
    for seed in range(games):
        game = Game([f"P{i}" for i in range(players)], seed, settings)
        driver(game, [make_bot("random", s, seed) for s in range(players)])
        actions += len(game.log)
    dt = time.perf_counter() - t0
    return games / dt, actions / games


def call_times(
    games: int, players: int, mode: WindowMode
) -> tuple[list[float], list[float], list[float]]:
    """Time each apply, each (uncached) legal_actions call, and `is_legal` of the action
    played with no list built (on a copy: the LAN host's check) of ask-around bot games."""
    settings = Settings(players=players, window_mode=mode)
    applies, legals, checks = [], [], []
    clock = time.perf_counter_ns
    for seed in range(games):
        game = Game([f"P{i}" for i in range(players)], 1000 + seed, settings)
        st = game.state
        bots = [make_bot("random", s, seed) for s in range(players)]
        while st.phase is not Phase.GAME_OVER:
            seats = waiting_for(st) or [s for s in range(players) if legal_actions(st, s).moves()]
            seat = seats[0]
            st._legal_cache.clear()
            t = clock()
            legal = legal_actions(st, seat)
            legals.append(clock() - t)
            action = bots[seat].choose(seat_view(st, seat), legal.moves())
            if action is None:
                from game.rules import HOST, TimeUp

                action = (
                    TimeUp(HOST)
                    if st.negotiation and not st.negotiation.time_up
                    else legal.moves().fixed[0]
                )
            twin = st.clone()  # no list built for this version
            t = clock()
            is_legal(twin, action)
            checks.append(clock() - t)
            t = clock()
            apply(st, action)
            applies.append(clock() - t)
    return applies, legals, checks


def shape_only_us(actions: int = 200_000) -> float:
    """Microseconds per action of the API's shape with no rules: a legal-action list of four
    shared actions and one offer range, a seeded choice among the moves, the membership
    check `apply` makes, one event and a log entry. No engine with this API can beat it."""
    rng = random.Random(1)
    log: list = []
    space = PLACARD_SOURCES[0]
    t0 = time.perf_counter()
    for i in range(actions):
        seat = i % 4
        out = LegalActions()
        out.fixed.append(interned(SetAskPreference, seat, True))
        out.fixed.append(interned(LayClan, seat, CLANS[i % 6]))
        out.fixed.append(interned(PlayTravel, seat, Card.TRAVEL_RED, space))
        out.fixed.append(interned(PassFloor, seat))
        out.terms.append(TermsChoice(interned(Offer, seat, (), 0), (), 0, 5))
        action = rng.choice(out.moves().fixed)
        if action not in out:  # pragma: no cover - the check is the point, not the branch
            raise AssertionError(action)
        events = [FloorPassed(seat, (seat + 1) % 4)]
        log.append((action, events))
        if len(log) == 500:  # a game's worth, then the next game
            log = []
    return (time.perf_counter() - t0) / actions * 1e6


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] / 1000.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--real-time", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--shape-actions", type=int, default=200_000, help="actions of the no-rules yardstick")
    args = p.parse_args(argv)
    mode = WindowMode.REAL_TIME if args.real_time else WindowMode.ASK_AROUND
    gps, mean_actions = games_per_second(args.games, args.players, mode)
    bare_gps = bare_actions = None
    if mode is WindowMode.ASK_AROUND:
        bare_gps, bare_actions = games_per_second(args.games, args.players, mode, bare_play)
    applies, legals, checks = call_times(max(5, args.games // 10), args.players, mode)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    shape_us = shape_only_us(args.shape_actions)
    out = {
        # wall-clock figures move with the machine's load (1, 5, 15 min averages, at the end)
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "players": args.players,
        "window_mode": mode.value,
        "games": args.games,
        "games_per_second": round(gps, 1),
        "mean_actions_per_game": round(mean_actions, 1),
        # The same games with no bot scheduler (ask-around), and what the bot scheduler adds per action.
        "engine_only_games_per_second": None if bare_gps is None else round(bare_gps, 1),
        "engine_only_mean_actions_per_game": None if bare_actions is None else round(bare_actions, 1),
        "scheduler_us_per_action": None
        if bare_gps is None
        else round((1 / gps - 1 / bare_gps) * 1e6 / mean_actions, 2),
        "apply_us": {
            "p50": round(pct(applies, 0.5), 1),
            "p99": round(pct(applies, 0.99), 1),
            "mean": round(statistics.fmean(applies) / 1000, 1),
        },
        "legal_actions_us": {
            "p50": round(pct(legals, 0.5), 1),
            "p99": round(pct(legals, 0.99), 1),
            "mean": round(statistics.fmean(legals) / 1000, 1),
        },
        # one action's legality with no list built: the LAN host's action check
        "is_legal_us": {
            "p50": round(pct(checks, 0.5), 1),
            "p99": round(pct(checks, 0.99), 1),
            "mean": round(statistics.fmean(checks) / 1000, 1),
        },
        "peak_rss_mb": round(rss_mb, 1),
        # The API's shape with no rules: the ceiling for any engine behind this API.
        "shape_only_us_per_action": round(shape_us, 2),
        "shape_only_games_per_second": round(1e6 / (shape_us * mean_actions), 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
