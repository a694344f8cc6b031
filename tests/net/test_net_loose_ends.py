"""The wire's loose ends an independent client found (issue 33): seats frames coalesced
under spectator churn, the bounds of an action's version and sources, what a token does in
a spectator's hello, the count of wrong codes, the flood's last word, and the seats'
transport."""

from __future__ import annotations

import asyncio
import time

import pytest

from game.rules.actions import ActionFormatError, action_from_data
from net import protocol as P
from net.host.connections import FLOODING, Limits
from net.host.lobby import SEATS_BURST, SEATS_RATE
from tests.net_helpers import CODE, Peer, run, seat_peers, start_host

pytestmark = pytest.mark.timeout(60)


def test_spectator_churn_sends_a_seated_player_a_bounded_number_of_seats_frames():
    async def scenario():
        host, clock = await start_host(seats=2)
        (player,) = await seat_peers(host, 1)
        await player.expect("seats")
        began = time.monotonic()
        for _ in range(40):  # 80 comings and goings as fast as the loop allows
            spec = await Peer.connect(host.port)
            spec.send({"t": "hello", "v": 2, "role": "spectator"})
            await spec.expect("welcome")
            await spec.close()
            await asyncio.sleep(0.005)
        await asyncio.sleep(2 / SEATS_RATE)  # the last frame that waited goes out
        elapsed = time.monotonic() - began
        got = [m for m in await player.quiet() if m["t"] == "seats"]
        assert got, "the changes were never told"
        assert got[-1]["spectators"] == 0  # the last frame holds the last state
        bound = SEATS_BURST + 1 + elapsed * SEATS_RATE
        assert len(got) <= bound, (len(got), elapsed)
        await player.close()
        await host.close()

    run(scenario())


def test_a_joining_connection_is_told_the_seats_at_once_even_while_coalescing():
    async def scenario():
        host, clock = await start_host(seats=3)
        a, b = await seat_peers(host, 2)
        host.lobby._seats_bucket.tokens = 0.0  # as after a churn: the next frame must wait
        c = await Peer.connect(host.port)
        await c.hello("C")
        began = time.monotonic()
        seats = await c.expect("seats", timeout=5)
        assert time.monotonic() - began < 0.5 / SEATS_RATE
        assert [s["name"] for s in seats["seats"]] == ["P0", "P1", "C"]
        for p in (a, b, c):
            await p.close()
        await host.close()

    run(scenario())


def test_the_seats_frame_says_how_each_player_is_connected():
    async def scenario():
        host, clock = await start_host(seats=3)
        (a,) = await seat_peers(host, 1)
        seats = await a.until("seats", lambda m: m["seats"][0]["status"] == "human")
        assert [s["via"] for s in seats["seats"]] == ["tcp", None, None]
        assert P.check_host_message(seats)
        await a.close()
        await host.close()

    run(scenario())


def test_an_action_version_above_2_to_the_53_is_a_bad_message():
    ok = {"t": "action", "version": 2**53, "action": {"type": "pass", "seat": 0}}
    assert P.check_client_message(ok)
    with pytest.raises(P.ProtocolError) as err:
        P.check_client_message(dict(ok, version=2**53 + 1))
    assert err.value.code == "bad_message"


def test_more_than_16_sources_is_a_bad_action():
    def offer(n):
        sources = [["card", i] for i in range(n)]
        return {"type": "offer", "seat": 0, "amount": 1, "sources": sources}

    assert action_from_data(offer(16))
    with pytest.raises(ActionFormatError):
        action_from_data(offer(17))

    async def scenario():
        host, clock = await start_host(seats=2)
        a, b = await seat_peers(host, 2)
        a.send({"t": "action", "version": 0, "action": offer(17), "id": 3})
        err = await a.error("bad_action")
        assert err["id"] == 3
        await host.close()

    run(scenario())


def test_a_spectator_hello_with_a_seats_token_watches_and_leaves_the_seat_alone():
    async def scenario():
        host, clock = await start_host(seats=2)
        (a,) = await seat_peers(host, 1)
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator", "token": a.token})
        welcome = await spec.expect("welcome")
        assert welcome["role"] == "spectator" and welcome["seat"] is None
        assert welcome["token"] is None
        assert host.seats[0].conn is not None and host.seats[0].conn.role == "player"
        got = await a.quiet()
        assert not [m for m in got if m["t"] == "error"]
        await spec.close()
        await a.close()
        await host.close()

    run(scenario())


def test_four_wrong_codes_are_answered_then_the_fifth_closes():
    async def scenario():
        host, clock = await start_host()
        p = await Peer.connect(host.port)
        codes = []
        for _ in range(Limits().max_code_attempts):
            p.send({"t": "hello", "v": 2, "role": "player", "name": "X", "code": "ZZZZ"})
            codes.append((await p.expect("error"))["code"])
        assert codes == ["bad_code"] * 4 + ["too_many_attempts"]
        await p.closed()
        await host.close()

    run(scenario())


def test_a_flood_ends_with_the_documented_rate_limited_message():
    async def scenario():
        limits = Limits(rate=5, burst=5, max_dropped=10)
        host, clock = await start_host(limits=limits)
        p = await Peer.connect(host.port)
        for n in range(40):
            p.send({"t": "ping", "n": n})
        got = await p.closed()
        assert got[-1] == P.error("rate_limited", FLOODING)
        await host.close()

    run(scenario())


def test_a_right_code_still_works_after_wrong_ones():
    async def scenario():
        host, clock = await start_host()
        p = await Peer.connect(host.port)
        p.send({"t": "hello", "v": 2, "role": "player", "name": "X", "code": "ZZZZ"})
        await p.error("bad_code")
        welcome = await p.hello("X", code=CODE)
        assert welcome["seat"] == 0
        await host.close()

    run(scenario())
