"""What bots take from a newcomer in the newcomer's first two turns (issue 32).

    python -m bench.newcomer_losses [--games 200] [--players 4] [--style friendly]
                                    [--compare friendly+gentle=0]

Seat 0 stands for the person (``--person``, by default the standard heuristic bot: it deals,
draws and plays cards as a reasonable player would; ``chaotic`` plays its cards more
readily, as a newcomer does), the other seats are the style measured, told that seat 0 is a
person (``Bot.meet``, as the hot-seat table and the LAN host tell them). Each seeded game is read
from its first move until seat 0's third turn begins: the newcomer's first two turns and the
bot turns around them, what a first game shows first. Counted per game:

- **placards**: seat 0's placards another seat recruited (a Recruitment triple that stood);
- **stopped**: seat 0's plays (a Boss, Travel or Recruitment card) another seat stopped;
- **Boss stopped**: of those, Boss cards;
- **travelled**: seat 0's laid Clan cards another seat's Travel card sent to the discard pile;
- **held**: how many placards seat 0 holds when its third turn begins.

Printed per style: the share of games with at least one of each, the totals, and the median
placards held. ``--whole`` reads whole games instead and adds seat 0's share of the wins
(what the gentleness costs the bots over a game). ``--compare`` runs a second style on the same seeds (e.g. Friendly without
its gentle opening: ``friendly+gentle=0``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.bots import make_bot  # noqa: E402
from game.rules import Game, Settings  # noqa: E402
from game.rules.cards import Card  # noqa: E402
from game.table.simulate import play  # noqa: E402

PERSON = 0
PERSON_BOT = "heuristic"
TURNS = 2  # the newcomer's turns read (None: the whole game)


class _Seen(Exception):
    """Seat 0's third turn began: the rest of the game is not read."""


@dataclass
class Losses:
    """What seat 0 lost in one game's opening (see the module docstring)."""

    placards: int = 0
    stopped: int = 0
    boss_stopped: int = 0
    travelled: int = 0
    held: int = 0
    won: bool = False  # a whole game: seat 0 is among the winners


@dataclass
class _Reader:
    """Follows one game's events for seat 0."""

    losses: Losses = field(default_factory=Losses)
    turns_read: int | None = TURNS
    turns: int = 0
    played: tuple[int, Card] | None = None  # the play in the open window: (seat, card)

    def __call__(self, game, action, events) -> None:
        for e in events:
            kind = e.type
            if kind == "turn_started" and e.seat == PERSON:
                self.turns += 1
                if self.turns_read is not None and self.turns > self.turns_read:
                    self.losses.held = sum(1 for owner in game.state.placards if owner == PERSON)
                    raise _Seen
            elif kind == "card_played":
                self.played = (e.seat, e.card)
            elif kind == "stopped" and self.played is not None:
                seat, card = self.played
                if seat == PERSON and e.seat != PERSON:
                    self.losses.stopped += 1
                    self.losses.boss_stopped += card is Card.BOSS
            elif kind == "placard_recruited":
                if e.old_owner == PERSON and e.new_owner != PERSON:
                    self.losses.placards += 1
            elif kind == "travel_sent":
                if e.owner == PERSON and e.seat != PERSON and e.discarded:
                    self.losses.travelled += 1
            elif kind == "window_closed":
                self.played = None


def opening_losses(
    style: str, players: int, seed: int, person: str = PERSON_BOT, whole: bool = False
) -> Losses:
    """Seat 0's losses in its first two turns (`whole`: the game), against `style` bots."""
    reader = _Reader(turns_read=None if whole else TURNS)
    specs = [person] + [style] * (players - 1)
    game = Game([f"P{i + 1}" for i in range(players)], seed, Settings(players=players))
    bots = [make_bot(spec, seat, seed) for seat, spec in enumerate(specs)]
    for bot in bots[1:]:
        bot.meet([PERSON])  # as a table tells its bots: seat 0 is a person
    try:
        play(game, bots, on_step=reader)
    except _Seen:
        return reader.losses
    reader.losses.held = sum(1 for owner in game.state.placards if owner == PERSON)
    reader.losses.won = PERSON in game.state.winners
    return reader.losses  # the game ended


def report(
    style: str, players: int, games: int, person: str = PERSON_BOT, whole: bool = False
) -> dict:
    runs = [opening_losses(style, players, seed, person, whole) for seed in range(games)]

    def share(key: str) -> float:
        return sum(1 for r in runs if getattr(r, key)) / len(runs)

    out = {"style": style, "players": players, "games": games}
    for key in ("placards", "stopped", "boss_stopped", "travelled"):
        out[key] = {"games": round(share(key), 3), "total": sum(getattr(r, key) for r in runs)}
    out["held_median"] = statistics.median(r.held for r in runs)
    out["held_none"] = round(sum(1 for r in runs if r.held == 0) / len(runs), 3)
    out["won"] = round(sum(1 for r in runs if r.won) / len(runs), 3)
    return out


def _spec(style: str) -> str:
    return style if style.startswith("heuristic") else f"heuristic:{style}"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--style", default="friendly")
    ap.add_argument("--compare", default=None, help="a second style on the same seeds")
    ap.add_argument("--person", default=PERSON_BOT, help="the bot that stands for the person")
    ap.add_argument("--whole", action="store_true", help="whole games, and seat 0's wins")
    args = ap.parse_args(argv)
    styles = [args.style] + ([args.compare] if args.compare else [])
    span = "whole games" if args.whole else f"its first {TURNS} turns"
    print(f"seat 0: {args.person}; {span}; {args.games} seeded games, "
          f"{args.players} players")  # fmt: skip
    print(f"{'style':28} {'placards':>16} {'stopped':>16} {'Boss stopped':>16} "
          f"{'travelled':>16} {'held (median)':>14} {'held none':>10}"
          + (f" {'seat 0 won':>10}" if args.whole else ""))  # fmt: skip
    for style in styles:
        r = report(_spec(style), args.players, args.games, _spec(args.person), args.whole)
        cells = [f"{r[k]['games']:6.1%} ({r[k]['total']:3d})"
                 for k in ("placards", "stopped", "boss_stopped", "travelled")]  # fmt: skip
        print(f"{style:28} " + " ".join(f"{c:>16}" for c in cells)
              + f" {r['held_median']:>14} {r['held_none']:>10.1%}"
              + (f" {r['won']:>10.1%}" if args.whole else ""))  # fmt: skip


if __name__ == "__main__":
    main()
