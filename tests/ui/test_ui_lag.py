"""The screen is never more than a moment behind the game: events arriving faster than
their animations play are caught up (each batch lands within LAG_BOUND of its arrival), a
banner goes once the moment it announces has ended in the state, and a card's gap in the
hand closes within the card's own flight, wherever the pointer rests (SDL dummy driver,
fixed dt)."""

import pytest

from game.rules import events as ev
from game.ui.i18n import tr
from game.ui.sessions.replay_session import ReplaySession
from game.ui.sessions.session_api import UpdateBatch
from game.ui.table import layout as L
from game.ui.table.anim import BANNER_GONE, LAG_BOUND
from game.ui.table.hand import CLOSE_TIME, HandFan
from game.ui.table.replay import ReplayScene
from game.ui.table.scene import TableScene
from tools import screenshot
from tools.autoplay import make_app

from .test_ui_table import position, settle

DT = 1 / 60


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)  # the normal animation speed
    yield app
    app.shutdown()


def frames(app, seconds: float) -> None:
    for _ in range(round(seconds / DT)):
        app.step(DT, draw=False)


def test_a_burst_of_moves_faster_than_their_animations_stays_within_the_bound(app):
    """A replay stepped forward every 0.2 s, whatever is still animating (a deal's close
    alone takes about 3 s to play): no batch lands later than LAG_BOUND after it came."""
    game = screenshot.finished_bot_game(5, 4, "heuristic")
    scene = ReplayScene(app, ReplaySession(game))
    app.push(scene)
    frames(app, 0.1)
    replay = scene.replay
    for _ in range(120):
        replay.forward()  # the session's step: the viewer's own would finish() first
        frames(app, 0.2)
    frames(app, 2 * LAG_BOUND)
    lags = [r.lag for r in scene.lag.records]
    assert len(lags) > 100 and None not in lags
    assert max(lags) <= LAG_BOUND + 2 * DT, sorted(lags)[-5:]
    assert not scene.director.busy() or scene.director.cursor == 0.0


def going_once_banners(table) -> list:
    text = tr("phrase.going_once")
    return [b for b in table.director.banners if b.text == text and b.alpha >= 4]


@pytest.fixture
def table(app):
    t = TableScene(app, position())
    app.push(t)
    settle(app, t)
    t.session.frozen = True  # nothing moves but what the test feeds
    return t


def feed(app, table, batches: list[list[dict]]) -> None:
    """The batches arrive at the table on its next frame (as the session's poll gives them)."""
    version = table.session.version
    table.session.poll = lambda: [UpdateBatch(events, version) for events in batches]
    app.step(DT, draw=False)
    table.session.poll = lambda: []


CALLED = [ev.GoingOnceCalled(0).to_data()]
CLOSED = [  # everyone passed: the window closes, and the deal with it; the next turn starts
    e.to_data()
    for e in (
        ev.Passed(1, False),
        ev.WindowClosed("going_once"),
        ev.DealClosed(0, 3, 1, 6, (), ()),
        ev.TurnStarted(1),
    )
]


def test_a_going_once_banner_goes_when_its_window_closes(app, table):
    feed(app, table, [CALLED])
    frames(app, 0.4)
    assert going_once_banners(table)  # on screen while the window is open
    feed(app, table, [CLOSED])  # the window closed, the deal with it
    frames(app, BANNER_GONE + 2 * DT)
    assert not going_once_banners(table)


def test_a_going_once_closed_in_the_same_batch_is_never_shown(app, table):
    feed(app, table, [CALLED, CLOSED])
    closed, announced = tr("phrase.deal_closed"), False
    for _ in range(round(1.5 / DT)):
        app.step(DT, draw=False)
        assert not going_once_banners(table)
        announced |= any(b.text == closed and b.alpha >= 250 for b in table.director.banners)
    assert announced  # the moment the state is at is still announced


def test_a_hand_closes_its_gap_within_the_flight_under_a_resting_pointer():
    fan = HandFan()
    hand = {"clan_red": 1, "clan_blue": 1, "boss": 1, "stop": 1, "recruit": 1}
    fan.set_hand(hand, set())
    rest = fan.card_rect(2).center  # the pointer rests over the hand, and stays there
    fan.update(DT, rest)
    before = {k: fan.slots[i] for i, k in enumerate(fan.cards)}
    fan.set_hand({**hand, "boss": 0}, set())  # the Boss card goes (played, stopped)
    assert fan.empty_slot()
    fan.update(DT, rest)
    assert [fan.slots[i] for i in range(len(fan.cards))] == [before[k] for k in fan.cards]
    t = DT
    while fan.empty_slot():
        fan.update(DT, rest)
        t += DT
        assert t <= CLOSE_TIME + DT, "the gap outlived the card's flight"
    assert fan.slots == fan.goals
    xs = [x for x, _, _ in fan.slots]
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert max(gaps) - min(gaps) < 1  # evenly spread: no hole
    assert abs((xs[0] + xs[-1]) / 2 - L.HAND.centerx) < 1  # centred again


def test_a_discard_leaves_no_gap_past_the_flight_in_a_table(app, table):
    """Through the table: the pointer over the fan, a card leaves (a discard the table did
    not click): its slot is closed within the flight, and the instrument says so."""
    fan = table.hand
    rest = fan.card_rect(0).center
    table.mouse = rest
    table.pointer.moved(rest)
    frames(app, 0.2)
    table.lag.gaps.clear()  # (the opening deal's cards flew in during the settle)
    st = table.session.state
    hand = list(st.hands[0])
    gone = next(i for i, n in enumerate(hand) if n)
    st.hands[0][gone] = 0
    st.actions_taken += 1  # the view is cached by version
    st._legal_cache.clear()
    frames(app, CLOSE_TIME + 3 * DT)
    assert not fan.empty_slot()
    assert table.lag.gaps and max(table.lag.gaps) <= CLOSE_TIME + 2 * DT


def test_the_lag_bench_runs(monkeypatch):
    """bench/lag.py plays a stretch of the game and of the replay and reads the instrument
    (no figure is asserted: the bench prints them)."""
    from bench import lag as bench

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", "")  # the bench's own, undone after
    opts = bench.options(["--fixed-dt", "0.05", "--seconds", "25"])
    for mode in ("play", "replay"):
        r = bench.run(mode, opts)
        assert r["versions"] > 3 and r["lag"]["n"] > 3 and r["lag"]["max"] is not None
