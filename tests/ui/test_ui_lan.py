"""LAN play in the window (SDL dummy drivers, loopback only): the lobby and its live list of
discovered tables, a whole LAN game played through the table's own controls against bot
clients and host bots, the public table display, a drop and a rejoin in the middle of a
negotiation (in place, and after restarting the app), and how the session treats refusals.

Hosts run in `net.host.thread.HostThread`; bot clients are `net.client.bot.BotPlayer`s on their own
loops. Nothing sleeps for correctness: loops step the app and poll until a condition holds,
with a generous wall-clock guard that only turns a hang into a failure.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pygame
import pytest

from game.rules import Setup, view
from game.table.bot_schedule import Timing
from game.ui import i18n
from game.ui.scenes.lobby import LobbyScene
from game.ui.scenes.room import LanResultsScene, RoomScene
from game.ui.scenes.title import TitleScene
from game.ui.sessions import lan
from game.ui.sessions.net_session import NetSession
from game.ui.table.display import TableDisplayScene
from game.ui.table.scene import TableScene
from net import protocol as P
from net.client.bot import play_bot
from net.client.session import (
    Client,
    HostSeat,
    Joined,
    Said,
    Seats,
    ServerError,
    Snapshot,
    Update,
)
from net.discovery.browse import DiscoveryError, TableFound, TableLost
from net.host.thread import HostThread
from tests.net_helpers import config_for_tests
from tools.autoplay import DT, ScriptedHuman, click, click_widget, key, make_app

CODE = "WXYZ"
FAST_BOT = dict(answer_delay=0.0, think=0.0, idle=0.01, backoff=0.05)
GUARD = 90.0  # seconds: a hang fails the test instead of stalling the suite


@pytest.fixture(autouse=True)
def _loopback(monkeypatch):
    monkeypatch.setattr(lan, "HOST_BIND", "127.0.0.1")
    monkeypatch.setattr(lan, "ANNOUNCE", False)


def until(app, cond, what: str, draw_every: int = 0, guard: float = GUARD):
    """Step the app until cond() holds (the network runs on its own threads)."""
    end = time.monotonic() + guard
    step = 0
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        app.step(DT, draw=bool(draw_every) and step % draw_every == 0)
        step += 1
        time.sleep(0.001)  # pacing only: let the host and client threads run


def on_host(ht: HostThread, fn):
    """Run fn(host) on the host's own loop (a consistent read of its state)."""

    async def call():
        return fn(ht.host)

    return asyncio.run_coroutine_threadsafe(call(), ht._loop).result(10)


def host_view(ht: HostThread, seat):
    return on_host(
        ht, lambda h: (h.state.actions_taken, P.view_hash(view(h.state, seat)), h.state.hash())
    )


def bot_thread(port: int, i: int, results: dict) -> threading.Thread:
    def go():
        results[i] = asyncio.run(
            play_bot(
                "127.0.0.1", port, kind="random", name=f"Bot{i}", code=CODE, seed=i, **FAST_BOT
            )
        )

    t = threading.Thread(target=go, name=f"bot-{i}", daemon=True)
    t.start()
    return t


def recording(client: Client) -> list:
    """Wrap client.poll to keep every message the UI received."""
    seen: list = []
    poll = client.poll

    def wrapped():
        got = poll()
        seen.extend(got)
        return got

    client.poll = wrapped
    return seen


# --------------------------------------------------------------------------- the lobby


class FakeBrowser:
    """Stands in for net.discovery.browse.BackgroundBrowser: the test pushes events."""

    def __init__(self) -> None:
        self.queue: list = []
        self.started = self.closed = False

    def start(self) -> None:
        self.started = True

    def poll(self) -> list:
        out, self.queue = self.queue, []
        return out

    def close(self) -> None:
        self.closed = True


def table(key: str, name: str, free: int = 2, port: int = 40100, pv: int = P.PROTOCOL_VERSION) -> TableFound:
    return TableFound(key, name, "192.168.7.20", port, pv, free, True)


def rows(lobby) -> dict[str, str]:
    return {w.table.key: w.table.name for w in lobby.widgets if w.name.startswith("join.table.")}


def test_lobby_renders_in_every_language_and_its_list_follows_discovery(tmp_path):
    app = make_app(tmp_path)
    try:
        browser = FakeBrowser()
        app.push(TitleScene(app))
        lobby = app.push(LobbyScene(app, browser=browser))
        assert browser.started
        app.step(DT)
        assert rows(lobby) == {}
        browser.queue += [table("a", "Mei's table"), table("b", "Bo's table", free=0)]
        app.step(DT)
        assert rows(lobby) == {"a": "Mei's table", "b": "Bo's table"}
        # a table's data changes (same key), another appears, one disappears
        browser.queue += [table("a", "Mei's table", free=1), table("c", "Friday", pv=9)]
        browser.queue.append(TableLost("b"))
        app.step(DT)
        assert rows(lobby) == {"a": "Mei's table", "c": "Friday"}
        row_a = next(w for w in lobby.widgets if getattr(w, "table", None) and w.table.key == "a")
        assert row_a.table.seats_free == 1 and row_a.compatible
        assert not next(w for w in lobby.widgets if w.name == "join.table.1").compatible
        # picking a row fills the address to join
        click(row_a.rect.center)
        app.step(DT)
        assert lobby.joining.selected == "a" and app.config.lan_address == "192.168.7.20:40100"
        browser.queue.append(TableLost("a"))
        app.step(DT)
        assert rows(lobby) == {"c": "Friday"} and lobby.joining.selected is None
        # every language draws the lobby (its own strings, no blank screen)
        shots = set()
        for lang in i18n.LANGUAGES:
            app.set_language(lang)
            app.step(DT)
            shot = pygame.transform.scale(app.screen, (192, 108))
            colours = {shot.get_at((x, y))[:3] for x in range(0, 192, 4) for y in range(0, 108, 4)}
            assert len(colours) > 30, lang
            shots.add(pygame.image.tobytes(shot, "RGB"))
        assert len(shots) == len(i18n.LANGUAGES)
        app.set_language("en")
        # discovery unavailable: the list says so; typed addresses still work
        browser.queue += [TableLost("c"), DiscoveryError("mDNS refused")]
        app.step(DT)
        assert lobby.joining.discovery_error and rows(lobby) == {}
        # a bad address or code is explained, nothing is started
        app.config.lan_address = "not an address"
        assert click_widget(lobby, "join.go")
        app.step(DT)
        assert app.stack.top is lobby and lobby.message[0] == i18n.tr("lobby.bad_address")
        app.config.lan_address = "127.0.0.1:9"
        lobby.joining.code = "AB"
        assert click_widget(lobby, "join.go")
        app.step(DT)
        assert app.stack.top is lobby and lobby.message[0] == i18n.tr("lobby.bad_code")
        # back to the title: the browser is closed
        assert click_widget(lobby, "back")
        app.step(DT)
        assert isinstance(app.stack.top, TitleScene) and browser.closed
    finally:
        app.shutdown()


