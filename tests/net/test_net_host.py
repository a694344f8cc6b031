"""The LAN host over loopback with a manual clock: handshake, every protocol error path,
the checks on actions, real-time windows and clocks, seats, rejoin, desync, autosave."""

from __future__ import annotations

import asyncio
import json
import socket

import msgpack
import pytest

from game.rules import (
    Card,
    Clan,
    Draw,
    LayClan,
    Offer,
    OpenDeal,
    Pass,
    PlaceMarker,
    PlayTravel,
    Roll,
    load,
    placard,
    view,
)
from game.table.bot_schedule import Timing
from net import protocol as P
from net.client.session import ClientSession, Disconnected, Reconnected, Snapshot
from net.host.connections import Connections, Limits
from net.host.seats import sidecar_path
from net.host.server import Host
from tests.net_helpers import (
    CODE,
    Peer,
    Recorder,
    config_for_tests,
    finish_game,
    run,
    scenario_setup,
    seat_peers,
    start_host,
)

pytestmark = pytest.mark.timeout(60)

# Seat 0 holds a yellow Travel card; seat 1 owns the yellow placard (space 0 uses every clan).
PLACARDS = {"red": 0, "blue": 0, "yellow": 1, "magenta": 1, "orange": 2, "green": 2}


def travel_setup(stop_for_seat1: bool):
    hands = [
        ["travel_yellow", "clan_red", "recruit"],
        ["stop", "recruit", "boss"] if stop_for_seat1 else ["recruit", "recruit", "boss"],
        ["recruit", "clan_green", "boss"],
    ]
    return scenario_setup(hands, PLACARDS, marker=0, first_player=0)


def state_of(host: Host):
    st = host.state
    return st.actions_taken, st.hash()


# --------------------------------------------------------------------------- handshake


def test_join_welcome_seats_and_start_when_full():
    async def scenario():
        host, clock = await start_host(seats=3)
        peers = await seat_peers(host, 3)
        assert [p.seat for p in peers] == [0, 1, 2]
        assert all(len(p.token) == 32 for p in peers)
        assert len({p.token for p in peers}) == 3
        for i, p in enumerate(peers):
            snap = await p.expect("snapshot")
            assert snap["view"] == view(host.state, i)
            assert snap["hash"] == P.view_hash(snap["view"])
            assert [e["type"] for e in snap["events"]][:1] == ["game_started"]
            dealt = [e for e in snap["events"] if e["type"] == "hand_dealt"]
            assert [e["cards"] is not None for e in dealt] == [s == i for s in range(3)]
        seats = await peers[0].expect("seats", started=True)
        assert [s["status"] for s in seats["seats"]] == ["human"] * 3
        assert [s["name"] for s in seats["seats"]] == ["P0", "P1", "P2"]
        # The host keeps its tokens only as digests.
        assert all(
            s.token_digest == P.token_digest(p.token)
            for s, p in zip(host.seats, peers, strict=True)
        )
        await host.close()

    run(scenario())


def test_spectator_needs_no_code_and_sees_the_public_view():
    async def scenario():
        host, clock = await start_host(seats=2)
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator"})
        welcome = await spec.expect("welcome")
        assert welcome["seat"] is None and welcome["token"] is None
        keep = await seat_peers(host, 2)  # noqa: F841  (GC would close them)
        snap = await spec.expect("snapshot")
        assert snap["view"] == view(host.state, None)
        assert "hand" not in snap["view"]
        assert all(e.get("cards") is None for e in snap["events"] if e["type"] == "hand_dealt")
        spec.send({"t": "say", "phrase": "deal"})
        await spec.error("not_seated")
        await host.close()

    run(scenario())


def test_start_message_from_the_first_player_and_bots_fill_seats():
    async def scenario():
        host, clock = await start_host(seats=4)
        a, b = await seat_peers(host, 2)
        b.send({"t": "start"})
        await b.error("start_denied")
        a.send({"t": "start"})
        await a.expect("snapshot")
        seats = await a.expect("seats", started=True)
        assert [s["status"] for s in seats["seats"]] == ["human", "human", "open", "open"]
        assert [s["bot"] for s in seats["seats"]] == [None, None, "random", "random"]
        assert host.state.names[2:] == ["Chen", "Dara"]  # readable, as in hot-seat
        a.send({"t": "start"})
        await a.error("already_started")
        await host.close()

    run(scenario())


def test_start_after_timer_on_the_host_clock():
    async def scenario():
        host, clock = await start_host(seats=3, timing=Timing(start_after=20))
        (a,) = await seat_peers(host, 1)
        seats = await a.expect("seats")
        assert seats["start_ms"] == 20000 and not seats["started"]
        clock.advance(19.9)
        assert not host.started
        clock.advance(0.1)
        assert host.started
        await a.expect("snapshot")
        await host.close()

    run(scenario())


@pytest.mark.parametrize(
    "hello, code",
    [
        ({"v": 1}, "version"),  # protocol 1 hashed views as JSON
        ({"v": 3}, "version"),
        ({"v": 0}, "bad_message"),
        ({"code": "ABCE"}, "bad_code"),
        ({"code": None}, "bad_code"),
        ({"name": ""}, "bad_name"),
        ({"name": "\u200b\u0007 "}, "bad_name"),
        ({"name": "x" * (P.MAX_NAME + 1)}, "bad_name"),
        ({"name": "\u200b\u200d\ufeff"}, "bad_name"),  # only invisible characters
        ({"name": "\u3164 \u2060"}, "bad_name"),  # the Hangul filler, a word joiner
        ({"name": "x" * 200}, "bad_message"),
        ({"role": "spectator", "name": "x" * 200}, "bad_message"),  # the field's bound, any role
        ({"code": " ABCD"}, "bad_code"),  # exactly 4 letters on the wire (screens strip)
        ({"code": "AB CD"}, "bad_code"),
        ({"token": "0" * 32}, "bad_token"),
        ({"token": "XYZ"}, "bad_message"),
        ({"role": "admin"}, "bad_message"),
        ({"extra": 1}, "bad_message"),
    ],
)
def test_bad_hellos_are_refused(hello, code):
    async def scenario():
        host, clock = await start_host(seats=3)
        p = await Peer.connect(host.port)
        msg = {"t": "hello", "v": 2, "role": "player", "name": "Mei", "code": CODE}
        msg.update(hello)
        p.send(msg)
        err = await p.error(code)
        assert err["message"]
        if P.ERRORS[code][0]:
            assert await p.closed() == []
        else:  # the connection stays: a good hello still works
            await p.hello("Mei")
            assert p.seat == 0
        assert all(s.token_digest is None for s in host.seats[1:])
        await host.close()

    run(scenario())


