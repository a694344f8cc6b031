"""On bad wifi no player loses a move, and a player who vanishes never holds up the table
(issue 36): scripted scenes with short timings, through the bad-network proxy
(tests/badnet.py) where the network matters. Whole games under each profile are the
bench's (`python -m bench.wifi`)."""

from __future__ import annotations

import asyncio

import pytest

from game.rules import Card, Clan, OpenDeal, Pass, PlayStop, PlayTravel, Setup, placard
from game.table.bot_schedule import Timing
from game.table.clock import LoopClock
from net import protocol as P
from net.host.config import LATE_MARGIN, HostConfig
from net.host.connections import Limits
from tests.badnet import PROFILES, BadNet, Profile
from tests.net_helpers import Peer, run, scenario_setup, seat_peers, start_host

pytestmark = pytest.mark.timeout(60)

PLACARDS = {"red": 0, "blue": 0, "yellow": 1, "magenta": 1, "orange": 2, "green": 2}
QUICK_BOTS = dict(bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, fair_start=0.0)


def travel_setup(stop_for_seat1: bool) -> Setup:
    """Seat 0 holds a yellow Travel card for seat 1's placard (space 0 uses every clan)."""
    hands = [
        ["travel_yellow", "clan_red", "recruit"],
        ["stop", "recruit", "boss"] if stop_for_seat1 else ["recruit", "recruit", "boss"],
        ["recruit", "clan_green", "boss"],
    ]
    return scenario_setup(hands, PLACARDS, marker=0, first_player=0)


async def open_travel_window(host, a: Peer) -> dict:
    """Seat 0 opens a deal on space 0 and sends yellow travelling: a Travel window."""
    v = host.state.actions_taken
    a.act(OpenDeal(0), v)
    await a.expect("update", version=v + 1)
    a.act(PlayTravel(0, Card.TRAVEL_YELLOW, placard(Clan.YELLOW)), v + 1)
    return await a.until("update", lambda m: m["version"] == v + 2)


async def spectator(port: int) -> Peer:
    s = await Peer.connect(port)
    s.send({"t": "hello", "v": P.PROTOCOL_VERSION, "role": "spectator"})
    await s.expect("welcome")
    return s


async def keep_reading(peer: Peer) -> None:
    """A live client: reads (and so answers the host's pings) until its line ends."""
    try:
        while True:
            await peer.recv(60)
    except AssertionError:
        pass


async def chatter(peer: Peer) -> None:
    """A watcher that keeps its own line alive (the host's watchdog counts its silence)."""
    while True:
        peer.send({"t": "ping", "n": 1})
        await asyncio.sleep(0.2)


def status_of(seats: dict, seat: int) -> str:
    return seats["seats"][seat]["status"]


# --------------------------------------------------------------------------- 1. vanished


def presence_host(seats: int = 2, **kw):
    limits = Limits(rate=1000.0, burst=1000.0, probe_interval=0.1, away_after=0.4, **kw)
    timing = Timing(grace=0.6, window=0.5, going_once=0.25, **QUICK_BOTS)
    return start_host(
        clock=LoopClock(asyncio.get_running_loop()), seats=seats, limits=limits, timing=timing,
        setup=Setup(first_player=0, marker=0),
    )  # fmt: skip


