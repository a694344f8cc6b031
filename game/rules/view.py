"""What one seat may see: the only way state leaves the engine.

`view(state, seat)` returns plain data (ints, strings, bools, None, lists and string-keyed
maps) ready for msgpack. It never contains another seat's hand, the draw order or the RNG;
`seat=None` is the public table (a spectator or the table display). Money is shown as a pile
unless it is the seat's own or the table shows exact figures.

Each key's wire form is its typed field (`game.rules.seat_view`, where every field is
written once) put on the wire: `view(state, seat) == SeatView.of(state, seat).to_data()`.
"""

from __future__ import annotations

from .events import Event
from .seat_view import (
    NEGOTIATION_FIELDS as _NEGOTIATION_FIELDS,
)
from .seat_view import (
    PILE_NOTE,
    VIEW_FORMAT,
    board_id,
    board_of,
    hand_data,
    money_pile,
    own_hand,
)
from .seat_view import SECTIONS as _FIELDS
from .seat_view import (
    WINDOW_FIELDS as _WINDOW_FIELDS,
)
from .state import GameState

__all__ = [
    "NEGOTIATION_FIELDS",
    "PILE_NOTE",
    "SECTIONS",
    "VIEW_FORMAT",
    "board_id",
    "board_of",
    "events_for",
    "hand_data",
    "money_pile",
    "view",
]


def _wire(build, to_data):
    """A field's wire builder: its typed value (game.rules.seat_view), put on the wire."""
    if to_data is None:
        return build
    return lambda state, key: to_data(build(state, key))


def _fields_wire(table: dict) -> dict:
    return {k: _wire(build, to_data) for k, (build, to_data, _d) in table.items()}


# The negotiation summary's wire form, field by field (built one by one by `game.table.seat_view`).
NEGOTIATION_FIELDS = _fields_wire(_NEGOTIATION_FIELDS)
_WINDOW_WIRE = tuple(_fields_wire(_WINDOW_FIELDS).items())
_NEGOTIATION_WIRE = tuple(NEGOTIATION_FIELDS.items())


def _negotiation(state: GameState, seat: int | None) -> dict | None:
    neg = state.negotiation
    return None if neg is None else {k: build(state, neg) for k, build in _NEGOTIATION_WIRE}


def _window(state: GameState, seat: int | None) -> dict | None:
    win = state.window
    return None if win is None else {k: build(state, win) for k, build in _WINDOW_WIRE}


# Each top-level key of a view and how to build its wire form: `view` builds them all, the
# LAN host each section once for every audience, `game.table.seat_view` only those a bot looks
# at (a bot deciding a pass needs no negotiation summary). The deal and the window go
# field by field, from their own tables, without the typed view in between.
SECTIONS = _fields_wire(_FIELDS) | {"negotiation": _negotiation, "window": _window}


def view(state: GameState, seat: int | None) -> dict:
    """The game as `seat` sees it (None: the public table)."""
    data = {key: build(state, seat) for key, build in SECTIONS.items()}
    if own_hand(state, seat):
        data["hand"] = hand_data(state.hands[seat])
    return data


def events_for(events: list[Event], seat: int | None) -> list[dict]:
    """Events as `seat` may see them, as plain data."""
    return [e.for_seat(seat).to_data() for e in events]