def test_the_lobby_shows_each_tables_pace_and_hosts_with_its_own(tmp_path):
    """A found table's row says how its windows ask and how long each player has to answer,
    in every language; the host pane's own choice (ask around by default) is what a table
    hosted from here announces."""
    from net.discovery.browse import TablePace
    from tools import layout_probe as probe

    app = make_app(tmp_path)
    try:
        browser = FakeBrowser()
        lobby = app.push(LobbyScene(app, browser=browser))
        found = TableFound(
            "m", "Mei's table", "192.168.7.20", 40100, 1, 2, True, (), TablePace("ask_around", 10)
        )
        browser.queue += [found, table("b", "Bo's table")]  # Bo's host announces no pace
        app.step(DT)
        for lang in i18n.LANGUAGES:
            app.set_language(lang)
            with probe.probing() as p:
                app.step(DT)
            drawn = {t.text for t in p.texts}
            ask = i18n.tr("settings.window_mode.ask_around")
            assert i18n.tr("lobby.pace", mode=ask, s=10) in drawn, lang
            assert not any(i18n.tr("lobby.pace", mode=ask, s=5) in t for t in drawn), lang
        app.set_language("en")
        with probe.probing() as p:
            app.step(DT)
        assert "Ask around · 10 s to answer" in {t.text for t in p.texts}
        mode = lobby.find("host.window_mode")
        assert mode.get() == "ask_around"
        assert lan.host_config(app.config).window_mode.value == "ask_around"
        mode.set("real_time")
        assert lan.host_config(app.config).window_mode.value == "real_time"
    finally:
        app.shutdown()


# --------------------------------------------------------------------------- a whole game


def needs_me(table) -> bool:
    v = table.v
    me = table.session.viewer
    if me in v["waiting_for"]:
        return True
    neg = v.get("negotiation")
    return neg is not None and neg["boss"] == me and v.get("window") is None


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_a_whole_lan_game_in_the_window_against_bot_clients(tmp_path):
    ht = HostThread(config_for_tests(seats=4, code=CODE, seed=41, short_game=True)).start()
    app = make_app(tmp_path, speed="fast", lan_name="Mei")
    bots: dict = {}
    try:
        app.push(TitleScene(app))
        app.step(DT)
        assert click_widget(app.stack.top, "title.lan")
        app.step(DT)
        lobby = app.stack.top
        assert isinstance(lobby, LobbyScene)
        # type the address and the code (mDNS is not used on loopback)
        lobby.joining.browser.close()
        click(lobby.find("join.address").rect.center)
        app.step(DT)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"127.0.0.1:{ht.port}"))
        click(lobby.find("join.code").rect.center)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=CODE.lower()))
        app.step(DT)
        assert app.config.lan_address == f"127.0.0.1:{ht.port}" and lobby.joining.code == CODE
        assert click_widget(lobby, "join.go")
        app.step(DT)
        room = app.stack.top
        assert isinstance(room, RoomScene)
        s = room.session
        seen = recording(s.client)
        until(app, lambda: s.joined and s.may_start, "joining as the starter")
        assert s.viewer == 0 and s.seats_local == (0,)
        assert app.config.last_table_token and app.config.last_table_name  # rejoin later
        threads = [bot_thread(ht.port, i, bots) for i in (1, 2)]
        until(
            app,
            lambda: s.seats and sum(x.status == "human" for x in s.seats.seats) == 3,
            "two bot clients",
        )
        assert click_widget(room, "room.start")  # the fourth seat goes to a host bot
        until(app, lambda: isinstance(app.stack.top, TableScene), "the table")
        table = app.stack.top
        assert table.session is s and app.lan is s
        human = ScriptedHuman(seed=5)
        said = False
        end = time.monotonic() + 120
        step = 0
        while not isinstance(app.stack.top, LanResultsScene):
            assert time.monotonic() < end, "the LAN game did not finish"
            top = app.stack.top
            if isinstance(top, TableScene) and not top.director.busy() and not s.busy:
                if not said and top.v["phase"] == "negotiation":
                    said = click_widget(top, "phrase.deal")  # a quick phrase, over the LAN
                elif needs_me(top) and top.legal.moves():
                    human.act(top)
            app.step(DT, draw=step % 40 == 0)
            step += 1
            time.sleep(0.0005)
        results = app.stack.top
        app.draw()
        # the UI really played, through its own controls
        assert s.actions_sent >= 10 and len(human.gestures) >= 4, human.gestures
        assert said
        # what the screen holds is exactly the host's final view of that seat
        version, digest, _ = host_view(ht, 0)
        assert s.view(0)["version"] == version and P.view_hash(s.view(0)) == digest
        assert s.view(0)["phase"] == "game_over"
        assert results.winners == on_host(ht, lambda h: list(h.state.winners))
        # the phrase went to the host and came back to everyone (a speech bubble here)
        assert any(isinstance(m, Said) and (m.seat, m.phrase) == (0, "deal") for m in seen)
        # this seat's own stream: cards dealt or drawn show only for seat 0
        for m in seen:
            if isinstance(m, (Snapshot, Update)):
                assert m.view["seat"] == 0 and "hand" in m.view
                for e in m.events:
                    if e["type"] in ("hand_dealt", "cards_drawn") and e["seat"] != 0:
                        assert e.get("cards") is None, e
        for t in threads:
            t.join(20)
        assert all(b.finished for b in bots.values()), bots
        # back to the title ends the link
        assert click_widget(results, "results.title")
        app.step(DT)
        assert isinstance(app.stack.top, TitleScene) and app.lan is None
        assert app.config.last_table_token == ""  # a finished game offers no "Rejoin"
    finally:
        app.shutdown()
        ht.stop()


