"""The turn: placing the marker, rolling, opening a deal, drawing, discarding down to
the hand limit (RULES §3)."""

from __future__ import annotations

from . import negotiation as nego
from .actions import (
    Discard,
    Draw,
    OpenDeal,
    PlaceMarker,
    Roll,
)
from .cards import Card
from .events import (
    CardDiscarded,
    CardsDrawn,
    DealOpened,
    DeckReshuffled,
    DieRolled,
    Event,
    HandLimitReached,
    MarkerMoved,
    MarkerPlaced,
    TurnStarted,
)
from .state import (
    GameState,
    Negotiation,
    Phase,
)
from .variants import Variant


def hand_limit(state: GameState) -> int:
    if state.settings.has(Variant.V6) and state.tiles and state.tiles[0] >= 10:
        return min(10, state.settings.hand_limit)
    return state.settings.hand_limit


def current_price(state: GameState) -> int:
    return state.board.tile(state.tiles[0]).price if state.tiles else 0


def free_spaces(state: GameState) -> list[int]:
    return [s for s in range(len(state.board.spaces)) if s not in state.covered]


def _place_marker(state: GameState, a: PlaceMarker, events: list[Event]) -> None:
    state.marker = a.space
    events.append(MarkerPlaced(a.seat, a.space))
    start_turn(state, state.first_player, events)


def start_turn(state: GameState, seat: int, events: list[Event]) -> None:
    state.phase = Phase.TURN
    state.turn = seat
    state.last_roll = None
    events.append(TurnStarted(seat))


def _open_deal(state: GameState, a: OpenDeal, events: list[Event]) -> None:
    space = state.marker
    price = current_price(state)
    proceeds = state.board.spaces[space].dividends * price
    state.negotiation = Negotiation(
        space=space,
        price=price,
        proceeds=proceeds,
        opener=a.seat,
        boss=a.seat,
        floor=None if nego.is_real_time(state) else a.seat,
    )
    state.phase = Phase.NEGOTIATION
    events.append(DealOpened(a.seat, space, price, proceeds))


def _roll(state: GameState, a: Roll, events: list[Event]) -> None:
    value = state.rng.die()
    state.last_roll = value
    events.append(DieRolled(a.seat, value, "move"))
    path = []
    pos = state.marker
    steps = value
    n = len(state.board.spaces)
    if len(state.covered) < n - 1:
        while steps:
            pos = (pos + 1) % n
            path.append(pos)
            if pos not in state.covered:
                steps -= 1
    state.marker = pos
    events.append(MarkerMoved(tuple(path)))
    state.phase = Phase.MOVED


def draw_count(state: GameState, seat: int) -> int:
    if state.settings.has(Variant.V4):
        owned = sum(1 for p in state.placards if p == seat)
        return (4, 3, 2)[owned] if owned < 3 else 1
    return 3


def _draw_cards(state: GameState, seat: int, count: int, events: list[Event]) -> None:
    drawn: list[Card] = []
    for _ in range(count):
        if not state.deck:
            if not state.discard:
                break
            state.deck = state.discard
            state.discard = []
            state.rng.shuffle(state.deck)
            events.append(DeckReshuffled(len(state.deck)))
        card = state.deck.pop()
        state.hands[seat][card] += 1
        drawn.append(card)
    events.append(CardsDrawn(seat, len(drawn), tuple(drawn)))


def _draw(state: GameState, a: Draw, events: list[Event]) -> None:
    _draw_cards(state, a.seat, draw_count(state, a.seat), events)
    limit = hand_limit(state)
    excess = state.hand_size(a.seat) - limit
    if excess > 0:
        state.phase = Phase.DISCARD
        events.append(HandLimitReached(a.seat, excess, limit))
    else:
        start_turn(state, (a.seat + 1) % state.players, events)


def _discard(state: GameState, a: Discard, events: list[Event]) -> None:
    state.hands[a.seat][a.card] -= 1
    state.discard.append(a.card)
    events.append(CardDiscarded(a.seat, a.card))
    after_discard_step(state, events)


def after_discard_step(state: GameState, events: list[Event]) -> None:
    if state.hand_size(state.turn) <= hand_limit(state):
        start_turn(state, (state.turn + 1) % state.players, events)


#: the actions this module applies, by type (engine.apply dispatches on it)
HANDLERS = {
    PlaceMarker: _place_marker,
    OpenDeal: _open_deal,
    Roll: _roll,
    Draw: _draw,
    Discard: _discard,
}
