"""How long a person at a bot table waits for a deal to take part in, per bot style.

    python -m bench.bots --deal-runs [--games 200] [--jobs 2]

Seat 0 stands for the person: it is played by the standard heuristic bot (it deals and
draws as a reasonable player would), the other seats by the style measured. Every turn ends
in "Let's make a deal!" or a draw; the turns are read in order, and a **run** is the number
of *bot* turns in a row that opened no deal for the person before the next deal came, whoever
opens it: one run per deal, 0 when a deal follows a deal (the person's own turns that draw
are not bot turns: they neither count in a run nor end it). A game's last, unfinished run
counts too.

Two readings of "a deal for the person":

- **any**: any deal (every player may offer, answer the Boss, or play Travel, Boss and Stop
  cards in any negotiation);
- **investor**: a deal on a space one of whose clans the person could bring, by a placard
  or a Clan card in hand at the moment it opens (the person's own deals count).

The figures: the median, 90th percentile and longest run (also of "any" over the game's first
OPENING rounds only, what a first game shows first), and the share of bot turns that open a
deal.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from game.rules import Draw, OpenDeal, Settings, WindowMode
from game.table.simulate import simulate_game

PERSON = 0
PERSON_BOT = "heuristic"
#: The styles a player can seat (game/ui/sessions/bot_styles.py), by their names on screen.
STYLES = {
    "shrewd": "heuristic",
    "friendly": "heuristic:friendly",
    "careful": "heuristic:tight",
    "greedy": "heuristic:greedy",
    "wild": "heuristic:chaotic",
}
PLAYER_COUNTS = (3, 4, 5, 6)
OPENING = 4  # rounds: the first game's first impression (issue 24 watched four turns)


@dataclass
class Runs:
    """One style's runs at one table size (each list: run lengths in bot turns)."""

    any: list[int] = field(default_factory=list)
    investor: list[int] = field(default_factory=list)
    opening: list[int] = field(default_factory=list)  # "any", in the first OPENING rounds
    bot_turns: int = 0
    bot_deals: int = 0

    def add(self, other: Runs) -> None:
        self.any += other.any
        self.investor += other.investor
        self.opening += other.opening
        self.bot_turns += other.bot_turns
        self.bot_deals += other.bot_deals


def _could_invest(st, space: int) -> bool:
    """The person holds a placard or a Clan card of a clan the space uses."""
    for clan in st.board.spaces[space].clans:
        if st.placards[clan] == PERSON or st.hands[PERSON][int(clan)] > 0:
            return True
    return False


class _Counter:
    """`on_step` of one game: each turn's end read as it is applied."""

    def __init__(self, players: int) -> None:
        self.runs = Runs()
        self.open = {"any": 0, "investor": 0}
        self.turns = 0
        self.opening_turns = OPENING * players

    def _end(self, reading: str) -> None:
        getattr(self.runs, reading).append(self.open[reading])
        self.open[reading] = 0

    def __call__(self, game, action, events) -> None:
        deal = isinstance(action, OpenDeal)
        if not deal and not isinstance(action, Draw):
            return
        bot = action.seat != PERSON
        st = game.state
        self.turns += 1
        if bot:
            self.runs.bot_turns += 1
            self.runs.bot_deals += deal
        investor = deal and (not bot or _could_invest(st, st.negotiation.space))
        for reading, ends in (("any", deal), ("investor", investor)):
            if ends:
                self._end(reading)
            elif bot:
                self.open[reading] += 1
        if self.turns == self.opening_turns:  # the opening's runs, the last one cut here
            self.runs.opening = self.runs.any + ([self.open["any"]] if self.open["any"] else [])

    def finish(self) -> Runs:
        for reading in ("any", "investor"):
            if self.open[reading]:
                self._end(reading)
        return self.runs


def _one_game(job) -> Runs:
    players, seed, spec = job
    counter = _Counter(players)
    specs = [PERSON_BOT] + [spec] * (players - 1)
    settings = Settings(players=players, window_mode=WindowMode.ASK_AROUND)
    simulate_game(players, seed, specs, settings, on_step=counter)
    return counter.finish()


def _figures(runs: list[int]) -> dict:
    if not runs:
        return {"runs": 0, "median": 0, "p90": 0, "longest": 0}
    xs = sorted(runs)
    return {
        "runs": len(xs),
        "median": statistics.median(xs),
        "p90": xs[min(len(xs) - 1, int(0.9 * len(xs)))],
        "longest": xs[-1],
    }


def run_deal_runs(games: int, seed: int, jobs: int, map_games, styles=STYLES) -> dict:
    """{style: {players: figures}} over `games` games per style and table size."""
    out: dict = {}
    for style, spec in styles.items():
        out[style] = {}
        for players in PLAYER_COUNTS:
            work = [(players, seed + i, spec) for i in range(games)]
            total = Runs()
            for part in map_games(_one_game, work, jobs, 4):
                total.add(part)
            out[style][players] = {
                "any": _figures(total.any),
                "investor": _figures(total.investor),
                "opening": _figures(total.opening),
                "deal_share": round(total.bot_deals / max(1, total.bot_turns), 3),
            }
    return out


def _cell(figures: dict) -> str:
    return f"{figures['median']:g} / {figures['p90']} / {figures['longest']}"


def print_deal_runs(report: dict, games: int) -> None:
    print(
        f"\nbot turns in a row without a deal for the person (seat 0, the standard bot; "
        f"{games} games per row; ask-around): median / p90 / longest"
    )
    print(
        f"{'style':<10}{'players':>8}{'deal share':>12}{'any deal':>18}"
        f"{f'first {OPENING} rounds':>18}{'as investor':>18}"
    )
    for style, by_players in report.items():
        for players, d in by_players.items():
            cells = "".join(
                f"{_cell(r):>18}" for r in (d["any"], d["opening"], d["investor"])
            )
            print(f"{style:<10}{players:>8}{d['deal_share']:>12.2f}{cells}")
