"""Which scene each `router.Route` opens (game/ui/screen/router.py). This module sits above every
scene: scenes never import it, `App` does. Each opener imports its scene when first asked,
so the window starts without loading the scenes it has not shown yet."""

from __future__ import annotations

from .router import Route, opens


@opens(Route.TITLE)
def title(app):
    from ..scenes.title import TitleScene

    return TitleScene(app)


@opens(Route.RESULTS)
def results(app, *args, **kwargs):
    from ..scenes.results import ResultsScene

    return ResultsScene(app, *args, **kwargs)


@opens(Route.ROOM)
def room(app, session):
    from ..scenes.room import RoomScene

    return RoomScene(app, session)


@opens(Route.LAN_RESULTS)
def lan_results(app, session, table):
    from ..scenes.room import LanResultsScene

    return LanResultsScene(app, session, table)
