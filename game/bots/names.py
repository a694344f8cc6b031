"""Readable names for bot seats, as at a real table: hot-seat (game/ui/scenes/newgame.py)
and the LAN host (net/host/server.py) name their bots alike."""

from __future__ import annotations

#: Readable names for bot seats, as at a real table (hot-seat and LAN alike).
BOT_NAMES = ("Ada", "Bruno", "Chen", "Dara", "Emil", "Fumi")


def bot_name(seat: int, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """The bot seat's name: ``BOT_NAMES[seat]``, or the next one nobody at the table uses
    (a person called Ada keeps the name; her neighbour bot becomes Bruno)."""
    n = len(BOT_NAMES)
    for i in range(n):
        name = BOT_NAMES[(seat + i) % n]
        if name not in taken:
            return name
    base, k = BOT_NAMES[seat % n], 2
    while f"{base} ({k})" in taken:
        k += 1
    return f"{base} ({k})"
