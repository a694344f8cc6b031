"""What a bot is handed to decide from: its seat's view, and nothing else of the game.

``view_now(state, seat)`` is the whole view, built at once (a bot that reads most of it, or
one that thinks on another thread while the game moves on). ``seat_view(state, seat)`` is
the same map built key by key on first look, for a quick bot asked on the spot that reads
a few keys (the random bot: a pass needs no negotiation summary). It holds no game state:
each key is read through a function bound to that seat at that version, and a read after
the game moved on raises instead of answering from a later state.
"""

from __future__ import annotations

from collections.abc import Callable

from game.rules.view import NEGOTIATION_FIELDS, SECTIONS, hand_data
from game.rules.view import view as view_now

__all__ = ["LazyView", "seat_view", "view_now"]

_KEYS = tuple(SECTIONS)
_KEYS_AND_HAND = (*SECTIONS, "hand")
_NEGOTIATION_KEYS = tuple(NEGOTIATION_FIELDS)


class LazyView(dict):
    """A map built key by key on first look, equal to the map built at once."""

    __slots__ = ("_read", "_keys")

    def __init__(self, read: Callable[[str], object], keys: tuple) -> None:
        self._read = read  # (dict.__init__ is not called: the map starts empty)
        self._keys = keys

    def __missing__(self, key):
        value = self._read(key)
        dict.__setitem__(self, key, value)
        return value

    def _fill(self) -> None:
        if dict.__len__(self) < len(self._keys):
            for key in self._keys:
                value = self[key]
                if isinstance(value, LazyView):
                    value._fill()

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __iter__(self):
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        return len(self._keys)

    def __bool__(self) -> bool:  # `if view["negotiation"]:` must not build every field
        return bool(self._keys)

    def keys(self):
        self._fill()
        return dict.keys(self)

    def items(self):
        self._fill()
        return dict.items(self)

    def values(self):
        self._fill()
        return dict.values(self)

    def __eq__(self, other) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    __hash__ = None


def seat_view(state, seat: int | None) -> LazyView:
    """``view_now(state, seat)``, built key by key as the bot reads it."""
    version = state.actions_taken
    own_hand = seat is not None and 0 <= seat < state.players

    def read(key: str):
        if state.actions_taken != version:
            raise RuntimeError("a seat's view was read after the game moved on")
        if key == "negotiation":
            if state.negotiation is None:
                return None

            def negotiation_field(key: str):
                if state.actions_taken != version:
                    raise RuntimeError("a seat's view was read after the game moved on")
                return NEGOTIATION_FIELDS[key](state, state.negotiation)

            return LazyView(negotiation_field, _NEGOTIATION_KEYS)
        build = SECTIONS.get(key)
        if build is not None:
            return build(state, seat)
        if key == "hand" and own_hand:
            return hand_data(state.hands[seat])
        raise KeyError(key)

    return LazyView(read, _KEYS_AND_HAND if own_hand else _KEYS)