def test_too_many_wrong_codes_closes():
    async def scenario():
        host, clock = await start_host(seats=3, limits=Limits(max_code_attempts=3))
        p = await Peer.connect(host.port)
        for _ in range(2):
            p.send({"t": "hello", "v": 2, "role": "player", "name": "x", "code": "ZZZZ"})
            await p.error("bad_code")
        p.send({"t": "hello", "v": 2, "role": "player", "name": "x", "code": "ZZZZ"})
        await p.error("too_many_attempts")
        await p.closed()
        await host.close()

    run(scenario())


def test_messages_before_hello_and_double_hello():
    async def scenario():
        host, clock = await start_host(seats=3)
        p = await Peer.connect(host.port)
        p.send({"t": "ping", "n": 5})
        assert (await p.expect("pong"))["n"] == 5
        for t in ("sync", "start", "bye"):
            p.send({"t": t})
            await p.error("not_joined")
        p.send({"t": "action", "version": 0, "action": {"type": "roll", "seat": 0}})
        await p.error("not_joined")
        await p.hello("A")
        p.send({"t": "hello", "v": 2, "role": "player", "name": "A", "code": CODE})
        await p.error("already_joined")
        p.send({"t": "sync"})
        await p.error("not_started")
        await host.close()

    run(scenario())


def test_table_full_and_connection_limit():
    async def scenario():
        host, clock = await start_host(seats=2, limits=Limits(max_connections=3))
        keep = await seat_peers(host, 2)  # noqa: F841  (GC would close them)
        late = await Peer.connect(host.port)
        late.send({"t": "hello", "v": 2, "role": "player", "name": "Late", "code": CODE})
        await late.error("table_full")
        await late.closed()
        others = [await Peer.connect(host.port) for _ in range(2)]
        # three connections are open now (two seats and one of these): the next is refused
        refused = [p for p in others if (await p.quiet_or_closed())]
        assert len(refused) == 1
        await host.close()

    async def quiet_or_closed(self):
        self.send({"t": "ping", "n": 1})
        try:
            msg = await self.recv(2)
        except AssertionError:
            return True
        if msg.get("t") == "error":
            assert msg["code"] == "too_many_connections"
            await self.closed()
            return True
        return False

    Peer.quiet_or_closed = quiet_or_closed
    try:
        run(scenario())
    finally:
        del Peer.quiet_or_closed


# --------------------------------------------------------------------------- frames


@pytest.mark.parametrize(
    "data, code",
    [
        (b"\xc1", "bad_frame"),  # never used in msgpack
        (msgpack.packb(msgpack.ExtType(5, b"abc")), "bad_frame"),
        (msgpack.packb({1: 2}), "bad_frame"),  # strict_map_key
        (msgpack.packb({"t": b"ping"}, use_bin_type=True), "bad_frame"),  # binary
        (b"\xa3\xff\xfe\xfd", "bad_frame"),  # invalid UTF-8
        (b"\x91" * 3000, "bad_frame"),  # nested deeper than the unpacker allows
        (msgpack.packb("x" * (P.MAX_FRAME + 10)), "frame_too_large"),
        (msgpack.packb([{"t": "ping"}] * 2), "bad_message"),  # not a map
        (msgpack.packb({"t": "ping", "n": 1.5}), "bad_message"),  # floats are not allowed
        (msgpack.packb({"n": 1}), "bad_message"),  # no type
        (msgpack.packb({"t": 7}), "bad_message"),
        (msgpack.packb({"t": "launch"}), "unknown_type"),
        (msgpack.packb({"t": "ping", "n": True}), "bad_message"),  # bool is not an int
        (msgpack.packb({"t": "ping", "n": -1}), "bad_message"),
        (msgpack.packb({"t": "ping", "x": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}), "bad_message"),
    ],
)
def test_bad_frames(data, code):
    async def scenario():
        host, clock = await start_host(seats=3)
        peers = await seat_peers(host, 3)
        before = state_of(host)
        p = peers[1]
        await p.quiet()
        p.send_raw(data)
        await p.error(code)
        if P.ERRORS[code][0]:
            await p.closed()
            assert host.seats[1].status == "away"
        else:
            assert (await p.quiet()) == []  # still served
        assert state_of(host) == before
        await host.close()

    run(scenario())


@pytest.mark.parametrize(
    "header",
    [
        b"\xdb\xff\xff\xff\xff",  # str32 of 4 GiB
        b"\xc6\xff\xff\xff\xff",  # bin32 of 4 GiB
        b"\xc9\xff\xff\xff\xff\x01",  # ext32 of 4 GiB
        b"\xdf\xff\xff\xff\xff",  # map32 of 4 G pairs
        b"\xdd\xff\xff\xff\xff",  # array32 of 4 G items
        b"\x82\xa1t\xa4ping\xa1n\xdb\x7f\xff\xff\xff",  # nested in a message
    ],
    ids=["str32", "bin32", "ext32", "map32", "array32", "nested_str32"],
)
def test_a_header_declaring_more_than_a_frame_closes_at_once(header):
    # The header and a ping after it: the answer is frame_too_large (not the pong, not a
    # timeout once the partial-frame clock runs out), and the connection closes.
    async def scenario():
        limits = Limits(rate=1000.0, burst=1000.0, partial_timeout=60.0, handshake_timeout=60.0)
        host, clock = await start_host(seats=3, limits=limits)
        p = await Peer.connect(host.port)
        p.send_raw(header + P.encode({"t": "ping", "n": 1}))
        msg = await p.expect("error", timeout=20.0)
        assert msg["code"] == "frame_too_large", msg
        assert [m for m in await p.closed(timeout=20.0) if m["t"] == "pong"] == []
        assert host.stats["errors.frame_too_large"] == 1
        await host.close()

    run(scenario())