@pytest.mark.slow
def test_a_silent_connected_player_shows_away_a_bot_plays_for_them_and_they_take_it_back():
    """An outage with the connection open (a phone asleep): away within away_after plus a
    probe, a bot after the grace plays the turn the table waits for, and the first bytes
    after the outage give the seat back."""

    async def scenario():
        host, _ = await presence_host()
        loop = asyncio.get_running_loop()
        proxy = BadNet(host.port, PROFILES["good"])
        mei = await Peer.connect(await proxy.start())
        mei.answers_pings = True
        await mei.hello("Mei")
        watch = await spectator(host.port)
        mei.send({"t": "start"})
        await mei.expect("snapshot")
        reader = asyncio.ensure_future(keep_reading(mei))
        assert host.state.turn == 0 and host.state.actions_taken == 0
        await asyncio.sleep(0.5)  # pings come and are answered: no change
        assert host.seats[0].status == "human" and host.state.actions_taken == 0
        began = loop.time()
        proxy.links[-1].outage(2.5)
        away = await watch.until("seats", lambda m: status_of(m, 0) != "human", timeout=3)
        assert status_of(away, 0) == "away" and 0 < away["seats"][0]["grace_ms"] <= 600
        assert 0.4 - 0.1 - 0.05 <= loop.time() - began <= 1.3  # silence counts from the last answer
        assert host.state.actions_taken == 0  # the turn waits during the grace
        bot = await watch.until("seats", lambda m: status_of(m, 0) != "away", timeout=3)
        assert status_of(bot, 0) == "bot" and bot["seats"][0]["bot"] == "random"
        assert loop.time() - began <= 0.4 + 0.6 + 0.9
        for _ in range(40):  # the bot plays the silent seat's turn
            if host.state.actions_taken > 0:
                break
            await asyncio.sleep(0.05)
        assert [a.seat for a in host.game.log[:1]] == [0]
        back = await watch.until("seats", lambda m: status_of(m, 0) == "human", timeout=4)
        assert back is not None and 2.5 <= loop.time() - began <= 4.5
        assert host.stats["rejoins"] == 0  # the same connection: nothing to rejoin
        reader.cancel()
        await proxy.close()
        await host.close()

    run(scenario())


def test_a_half_open_seat_stays_with_its_bot_when_the_watchdog_closes_it():
    """A phone that walked away: the line goes dark (nothing closes). Away, then a bot;
    the watchdog's close later keeps the bot on (no second grace), the token takes the
    seat back at once."""

    async def scenario():
        host, _ = await presence_host(idle_timeout=1.6)
        proxy = BadNet(host.port, PROFILES["good"])
        mei = await Peer.connect(await proxy.start())
        mei.answers_pings = True
        await mei.hello("Mei")
        watch = await spectator(host.port)
        alive = asyncio.ensure_future(chatter(watch))
        mei.send({"t": "start"})
        await mei.expect("snapshot")
        proxy.links[-1].blackhole()
        await watch.until("seats", lambda m: status_of(m, 0) == "away", timeout=3)
        await watch.until("seats", lambda m: status_of(m, 0) == "bot", timeout=3)
        for _ in range(60):  # the watchdog closes the dark connection
            if host.seats[0].conn is None:
                break
            await asyncio.sleep(0.05)
        assert host.seats[0].conn is None and host.seats[0].status == "bot"
        later = await watch.quiet()
        assert {status_of(m, 0) for m in later if m["t"] == "seats"} <= {"bot"}  # no new grace
        again = await Peer.connect(host.port)
        again.send({"t": "hello", "v": 2, "role": "player", "token": mei.token})
        await again.expect("snapshot")
        await watch.until("seats", lambda m: status_of(m, 0) == "human")
        alive.cancel()
        await proxy.close()
        await host.close()

    run(scenario())


def test_a_seat_silent_since_the_lobby_shows_away_once_the_game_starts():
    """Silence in the lobby costs nothing (nobody waits); the game that starts then finds
    the seat silent and it is away at once."""

    async def scenario():
        host, _ = await presence_host(seats=3)  # two of three seated: no start by itself
        mei = await Peer.connect(host.port)
        mei.answers_pings = True
        await mei.hello("Mei")
        bo = await Peer.connect(host.port)  # says hello, then nothing more
        await bo.hello("Bo")
        reader = asyncio.ensure_future(keep_reading(mei))
        await asyncio.sleep(0.7)
        assert host.seats[1].status == "human"  # before the game: no away
        mei.send({"t": "start"})
        for _ in range(20):
            if host.started and host.seats[1].status == "away":
                break
            await asyncio.sleep(0.05)
        assert host.seats[1].status == "away" and host.seats[0].status == "human"
        reader.cancel()
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- 2. countdowns