# --------------------------------------------------------------------------- the display


@pytest.mark.timeout(120)
def test_the_table_display_only_ever_gets_the_public_view(tmp_path):
    ht = HostThread(config_for_tests(seats=3, code=CODE, seed=52, short_game=True)).start()
    app = make_app(tmp_path, speed="fast")
    try:
        client = Client(("127.0.0.1", ht.port), role="spectator").start()
        seen = recording(client)
        session = NetSession(client, host=ht, code=ht.code, address=f"127.0.0.1:{ht.port}")
        app.push(TitleScene(app))
        lan.open_room(app, session)
        until(app, lambda: session.joined and session.seats is not None, "the room")
        room = app.stack.top
        assert isinstance(room, RoomScene) and "room.start" not in [w.name for w in room.widgets]
        app.draw()
        # nobody sits at the table: start it from the host, bots take every seat
        on_host(ht, lambda h: h.live.begin())
        until(app, lambda: isinstance(app.stack.top, TableDisplayScene), "the table display")
        display = app.stack.top
        assert session.viewer is None and session.seats_local == () and session.spectator
        for _ in range(6):
            app.step(DT)
        app.draw()
        shot = pygame.transform.scale(app.screen, (192, 108))
        assert (
            len({shot.get_at((x, y))[:3] for x in range(0, 192, 3) for y in range(0, 108, 3)}) > 40
        )
        # read-only: no control anyone could press, no hand
        assert all(getattr(w, "enabled", True) for w in display.widgets)
        assert not display.legal.moves() and not display.hand.cards
        until(app, lambda: isinstance(app.stack.top, LanResultsScene), "the results", 5)
        views = [m.view for m in seen if isinstance(m, (Snapshot, Update))]
        assert views and all("hand" not in v and v["seat"] is None for v in views)
        events = [e for m in seen if isinstance(m, (Snapshot, Update)) for e in m.events]
        assert any(e["type"] == "hand_dealt" for e in events)
        private = [e for e in events if e["type"] in ("hand_dealt", "cards_drawn")]
        assert private and all(e.get("cards") is None for e in private)
        assert P.view_hash(views[-1]) == host_view(ht, None)[1]
    finally:
        app.shutdown()
        ht.stop()


# --------------------------------------------------------------------------- drop and rejoin


def slow_host(grace: float) -> HostThread:
    """Bots that take half a minute and long windows: nothing moves unless the UI acts."""
    timing = Timing(
        window=60, going_once=60, negotiation=600, grace=grace,
        bot_answer=30, bot_delay=30, bot_tick=30,
    )  # fmt: skip
    setup = Setup(first_player=0, marker=0)  # seat 0 (the UI) moves first
    cfg = config_for_tests(seats=3, code=CODE, seed=7, setup=setup, timing=timing)
    return HostThread(cfg).start()


@pytest.mark.timeout(120)
def test_drop_and_rejoin_in_the_middle_of_a_negotiation(tmp_path):
    ht = slow_host(grace=0.3)
    app = make_app(tmp_path, speed="fast", lan_name="Mei")
    watcher = None
    try:
        session = lan.join(app, f"127.0.0.1:{ht.port}", code=CODE, name="Mei")
        app.push(TitleScene(app))
        lan.open_room(app, session)
        until(app, lambda: session.may_start, "the room")
        assert click_widget(app.stack.top, "room.start")
        until(app, lambda: isinstance(app.stack.top, TableScene), "the table")
        table = app.stack.top
        # "Let's make a deal!": a negotiation, the UI's seat is the Boss
        until(app, lambda: not table.director.busy() and table.legal.moves(), "my turn")
        assert table.v["phase"] == "turn" and table.v["turn"] == 0
        assert click_widget(table, "turn.deal")
        until(app, lambda: table.v["phase"] == "negotiation" and not session.busy, "the deal")
        token = app.config.last_table_token
        assert token and app.config.last_table_address == f"127.0.0.1:{ht.port}"
        before = host_view(ht, 0)
        assert P.view_hash(session.view(0)) == before[1]

        # 1. the connection drops: the client reconnects by itself with its token
        watcher = Client(("127.0.0.1", ht.port), role="spectator").start()
        watched = recording(watcher)
        watch = NetSession(watcher)
        client = session.client
        client._call(lambda: client._session._transport.abort())
        until(app, lambda: session.status == "reconnecting", "the drop to show")
        assert session.notice() == i18n.tr("net.host_lost")  # no bye: contact lost
        app.draw()  # the banner is drawn over the board
        until(app, lambda: session.status == "joined", "the reconnection")
        until(app, lambda: P.view_hash(session.view(0)) == host_view(ht, 0)[1], "the same view")
        assert session.viewer == 0 and host_view(ht, 0)[2] == before[2]
        # the display has seen Mei back (seats frames are rate-limited, net.host.lobby: a
        # seat back for less than a frame's wait and gone again never shows as back)
        end = time.monotonic() + GUARD
        while watch.update(0) or watch.seat_info(0).status != "connected":
            assert time.monotonic() < end, watch.seat_info(0)
            time.sleep(0.005)

        # 2. the app goes away (no goodbye): others see the seat dropped, then a bot in it
        app.shutdown()
        app = None
        statuses = []

        def seat0():
            watch.update(0)
            info = watch.seat_info(0)
            statuses.append(info.status)
            return info.status == "standing_in"

        end = time.monotonic() + GUARD
        while not seat0():
            assert time.monotonic() < end, statuses
            time.sleep(0.005)
        assert watch.seat_info(0).kind == "bot"
        seat0_states = [
            (x.status, x.grace is not None)
            for m in watched
            if isinstance(m, Seats) and m.started
            for x in m.seats
            if x.seat == 0
        ]
        assert ("away", True) in seat0_states, seat0_states  # the grace period, then...
        assert seat0_states[-1] == ("bot", False)  # ...a bot stands in
        batches = watch.poll()
        told = [b.toast for b in batches if b.toast]
        assert i18n.tr("net.dropped", name="Mei") in told
        # ...and in the log of every other seat (here, the display's)
        assert {"type": "seat_dropped", "seat": 0} in [e for b in batches for e in b.events]

        # 3. a new app: the lobby offers "Rejoin <table>" from the settings
        app = make_app(tmp_path, load=True, speed="fast")
        assert app.config.last_table_token == token
        app.push(TitleScene(app))
        lobby = app.push(LobbyScene(app, browser=FakeBrowser()))
        app.step(DT)
        assert click_widget(lobby, "join.rejoin")
        until(app, lambda: isinstance(app.stack.top, TableScene), "the table again")
        again = app.stack.top.session
        assert again.viewer == 0 and again.client.seat == 0
        app.step(DT)
        # the new window's log shows the game so far (the host's recent events), unanimated
        logged = [e["type"] for e in app.stack.top.log.events]
        assert logged[0] == "game_started" and "deal_opened" in logged
        assert again.view(0)["phase"] == "negotiation"
        version, digest, state_hash = host_view(ht, 0)
        assert P.view_hash(again.view(0)) == digest and state_hash == before[2]
        until(
            app,
            lambda: (watch.update(0) or True) and watch.seat_info(0).status == "connected",
            "the seat back",
        )
        batches = watch.poll()
        assert i18n.tr("net.back", name="Mei") in [b.toast for b in batches if b.toast]
        assert {"type": "seat_back", "seat": 0} in [e for b in batches for e in b.events]
        assert again.view(0)["negotiation"]["boss"] == 0
    finally:
        if app is not None:
            app.shutdown()
        if watcher is not None:
            watcher.close()
        ht.stop()


