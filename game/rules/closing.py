"""After a negotiation (RULES §7): a closed deal settled, its tile placed and the end-game
die rolled; the table cleared after a close or a fail; then the next turn or the end."""

from __future__ import annotations

from . import negotiation as nego
from .board import CLANS
from .cards import Card, clan_card
from .events import (
    BANK,
    CardsReturned,
    DealClosed,
    DieRolled,
    Event,
    GameOver,
    MarkerMoved,
    Paid,
    TableCleared,
    TilePlaced,
)
from .state import (
    GameState,
    Negotiation,
    Phase,
    SourceKind,
)
from .turn import start_turn
from .variants import Variant


def close_deal(state: GameState, events: list[Event]) -> None:
    neg = state.negotiation
    chosen, _auto = nego.involved(state)
    boss = neg.boss
    tile = state.tiles.pop(0)
    involved_sources = tuple(e[1] for e in chosen)
    clans = tuple([CLANS[e[0]] for e in chosen])
    events.append(DealClosed(boss, neg.space, tile, neg.proceeds, involved_sources, clans))
    money = state.money
    for pay in nego.settlement(state):  # the one account of a deal's payments (the ledger's)
        if pay.payer != BANK:
            money[pay.payer] -= pay.amount
        money[pay.payee] += pay.amount
        events.append(Paid(pay.payer, pay.payee, pay.amount, pay.reason))
    clear_table(state, events, {s.ref for s in involved_sources if s.kind is SourceKind.CARD})
    state.covered[neg.space] = tile
    state.deals_closed += 1
    events.append(TilePlaced(tile, neg.space))
    nxt = _next_free(state, neg.space)
    if nxt is not None:
        state.marker = nxt
        events.append(MarkerMoved(_path(state, neg.space, nxt)))
    faces = state.board.tile(tile).end_faces
    over = not state.tiles or tile == 15
    if not over and faces:
        value = state.rng.die()
        state.last_roll = value
        events.append(DieRolled(boss, value, "end"))
        over = value in faces
    if over:
        _game_over(state, events)
        return
    end_negotiation(state, neg, events)


def _next_free(state: GameState, space: int) -> int | None:
    n = len(state.board.spaces)
    for i in range(1, n + 1):
        s = (space + i) % n
        if s not in state.covered:
            return s
    return None


def _path(state: GameState, start: int, end: int) -> tuple[int, ...]:
    n = len(state.board.spaces)
    out = []
    s = start
    while s != end:
        s = (s + 1) % n
        out.append(s)
    return tuple(out)


def clear_table(state: GameState, events: list[Event], involved_cards: set[int]) -> None:
    """Involved Clan cards and every other played card go to the discard pile; laid Clan
    cards not involved go back to their owners' hands (RULES §7)."""
    neg = state.negotiation
    returned: dict[int, list[Card]] = {}
    discarded: list[Card] = []
    for card in neg.laid:
        kind = clan_card(card.clan)
        if card.id in involved_cards:
            discarded.append(kind)
        else:
            state.hands[card.owner][kind] += 1
            returned.setdefault(card.owner, []).append(kind)
    discarded.extend(neg.travel[c] for c in sorted(neg.travel))
    state.discard.extend(discarded)
    neg.laid = []
    neg.travel = {}
    for seat in sorted(returned):
        events.append(CardsReturned(seat, tuple(returned[seat])))
    events.append(TableCleared(tuple(discarded)))


def end_negotiation(state: GameState, neg: Negotiation, events: list[Event]) -> None:
    state.negotiation = None
    state.window = None
    last = neg.opener if state.settings.has(Variant.V1) else neg.boss
    start_turn(state, (last + 1) % state.players, events)


def _game_over(state: GameState, events: list[Event]) -> None:
    state.negotiation = None
    state.window = None
    state.phase = Phase.GAME_OVER
    top = max(state.money)
    state.winners = [s for s in range(state.players) if state.money[s] == top]
    events.append(GameOver(tuple(state.winners), tuple(state.money)))
