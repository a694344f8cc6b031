"""Scenes that open a scene above them (or beside them) by its route, not by an import.

Scenes import what lies below them: the title imports the scenes it opens, a new game
imports the table. Going back up (to the title, the room) or opening the results from the
table would close a circle of imports, so those scenes are opened by a `Route`:
`router.scene(Route.TITLE, app)`. `game/ui/screen/screens.py`, above every scene, says which
scene each route opens (`@opens(Route.TITLE)`; it imports the scene only when asked, so
starting costs nothing); `App` imports it, so every route is known before the first
window opens. tests/ui/test_ui_imports.py holds that game/ui has no import circle.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum


class Route(Enum):
    TITLE = "title"  # the title screen (back from anywhere)
    RESULTS = "results"  # a hot-seat game's results (from the table)
    ROOM = "room"  # a LAN table's room, before and between games
    LAN_RESULTS = "lan_results"  # a LAN game's results (the link stays up)


_OPENERS: dict[Route, Callable] = {}


def opens(route: Route):
    """Register a scene class (or a function building one) as what `route` opens."""

    def register(opener):
        if _OPENERS.get(route, opener) is not opener:
            raise ValueError(f"{route} is opened by {_OPENERS[route]!r} already")
        _OPENERS[route] = opener
        return opener

    return register


def scene(route: Route, app, *args, **kwargs):
    """The scene `route` opens, built with these arguments."""
    try:
        opener = _OPENERS[route]
    except KeyError:
        raise LookupError(f"no scene registered for {route} (import game.ui.screen.screens)") from None
    return opener(app, *args, **kwargs)
