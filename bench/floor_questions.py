"""How often a seat with "ask me only when it touches me" is asked for the floor (RULES §6.4).

    python -m bench.floor_questions [--games 20] [--players 4] [--bots heuristic] [--passive]

Plays ask-around bot games with the preference on for seat 0 and counts, for that seat:
the floor reaching it and waiting for its answer (questions), the questions it answered by
passing at once (idle questions), and the floor passing over it automatically (skips).
`--passive` makes seat 0 a player who never joins the others' deals (it passes the floor
and every window at once; on its own turn it plays like the others) — the player of
issue 13 who watched two bots haggle.
"""

from __future__ import annotations

import argparse

from game.bots import make_bot
from game.rules import Game, Pass, PassFloor, Settings, WindowMode
from game.table.results import result_of
from game.table.simulate import play

SEAT = 0


class FloorCounter:
    """`on_step` hook of `simulate_game`: counts floor questions to `SEAT`."""

    def __init__(self) -> None:
        self.questions = self.idle = self.skips = 0
        self.fresh = False  # the seat has just been given the floor and not acted yet

    def __call__(self, game, action, events) -> None:
        if action.seat == SEAT and self.fresh:
            self.idle += isinstance(action, PassFloor)
            self.fresh = False
        for e in events:
            if e.type != "floor_passed":
                continue
            if e.seat == SEAT and getattr(e, "auto", False):
                self.skips += 1
                self.questions -= 1  # it reached the seat and went on without asking
                self.fresh = False
            elif e.to == SEAT and game.state.negotiation.boss != SEAT:
                self.questions += 1
                self.fresh = True


class Passive:
    """Wraps a bot: passes the floor and windows of other players' deals at once."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.needs_view, self.wants_events = True, bot.wants_events

    def choose(self, v, legal, must_act=True):
        neg = v["negotiation"]
        if neg is not None and neg["boss"] != SEAT:
            for a in legal.fixed:
                if isinstance(a, (Pass, PassFloor)):
                    return a
        return self.bot.choose(v, legal, must_act)

    def observe(self, events) -> None:
        self.bot.observe(events)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--passive", action="store_true")
    args = ap.parse_args()
    prefs = tuple(s == SEAT for s in range(args.players))
    settings = Settings(
        players=args.players, window_mode=WindowMode.ASK_AROUND, ask_only_when_touched=prefs
    )
    total = FloorCounter()
    actions = 0
    for seed in range(1, args.games + 1):
        counter = FloorCounter()
        game = Game([f"P{i}" for i in range(args.players)], seed, settings)
        bots = [make_bot(args.bots, s, seed) for s in range(args.players)]
        if args.passive:
            bots[SEAT] = Passive(bots[SEAT])
        play(game, bots, on_step=counter)
        actions += result_of(game, 0.0).actions
        total.questions += counter.questions
        total.idle += counter.idle
        total.skips += counter.skips
    n = args.games
    print(
        f"{n} games, {args.players} x {args.bots}{' (seat 0 passive)' * args.passive}, "
        f"seat {SEAT} asks only when touched: "
        f"floor questions {total.questions} ({total.questions / n:.1f}/game), "
        f"answered by passing at once {total.idle} ({total.idle / n:.1f}/game), "
        f"skipped {total.skips} ({total.skips / n:.1f}/game), actions {actions / n:.0f}/game"
    )


if __name__ == "__main__":
    main()
