"""Hidden-information audit over LAN games (bench/audit_lan.py): every frame the host sends
to every seat and to the table display is exactly derivable from that seat's view and its
redacted events, carries no secret, and does not change when the hidden cards do.
The long run is ``python -m bench.audit_lan --games 1000``."""

from __future__ import annotations

import random

import pytest

from bench.audit_lan import FrameAudit, audited_game, twin_replay
from game.rules import Game, Settings, WindowMode, hidden_twin, view
from game.rules.view import hand_data
from game.table.simulate import simulate_game
from net.host.server import Host
from tests.net_helpers import run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.mark.parametrize(
    "overrides",
    [
        dict(seats=3, short_game=True, hidden_money=True, legal=True),
        dict(seats=5, short_game=True, hidden_money=False, legal=False),
    ],
)
def test_lan_games_leak_nothing(overrides):
    result = run(audited_game(0, 11, **overrides), timeout=110)
    assert result["problems"] == []
    st = result["stats"]
    assert st["frames"] > 500 and st["derived"] > 300
    assert st["twins_at_send"] > 30 and st["twin_replays"] > 20
    assert st["frames.snapshot"] >= overrides["seats"] + 1  # the start, the table display


def _leaky_update(host: Host, to=lambda conn: conn.seat == 0) -> None:
    """A host that shows another seat's hand to seat 0 once (what the audit must catch)."""
    real = host.fanout.publish
    done = []

    def leaky(state, events, origin, countdowns):
        real(state, events, origin, countdowns)
        if not done and host.state.actions_taken > 5:
            for conn in list(host.conns):
                if conn.role == "player" and to(conn):
                    done.append(1)
                    other = 1 - conn.seat if conn.seat < 2 else 0
                    msg = {"t": "update", "version": host.state.actions_taken,
                           "base": host.state.actions_taken - 1, "hash": "0" * 16,
                           "events": [], "delta": {"hand": hand_data(host.state.hands[other])}}  # fmt: skip
                    host._send(conn, msg)

    host.fanout.publish = leaky


def _leaky_update_to_a_phone(host: Host) -> None:
    _leaky_update(host, to=lambda conn: conn.via == "web")


def _leaky_spectator(host: Host) -> None:
    """A host that sends the table display a seat's private view."""
    real = host.fanout.send_snapshot

    def leaky(state, conn, events=(), history=False):
        if conn.role == "spectator" and host.started:
            conn.role, conn.seat = "player", 0
            try:
                return real(state, conn, events, history)
            finally:
                conn.role, conn.seat = "spectator", None
        return real(state, conn, events, history)

    host.fanout.send_snapshot = leaky


@pytest.mark.parametrize("sabotage", [_leaky_update, _leaky_spectator])
def test_the_audit_catches_a_leak(sabotage):
    result = run(audited_game(0, 12, seats=2, short_game=True, sabotage=sabotage), timeout=110)
    assert any("hand" in p or "view" in p for p in result["problems"]), result["problems"][:3]


def test_phone_games_leak_nothing_on_the_websocket():
    """Seats 0 and 1 play through the phone WebSocket: every frame to them is audited like
    a TCP client's, and what the WebSocket delivered is exactly what was audited."""
    result = run(
        audited_game(0, 13, seats=3, short_game=True, legal=True, phones=2), timeout=110
    )
    assert result["problems"] == []
    st = result["stats"]
    assert st["phones"] == 2 and st["frames.web"] > 200


def test_the_audit_catches_a_leak_to_a_phone():
    result = run(
        audited_game(0, 12, seats=2, short_game=True, phones=1, sabotage=_leaky_update_to_a_phone),
        timeout=110,
    )
    assert any("hand" in p for p in result["problems"]), result["problems"][:3]


def test_the_audit_catches_a_frame_a_phone_got_that_the_host_did_not_audit():
    from bench.audit_lan import _web_problems

    sent = {1: [("welcome", b"a"), ("snapshot", b"b"), ("update", b"c")]}
    assert _web_problems(sent, [[b"a", b"b", b"c"]]) == []
    assert _web_problems(sent, [[b"a", b"x"]])  # something the tap never saw
    assert _web_problems(sent, [[b"a"]])  # views the phone never got
    assert _web_problems(sent, [])  # a phone connection the bridge never saw


def test_twin_replay_catches_a_view_that_depends_on_hidden_cards(monkeypatch):
    """The differential check on its own: a view section that peeks at the next card of
    the draw pile is found."""
    import importlib

    V = importlib.import_module("game.rules.view")
    settings = Settings(players=3, window_mode=WindowMode.REAL_TIME, short_game=True)
    game, _ = simulate_game(3, 5, ["random"] * 3, settings)
    stats, leaks = twin_replay(game, random.Random(1))
    assert leaks == [] and stats["twin_steps"] > 50
    monkeypatch.setitem(
        V.SECTIONS, "draw_pile", lambda st, seat: [len(st.deck), [int(c) for c in st.deck[-1:]]]
    )
    stats, leaks = twin_replay(game, random.Random(1))
    assert leaks and "view" in leaks[0]


def test_a_twin_keeps_everything_the_seat_knows():
    settings = Settings(players=4, window_mode=WindowMode.REAL_TIME)
    game = Game(["a", "b", "c", "d"], 3, settings)
    rng = random.Random(2)
    for seat in (None, 0, 3):
        twin = hidden_twin(game.state, seat, rng)
        assert view(twin, seat) == view(game.state, seat)
        assert twin.hash() != game.state.hash()  # something hidden did change
        assert sorted(twin.deck) != sorted(game.state.deck) or twin.hands != game.state.hands


def test_the_frame_audit_scans_for_secrets():
    class Conn:
        role, seat = "spectator", None

    class FakeHost:
        game = None
        seats = []

    audit = FrameAudit(FakeHost(), random.Random(1))
    audit._scan(Conn(), {"t": "said", "x": {"deck": [1]}}, None, None)
    audit._scan(Conn(), {"t": "said", "hand": {"stop": 1}}, None, None)
    audit._scan(Conn(), {"t": "update", "events": [{"type": "cards_drawn", "seat": 1,
                                                    "cards": ["stop"]}]}, None, None)  # fmt: skip
    assert len(audit.leaks) == 3