def test_a_frame_split_in_tiny_pieces_is_fine():
    async def scenario():
        host, clock = await start_host(seats=3)
        p = await Peer.connect(host.port)
        data = P.encode({"t": "hello", "v": 2, "role": "player", "name": "Slow", "code": CODE})
        for i in range(len(data)):
            p.send_raw(data[i : i + 1])
            await p.writer.drain()
        assert (await p.expect("welcome"))["seat"] == 0
        await host.close()

    run(scenario())


def test_timeouts_handshake_partial_frame_and_idle():
    async def scenario():
        limits = Limits(handshake_timeout=0.3, partial_timeout=0.3, idle_timeout=0.6)
        host, clock = await start_host(seats=3, limits=limits)
        silent = await Peer.connect(host.port)
        err = (await silent.closed())[0]
        assert err["code"] == "timeout" and "hello" in err["message"]
        half = await Peer.connect(host.port)
        await half.hello("Half")
        half.send_raw(P.encode({"t": "ping", "n": 1})[:2])
        got = await half.closed()
        assert got[-1]["code"] == "timeout" and "half" in got[-1]["message"]
        idle = await Peer.connect(host.port)
        await idle.hello("Idle")
        got = await idle.closed()
        assert got[-1]["code"] == "timeout" and "silent" in got[-1]["message"]
        await host.close()

    run(scenario())


def test_rate_limit_drops_extra_messages_and_floods_are_closed():
    async def scenario():
        limits = Limits(rate=10, burst=5, max_dropped=20)
        host, clock = await start_host(seats=3, limits=limits)
        p = await Peer.connect(host.port)
        for n in range(8):
            p.send({"t": "ping", "n": n})
        got = [await p.recv() for _ in range(6)]
        assert [m["n"] for m in got if m["t"] == "pong"] == [0, 1, 2, 3, 4]
        assert [m["code"] for m in got if m["t"] == "error"] == ["rate_limited"]
        clock.advance(0.1)  # one more token
        p.send({"t": "ping", "n": 99})
        assert (await p.expect("pong"))["n"] == 99
        for n in range(30):
            p.send({"t": "ping", "n": n})
        got = await p.closed()
        assert got[-1]["code"] == "rate_limited" and "flood" in got[-1]["message"]
        await host.close()

    run(scenario())


def test_a_client_that_does_not_read_is_dropped():
    async def scenario():
        limits = Limits(rate=1e9, burst=1e9, max_write_buffer=64 * 1024)
        host, clock = await start_host(seats=2, limits=limits)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", host.port))
        sock.setblocking(False)
        reader, writer = await asyncio.open_connection(sock=sock)
        p = Peer(reader, writer)
        await p.hello("Sloth")
        keep = await seat_peers(host, 1)  # noqa: F841  (GC would close them)
        for _ in range(40):  # ~2 MB of snapshots, never read
            for _ in range(50):
                p.send({"t": "sync"})
            await p.writer.drain()
            await asyncio.sleep(0.01)
            if not host.seats[0].conn:
                break
        assert host.seats[0].conn is None and host.seats[0].status == "away"
        writer.close()
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- actions


def test_action_checks_in_order_and_nothing_changes():
    async def scenario():
        host, clock = await start_host(seats=3, setup=travel_setup(False))
        peers = await seat_peers(host, 3)
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator"})
        await spec.expect("snapshot")
        a, b, c = peers
        for p in peers:
            await p.expect("snapshot")
        v = host.state.actions_taken
        before = state_of(host)
        cases = [
            (a, {"t": "action", "action": Roll(0).to_data()}, "bad_message"),  # no version
            (a, {"t": "action", "version": v, "action": {"type": "fly", "seat": 0}}, "bad_action"),
            (a, {"t": "action", "version": v, "action": {"type": "roll", "seat": 9}}, "bad_action"),
            (a, {"t": "action", "version": v, "action": {"type": "roll"}}, "bad_action"),
            # names exactly as the engine writes them; a clan number past 5 is no source
            (a, {"t": "action", "version": v, "action": {**Roll(0).to_data(), "type": "ROLL"}},
             "bad_action"),
            (a, {"t": "action", "version": v,
                 "action": {"type": "lay_clan", "seat": 0, "clan": "Red"}}, "bad_action"),
            (a, {"t": "action", "version": v,
                 "action": {"type": "play_travel", "seat": 0, "card": "TRAVEL_YELLOW",
                            "target": ["placard", 2]}}, "bad_action"),
            (a, {"t": "action", "version": v,
                 "action": {"type": "play_travel", "seat": 0, "card": "travel_yellow",
                            "target": ["placard", 6]}}, "bad_action"),
            (spec, {"t": "action", "version": v, "action": Roll(0).to_data()}, "not_seated"),
            (b, {"t": "action", "version": v, "action": Roll(0).to_data(), "id": 7}, "wrong_seat"),
            (b, {"t": "action", "version": v, "action": Roll(1).to_data(), "id": 8}, "illegal"),
            (a, {"t": "action", "version": v, "action": Draw(0).to_data()}, "illegal"),
            (a, {"t": "action", "version": v + 1, "action": Roll(0).to_data()}, "stale"),
        ]
        for peer, msg, code in cases:
            peer.send(msg)
            err = await peer.error(code)
            if "id" in msg:
                assert err["id"] == msg["id"]
            if code == "illegal":
                assert err["rule"]
            if code == "stale":
                assert err["version"] == v
                snap = await peer.expect("snapshot")
                assert snap["view"] == view(host.state, 0)
            assert state_of(host) == before
        # A good action: everyone gets an update; the actor's carries the ack.
        a.act(OpenDeal(0), v, id=11)
        up = await a.expect("update")
        assert up["ack"] == 11 and up["version"] == v + 1 and up["base"] == v
        for i, p in enumerate((b, c)):
            up = await p.expect("update")
            assert "ack" not in up
            assert up["hash"] == P.view_hash(view(host.state, i + 1))
            assert "board" not in up["delta"] and "hand" not in up["delta"]
        up = await spec.expect("update")
        assert up["hash"] == P.view_hash(view(host.state, None))
        await host.close()

    run(scenario())


def test_game_over_refuses_actions():
    async def scenario():
        host, clock = await start_host(seats=3)
        peers = await seat_peers(host, 3)
        finish_game(host)
        assert host.over and host.finished.is_set()
        assert host.result.players == 3
        a = peers[0]
        seats = await a.expect("seats", over=True)
        assert seats["over"]
        a.send({"t": "action", "version": host.state.actions_taken, "action": Roll(0).to_data()})
        await a.error("game_over")
        await host.close()

    run(scenario())


