"""The table covers every event type: each one the engine can emit (and the client's own:
table talk, a LAN seat dropping and coming back) has an animation or is deliberately not
animated, and a log sentence or is deliberately not logged. A new event added to
game/rules/events.py fails here until the table decides what to do with it."""

import pytest

from game.rules import events as engine_events
from game.ui.i18n import set_language
from game.ui.table.anim import ANIMATIONS, NOT_ANIMATED, Director
from game.ui.table.events import CLIENT_EVENTS, ENGINE_EVENTS, TABLE_EVENTS
from game.ui.table.log import SENTENCES, SILENT_IN_LOG, Describer


def _event_classes(cls) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _event_classes(sub)
    return out


def test_the_engine_list_is_every_event_class():
    named = {c.type for c in _event_classes(engine_events.Event) if c.type != "event"}
    assert named == ENGINE_EVENTS
    assert len(ENGINE_EVENTS) >= 40
    assert not CLIENT_EVENTS & ENGINE_EVENTS


@pytest.mark.parametrize(
    ("handled", "silent"),
    [(set(ANIMATIONS), NOT_ANIMATED), (set(SENTENCES), SILENT_IN_LOG)],
    ids=["animations", "log"],
)
def test_every_event_is_handled_or_deliberately_silent(handled, silent):
    assert not handled & silent, "both handled and silent"
    assert handled | silent == TABLE_EVENTS, {
        "forgotten": sorted(TABLE_EVENTS - handled - silent),
        "unknown": sorted((handled | silent) - TABLE_EVENTS),
    }


def test_silent_events_say_nothing_and_take_no_time():
    set_language("en")
    d = Describer(["Mei", "Ann"])
    for t in SILENT_IN_LOG:
        assert d({"type": t, "seat": 0}) is None, t
    director = Director(table=None)  # a silent event must not even look at the table
    director.cursor = 0.4
    for t in NOT_ANIMATED:
        director._event({"type": t, "seat": 0}, viewer=0)
    assert director.cursor == 0.4
    assert not director.sprites and not director.banners and not director.bubbles


def test_the_client_events_have_their_sentences():
    set_language("en")
    d = Describer(["Mei", "Ann"])
    assert d({"type": "seat_dropped", "seat": 1}) == "Ann is away"
    assert d({"type": "seat_back", "seat": 1}) == "Ann is back"
    assert d({"type": "phrase", "seat": 0, "key": "phrase.deal"}).startswith("Mei")
