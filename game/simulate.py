"""Headless bot games: the driver behind `main.py simulate`, the tests and the benchmarks.

In ask-around mode exactly one seat is asked at a time. In real-time mode the driver plays
the host's part: it offers every seat the moment in a shuffled order, and when nobody wants
to act it runs the host's clock out (`TimeUp`, then pass on the players' behalf).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from game.bots import make_bot
from game.bots.base import Bot
from game.rules import (
    HOST,
    Game,
    Phase,
    Settings,
    Setup,
    TimeUp,
    WindowMode,
    default_action,
    legal_actions,
    opening_events,
    view,
    waiting_for,
)
from game.rules.view import LazyView, events_for

MAX_ACTIONS = 200_000  # a safety net: no legal game comes near it


class SimulationError(RuntimeError):
    """A game that did not end (a rules bug): carries the seed so it can be replayed."""


@dataclass
class GameResult:
    seed: int
    players: int
    winners: list[int]
    money: list[int]
    deals_closed: int
    deals_failed: int
    actions: int
    seconds: float
    bots: list[str] = field(default_factory=list)

    def to_data(self) -> dict:
        return {
            "seed": self.seed,
            "players": self.players,
            "winners": self.winners,
            "money": self.money,
            "deals_closed": self.deals_closed,
            "deals_failed": self.deals_failed,
            "actions": self.actions,
            "seconds": round(self.seconds, 6),
        }


def result_of(game: Game, seconds: float, bots: list[str] | None = None) -> GameResult:
    st = game.state
    return GameResult(
        seed=game.seed,
        players=st.players,
        winners=list(st.winners),
        money=list(st.money),
        deals_closed=st.deals_closed,
        deals_failed=st.deals_failed,
        actions=len(game.log),
        seconds=seconds,
        bots=list(bots or []),
    )


def play(
    game: Game,
    bots: list[Bot],
    observe: bool = False,
    on_step=None,
    max_actions: int = MAX_ACTIONS,
) -> None:
    """Play `game` to the end with one bot per seat. `on_step(game, action, events)` is
    called after every action (tests check invariants there)."""
    st = game.state
    real_time = st.settings.window_mode is WindowMode.REAL_TIME
    order_rng = random.Random(game.seed ^ 0x5EED)
    seats = list(range(st.players))

    def decide(seat: int, must: bool):
        bot = bots[seat]
        v = LazyView(st, seat) if bot.needs_view is False else view(st, seat)
        return bot.choose(v, legal_actions(st, seat).moves(), must)

    # Bots with memory hear every event; the others only when the caller asks for it.
    listeners = [(s, bot) for s, bot in enumerate(bots) if observe or bot.wants_events]
    if listeners:
        opening = opening_events(st) if not game.log else []
        for s, bot in listeners:
            bot.observe(events_for(opening, s))

    def step(action) -> None:
        events = game.apply(action)
        for s, bot in listeners:
            bot.observe(events_for(events, s))
        if on_step is not None:
            on_step(game, action, events)

    while st.phase is not Phase.GAME_OVER:
        if len(game.log) >= max_actions:
            raise SimulationError(f"seed {game.seed}: no end after {max_actions} actions")
        waiting = waiting_for(st)
        if not real_time:
            step(decide(waiting[0], True))
            continue
        if waiting and st.window is not None:
            # Everyone asked answers in some order; the first answer may close the window.
            seat = order_rng.choice(waiting)
            step(decide(seat, True))
            continue
        order_rng.shuffle(seats)
        acted = False
        for seat in seats:
            if not legal_actions(st, seat).moves():
                continue
            action = decide(seat, seat in waiting)
            if action is not None:
                step(action)
                acted = True
                break
        if acted:
            continue
        if st.negotiation is not None and not st.negotiation.time_up:
            step(TimeUp(HOST))  # the host's negotiation clock runs out
        elif waiting:
            step(default_action(st, waiting[0]))  # a player's turn clock runs out
        else:  # pragma: no cover - waiting_for always names someone outside negotiation
            raise SimulationError(f"seed {game.seed}: nobody can move")


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