def test_names_are_counted_as_a_reader_sees_them():
    """Found by a third-party client: 24 accented letters written with combining accents
    were refused as 48 characters, and a name of zero-width characters was accepted (and
    invisible on every screen). Names count grapheme clusters; a spectator's name (at most
    the field's bound) is ignored whatever it holds."""
    accented = "e\u0301" * P.MAX_NAME  # 24 letters, 48 code points
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, five code points

    async def scenario():
        host, clock = await start_host(seats=3)
        a = await Peer.connect(host.port)
        await a.hello(accented)
        b = await Peer.connect(host.port)
        await b.hello(family * P.MAX_NAME)
        seats = await b.expect("seats")
        assert [s["name"] for s in seats["seats"][:2]] == [accented, family * P.MAX_NAME]
        c = await Peer.connect(host.port)
        c.send({"t": "hello", "v": 2, "role": "player", "name": accented + "e", "code": CODE})
        assert "24" in (await c.error("bad_name"))["message"]
        c.send({"t": "hello", "v": 2, "role": "player", "name": "\u200d\u200d", "code": CODE})
        assert "visible" in (await c.error("bad_name"))["message"]
        watcher = await Peer.connect(host.port)
        watcher.send({"t": "hello", "v": 2, "role": "spectator", "name": "\u200b" * 100})
        assert (await watcher.expect("welcome"))["role"] == "spectator"
        # a taken name gets its " (2)" within 24 letters, cut between letters
        d = await Peer.connect(host.port)
        await d.hello(accented)
        assert host.seats[d.seat].name == "e\u0301" * (P.MAX_NAME - 4) + " (2)"
        await host.close()

    run(scenario())


def test_a_map_naming_a_key_twice_is_refused_and_the_connection_stays():
    """Found by a third-party client: duplicate map keys were taken last-wins."""

    async def scenario():
        host, clock = await start_host(seats=3)
        p = await Peer.connect(host.port)
        # {"t": "ping", "n": 1, "n": 2}, written by hand: msgpack writers refuse it
        p.send_raw(b"\x83\xa1t\xa4ping\xa1n\x01\xa1n\x02")
        err = await p.error("bad_message")
        assert "'n' twice" in err["message"]
        hello = P.encode({"t": "hello", "v": 2, "role": "spectator"})
        p.send_raw(hello[:1].replace(b"\x83", b"\x84") + hello[1:] + b"\xa4role\xa6player")
        assert "'role' twice" in (await p.error("bad_message"))["message"]
        p.send({"t": "ping", "n": 3})
        assert (await p.expect("pong"))["n"] == 3
        await host.close()

    run(scenario())


def test_a_player_needs_a_name_a_spectator_does_not():
    # PROTOCOL.md: `name` is required with role "player" (a host-made name would be an
    # untranslated word on every screen); missing or nil is bad_name and the connection stays.
    async def scenario():
        host, clock = await start_host(seats=3)
        p = await Peer.connect(host.port)
        for hello in ({}, {"name": None}):
            p.send({"t": "hello", "v": 2, "role": "player", "code": CODE, **hello})
            assert "name" in (await p.error("bad_name"))["message"]
        assert all(s.token_digest is None for s in host.seats)
        await p.hello("Mei")
        assert p.seat == 0
        watcher = await Peer.connect(host.port)
        watcher.send({"t": "hello", "v": 2, "role": "spectator"})
        assert (await watcher.expect("welcome"))["role"] == "spectator"
        await host.close()

    run(scenario())


def test_set_ask_preference_is_listed_and_legal_only_as_a_change_until_game_over():
    # What PROTOCOL.md says a client may rely on: the legal list always holds exactly one
    # set_ask_preference, the value that changes the seat's setting; the current value is
    # `illegal` (rule preference.unchanged); after the game, nothing is listed: game_over.
    from game.rules import SetAskPreference

    async def scenario():
        host, clock = await start_host(seats=2)
        a = await Peer.connect(host.port)
        await a.hello("A", legal=True)
        b = await Peer.connect(host.port)
        await b.hello("B")
        snap = await a.expect("snapshot")
        current = snap["view"]["players"][0]["asks_only_when_touched"]
        prefs = [x for x in snap["legal"]["actions"] if x["type"] == "set_ask_preference"]
        assert prefs == [
            {"type": "set_ask_preference", "seat": 0, "only_when_touched": not current}
        ]
        version = snap["version"]
        a.act(SetAskPreference(0, current), version, id=1)
        err = await a.error("illegal")
        assert (err["rule"], err["id"]) == ("preference.unchanged", 1)
        a.act(SetAskPreference(0, not current), version, id=2)
        up = await a.until("update", lambda m: m.get("ack") == 2)
        assert up["delta"]["players"][0]["asks_only_when_touched"] is (not current)
        prefs = [x for x in up["legal"]["actions"] if x["type"] == "set_ask_preference"]
        assert prefs == [{"type": "set_ask_preference", "seat": 0, "only_when_touched": current}]
        finish_game(host)
        last = await a.until("update", lambda m: m["delta"].get("phase") == "game_over")
        assert last["legal"] == {"actions": [], "terms": []}
        clock.advance(2.0)  # past the one-preference-a-second limit
        a.act(SetAskPreference(0, current), host.state.actions_taken, id=3)
        assert (await a.error("game_over"))["id"] == 3
        await host.close()

    run(scenario())


def test_say_is_broadcast():
    async def scenario():
        host, clock = await start_host(seats=2)
        a, b = await seat_peers(host, 2)
        a.send({"t": "say", "phrase": "too_expensive"})
        assert (await b.expect("said"))["seat"] == 0
        a.send({"t": "say", "phrase": "you fool"})
        await a.error("bad_message")
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- windows


async def _open_travel_window(host, a):
    """Seat 0 opens a deal on space 0 and sends yellow travelling: a Travel window."""
    v = host.state.actions_taken
    a.act(OpenDeal(0), v)
    await a.expect("update", version=v + 1)
    a.act(PlayTravel(0, Card.TRAVEL_YELLOW, placard(Clan.YELLOW)), v + 1)
    up = await a.expect("update", version=v + 2)
    assert [e["type"] for e in up["events"]][-1] == "window_opened"
    assert up["timers"]["window"]["kind"] == "travel"
    return up


