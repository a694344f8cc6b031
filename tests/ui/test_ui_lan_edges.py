"""The table after a Continue or a LAN rejoin (the log shows the game so far, the die stays),
drops and returns in the log, the fair start in hot-seat real time, the names a LAN player
and a LAN host go by."""

from __future__ import annotations

import argparse

import pygame

from game.bots.pacing import FAIR_START
from game.rules import (
    Game,
    Settings,
    Setup,
    WindowMode,
    default_action,
    opening_events,
    view,
    waiting_for,
)
from game.rules.view import events_for
from game.table.bot_schedule import Timing
from game.ui import i18n
from game.ui.sessions import autosave, resume
from game.ui.sessions import lan as lan_ui
from game.ui.sessions.net_session import NetSession
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.table.scene import TableScene
from net.client.session import (
    Disconnected,
    HostSeat,
    Joined,
    Reconnected,
    Seats,
    Snapshot,
    TableInfo,
)
from tests.net.test_net_lan_edges import fair_start_gaps
from tests.ui.test_ui_lan import StubClient
from tools.autoplay import DT, click_widget, key, make_app


def rolled_then_new_turn(seed: int = 8) -> LocalSession:
    """A hot-seat game (Mei and two bots) played until a turn has just started after a
    die was rolled: the view's `last_roll` is None again, the die was last seen on a face."""
    s = LocalSession(
        [SeatSpec("Mei"), SeatSpec("Ada", "random"), SeatSpec("Bo", "random")], seed=seed
    )
    rolled = None
    for _ in range(3000):
        st = s.state
        if rolled is not None and st.last_roll is None and st.phase.value == "turn":
            return s
        seat = s.waiting_for()[0]
        action = default_action(st, seat)
        before = len(s._queue)
        s.apply_scripted(action)
        for events, _, _ in s._queue[before:]:
            for e in events:
                if e.type == "die_rolled":
                    rolled = e.value
    raise AssertionError("no roll followed by a new turn")


def test_continue_shows_the_log_so_far_and_keeps_the_die(tmp_path):
    s = rolled_then_new_turn()
    writer = autosave.AutosaveWriter(tmp_path / "autosave")
    s.attach_autosave(writer)
    assert writer.flush()
    die = [e["value"] for b in s.poll() for e in b.events if e["type"] == "die_rolled"][-1]
    assert s.view(0)["last_roll"] is None  # the view alone would show no die
    restored = resume.restore(s.autosave_path)
    app = make_app(tmp_path)
    try:
        table = TableScene(app, restored, catch_up=True)
        app.push(table)
        app.step(DT)
        assert table.director.die_face == die and not table.director.busy()
        assert len(table.log.lines()) >= 5
        assert [e["value"] for e in table.log.events if e["type"] == "die_rolled"][-1] == die
        app.draw()
    finally:
        writer.close()
        app.shutdown()


def _net_session(g: Game) -> tuple[NetSession, StubClient]:
    stub = StubClient()
    s = NetSession(stub)
    stub.inbox += [
        Joined(0, "a" * 32, "player", TableInfo("T", 3, True, True)),
        Seats(
            tuple(HostSeat(i, n, "human", None, None) for i, n in enumerate(g.names)),
            True,
            False,
            0,
            None,
            0,
        ),  # fmt: skip
    ]
    return s, stub


def _play(g: Game) -> tuple[int, list]:
    """One passive move; (the version it led to, its events as seat 0 hears them)."""
    events = g.apply(default_action(g.state, waiting_for(g.state)[0]))
    return g.state.actions_taken, events_for(events, 0)


def test_a_rejoin_logs_the_hosts_recent_events_once_without_animating_them(tmp_path):
    g = Game(["Mei", "Ann", "Bo"], 3, Settings(players=3), Setup(first_player=0, marker=0))
    s, stub = _net_session(g)
    history = [(0, events_for(opening_events(g.state), 0))]
    history += [_play(g) for _ in range(12)]
    v = view(g.state, 0)
    stub.inbox.append(Snapshot(g.state.actions_taken, v, [], None, tuple(history)))
    app = make_app(tmp_path)
    try:
        s.update(0)
        table = TableScene(app, s)
        app.push(table)
        app.step(DT)
        told = [e for _, evs in history for e in evs]
        assert table.log.events == told  # all of it, in order, once
        assert not table.director.busy()  # logged, not animated
        rolls = [e["value"] for e in told if e["type"] == "die_rolled"]
        assert rolls and table.director.die_face == rolls[-1]
        # a reconnect of the same screen: only the events it missed are added
        missed = _play(g)
        history.append(missed)
        v = view(g.state, 0)
        stub.inbox.append(Snapshot(g.state.actions_taken, v, [], None, tuple(history)))
        app.step(DT)
        assert table.log.events == told + missed[1]
    finally:
        app.shutdown()