@pytest.mark.slow
@pytest.mark.parametrize("margin", [LATE_MARGIN, 0.0])
def test_a_stop_made_in_time_on_a_slow_link_is_applied(margin):
    """Seat 1 is 0.4 s away each way and presses Stop 50 ms before its own countdown
    (receipt + ms) ends: it reaches the host 0.75 s after the end the screens show. The
    host's margin keeps the window open for it; without one, it is lost."""

    async def scenario():
        timing = Timing(window=1.0, **QUICK_BOTS)
        host, _ = await start_host(
            clock=LoopClock(asyncio.get_running_loop()), seats=3, setup=travel_setup(True),
            timing=timing, late_margin=margin,
        )  # fmt: skip
        loop = asyncio.get_running_loop()
        (a,) = await seat_peers(host, 1)
        proxy = BadNet(host.port, Profile(delay=0.4))
        b = await Peer.connect(await proxy.start())
        await b.hello("Bo")
        c = await Peer.connect(host.port)
        await c.hello("Cy")
        await a.expect("snapshot")
        await open_travel_window(host, a)
        up = await b.until("update", lambda m: (m.get("timers") or {}).get("window"))
        seen, ms = loop.time(), up["timers"]["window"]["ms"]
        assert up["timers"]["window"]["total_ms"] == 1000
        c.act(Pass(2), up["version"])  # another answer lands first: the version moves on
        await asyncio.sleep(max(0.0, seen + ms / 1000 - 0.05 - loop.time()))
        b.act(PlayStop(1), up["version"], id=7)
        if margin:
            done = await a.until("update", lambda m: any(e["type"] == "stopped" for e in m["events"]))
            assert [e["seat"] for e in done["events"] if e["type"] == "stopped"] == [1]
        else:
            err = await b.expect("error", timeout=3)
            assert err["code"] == "illegal" and err["id"] == 7
        await proxy.close()
        await host.close()

    run(scenario())


@pytest.mark.parametrize("stop", [False, True])
def test_the_margin_is_the_same_for_every_window_whoever_holds_a_stop(stop):
    """A window nobody answers shows its length and closes LATE_MARGIN after it, whether
    the silent seat holds a Stop card or not."""

    async def scenario():
        host, clock = await start_host(
            seats=3, setup=travel_setup(stop), timing=Timing(window=5), late_margin=LATE_MARGIN
        )
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await a.expect("snapshot")
        up = await open_travel_window(host, a)
        assert up["timers"]["window"]["ms"] == 5000
        clock.advance(5 + LATE_MARGIN - 0.01)
        assert host.state.window is not None and host.state.window.waiting == [1]
        clock.advance(0.01)
        assert host.state.window is None
        await host.close()

    run(scenario())


def test_the_lan_host_keeps_a_late_margin_by_default():
    assert HostConfig().late_margin == LATE_MARGIN == 1.5


# --------------------------------------------------------------------------- 3. no bounce


def test_two_answers_to_one_window_made_at_once_are_both_applied():
    """Real time: seats 1 and 2 pass the same window on its version, at once; the second is
    no stale action. One made before the window opened still is."""

    async def scenario():
        host, clock = await start_host(seats=3, setup=travel_setup(False))
        a, b, c = await seat_peers(host, 3)
        await a.expect("snapshot")
        up = await open_travel_window(host, a)
        v = up["version"]
        assert host.state.window.waiting == [1, 2]
        c.act(Pass(2), v - 1, id=1)  # made before the window: that is stale
        assert (await c.error("stale"))["version"] == v
        b.act(Pass(1), v, id=2)
        c.act(Pass(2), v, id=3)
        await c.until("update", lambda m: m.get("ack") == 3)
        assert host.state.window is None
        assert [m for m in b.log if m["t"] == "error"] == []
        assert host.stats["stale"] == 1
        await host.close()

    run(scenario())


def test_ask_around_an_answer_survives_another_seats_preference_change():
    """Ask-around: seat 1 is asked; seat 2 changes its preference meanwhile (an action:
    the version moves on). Seat 1's Stop, made on the version that asked it, is applied."""
    from game.rules import SetAskPreference, WindowMode, asked_seats

    async def scenario():
        host, clock = await start_host(
            seats=3, setup=travel_setup(True), window_mode=WindowMode.ASK_AROUND
        )
        a, b, c = await seat_peers(host, 3)
        await a.expect("snapshot")
        up = await open_travel_window(host, a)
        assert asked_seats(host.state) == [1]
        asked_on = up["version"]
        c.act(SetAskPreference(2, True), asked_on, id=1)
        await c.until("update", lambda m: m.get("ack") == 1)
        b.act(PlayStop(1), asked_on, id=2)
        done = await b.until("update", lambda m: m.get("ack") == 2)
        assert [e["type"] for e in done["events"]][0] == "stopped"
        assert host.stats["stale"] == 0
        await host.close()

    run(scenario())
