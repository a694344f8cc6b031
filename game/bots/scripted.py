"""A bot that plays its moves from a script (the "Learn to play" tutorial, game/tutorial.py).

It sees only its seat's view and legal actions like every bot. Each scripted move carries
a gate: how many of the player's tutorial steps must be done before it may be played, so a
scripted Travel card waits for the moment the coach explains it. Until its next move is
both released and legal, the bot lets the moment pass (passes the floor or the window);
where no pass exists (its own turn) it has no move and the driver waits for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.rules import Action, LegalActions, Pass, PassFloor

from .base import Bot


@dataclass(frozen=True)
class ScriptedMove:
    action: Action
    after: int  # the number of tutorial steps done before this move is released


class ScriptedBot(Bot):
    kind = "scripted"
    needs_view = False

    def __init__(
        self, seat: int, moves: tuple[ScriptedMove, ...], steps_done: Callable[[], int]
    ) -> None:
        super().__init__(seat)
        self.moves = list(moves)
        self.steps_done = steps_done

    def next_move(self, legal: LegalActions) -> Action | None:
        """The scripted move if it is released and legal now; else a pass when there is
        one; else None (the seat waits)."""
        if (
            self.moves
            and self.moves[0].after <= self.steps_done()
            and self.moves[0].action in legal
        ):
            return self.moves[0].action
        for a in (Pass(self.seat), PassFloor(self.seat)):
            if a in legal:
                return a
        return None

    def choose(self, view, legal: LegalActions, must_act: bool = True) -> Action | None:
        action = self.next_move(legal)
        if action is not None and self.moves and action == self.moves[0].action:
            self.moves.pop(0)
        return action
