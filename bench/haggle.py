"""How bots haggle: talk per deal, repeated terms, limit hits and the first deal's turn.

    python -m bench.bots --haggle [--games 60] [--bots heuristic] [--jobs 1]

Every table is default bots only (3, 4 and 6 players x ask-around and real time; real time
runs on the driver's manual clock, game/table/simulate.py). Per deal it counts the offers and
proposals made, whether any seat said the very same terms (same seat, same counterpart,
same sources, same amount) more than once, and whether the negotiation limit was reached.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field

from game.rules import Offer, Propose, Settings, WindowMode
from game.table.simulate import simulate_game

PLAYER_COUNTS = (3, 4, 6)
MODES = ("ask_around", "real_time")


@dataclass
class DealTalk:
    """One deal's negotiation as the benchmark saw it."""

    moves: int = 0  # offers + proposals
    said: Counter = field(default_factory=Counter)  # terms -> times said
    limit_hit: bool = False
    closed: bool = False

    def most_repeated(self) -> int:
        return max(self.said.values(), default=0)


@dataclass
class GameTalk:
    deals: list[DealTalk] = field(default_factory=list)
    first_deal_turn: int | None = None  # turns started up to and including the first deal's
    turns: int = 0


class TalkRecorder:
    """An `on_step` hook for `simulate_game` that splits the talk into deals."""

    def __init__(self) -> None:
        self.game = GameTalk()
        self.deal: DealTalk | None = None

    def __call__(self, game, action, events) -> None:
        deal = self.deal
        if deal is not None and isinstance(action, (Offer, Propose)):
            deal.moves += 1
            counterpart = game.state.negotiation.boss if isinstance(action, Offer) else action.to
            key = (action.seat, counterpart, frozenset(action.sources), action.amount)
            deal.said[key] += 1
        for e in events:
            kind = e.type
            if kind == "turn_started":
                self.game.turns += 1
            elif kind == "deal_opened":
                self.deal = DealTalk()
                self.game.deals.append(self.deal)
                if self.game.first_deal_turn is None:
                    self.game.first_deal_turn = self.game.turns
            elif kind == "negotiation_limit_reached" and self.deal is not None:
                if e.reason == "actions":
                    self.deal.limit_hit = True
            elif kind in ("deal_closed", "deal_failed") and self.deal is not None:
                self.deal.closed = kind == "deal_closed"
                self.deal = None


def _haggle_game(job) -> GameTalk:
    players, seed, specs, mode = job
    settings = Settings(players=players, window_mode=WindowMode(mode))
    rec = TalkRecorder()
    simulate_game(players, seed, specs, settings, on_step=rec)
    return rec.game


def _pct(xs: list[int], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))] if xs else 0


def summarize_talk(games: list[GameTalk]) -> dict:
    deals = [d for g in games for d in g.deals]
    moves = [d.moves for d in deals]
    firsts = [g.first_deal_turn for g in games if g.first_deal_turn is not None]
    n = max(1, len(deals))
    return {
        "games": len(games),
        "deals": len(deals),
        "closed_share": sum(d.closed for d in deals) / n,
        "moves_mean": statistics.fmean(moves) if moves else 0.0,
        "moves_p90": _pct(moves, 0.9),
        "moves_max": max(moves, default=0),
        "repeat_share": sum(d.most_repeated() >= 2 for d in deals) / n,
        "repeat3_share": sum(d.most_repeated() >= 3 for d in deals) / n,
        "limit_hits": sum(d.limit_hit for d in deals),
        "first_deal_median": statistics.median(firsts) if firsts else None,
        "first_deal_max": max(firsts, default=None),
        "games_without_deal": len(games) - len(firsts),
        "turns_median": statistics.median(g.turns for g in games) if games else 0,
    }


def run_haggle(games: int, bot: str, seed: int, jobs: int, map_games) -> list[dict]:
    rows = []
    for players in PLAYER_COUNTS:
        for mode in MODES:
            work = [(players, seed + i, [bot] * players, mode) for i in range(games)]
            summary = summarize_talk(map_games(_haggle_game, work, jobs))
            summary.update(players=players, window_mode=mode, bot=bot)
            rows.append(summary)
    return rows


HEADER = (
    "| players | mode | deals | closed | offers+proposals per deal: mean | p90 | max "
    "| deals with repeated terms | (3+ times) | limit hits | first deal: turn (median) | max "
    "| turns per game |"
)


def print_haggle(rows: list[dict], out=sys.stdout) -> None:
    bot = rows[0]["bot"] if rows else "?"
    games = rows[0]["games"] if rows else 0
    print(f"\nhaggling of {bot} bots only, {games} games per row", file=out)
    print(HEADER, file=out)
    print("|" + "---|" * (HEADER.count("|") - 1), file=out)
    for r in rows:
        print(
            f"| {r['players']} | {r['window_mode']} | {r['deals']} | {r['closed_share']:.0%} "
            f"| {r['moves_mean']:.2f} | {r['moves_p90']} | {r['moves_max']} "
            f"| {r['repeat_share']:.1%} | {r['repeat3_share']:.1%} | {r['limit_hits']} "
            f"| {r['first_deal_median']} | {r['first_deal_max']} | {r['turns_median']} |",
            file=out,
        )