@pytest.mark.parametrize("stop", [False, True])
def test_bots_answer_windows_at_a_fixed_time_whatever_they_hold(stop):
    """The window's length never depends on who holds a Stop card."""

    async def scenario():
        host, clock = await start_host(
            seats=3, setup=travel_setup(stop), timing=Timing(bot_answer=1.5, window=5)
        )
        (a,) = await seat_peers(host, 1)
        a.send({"t": "start"})
        await a.expect("snapshot")
        opened = clock.now()
        up = await _open_travel_window(host, a)
        assert up["timers"]["window"]["ms"] == 5000
        assert host.state.window.waiting == [1, 2]
        clock.advance(1.49)
        assert host.state.window is not None and host.state.window.waiting == [1, 2]
        clock.advance(0.01)
        assert host.state.window is None, "both bots answer at open + 1.5 s"
        assert clock.now() - opened == pytest.approx(1.5)
        got = await a.quiet()
        types = [e["type"] for m in got if m["t"] == "update" for e in m["events"]]
        assert "window_closed" in types
        await host.close()

    run(scenario())


def test_window_times_out_and_the_host_passes_for_silent_players():
    async def scenario():
        host, clock = await start_host(seats=3, setup=travel_setup(True), timing=Timing(window=5))
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await a.expect("snapshot")
        await _open_travel_window(host, a)
        clock.advance(4.99)
        assert host.state.window.waiting == [1]  # the bot answered, the player has not
        clock.advance(0.01)
        assert host.state.window is None
        ups = [m for m in await b.quiet() if m["t"] == "update"]
        passed = [e for m in ups for e in m["events"] if e["type"] == "passed"]
        assert {(e["seat"], e["auto"]) for e in passed} == {(2, False), (1, False)}
        assert host.stats["window_timeouts"] == 1
        await host.close()

    run(scenario())


def test_going_once_then_going_twice_then_closed():
    async def scenario():
        # Space 3 needs red and orange: seat 0 owns both, so it is covered at once.
        setup = scenario_setup(
            [["recruit"], ["recruit"], ["recruit"]],
            {"red": 0, "orange": 0, "yellow": 1, "blue": 1, "magenta": 2, "green": 2},
            marker=3,
        )
        host, clock = await start_host(seats=3, setup=setup, timing=Timing(going_once=3))
        peers = await seat_peers(host, 3)
        a = peers[0]
        await a.expect("snapshot")
        v = host.state.actions_taken
        a.act(OpenDeal(0), v)
        await a.expect("update", version=v + 1)
        from game.rules import GoingOnce

        a.act(GoingOnce(0), v + 1)
        up = await a.expect("update", version=v + 2)
        assert up["timers"]["window"] == {
            "kind": "going_once",
            "stage": "going_once",
            "ms": 6000,
            "total_ms": 6000,
        }
        clock.advance(3)
        t = await a.expect("timers")
        assert t["timers"]["window"]["stage"] == "going_twice"
        assert t["timers"]["window"]["ms"] == 3000
        clock.advance(3)
        assert host.state.deals_closed == 1 and host.state.negotiation is None
        await host.close()

    run(scenario())


def test_negotiation_clock_runs_out_into_time_up():
    async def scenario():
        host, clock = await start_host(seats=3, timing=Timing(negotiation=180))
        peers = await seat_peers(host, 3)
        turn = host.state.turn
        if host.state.phase.value == "place_marker":
            peers[turn].act(PlaceMarker(turn, 0), host.state.actions_taken)
            await peers[turn].expect("update")
            turn = host.state.turn
        v = host.state.actions_taken
        peers[turn].act(OpenDeal(turn), v)
        up = await peers[turn].expect("update", version=v + 1)
        assert up["timers"]["negotiation"] == {"ms": 180000, "total_ms": 180000}
        clock.advance(179.9)
        assert not host.state.negotiation.time_up
        clock.advance(0.1)
        assert host.state.negotiation.time_up
        up = await peers[turn].expect("update", version=v + 2)
        assert [e["type"] for e in up["events"]] == ["negotiation_limit_reached"]
        assert up["events"][0]["reason"] == "time"
        assert up["timers"]["negotiation"] is None
        await host.close()

    run(scenario())


def test_turn_clock_plays_the_default_action():
    async def scenario():
        host, clock = await start_host(seats=3, timing=Timing(turn=10))
        peers = await seat_peers(host, 3)
        snap = await peers[0].expect("snapshot")
        assert snap["timers"]["turn"]["ms"] == 10000
        v = host.state.actions_taken
        clock.advance(10)
        assert host.state.actions_taken == v + 1
        assert host.stats["turn_timeouts"] == 1
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- seats


def test_drop_grace_bot_then_rejoin_mid_negotiation():
    async def scenario():
        setup = travel_setup(False)
        host, clock = await start_host(seats=3, setup=setup, timing=Timing(grace=30))
        a, b, c = await seat_peers(host, 3)
        v = host.state.actions_taken
        a.act(OpenDeal(0), v)
        await b.expect("update", version=v + 1)
        b.act(Offer(1, (placard(Clan.YELLOW),), 4), v + 1)
        await b.expect("update", version=v + 2)
        assert host.state.negotiation.pending[1].amount == 4
        token = b.token
        await b.close()
        seats = await a.until("seats", lambda m: m["seats"][1]["status"] == "away")
        assert seats["seats"][1]["grace_ms"] == 30000
        clock.advance(29.9)
        assert host.seats[1].status == "away"
        clock.advance(0.1)
        seats = await a.until("seats", lambda m: m["seats"][1]["status"] != "away")
        assert seats["seats"][1]["status"] == "bot" and seats["seats"][1]["bot"] == "random"
        # Rejoin with the token (no code needed): the seat and the full view come back.
        b2 = await Peer.connect(host.port)
        b2.send({"t": "hello", "v": 2, "role": "player", "token": token})
        welcome = await b2.expect("welcome")
        assert welcome["seat"] == 1 and welcome["token"] == token
        snap = await b2.expect("snapshot")
        assert snap["view"] == view(host.state, 1)
        assert snap["view"]["negotiation"]["pending"]["1"]["amount"] == 4
        assert snap["view"]["hand"] == {"recruit": 2, "boss": 1}
        await a.until("seats", lambda m: m["seats"][1]["status"] == "human")
        # A second connection with the same token replaces the first.
        b3 = await Peer.connect(host.port)
        b3.send({"t": "hello", "v": 2, "role": "player", "token": token})
        await b3.expect("snapshot")
        got = await b2.closed()
        assert [m.get("code") or m.get("reason") for m in got if m["t"] in ("error", "bye")] == [
            "replaced",
            "replaced",
        ]
        await host.close()

    run(scenario())