# --------------------------------------------------------------------------- refusals


class StubClient:
    """Just enough of net.client.session.Client for NetSession's bookkeeping: the messages
    put in its inbox are taken into its state on the next poll, as the real client does."""

    def __init__(self) -> None:
        from net.client.state import ClientState

        self.address = ("127.0.0.1", 1)
        self.state = ClientState()
        self.inbox: list = []
        self.sent: list = []
        self.closed = False

    role = property(lambda self: self.state.role)
    connected = property(lambda self: self.state.connected)
    finished = property(lambda self: self.state.finished)
    countdowns = property(lambda self: self.state.countdowns)
    legal = property(lambda self: self.state.legal)

    def poll(self):
        out, self.inbox = self.inbox, []
        for msg in out:
            self.state.absorb(msg)
        return out

    def send_action(self, action, version=None) -> int:
        self.sent.append(action)
        return len(self.sent)

    def close(self) -> None:
        self.closed = True


def test_a_stale_action_is_sent_again_while_still_legal_else_the_player_is_told():
    from game.rules import Game, OpenDeal, Settings
    from game.ui.sessions.net_session import RESEND_TRIES
    from net.client.session import TableInfo

    g = Game(["Mei", "Ann", "Bo"], 3, Settings(players=3), Setup(first_player=0, marker=0))
    v0 = view(g.state, 0)
    stub = StubClient()
    s = NetSession(stub)
    stub.inbox += [
        Joined(0, "a" * 32, "player", TableInfo("T", 3, True, True)),
        Seats((HostSeat(0, "Mei", "human", None, None),), True, False, 0, None, 0),
        Snapshot(0, v0, [], None),
    ]
    s.update(0)
    deal = OpenDeal(0)
    s.send(deal)
    assert stub.sent == [deal] and s.busy
    # bounced as stale again and again (a busy table): each snapshot still allows it, so
    # it goes again each time, silently (a bounce is no reason the player can act on)
    for rid in range(1, RESEND_TRIES):
        stub.inbox += [ServerError("stale", "old", rid, None, 0), Snapshot(0, v0, [], None)]
        s.update(0)
        assert stub.sent == [deal] * (rid + 1) and s.resent == rid
        assert not [b for b in s.poll() if b.toast]
    # bounced RESEND_TRIES times: the player reads why
    stub.inbox += [ServerError("stale", "old", RESEND_TRIES, None, 0), Snapshot(0, v0, [], None)]
    s.update(0)
    assert stub.sent == [deal] * RESEND_TRIES
    toasts = [b.toast for b in s.poll() if b.toast]
    assert toasts == [i18n.tr("net.error.stale")]
    # a stale action no longer legal after the snapshot (the deal is open already): told
    g.apply(deal)
    s.send(deal)
    v1 = view(g.state, 0)
    stub.inbox += [ServerError("stale", "old", len(stub.sent), None, 1), Snapshot(1, v1, [], None)]
    s.update(0)
    assert stub.sent == [deal] * (RESEND_TRIES + 1)
    assert [b.toast for b in s.poll() if b.toast] == [i18n.tr("net.error.stale")]
    # other refusals: translated toasts; rate limits too
    s.send(deal)
    stub.inbox.append(ServerError("illegal", "no", len(stub.sent), "x", None))
    stub.inbox.append(ServerError("rate_limited", "slow", None, None, None))
    s.update(0)
    assert [b.toast for b in s.poll() if b.toast] == [
        i18n.tr("table.refused"),
        i18n.tr("net.error.rate_limited"),
    ]


