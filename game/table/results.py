"""What a finished game came to, as the simulations, the tournament and the LAN host report
it: the seed, who won, the money and the deals; `to_data` is the form `main.py simulate`
prints and the host's status gives."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.rules import Game


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
