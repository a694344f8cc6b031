"""The heuristic bot: a `Policy` fed with the seat's view, its tracked money and talk."""

from __future__ import annotations

import random

from game.rules import Action, LegalActions
from game.rules.seat_view import SeatView

from ..base import Bot, Remark, register
from ..obs import Memory, Obs
from ..talk import Talk
from .moves import passive_move
from .personality import personality
from .policy import Policy


@register("heuristic")
class HeuristicBot(Bot):
    """The heuristic negotiator. `heuristic:<personality>` picks a style."""

    needs_view = True
    wants_events = True

    def __init__(self, seat: int, seed: int = 0, param: str | None = None) -> None:
        super().__init__(seat, seed)
        self.personality = personality(param)
        self.rng = random.Random(f"heuristic/{seed}/{seat}")
        self.policy = Policy(self.personality, self.rng)
        self.memory = Memory(seat)
        self.talk = self.policy.talk = Talk(seat)
        self._said_with: Action | None = None  # the move of the last `choose`

    def meet(self, people) -> None:
        self.policy.people = frozenset(people)

    def observe(self, events: list[dict]) -> None:
        self.memory.observe(events)
        self.talk.observe(events)

    def choose(
        self, view: dict | None, legal: LegalActions, must_act: bool = True
    ) -> Action | None:
        self.talk.hush()
        seen = SeatView.from_data(view)
        o = Obs.of(seen, self.memory.money_for(seen), self.memory.failed)
        a = self.policy.decide(o, legal, must_act)
        if a is None and must_act:
            a = passive_move(legal)
        self.talk.goes_with(a)
        self._said_with = a
        return a

    def remark(self) -> Remark | None:
        return self.talk.remark(self._said_with)
