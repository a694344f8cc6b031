"""Invariants that hold after every action of every game (DESIGN.md "Engine contract").

Used by the test suite and the long invariant sweep; cheap enough to run after each action.
"""

from __future__ import annotations

from .cards import CARD_KINDS, DECK_COUNTS, Card, clan_card
from .events import DealClosed, Event, Paid
from .state import GameState, SourceKind, WindowKind


class InvariantBroken(AssertionError):
    pass


def card_counts(state: GameState) -> list[int]:
    """Every card wherever it is: hands, draw pile, discard pile, the table, an open window."""
    counts = [0] * CARD_KINDS
    for hand in state.hands:
        for k, n in enumerate(hand):
            if n < 0:
                raise InvariantBroken(f"negative count of {Card(k).key} in a hand")
            counts[k] += n
    for c in state.deck:
        counts[c] += 1
    for c in state.discard:
        counts[c] += 1
    neg = state.negotiation
    if neg is not None:
        for card in neg.laid:
            counts[clan_card(card.clan)] += 1
        for c in neg.travel.values():
            counts[c] += 1
    win = state.window
    if win is not None:
        if win.kind is WindowKind.TRAVEL:
            counts[win.card] += 1
        elif win.kind is WindowKind.BOSS:
            counts[Card.BOSS] += 1
        elif win.kind is WindowKind.RECRUIT:
            counts[Card.RECRUIT] += 3
    return counts


class MoneyAudit:
    """Follows a game's events to check what the state alone cannot show: money paid out
    equals the proceeds, and no clan is counted twice in a deal."""

    def __init__(self, state: GameState) -> None:
        self.start_money = sum(state.money)
        self.start_covered = len(state.covered)
        self.proceeds = 0

    def check(self, state: GameState, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, DealClosed):
                self.proceeds += e.proceeds
                clans = [int(c) for c in e.clans]
                if len(set(clans)) != len(clans):
                    raise InvariantBroken(f"a clan counted twice in the deal on space {e.space}")
                space = state.board.spaces[e.space]
                mask = sum(1 << c for c in clans)
                if len(clans) != space.investors or not state.board.cover[e.space][mask]:
                    raise InvariantBroken("the involved sources do not cover the space exactly")
                for src, clan in zip(e.involved, clans, strict=True):
                    if src.kind is SourceKind.PLACARD and src.ref != clan:
                        raise InvariantBroken("a placard stood for another clan")
            if isinstance(e, Paid) and e.amount < 0:
                raise InvariantBroken("a negative payment")
        check_state(state)
        if sum(state.money) != self.start_money + self.proceeds:
            raise InvariantBroken(
                f"money {sum(state.money)} != proceeds paid {self.proceeds} + start {self.start_money}"
            )
        if len(state.covered) - self.start_covered != state.deals_closed:
            raise InvariantBroken("tiles placed != deals closed")


def check_state(state: GameState) -> None:
    counts = card_counts(state)
    if counts != list(DECK_COUNTS):
        diff = {
            Card(k).key: counts[k] - DECK_COUNTS[k]
            for k in range(CARD_KINDS)
            if counts[k] != DECK_COUNTS[k]
        }
        raise InvariantBroken(f"cards not conserved: {diff}")
    if any(m < 0 for m in state.money):
        raise InvariantBroken("negative money")
    neg = state.negotiation
    if neg is not None:
        total = sum(t.amount for t in neg.agreements.values())
        if total > neg.proceeds:
            raise InvariantBroken("agreements exceed the proceeds")
        if neg.boss in neg.agreements or neg.boss in neg.pending:
            raise InvariantBroken("the Boss has terms with themself")
        for seat, terms in neg.agreements.items():
            for s in terms.sources:
                owner = (
                    state.placards[s.ref]
                    if s.kind is SourceKind.PLACARD
                    else (neg.card(s.ref).owner if neg.card(s.ref) else None)
                )
                if owner != seat:
                    raise InvariantBroken(f"seat {seat} agreed a source it does not own: {s}")
                if s.kind is SourceKind.PLACARD and s.ref in neg.travel:
                    raise InvariantBroken("an agreed placard is travelling")
