"""Discarding over the hand limit in two steps: mark the cards, then confirm.

Nothing leaves the hand on the first click: a click marks a card (the fan shows it raised
and tagged), a click on a marked card keeps it again, Esc or Keep all clears the marks, and
the panel's "Discard N cards" sends them. The engine's action stays one `Discard` per card:
the confirmed cards are queued and sent one at a time, each once the one before it is
applied (over the LAN an action is stamped with the version it was made on, so a burst
would be refused as stale).
"""

from __future__ import annotations

from game.rules import Discard, LegalActions, Phase
from game.rules.cards import card_from_key
from game.rules.seat_view import SeatView


def cards_to_discard(v: SeatView, viewer: int | None) -> int:
    """How many cards the viewer must still discard (0: not over the limit now)."""
    if v.phase is not Phase.DISCARD or viewer is None or v.turn != viewer:
        return 0
    return max(0, v.players[viewer].hand_count - v.hand_limit)


class DiscardPicks:
    def __init__(self) -> None:
        self.marked: list[int] = []  # places in the hand fan, in the order marked
        self.queue: list[Discard] = []  # confirmed, not sent yet
        self._hand: tuple[str, ...] = ()

    def follow(self, cards: list[str], need: int) -> None:
        """The hand changed (a Recruitment played, a discard applied) or the limit is
        reached: the marks were for the hand before."""
        if tuple(cards) != self._hand or need == 0:
            self.marked = []
        self._hand = tuple(cards)

    def toggle(self, i: int, need: int) -> bool:
        """Mark card `i`, or keep it again if marked; False: `need` cards are marked
        already (nothing changes)."""
        if i in self.marked:
            self.marked.remove(i)
            return True
        if len(self.marked) >= need:
            return False
        self.marked.append(i)
        return True

    def choices(self, copies: range, need: int) -> tuple[int | None, int | None]:
        """For a pile of copies (places in the fan): the copy to mark next (None: all are
        marked, or `need` are marked while some of the pile are; a pile with none marked
        still offers one, to say "enough") and the copy to keep again (None: none marked)."""
        marked = [j for j in copies if j in self.marked]
        free = [j for j in copies if j not in self.marked]
        mark = free[0] if free and (len(self.marked) < need or not marked) else None
        return mark, marked[-1] if marked else None

    def mark_pile(self, copies: range, need: int) -> int:
        """Mark as many copies of a pile as are still to discard (a pile of three
        Recruitment cards in one go); how many were marked."""
        free = [j for j in copies if j not in self.marked]
        take = free[: max(0, need - len(self.marked))]
        self.marked += take
        return len(take)

    def clear(self) -> bool:
        """Keep every card; False when none was marked."""
        had = bool(self.marked)
        self.marked = []
        return had

    def confirm(self, seat: int, cards: list[str]) -> None:
        """Queue a Discard for each marked card (the table sends them one by one)."""
        self.queue += [Discard(seat, card_from_key(cards[i])) for i in sorted(self.marked)]
        self.marked = []

    def next_action(self, legal: LegalActions, busy: bool) -> Discard | None:
        """The queued discard to send now: None while the last one is on its way; a queue
        the game no longer allows (the limit reached another way) is dropped."""
        if not self.queue or busy:
            return None
        action = self.queue.pop(0)
        if action not in legal:
            self.queue = []
            return None
        return action