def test_the_client_holds_the_seat_once_and_the_session_reads_it():
    """The client's view of the game is its ClientState: NetSession keeps no copy of the
    view, the seats or the table, and its handlers see what was before each message."""
    from game.rules import Game, Settings, default_action, waiting_for
    from net.client.session import TableInfo

    g = Game(["Mei", "Ann", "Bo"], 3, Settings(players=3), Setup(first_player=0, marker=0))
    v0 = view(g.state, 0)
    stub = StubClient()
    s = NetSession(stub)
    seen_before = []
    table = TableInfo("T", 3, True, True, hints=False)
    seats = Seats((HostSeat(0, "Mei", "human", None, None),), True, False, 0, None, 0)
    stub.inbox += [Joined(0, "a" * 32, "player", table), seats, Snapshot(0, v0, [], None)]
    s.update(0)
    assert s.view(0) is stub.state.view is v0 and s.seats is stub.state.seats is seats
    assert (s.table_name, s.table_seats, s.hints_allowed, s.joined) == ("T", 1, False, True)
    assert s.legal(0) is stub.state.legal and s.serial == 1
    copies = {"_view", "seats", "table_name", "table_seats", "table_pace", "joined", "hints_allowed"}
    assert not copies & set(vars(s))
    # the listener hears the state before the message: a new game's snapshot is told from the last
    g.apply(default_action(g.state, waiting_for(g.state)[0]))
    v1 = view(g.state, 0)
    stub.inbox.append(Snapshot(1, v1, [], None))
    heard = s.on_snapshot
    s.on_snapshot = lambda msg: (seen_before.append(stub.state.version), heard(msg))
    stub.poll()
    assert seen_before == [0] and stub.state.version == 1 and s.serial == 1


# --------------------------------------------------------------------------- hosting


@pytest.mark.timeout(60)
@pytest.mark.parametrize("display", [False, True])
def test_hosting_from_the_lobby_and_leaving_stops_the_table(tmp_path, display):
    """Hosting from the lobby opens the room, where this screen and a joiner see the pace the
    host pane chose (the welcome's); leaving stops the table."""
    app = make_app(tmp_path, speed="fast", lan_name="Mei", lan_seats=3, lan_display=display)
    joiner = None
    try:
        app.push(TitleScene(app))
        lobby = app.push(LobbyScene(app, browser=FakeBrowser()))
        app.step(DT)
        click(lobby.find("host.code").rect.center)
        for _ in range(4):
            key(pygame.K_BACKSPACE)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="qqqq"))
        app.step(DT)
        assert lobby.hosting.code == "QQQQ"
        assert click_widget(lobby, "host.go")
        app.step(DT)
        room = app.stack.top
        assert isinstance(room, RoomScene)
        s = room.session
        ht = s.host
        assert s.owns_host and ht.code == "QQQQ" and s.code == "QQQQ"
        assert s.spectator is display
        until(app, lambda: s.joined and s.seats is not None, "the room")
        from net.client.session import TablePace
        from tools import layout_probe as probe

        with probe.probing() as p:
            app.draw()
        assert "Ask around · 10 s to answer" in {t.text for t in p.texts}  # the lobby's pace
        joiner = NetSession(Client(("127.0.0.1", ht.port), name="Ann", code="QQQQ").start())
        until(app, lambda: (joiner.update(0) or True) and joiner.joined, "a second player")
        assert joiner.table_pace == s.table_pace == TablePace("ask_around", 10)
        if display:  # the display takes no seat and cannot start; the first player can
            until(app, lambda: (joiner.update(0) or True) and joiner.may_start, "a starter")
            assert not s.may_start
            joiner.start_game()
            until(app, lambda: isinstance(app.stack.top, TableDisplayScene), "the display")
        else:
            assert s.viewer == 0 and joiner.viewer == 1 and not joiner.may_start
            until(app, lambda: s.may_start, "the Start button")
            assert click_widget(app.stack.top, "room.start")
            until(app, lambda: isinstance(app.stack.top, TableScene), "the table")
            table = app.stack.top
            assert table.session.seat_info(2).kind == "bot"  # the empty seat: a host bot
            assert table.session.seat_info(1).status == "connected"
        # Esc, leave: the table this screen hosts stops, the other player loses it
        key(pygame.K_ESCAPE)
        app.step(DT)
        assert click_widget(app.stack.top, "menu.leave")
        app.step(DT)
        assert app.stack.top.find("menu.abandon") is None  # a LAN seat: leave or stay
        assert click_widget(app.stack.top, "menu.leave_keep")  # "Leave the game?" - yes
        app.step(DT)
        assert isinstance(app.stack.top, TitleScene) and app.lan is None
        assert ht.finished.wait(10)
        until(app, lambda: (joiner.update(0) or True) and joiner.status != "joined", "the end")
    finally:
        if joiner is not None:
            joiner.disconnect()
        app.shutdown()


def test_a_hosting_screen_that_closes_is_the_host_closing_not_its_player_dropping():
    from game.ui.sessions.net_session import HostAway

    ht = HostThread(config_for_tests(seats=2, code=CODE, seed=7)).start()
    mei = NetSession(
        Client(("127.0.0.1", ht.port), name="Mei", code=CODE).start(), host=ht, owns_host=True
    )
    ann = NetSession(Client(("127.0.0.1", ht.port), name="Ann", code=CODE, backoff=0.05).start())
    heard: list = []  # every batch Ann's table would get

    def until_(cond, what: str) -> None:
        end = time.monotonic() + GUARD
        while not cond():
            assert time.monotonic() < end, f"timed out waiting for {what}"
            for s in (mei, ann):
                s.update(DT)
            heard.extend(ann.poll())
            time.sleep(0.005)

    try:
        # a full table starts by itself
        until_(lambda: ann.game_running and ann.seat_info(0).status == "connected", "the game")
        mei.disconnect()  # the hosting window closes (Esc, leave; or the window's X)
        until_(lambda: ann.status == "reconnecting", "the host gone")
        toasts = [b.toast for b in heard if b.toast]
        assert i18n.tr("net.dropped", name="Mei") not in toasts
        assert not [e for b in heard for e in b.events if e["type"] == "seat_dropped"]
        assert ann.host_away is HostAway.CLOSED
        assert ann.notice() == i18n.tr("net.host_closed")
    finally:
        ann.disconnect()
        mei.disconnect()


