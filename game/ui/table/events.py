"""Every event type the table can be fed: the engine's (derived from its event classes)
and the client's own (table talk, a bot's reason for failing a deal; on LAN, a seat's connection dropping and coming back).
The animations and the log each cover all of them, by a handler or by a deliberate
silence, so a new event cannot be forgotten (tests/ui/test_ui_events.py)."""

from __future__ import annotations

from game.rules.events import EVENT_TYPES

PHRASE = "phrase"  # a player says a table-talk phrase (session.py, net_session.py)
SEAT_DROPPED = "seat_dropped"  # LAN: a player's connection is lost (net_session.py)
SEAT_BACK = "seat_back"  # LAN: ... and back
GAVE_UP = "gave_up"  # a bot Boss says why it failed the deal (session.py)
LOSS = "loss"  # something of a person on this screen was taken (losses.py)

ENGINE_EVENTS = frozenset(EVENT_TYPES)
CLIENT_EVENTS = frozenset({PHRASE, SEAT_DROPPED, SEAT_BACK, GAVE_UP, LOSS})
TABLE_EVENTS = ENGINE_EVENTS | CLIENT_EVENTS