def test_bye_gives_the_seat_to_a_bot_at_once():
    async def scenario():
        host, clock = await start_host(seats=2)
        a, b = await seat_peers(host, 2)
        b.send({"t": "bye"})
        assert (await b.expect("bye"))["reason"] == "left"
        await a.until("seats", lambda m: m["seats"][1]["status"] == "bot")
        await host.close()

    run(scenario())


def test_before_the_start_a_dropped_seat_is_freed_after_grace():
    async def scenario():
        host, clock = await start_host(seats=3, timing=Timing(grace=5))
        a, b = await seat_peers(host, 2)
        await b.close()
        await a.until("seats", lambda m: m["seats"][1]["status"] == "away")
        clock.advance(5)
        seats = await a.until("seats", lambda m: m["seats"][1]["status"] != "away")
        assert [s["status"] for s in seats["seats"]] == ["human", "open", "open"]
        late = await Peer.connect(host.port)
        await late.hello("Late")
        assert late.seat == 1
        await host.close()

    run(scenario())


def test_a_late_joiner_gets_no_bot_seat_unless_the_host_opened_them():
    async def scenario(opened: bool):
        host, clock = await start_host(seats=3, open_bot_seats=opened)
        (a,) = await seat_peers(host, 1)
        a.send({"t": "start"})
        await a.expect("snapshot")
        seats = await a.until("seats", lambda m: m["started"])
        assert [s["newcomers"] for s in seats["seats"]] == [False, opened, opened]
        late = await Peer.connect(host.port)
        if not opened:  # the bots keep their seats; the refusal names them
            late.send({"t": "hello", "v": 2, "role": "player", "name": "Late", "code": CODE})
            refusal = await late.error("table_full")
            assert "bots play seat(s) 2, 3" in refusal["message"]  # the room's numbers
            await late.closed()
            assert [s.status for s in host.seats] == ["human", "open", "open"]
        else:
            await late.hello("Late")
            assert late.seat == 1
            snap = await late.expect("snapshot")
            assert snap["view"] == view(host.state, 1)
            assert host.seats[1].status == "human"
        await host.close()

    run(scenario(False))
    run(scenario(True))


def test_a_client_takes_its_own_seat_back_with_its_token_and_no_other_without_it():
    async def scenario():
        host, clock = await start_host(seats=3, timing=Timing(grace=5))
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await a.expect("snapshot")
        await b.close()
        await a.until("seats", lambda m: m["seats"][1]["status"] == "away")
        # with its token: its own seat, its own hand
        back = await Peer.connect(host.port)
        back.send({"t": "hello", "v": 2, "role": "player", "token": b.token})
        assert (await back.expect("welcome"))["seat"] == 1
        assert (await back.expect("snapshot"))["view"] == view(host.state, 1)
        await a.until("seats", lambda m: m["seats"][1]["status"] == "human")
        await back.close()
        await a.until("seats", lambda m: m["seats"][1]["status"] == "away")
        clock.advance(5)  # a bot stands in for seat 1
        await a.until("seats", lambda m: m["seats"][1]["status"] == "bot")
        # the token lost: the same name gets neither seat 1 nor the bot's seat 2
        lost = await Peer.connect(host.port)
        lost.send({"t": "hello", "v": 2, "role": "player", "name": "P1", "code": CODE})
        assert "no seat is open to newcomers" in (await lost.error("table_full"))["message"]
        await lost.closed()
        wrong = await Peer.connect(host.port)
        wrong.send({"t": "hello", "v": 2, "role": "player", "token": P.new_token()})
        assert "no seat is open to newcomers" in (await wrong.error("bad_token"))["message"]
        await wrong.closed()
        assert [(s.name, s.status) for s in host.seats] == [
            ("P0", "human"), ("P1", "bot"), (None, "open")
        ]
        await host.close()

    run(scenario())


def test_two_people_with_one_name_get_two_seats_and_only_a_token_tells_them_apart():
    async def scenario():
        host, clock = await start_host(seats=4, timing=Timing(grace=5))
        first = await Peer.connect(host.port)
        await first.hello("Ann")
        second = await Peer.connect(host.port)
        await second.hello("Ann")
        assert (first.seat, second.seat) == (0, 1) and first.token != second.token
        assert [s.name for s in host.seats[:2]] == ["Ann", "Ann (2)"]
        await first.close()
        await second.until("seats", lambda m: m["seats"][0]["status"] == "away")
        # a third "Ann" without a token gets the open seat, never the first Ann's
        third = await Peer.connect(host.port)
        await third.hello("Ann")
        assert third.seat == 2 and host.seats[2].name == "Ann (3)"
        second.send({"t": "start"})  # the first seated person still here
        await third.expect("snapshot")
        # in the game, a fourth "Ann" gets neither the first Ann's seat nor the bot's
        fourth = await Peer.connect(host.port)
        fourth.send({"t": "hello", "v": 2, "role": "player", "name": "Ann", "code": CODE})
        refusal = await fourth.error("table_full")
        assert "bots play seat(s) 4" in refusal["message"]
        assert "kept for a player who dropped" in refusal["message"]
        assert "seat 1 Ann" in refusal["message"]  # the first Ann, away
        assert (refusal["open_seats"], refusal["bot_seats"]) == ([], [3])  # for the screen
        back = await Peer.connect(host.port)
        back.send({"t": "hello", "v": 2, "role": "player", "token": first.token})
        assert (await back.expect("welcome"))["seat"] == 0
        assert [s.name for s in host.seats] == ["Ann", "Ann (2)", "Ann (3)", None]
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- client