# --------------------------------------------------------------------------- stills


def test_lan_scenes_render_in_every_language_with_their_badges_and_clocks(tmp_path):
    from net.client.session import HostCountdown, HostCountdowns
    from tools.screenshot import render

    app = make_app(tmp_path)
    try:
        for lang in i18n.LANGUAGES:
            app.set_language(lang)
            pictures = set()
            for scene in ("room", "display", "lan_table"):
                while app.stack.top is not None:
                    app.stack.pop()
                render(app, scene)
                top = app.stack.top
                pictures.add(
                    pygame.image.tobytes(pygame.transform.scale(app.screen, (96, 54)), "RGB")
                )
            assert len(pictures) == 3, lang
            # the LAN table: Bo dropped (grace running), a bot stands in for Cy
            s = top.session
            assert s.seat_info(2).status == "away" and 0 < s.seat_info(2).grace <= 24
            assert s.seat_info(3).status == "standing_in" and s.seat_info(3).kind == "bot"
            assert s.seat_info(1).status == "connected" and s.seat_info(0).local
            kinds = {c.kind for c in s.countdowns()}
            assert kinds == {"window", "negotiation"}
            before = pygame.image.tobytes(app.screen, "RGB")
            # "going twice" and a turn clock draw too
            import time as _t

            now = _t.monotonic()
            s.client.state.countdowns = HostCountdowns(
                window=HostCountdown(now + 1.5, 6.0, "going_once", "going_twice"),
                negotiation=HostCountdown(now + 20, 180.0),
            )
            stage = [c.stage for c in s.countdowns() if c.kind == "window"]
            assert stage == ["going_twice"]
            app.step(DT)
            assert pygame.image.tobytes(app.screen, "RGB") != before
        app.set_language("en")
    finally:
        app.shutdown()


# --------------------------------------------------------------------------- entry points


def drive(monkeypatch, check):
    """Replace App.run with a driver: step until check(app) says done (returns 0)."""
    from game.ui.screen.app import App

    seen = {}

    def run(self):
        self.present = False
        until(self, lambda: check(self), "the entry point's scene")
        seen["app"] = self
        seen["top"] = self.stack.top
        return 0

    monkeypatch.setattr(App, "run", run)
    return seen


HOST_ARGS = ["--seats", "3", "--bind", "127.0.0.1", "--no-announce", "--autosave", "none"]


@pytest.mark.timeout(60)
def test_main_host_table_and_join_open_their_windows(tmp_path, monkeypatch):
    import main
    import net.discovery.browse

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    # host: this screen plays, seated first, with Start
    seen = drive(
        monkeypatch, lambda app: isinstance(app.stack.top, RoomScene) and app.lan.may_start
    )
    assert main.main(["host", *HOST_ARGS, "--code", "HOST"]) == 0
    s = seen["top"].session
    assert s.viewer == 0 and s.code == "HOST" and s.host is not None and s.owns_host
    assert s.host.finished.is_set()  # stopped when the window closed
    # table: the public display, no seat
    seen = drive(monkeypatch, lambda app: isinstance(app.stack.top, RoomScene) and app.lan.joined)
    assert main.main(["table", *HOST_ARGS, "--code", "SHOW"]) == 0
    s = seen["top"].session
    assert s.spectator and s.viewer is None and s.code == "SHOW" and not s.may_start
    # join ADDR: the room of that table, as a player (the token is remembered)
    ht = HostThread(config_for_tests(seats=3, code=CODE)).start()
    try:
        # joined, and the seats message that names the seat has arrived (it comes after the
        # welcome: on a loaded machine the window could close in between)
        seen = drive(
            monkeypatch,
            lambda app: isinstance(app.stack.top, RoomScene)
            and app.lan.joined
            and app.lan.seat_name(0) is not None,
        )
        assert main.main(["join", f"127.0.0.1:{ht.port}", "--code", CODE, "--name", "Zed"]) == 0
        s = seen["top"].session
        assert s.viewer == 0 and s.seat_name(0) == "Zed"
        from game.ui.config import Config

        assert Config.load().last_table_token == s.client.token
    finally:
        ht.stop()
    # join without an address: the lobby over the title (discovery stubbed: loopback only)
    monkeypatch.setattr(net.discovery.browse, "BackgroundBrowser", FakeBrowser)
    seen = drive(monkeypatch, lambda app: isinstance(app.stack.top, LobbyScene))
    assert main.main(["join", "--name", "Ann", "--code", "abcd"]) == 0
    lobby = seen["top"]
    assert lobby.joining.code == "ABCD" and seen["app"].config.lan_name == "Ann"
    assert isinstance(lobby.joining.browser, FakeBrowser) and lobby.joining.browser.started
    assert isinstance(seen["app"].stack.scenes[0], TitleScene)


@pytest.mark.timeout(60)
def test_a_wrong_room_code_is_explained_and_back_returns_to_the_lobby(tmp_path):
    ht = HostThread(config_for_tests(seats=3, code=CODE)).start()
    app = make_app(tmp_path, lan_name="Mei")
    try:
        app.push(TitleScene(app))
        lobby = app.push(LobbyScene(app, browser=FakeBrowser()))
        app.step(DT)
        app.config.lan_address = f"127.0.0.1:{ht.port}"
        lobby.joining.code = "NOPE"
        assert click_widget(lobby, "join.go")
        app.step(DT)
        room = app.stack.top
        s = room.session
        until(app, lambda: s.status == "failed", "the refusal")
        assert s.failure == i18n.tr("net.error.bad_code") and not s.joined
        app.draw()
        assert room.find("room.start") is None and room.find("room.leave") is not None
        assert click_widget(room, "room.leave")
        app.step(DT)
        assert app.stack.top is lobby and app.lan is None
        assert not app.config.last_table_token
    finally:
        app.shutdown()
        ht.stop()


