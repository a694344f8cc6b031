"""Headless bot games: the driver behind `main.py simulate`, the tests and the benchmarks.

A ``game.table.master.Master`` (the LAN host's and hot-seat's too) runs the game on a
``ManualClock`` that jumps to the next deadline; its only transport is ``on_step``. In
ask-around mode the one seat asked acts at once; in real time bots answer windows at once
and are offered the negotiation's moment every ``bot_tick`` seconds of simulated time,
until a deal ends, a bot Boss's patience runs out or the negotiation clock does
(`TimeUp`).
"""

from __future__ import annotations

import random
import time

from game.bots import make_bot
from game.bots.base import Bot
from game.rules import Game, Phase, Settings, Setup, opening_events
from game.table.bot_schedule import SeatPlayers, Timing
from game.table.clock import ManualClock
from game.table.master import Master, Transport
from game.table.results import GameResult, result_of

MAX_ACTIONS = 200_000  # a safety net: no legal game comes near it


class SimulationError(RuntimeError):
    """A game that did not end (a rules bug): carries the seed so it can be replayed."""


#: A table of bots on a simulated clock: bots answer and move at once; the negotiation
#: clock, the real-time tick and a bot Boss's patience are the real table's.
SIMULATION_TIMING = Timing(bot_answer=0.0, bot_delay=0.0, fair_start=0.0)


def play(
    game: Game,
    bots: list[Bot],
    on_step=None,
    max_actions: int = MAX_ACTIONS,
    timing: Timing = SIMULATION_TIMING,
    clock: ManualClock | None = None,
) -> None:
    """Play `game` to the end with one bot per seat, scheduled as at a real table on a
    ``ManualClock`` moved to each next deadline. `on_step(game, action, events)` is called
    after every action (tests check invariants there). Bots with memory hear every event."""
    st = game.state
    clock = clock if clock is not None else ManualClock(start=0.0, strict=True)
    seated = dict(enumerate(bots))  # the same bots all game: one map, not one per look

    def check(action) -> None:
        if len(game.log) >= max_actions:
            raise SimulationError(f"seed {game.seed}: no end after {max_actions} actions")

    def publish(state, events, origin, countdowns) -> None:
        on_step(game, game.log[-1], events)

    master = Master(
        game,
        timing,
        clock,
        SeatPlayers(bots=lambda: seated, plays=seated.__contains__),  # every seat, no person
        Transport(publish=publish if on_step is not None else None),
        rng=random.Random(game.seed ^ 0x5EED),
        check=check,
    )
    master.start(opening_events(st) if not game.log else [])
    while st.phase is not Phase.GAME_OVER:
        deadline = clock.next_deadline()
        if deadline == float("inf"):
            raise SimulationError(f"seed {game.seed}: nobody can move")
        clock.advance(deadline - clock.now())


def simulate_game(
    players: int,
    seed: int,
    bot_specs: list[str],
    settings: Settings | None = None,
    setup: Setup | None = None,
    on_step=None,
    names: list[str] | None = None,
) -> tuple[Game, GameResult]:
    settings = settings or Settings(players=players)
    names = names or [f"{spec.split(':')[0].title()} {i + 1}" for i, spec in enumerate(bot_specs)]
    game = Game(names, seed, settings, setup)
    bots = [make_bot(spec, seat, seed) for seat, spec in enumerate(bot_specs)]
    t0 = time.perf_counter()
    play(game, bots, on_step=on_step)
    return game, result_of(game, time.perf_counter() - t0, bot_specs)