def test_client_session_reconnects_with_its_token():
    async def scenario():
        host, clock = await start_host(seats=2)
        got: list = []
        session = ClientSession(
            "127.0.0.1", host.port, name="Mei", code=CODE, on_message=got.append, backoff=0.01
        )
        task = asyncio.ensure_future(session.run())
        (b,) = await seat_peers(host, 1)
        while not any(isinstance(m, Snapshot) for m in got):
            await asyncio.sleep(0.01)
        host.seats[session.seat].conn.writer.transport.abort()  # the network drops
        while not any(isinstance(m, Reconnected) for m in got):
            await asyncio.sleep(0.01)
        while not isinstance(got[-1], Snapshot):
            await asyncio.sleep(0.01)
        kinds = [type(m).__name__ for m in got]
        assert kinds.index("Disconnected") < kinds.index("Reconnected")
        assert session.view == view(host.state, session.seat)
        assert host.stats["rejoins"] == 1
        await session.close()
        await task
        await host.close()

    run(scenario())


def test_the_client_tells_a_host_closing_the_table_from_contact_lost():
    async def scenario():
        host, clock = await start_host(seats=2)
        got: list = []
        session = ClientSession(
            "127.0.0.1", host.port, name="Mei", code=CODE, on_message=got.append, backoff=0.01
        )
        task = asyncio.ensure_future(session.run())
        (b,) = await seat_peers(host, 1)
        while not any(isinstance(m, Snapshot) for m in got):
            await asyncio.sleep(0.01)
        host.seats[session.seat].conn.writer.transport.abort()  # the line dies, no word
        while not any(isinstance(m, Reconnected) for m in got):
            await asyncio.sleep(0.01)
        (lost,) = [m for m in got if isinstance(m, Disconnected)]
        assert lost.will_retry and not lost.host_closed
        await host.close()  # the host stops: bye "shutdown" to everyone
        while len([m for m in got if isinstance(m, Disconnected)]) < 2:
            await asyncio.sleep(0.01)
        closed = [m for m in got if isinstance(m, Disconnected)][-1]
        assert closed.will_retry and closed.host_closed  # it may come back with --resume
        await session.close()
        await task

    run(scenario())


def test_client_gives_up_on_a_wrong_code():
    async def scenario():
        host, clock = await start_host(seats=2)
        got: list = []
        session = ClientSession(
            "127.0.0.1", host.port, name="M", code="ZZZZ", on_message=got.append
        )
        await session.run()
        assert isinstance(got[-1], Disconnected) and not got[-1].will_retry
        assert "bad_code" in got[-1].reason
        await host.close()

    run(scenario())


@pytest.mark.parametrize("fault", ["hash", "skip"])
def test_desync_is_detected_and_repaired(fault, monkeypatch):
    async def scenario():
        rec = Recorder()
        host, clock = await start_host(seats=2, tap=rec)
        got: list = []
        session = ClientSession("127.0.0.1", host.port, name="M", code=CODE, on_message=got.append)
        task = asyncio.ensure_future(session.run())
        (b,) = await seat_peers(host, 1)
        while session.view is None:
            await asyncio.sleep(0.01)
        me = host.seats[session.seat].conn
        faults = []
        real_send = Connections.send

        def faulty(self, conn, msg, frame=None):
            if conn is me and msg["t"] == "update" and not faults:
                if fault == "skip":  # an update lost on the way
                    faults.append(msg)
                    return
                if "players" in msg["delta"]:  # a change lost on the way
                    faults.append(msg)
                    delta = {k: v for k, v in msg["delta"].items() if k != "players"}
                    msg, frame = {**msg, "delta": delta}, None
            real_send(self, conn, msg, frame)

        monkeypatch.setattr(Connections, "send", faulty)
        finish_game(host)
        while session.version != host.state.actions_taken:
            await asyncio.sleep(0.01)
        assert faults
        assert session.view == view(host.state, session.seat)
        key = "desync_hash" if fault == "hash" else "desync_version"
        assert session.stats[key] == 1
        assert host.stats["syncs"] == 1
        await session.close()
        await task
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- audit


def test_every_frame_carries_only_the_seats_own_secrets():
    async def scenario():
        rec = Recorder()
        host, clock = await start_host(seats=4, tap=rec, short_game=True)
        peers = await seat_peers(host, 3)
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator"})
        peers[0].send({"t": "start"})
        await spec.expect("snapshot")
        finish_game(host)
        await spec.quiet()
        assert rec.frames
        for conn, msg, frame in rec.frames:
            assert P.decode_all(frame) == [msg]
            assert frame == P.encode(msg)  # frames built from parts: the very same bytes
            P.check_host_message(msg)
            blob = json.dumps(msg)
            for word in ('"deck"', '"rng"', '"seed"', "token_sha256"):
                assert word not in blob
            seat = conn.seat if conn.role == "player" else None
            v = msg.get("view") or msg.get("delta") or {}
            assert v.get("seat", seat) == seat
            if seat is None:
                assert "hand" not in v
            for e in msg.get("events", []):
                if e["type"] in ("cards_drawn", "hand_dealt"):
                    assert (e["cards"] is not None) == (e["seat"] == seat)
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- autosave