@pytest.mark.timeout(60)
def test_an_unreachable_address_keeps_trying_until_the_player_leaves(tmp_path):
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = make_app(tmp_path, lan_name="Mei")
    try:
        app.push(TitleScene(app))
        lobby = app.push(LobbyScene(app, browser=FakeBrowser()))
        app.config.lan_address = f"127.0.0.1:{port}"
        lobby.joining.code = CODE
        assert click_widget(lobby, "join.go")
        app.step(DT)
        room = app.stack.top
        s = room.session
        until(app, lambda: s.unreachable, "the first failed attempt")
        assert s.status == "connecting" and not s.joined and s.failure is None
        app.draw()
        key(pygame.K_ESCAPE)  # Leave
        app.step(DT)
        assert app.stack.top is lobby and app.lan is None
    finally:
        app.shutdown()


def _at_the_table(app) -> bool:
    """The host's window sits at the running game (it starts it if it may)."""
    s = app.lan
    if isinstance(app.stack.top, RoomScene) and s is not None and s.may_start:
        s.start_game()
    return (
        isinstance(app.stack.top, TableScene)
        and s.client.view is not None
        and s.seats is not None
        and s.seats.started
        and all(i.status == "open" for i in s.seats.seats if i.seat != s.viewer)
    )


@pytest.mark.timeout(120)
def test_a_resumed_host_seats_its_own_windowed_player_in_their_own_seat(tmp_path, monkeypatch):
    """Issue 22: `host --player-name Ann` with bots, the host goes away, `host --resume`: Ann
    (the host's own window) sits in seat 0 again with her own hand and money, the seats file
    keeps her claim alone, and her token is kept beside the save for this user only."""
    import json
    import stat

    import main
    from net.host.seats import sidecar_path

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    save = tmp_path / "save.json"
    flags = ["--seats", "3", "--bots", "heuristic", "--bind", "127.0.0.1", "--no-announce"]
    flags += ["--player-name", "Ann", "--bot-delay", "0.05"]
    seen = drive(monkeypatch, _at_the_table)
    assert main.main(["host", *flags, "--autosave", str(save)]) == 0
    first = seen["top"].session
    assert first.viewer == 0
    ann = first.client.view["players"][0]
    assert first.client.view["hand"] and first.client.view["seat"] == 0
    hand, money = first.client.view["hand"], ann["money"]
    claims = json.loads(sidecar_path(save).read_text())["seats"]
    assert claims[0]["name"] == "Ann" and [c["token_sha256"] for c in claims[1:]] == [None, None]
    own = save.with_name(save.name + ".own-seat")
    assert stat.S_IMODE(own.stat().st_mode) == 0o600
    token = json.loads(own.read_text())["token"]
    assert P.token_digest(token) == claims[0]["token_sha256"] == P.token_digest(first.client.token)

    seen = drive(monkeypatch, _at_the_table)
    assert main.main(["host", *flags, "--resume", str(save)]) == 0
    again = seen["top"].session
    assert again.viewer == 0, f"the host's own player sits in seat {again.viewer}"
    v = again.client.view
    assert v["seat"] == 0 and v["players"][0]["name"] == "Ann"
    assert v["hand"] == hand and v["players"][0]["money"] == money
    seats = {i.seat: i for i in again.seats.seats}
    assert seats[0].status == "human" and seats[0].name == "Ann"
    assert [(seats[i].name, seats[i].newcomers) for i in (1, 2)] == [(None, False), (None, False)]
    after = json.loads(sidecar_path(save).read_text())["seats"]
    assert after[0] == claims[0] and [c["token_sha256"] for c in after[1:]] == [None, None]


@pytest.mark.timeout(60)
def test_bot_seats_opened_in_the_lobby_are_announced_on_every_screen(tmp_path):
    """The lobby's "Bots' seats open": once the game runs the players' table and the public
    display both say that a newcomer may take a bot's seat, and the newcomer gets one."""
    app = make_app(tmp_path, lan_name="Mei", lan_seats=3, lan_open_bot_seats=True)
    session = lan.host(app)
    ht = session.host
    watcher = NetSession(Client(("127.0.0.1", ht.port), role="spectator").start())
    try:
        lan.open_room(app, session)
        until(app, lambda: session.may_start, "the host's window may start")
        session.start_game()
        toasts = []

        def told() -> bool:
            watcher.update(DT)
            top = app.stack.top
            if isinstance(top, TableScene) and top.toast is not None:
                toasts.append(top.toast[0])
            return i18n.tr("net.bot_seats_open") in toasts and watcher.bot_seats_open

        until(app, told, "the notice on both screens")
        assert [b.toast for b in watcher.poll() if b.toast] == [
            i18n.tr("net.bot_seats_open")
        ]
        late = Client(("127.0.0.1", ht.port), name="Late", code=ht.code).start()
        until(app, lambda: any(isinstance(m, Joined) and m.seat == 1 for m in late.poll()), "late")
        late.close()
    finally:
        watcher.disconnect()
        lan.close_link(app)
        app.shutdown()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_refused_seat_names_the_open_seats_or_the_bots_seats_in_the_players_language(lang):
    """The host's refusal carries seat numbers; the screen names them in its own words,
    counted from 1 as the room shows them, never the English log line."""
    from game.ui.sessions.net_session import error_text

    i18n.set_language(lang)
    try:
        full = error_text("table_full", [], [2, 3])
        assert i18n.tr("net.error.table_full") in full and "3, 4" in full
        assert "bots play" not in full  # the host's English words stay in its log
        lost = error_text("bad_token", [4], [1])
        assert i18n.tr("net.error.bad_token") in lost and "5" in lost and "2" not in lost
        assert error_text("table_full", [], []) == i18n.tr("net.error.table_full")
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_lobbys_empty_fields_show_hints_that_cannot_pass_for_values(tmp_path, lang):
    """An empty address, code or name field says "e.g. …" or "If left empty: …" in the
    hint colour, dimmer than any typed value, never a bare value one could take as filled in."""
    from game.ui.drawing.theme import HINT, TEXT
    from game.ui.drawing.widgets import _label

    app = make_app(tmp_path, lan_name="", language=lang)
    try:
        lobby = app.push(LobbyScene(app, browser=FakeBrowser()))
        app.step(DT)
        lobby.hosting._set_code("")
        lobby.joining._set_code("")
        lobby.layout()
        examples = {"join.address": "192.168.1.5:40123", "join.code": "ABCD", "host.code": "ABCD"}
        defaults = {"join.name": lan.player_name(app.config), "host.name": lan.table_name(app.config)}
        for name, value in examples.items() | defaults.items():
            field = lobby.find(name)
            assert field is not None and not field.get(), name
            key = "lobby.hint.example" if name in examples else "lobby.hint.if_empty"
            assert _label(field.placeholder) == i18n.tr(key, value=value) != value
            surface = pygame.Surface(app.screen.get_size())
            field.draw(surface, 0.5)
            inside = field.rect.inflate(-16, -16)
            colours = {surface.get_at((x, y))[:3] for x in range(inside.left, inside.right, 2)
                       for y in range(inside.top, inside.bottom, 2)}  # fmt: skip
            assert max(sum(c) for c in colours) <= sum(HINT) + 3 < sum(TEXT), name
    finally:
        app.shutdown()


