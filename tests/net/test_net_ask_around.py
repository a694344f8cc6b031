"""The LAN host in ask-around mode (``HostConfig.window_mode``, ``main.py host
--window-mode ask_around``): windows ask one player after the other, each with the window's
length to answer; bots answer when they are asked; a whole game finishes."""

from __future__ import annotations

import asyncio

import pytest

from game.rules import Card, Clan, OpenDeal, PlayTravel, WindowMode, placard
from game.table.bot_schedule import Timing
from net.host.server import Host
from tests.net_helpers import Peer, config_for_tests, run, seat_peers, start_host, travel_setup

pytestmark = pytest.mark.timeout(120)


def test_each_asked_player_has_the_whole_window_and_bots_answer_when_asked():
    async def scenario():
        timing = Timing(window=5, bot_answer=1.5)
        host, clock = await start_host(
            seats=3, setup=travel_setup(), timing=timing, window_mode=WindowMode.ASK_AROUND
        )
        a, b = await seat_peers(host, 2)  # seat 2 is a bot
        a.send({"t": "start"})
        snap = await a.expect("snapshot")
        assert snap["view"]["settings"]["window_mode"] == "ask_around"
        v = host.state.actions_taken
        a.act(OpenDeal(0), v)
        await a.expect("update", version=v + 1)
        a.act(PlayTravel(0, Card.TRAVEL_YELLOW, placard(Clan.YELLOW)), v + 1)
        up = await a.expect("update", version=v + 2)
        assert up["delta"]["window"]["asked"] == [1]
        assert up["timers"]["window"]["ms"] == 5000
        clock.advance(4.99)
        assert host.state.window.queue[:1] == [1]  # the player still has the question
        clock.advance(0.01)  # the host passes for seat 1; now the bot is asked...
        assert host.state.window is not None and host.state.window.queue[:1] == [2]
        got = await b.quiet()
        countdowns = [m for m in got if m.get("timers")][-1]["timers"]
        assert countdowns["window"]["ms"] == 5000  # ...with a fresh window of its own
        clock.advance(1.49)
        assert host.state.window is not None
        clock.advance(0.01)  # the bot answers bot_answer after it was asked
        assert host.state.window is None
        got += await b.quiet()
        ups = [m for m in got if m["t"] == "update"]
        passed = [(e["seat"], e["auto"]) for m in ups for e in m["events"] if e["type"] == "passed"]
        assert passed == [(1, False), (2, False)]
        assert host.stats["window_timeouts"] == 1
        await host.close()

    run(scenario())


def test_a_table_of_bots_plays_a_whole_ask_around_game():
    async def scenario():
        timing = Timing(bot_answer=0, bot_delay=0, bot_tick=0.005, start_after=0)
        cfg = config_for_tests(seats=4, seed=7, timing=timing, window_mode=WindowMode.ASK_AROUND)
        host = Host(cfg)
        await host.start()
        watcher = await Peer.connect(host.port)
        watcher.send({"t": "hello", "v": 2, "role": "spectator"})
        await watcher.expect("welcome")
        await asyncio.wait_for(host.finished.wait(), 100)
        assert host.state.settings.window_mode is WindowMode.ASK_AROUND
        assert host.state.phase.value == "game_over"
        assert host.state.deals_closed + host.state.deals_failed > 0
        await host.close()

    run(scenario(), timeout=110)


def test_real_time_stays_the_default():
    async def scenario():
        host, clock = await start_host(seats=2)
        await seat_peers(host, 2)
        assert host.state.settings.window_mode is WindowMode.REAL_TIME
        await host.close()

    run(scenario())