def test_drops_and_returns_are_written_in_the_log(tmp_path):
    g = Game(["Mei", "Ann", "Bo"], 3, Settings(players=3), Setup(first_player=0, marker=0))
    s, stub = _net_session(g)
    v = view(g.state, 0)
    stub.inbox.append(Snapshot(0, v, [], None))
    app = make_app(tmp_path)
    try:
        s.update(0)
        table = TableScene(app, s)
        app.push(table)
        app.step(DT)

        def seats(status: str) -> Seats:
            st = ("human", status, "human")
            return Seats(
                tuple(HostSeat(i, n, st[i], None, None) for i, n in enumerate(g.names)),
                True, False, 0, None, 0,
            )  # fmt: skip

        stub.inbox.append(seats("away"))
        app.step(DT)
        stub.inbox.append(seats("bot"))
        app.step(DT)
        stub.inbox.append(seats("human"))
        app.step(DT)
        lines = [line for line, _ in table.log.lines()]
        assert lines[-2:] == [i18n.tr("net.dropped", name="Ann"), i18n.tr("net.back", name="Ann")]
        for lang in ("zh_Hant", "th", "en"):  # events are kept: a language switch re-words
            app.config.language = lang
            app.apply_config()
            assert table.log.lines()[-1][0] == i18n.tr("net.back", name="Ann")
    finally:
        app.shutdown()


def test_the_table_says_why_the_host_went_away_and_offers_to_wait_or_leave(tmp_path):
    from game.ui.scenes.title import TitleScene

    g = Game(["Mei", "Ann", "Bo"], 3, Settings(players=3), Setup(first_player=0, marker=0))
    s, stub = _net_session(g)
    stub.inbox.append(Snapshot(0, view(g.state, 0), [], None))
    app = make_app(tmp_path)
    try:
        s.update(0)
        table = TableScene(app, s)
        app.push(table)
        app.step(DT)
        assert table.find("host_away.wait") is None
        stub.inbox.append(Disconnected("closed by the host (shutdown)", True, True))
        app.step(DT)
        assert s.notice() == i18n.tr("net.host_closed")  # not "Reconnecting to the table"
        assert table.find("host_away.leave") is not None
        app.draw()
        key(pygame.K_ESCAPE)  # Wait
        app.step(DT)
        assert table.find("host_away.wait") is None  # waiting: the notice line stays
        assert s.notice() == i18n.tr("net.host_closed")
        stub.inbox.append(Reconnected(0))
        app.step(DT)
        assert table.toast[0] == i18n.tr("net.host_back") and s.notice() is None
        # a resumed host waits for every seat's token: Ann lost the host as we did, her
        # drop and return are the host's news, not hers
        for ann in ("away", "human"):
            st = ("human", ann, "human")
            stub.inbox.append(
                Seats(
                    tuple(HostSeat(i, n, st[i], None, None) for i, n in enumerate(g.names)),
                    True, False, 0, None, 0,
                )  # fmt: skip
            )
            app.step(DT)
        assert table.toast[0] == i18n.tr("net.host_back")
        stub.inbox.append(Disconnected("connection lost", True, False))
        app.step(DT)
        assert s.notice() == i18n.tr("net.host_lost")  # the next absence asks again
        assert click_widget(table, "host_away.leave")
        app.step(DT)
        assert isinstance(app.stack.top, TitleScene) and stub.closed
        news = {i18n.tr("net.dropped", name="Ann"), i18n.tr("net.back", name="Ann")}
        assert not news & {line for line, _ in table.log.lines()}
    finally:
        app.shutdown()