def test_autosave_is_the_engine_format_and_resume_waits_for_tokens(tmp_path):
    path = tmp_path / "game.json"

    async def first():
        host, clock = await start_host(seats=3, autosave=path)
        peers = await seat_peers(host, 2)
        peers[0].send({"t": "start"})
        await peers[0].expect("snapshot")
        v = host.state.actions_taken
        turn = host.state.turn
        if turn in (0, 1):
            await peers[turn].expect("snapshot") if turn else None
        clock.advance(5)  # the bot (seat 2) may move
        await asyncio.sleep(0.05)
        await host.saved.autosave.flush()
        saved = load(path)
        assert saved.to_data() == host.game.to_data()
        assert saved.state.hash() == host.state.hash()
        side = json.loads(sidecar_path(path).read_text())
        assert side["code"] == CODE
        digests = [s["token_sha256"] for s in side["seats"]]
        assert digests[:2] == [P.token_digest(p.token) for p in peers] and digests[2] is None
        assert peers[0].token not in sidecar_path(path).read_text()
        tokens = [p.token for p in peers]
        state_hash = host.state.hash()
        await host.close()
        return tokens, state_hash, v

    tokens, state_hash, v = run(first())

    async def second():
        host, clock = await start_host(seats=3, resume=path, timing=Timing(grace=20))
        assert host.code == CODE and host.state.hash() == state_hash
        assert [s.status for s in host.seats] == ["away", "away", "open"]
        b = await Peer.connect(host.port)
        b.send({"t": "hello", "v": 2, "role": "player", "token": tokens[1]})
        assert (await b.expect("welcome"))["seat"] == 1
        snap = await b.expect("snapshot")
        assert snap["view"] == view(host.state, 1)
        clock.advance(20)
        assert [s.status for s in host.seats] == ["bot", "human", "open"]
        await host.close()

    run(second())

    async def third(opened: bool):
        host, clock = await start_host(
            seats=3, resume=path, timing=Timing(grace=20), open_bot_seats=opened
        )
        newcomer = await Peer.connect(host.port)  # a name, no token: never seat 0 or 1
        if opened:
            await newcomer.hello("P0")
            assert newcomer.seat == 2 and host.seats[2].name == "P0 (2)"
        else:
            newcomer.send({"t": "hello", "v": 2, "role": "player", "name": "P0", "code": CODE})
            assert "bots play seat(s) 3" in (await newcomer.error("table_full"))["message"]
        assert [s.token_digest for s in host.seats[:2]] == [P.token_digest(t) for t in tokens]
        await host.close()

    run(third(False))
    run(third(True))


def test_resume_refuses_a_broken_save(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")

    async def scenario():
        from net.host.config import HostError

        host = Host(config_for_tests(resume=bad))
        with pytest.raises(HostError, match="not valid JSON"):
            await host.start()

    run(scenario())


def test_update_bytes_are_small_against_the_full_view():
    async def scenario():
        rec = Recorder()
        full: dict = {}

        def tap(conn, msg, frame):
            if msg["t"] == "update" and msg["version"] % 7 == 0:
                rec(conn, msg, frame)
                full[conn.seat, msg["version"]] = len(json.dumps(view(host.state, conn.seat)))

        host, clock = await start_host(seats=6, tap=tap, short_game=True)
        keep = await seat_peers(host, 6)  # noqa: F841  (GC would close them)
        finish_game(host)
        ratios = [len(f) / full[c.seat, m["version"]] for c, m, f in rec.frames]
        assert len(ratios) > 100
        assert sum(ratios) / len(ratios) < 0.2  # bench/net.py reports the exact figure
        await host.close()

    run(scenario())


def test_client_computes_the_same_legal_actions_as_the_host():
    from game.rules import legal_actions
    from net.client.session import legal_for_view

    async def scenario():
        seen = []

        def tap(conn, msg, frame):
            if msg["t"] == "update" and conn.seat is not None and len(seen) < 400:
                st = host.state
                seen.append((view(st, conn.seat), legal_actions(st, conn.seat).to_data()))

        host, clock = await start_host(seats=4, tap=tap)
        keep = await seat_peers(host, 4)  # noqa: F841  (GC would close them)
        finish_game(host)
        assert len(seen) == 400
        for v, legal in seen:
            assert legal_for_view(v).to_data() == legal
        await host.close()

    run(scenario())


def test_pass_in_window_after_it_closed_is_illegal():
    async def scenario():
        host, clock = await start_host(seats=3, setup=travel_setup(False), timing=Timing())
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await a.expect("snapshot")
        await _open_travel_window(host, a)
        v = host.state.actions_taken
        b.act(Pass(1), v)
        await b.expect("update", version=v + 1)
        b.act(Pass(1), v + 1)
        err = await b.error("illegal")
        assert err["rule"]
        b.act(LayClan(1, Clan.RED), v + 1)
        await b.error("illegal")
        await host.close()

    run(scenario())


def test_legal_actions_on_request_for_clients_without_the_engine():
    from game.rules import legal_actions

    async def scenario():
        host, clock = await start_host(seats=3)
        a, b = await seat_peers(host, 2)
        c = await Peer.connect(host.port)
        await c.hello("C", legal=True)
        snap = await c.expect("snapshot")
        assert snap["legal"] == legal_actions(host.state, 2).to_data()
        assert "legal" not in await a.expect("snapshot")
        finish_game(host)
        ups = [m for m in await c.quiet() if m["t"] == "update"]
        assert ups and all("legal" in m for m in ups)
        assert ups[-1]["legal"] == {"actions": [], "terms": []}  # the game is over
        await host.close()

    run(scenario())


def test_rematch_after_a_game_keeps_the_players():
    async def scenario():
        host, clock = await start_host(seats=3)
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await a.expect("snapshot")
        finish_game(host)
        first_seed = host.game.seed
        await a.until("seats", lambda m: m["over"])
        b.send({"t": "start"})
        await b.error("start_denied")
        a.send({"t": "start"})
        snap = await a.expect("snapshot")
        assert snap["version"] == 0 and snap["events"][0]["type"] == "game_started"
        assert host.started and not host.over and host.game.seed != first_seed
        assert [s.status for s in host.seats] == ["human", "human", "open"]
        assert (await b.expect("snapshot"))["view"] == view(host.state, 1)
        await host.close()

    run(scenario())


def test_trickling_a_message_byte_by_byte_does_not_keep_it_open():
    async def scenario():
        host, clock = await start_host(seats=3, limits=Limits(partial_timeout=0.3))
        p = await Peer.connect(host.port)
        await p.hello("Loris")
        data = P.encode({"t": "say", "phrase": "too_expensive"})
        for b in data[:-1]:  # one byte every 50 ms: never a whole message in 0.3 s
            p.send_raw(bytes([b]))
            await asyncio.sleep(0.05)
            if host.seats[0].conn is None:
                break
        got = await p.closed()
        assert got[-1]["code"] == "timeout" and "half" in got[-1]["message"]
        await host.close()

    run(scenario())


def test_client_notices_a_silent_host():
    async def scenario():
        async def mute(reader, writer):  # accepts, reads, never answers
            while await reader.read(1024):
                pass

        server = await asyncio.start_server(mute, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        got: list = []
        session = ClientSession(
            "127.0.0.1", port, name="M", code=CODE, on_message=got.append,
            ping_interval=0.05, reconnect=False,
        )  # fmt: skip
        await session.run()
        assert isinstance(got[-1], Disconnected) and "silent" in got[-1].reason
        server.close()

    run(scenario())