# --------------------------------------------------------------------------- `join` again


def join_by_command(monkeypatch, argv: list[str]) -> dict:
    """`main.py join ADDR ...` as typed, the window's loop standing in until the room has
    joined or failed; then the window is killed (the link dropped, no goodbye). What the
    room showed."""
    import main
    from game.cli.lan import run_join
    from game.ui.screen import windows

    shown: dict = {}

    def window_loop(app) -> int:
        s = app.lan
        until(app, lambda: s.joined or s.status == "failed", "joined or refused")
        shown.update(seat=s.client.seat, status=s.status, failure=s.failure,
                     hint=s.failure_hint)  # fmt: skip
        s.client.close()  # killed: the host sees the line drop
        app.shutdown()
        return 0

    monkeypatch.setattr(windows, "_run", window_loop)
    assert run_join(main.build_parser().parse_args(["join", *argv])) == 0
    return shown


def seat_status(ht: HostThread, seat: int) -> str:
    return on_host(ht, lambda h: h.seat_table.seats[seat].status)


@pytest.mark.timeout(120)
def test_the_same_join_command_run_again_takes_the_dropped_seat_back(tmp_path, monkeypatch):
    """Issue 32: host; `join ADDR --code CODE --name Mei`; kill it; the same command again.
    It said "The table is full… Check the address and the room code" while the host kept
    Mei's seat for her."""
    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    timing = Timing(grace=60, bot_answer=30, bot_delay=30, bot_tick=30)
    ht = HostThread(config_for_tests(seats=2, code=CODE, seed=3, timing=timing)).start()
    ann = Client(("127.0.0.1", ht.port), name="Ann", code=CODE).start()
    try:
        deadline = time.monotonic() + GUARD
        while seat_status(ht, 0) != "human":
            assert time.monotonic() < deadline, "Ann seated"
            time.sleep(0.01)
        command = [f"127.0.0.1:{ht.port}", "--code", CODE.lower(), "--name", "Mei"]
        first = join_by_command(monkeypatch, command)
        assert (first["seat"], first["status"]) == (1, "joined")
        deadline = time.monotonic() + GUARD
        while seat_status(ht, 1) != "away":  # Mei's seat is kept for her
            assert time.monotonic() < deadline, "Mei's seat away"
            time.sleep(0.01)
        again = join_by_command(monkeypatch, command)
        assert (again["seat"], again["status"], again["failure"]) == (1, "joined", None)
        # someone else at this computer, same table: no seat of Mei's, and words that say
        # who holds what (never "check the address")
        while seat_status(ht, 1) != "away":
            time.sleep(0.01)
        other = join_by_command(monkeypatch, [*command[:-1], "Bo"])
        assert other["status"] == "failed" and seat_status(ht, 1) == "away"
        held = i18n.and_list([i18n.tr("net.error.seat_held", n=1, name="Ann"),
                              i18n.tr("net.error.seat_kept", n=2, name="Mei")])  # fmt: skip
        assert i18n.tr("net.error.held_seats", seats=held) in other["failure"]
        assert other["hint"] == i18n.tr("room.failed_hint.table_full")
        assert other["hint"] != i18n.tr("room.failed_hint")
    finally:
        ann.close()
        ht.stop()


@pytest.mark.timeout(60)
def test_a_kept_token_the_host_no_longer_knows_gives_way_to_the_room_code(tmp_path, monkeypatch):
    """The seat kept for this address was at an earlier table (the host restarted on the same
    port): the command takes a free seat with its code instead of failing."""
    from game.ui.config import Config

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    ht = HostThread(config_for_tests(seats=3, code=CODE, seed=3)).start()
    try:
        stale = Config(last_table_address=f"127.0.0.1:{ht.port}", last_table_token="ab" * 16,
                       last_table_name="Old table", last_table_player="Mei")  # fmt: skip
        stale.save()
        shown = join_by_command(monkeypatch, [f"127.0.0.1:{ht.port}", "--code", CODE,
                                              "--name", "Mei"])  # fmt: skip
        assert (shown["seat"], shown["status"]) == (0, "joined")
        assert Config.load().last_table_token not in ("", "ab" * 16)  # the new seat's
    finally:
        ht.stop()


def test_a_refusal_names_who_holds_each_seat_and_a_dropped_ones_seat_as_kept():
    from net.client.messages import ServerError

    held = [{"seat": 0, "name": "Ann", "away": False}, {"seat": 1, "name": "Mei", "away": True}]
    msg = ServerError("table_full", "no seat is open to newcomers", held_seats=held)
    text = error_text_of(msg)
    assert i18n.tr("net.error.seat_held", n=1, name="Ann") in text
    assert i18n.tr("net.error.seat_kept", n=2, name="Mei") in text
    assert "no seat is open" not in text  # the host's English words stay in its log


def error_text_of(msg) -> str:
    from game.ui.sessions.net_session import error_text

    return error_text(msg.code, msg.open_seats, msg.bot_seats, msg.held_seats)