def test_hot_seat_bots_give_the_person_a_fair_start_in_windows_and_deals():
    """Real time, bots sped up 4x by the speed setting: still no bot answers a window or
    plays into a deal within FAIR_START of its opening (table time)."""
    settings = Settings(players=4, window_mode=WindowMode.REAL_TIME, short_game=True)
    timing = Timing(
        window=3, going_once=2, negotiation=20, bot_pace=4.0,
        bot_patience=4,
    )  # fmt: skip
    kinds = ["human", "random", "random", "random"]
    s = LocalSession(
        [SeatSpec(n, k) for n, k in zip(["Mei", "Ada", "Bo", "Cy"], kinds, strict=True)],
        seed=11, settings=settings, timing=timing,
    )  # fmt: skip
    assert s.timing.fair_start == FAIR_START
    frames = []
    for _ in range(60000):
        if s.over:
            break
        st = s.state
        if 0 in s.waiting_for() and st.window is None:
            s.send(default_action(st, 0))
        s.update(0.05)
        for batch in s.poll():
            frames.append((s.clock, None, {"events": batch.events}))
    assert s.over
    gaps = fair_start_gaps(frames, 0)
    print(
        f"\nhot-seat (bot_pace 4): first bot action {min(gaps['window']):.3f} s after a window "
        f"opened (min of {len(gaps['window'])}), {min(gaps['deal']):.3f} s after a deal opened "
        f"(min of {len(gaps['deal'])})"
    )
    assert gaps["window"] and gaps["deal"]
    assert min(gaps["window"]) >= FAIR_START - 0.051  # one frame of 50 ms
    assert min(gaps["deal"]) >= FAIR_START - 0.051


# --------------------------------------------------------------------------- names


def test_the_lobby_keeps_the_name_joined_with(tmp_path):
    app = make_app(tmp_path, lan_name="")
    try:
        session = lan_ui.join(app, "127.0.0.1:9", code="ABCD", name="Ann")
        session.disconnect()
    finally:
        app.shutdown()
    again = make_app(tmp_path, load=True)
    try:
        assert again.config.lan_name == "Ann"
        assert lan_ui.player_name(again.config) == "Ann"
    finally:
        again.shutdown()


def test_the_host_seat_is_named_from_the_command_line_or_the_settings(tmp_path, monkeypatch):
    from game.cli import lan as cli
    from net.host.config import HostConfig

    seen = {}

    class FakeClient:
        def __init__(self, address, *, name=None, code=None, role="player", **kw):
            seen["name"] = name

        def start(self):
            return self

        def close(self):
            pass

    class FakeHost:
        def __init__(self, config):
            self.port, self.code = 1, "ABCD"
            self.host = argparse.Namespace(name="T")

        def start(self):
            return self

        def stop(self):
            pass

    monkeypatch.setattr("net.client.session.Client", FakeClient)
    monkeypatch.setattr("net.host.thread.HostThread", FakeHost)
    monkeypatch.setattr("game.ui.screen.windows.run_hosted", lambda h, c, a, display: 0)
    app = make_app(tmp_path, names=["Mei"], lan_name="")
    app.config.save()
    app.shutdown()

    def run(**kw) -> int:
        config = HostConfig()  # not resumed: the window claims no seat with a token
        return cli._run_windowed(config, argparse.Namespace(**kw), display=False)

    assert run(player_name="Bruno") == 0 and seen["name"] == "Bruno"
    assert run() == 0 and seen["name"] == "Mei"  # the settings' player name
    nameless = make_app(tmp_path, names=[], lan_name="")
    nameless.config.save()
    nameless.shutdown()
    monkeypatch.setenv("USER", "zoe")
    assert run() == 0 and seen["name"] == "Zoe"  # settings without a name: the login name


def test_the_default_table_name_is_the_players_in_the_settings_language(tmp_path, monkeypatch):
    from game.cli import lan as cli
    from game.cli.parser import build_parser
    from game.ui.config import Config

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("USER", "vm")  # the computer's account: never the table's name
    monkeypatch.setattr("socket.gethostname", lambda: "vm")
    th = Config(language="th", lan_name="Mei")
    assert lan_ui.table_name(th) == "โต๊ะของ Mei"  # not "Mei's table" in the Thai lobby
    assert lan_ui.table_name(Config(language="zh_Hant", names=["Bo"])) == "Bo的牌桌"
    assert lan_ui.table_name(Config(language="th")) == "โต๊ะใหม่"  # no name given
    assert lan_ui.table_name(Config(language="en", lan_table_name="Den")) == "Den"
    Config(language="zh_Hans").save()  # `main.py host` without a name in the settings
    parser = build_parser()
    assert cli.config_from_args(parser.parse_args(["host"])).name == "新牌桌"
    named = parser.parse_args(["host", "--player-name", "Ann"])
    assert cli.config_from_args(named).name == "Ann的牌桌"
