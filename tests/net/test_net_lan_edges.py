"""LAN rough edges: the recent events a (re)joining seat gets for its log, bot clients and
the start, readable bot names, and the fair start bots give a person in windows and deals."""

from __future__ import annotations

import asyncio

import pytest

from bench.fair_start import fair_start_gaps
from game.bots import make_bot
from game.bots.names import BOT_NAMES, bot_name
from game.bots.pacing import FAIR_START
from game.rules import (
    Game,
    default_action,
    opening_events,
    view,
    waiting_for,
)
from game.rules.view import events_for
from game.table.bot_schedule import Timing
from game.table.clock import ManualClock
from net import protocol as P
from net.host.fanout import HISTORY_EVENTS
from tests.net_helpers import Peer, Recorder, play_random, run, seat_peers, start_host


def play_some(host, n: int, seed: int = 5) -> None:
    """Apply `n` random actions through the host, as if every seat were a bot."""
    play_random(host, n, seed)


def live_batches(rec: Recorder, conn) -> list[tuple[int, list]]:
    """(version, events) of every snapshot and update the host sent to `conn`."""
    return [
        (m["version"], m["events"])
        for c, m, _ in rec.frames
        if c is conn and m["t"] in ("snapshot", "update") and m["events"]
    ]


def replayed(game, seat: int | None) -> list[tuple[int, list]]:
    """What `seat` would have heard live, worked out again from the game's actions."""
    fresh = Game(list(game.names), game.seed, game.settings, game.setup)
    out = [(0, events_for(opening_events(fresh.state), seat))]
    for action in game.log:
        out.append((fresh.state.actions_taken + 1, events_for(fresh.apply(action), seat)))
    return [(v, evs) for v, evs in out if evs]


def flat(batches) -> list[tuple[int, dict]]:
    return [(v, e) for v, evs in batches for e in evs]


def newest_whole(batches, cap: int = HISTORY_EVENTS) -> list[tuple[int, list]]:
    """The newest whole batches with at most ``cap`` events together (at least one)."""
    out, total = [], 0
    for v, evs in reversed(batches):
        if out and total + len(evs) > cap:
            break
        out.append((v, evs))
        total += len(evs)
    return out[::-1]


def test_a_rejoining_seat_gets_the_recent_events_exactly_as_it_heard_them_live():
    async def scenario():
        rec = Recorder()
        host, clock = await start_host(seats=3, tap=rec)
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await b.expect("snapshot")
        play_some(host, 40)
        await b.quiet()
        b_conn = host.seats[1].conn
        heard = flat(live_batches(rec, b_conn))
        last_heard = host.state.actions_taken
        await b.close()
        await a.until("seats", lambda m: m["seats"][1]["status"] == "away")
        play_some(host, 6, seed=9)  # missed while away
        b2 = await Peer.connect(host.port)
        b2.send({"t": "hello", "v": 2, "role": "player", "token": b.token, "history": True})
        snap = await b2.expect("snapshot")
        history = snap["history"]
        got = flat((h["version"], h["events"]) for h in history)
        assert 0 < len(got) <= HISTORY_EVENTS  # bounded: the newest ones
        assert history[-1]["version"] == host.state.actions_taken == snap["version"]
        # what it heard live, word for word (the part before the drop)...
        before = [x for x in got if x[0] <= last_heard]
        assert before and before == heard[-len(before) :]
        # ...and all of it what the seat would have heard live, redacted the same way
        assert got == flat(newest_whole(replayed(host.game, 1)))
        assert any(v > last_heard for v, _ in got)
        for _, e in got:  # nothing another seat's hand would reveal
            if e["type"] in ("cards_drawn", "hand_dealt"):
                assert (e["cards"] is not None) == (e["seat"] == 1), e
        # a spectator's history is the public one; a hello without `history` gets none
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator", "history": True})
        public = (await spec.expect("snapshot"))["history"]
        assert (
            flat((h["version"], h["events"]) for h in public)
            == flat(newest_whole(replayed(host.game, None)))
        )
        plain = await Peer.connect(host.port)
        plain.send({"t": "hello", "v": 2, "role": "spectator"})
        assert "history" not in await plain.expect("snapshot")
        await host.close()

    run(scenario())


def test_every_history_batch_is_one_actions_whole_update():
    """Found by a third-party client: when the 60-event cap fell inside an action's events,
    the oldest batch came cut from the front (a version-0 batch of two hand_dealt without
    its game_started). The history keeps whole batches only; checked after every action of
    a game, where the cap falls inside a batch again and again."""

    async def scenario():
        host, clock = await start_host(seats=4)
        peers = await seat_peers(host, 2)
        peers[0].send({"t": "start"})
        await peers[1].expect("snapshot")
        cut_inside = 0
        for step in range(150):
            live = replayed(host.game, None)
            if len(flat(live)) > HISTORY_EVENTS:
                cut_inside += flat(newest_whole(live)) != flat(live)[-HISTORY_EVENTS:]
            got = [(b["version"], b["events"]) for b in host.fanout.history_data(None)]
            assert got == newest_whole(live), step
            play_some(host, 1, seed=step)
        assert cut_inside > 10  # the case that used to be cut happened, many times
        await host.close()

    run(scenario())


def test_the_history_is_trimmed_to_fit_one_frame(monkeypatch):
    async def scenario():
        host, clock = await start_host(seats=3)
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await b.expect("snapshot")
        play_some(host, 60)
        await b.quiet()
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator", "history": True})
        full = await spec.expect("snapshot")
        size = len(P.encode(full))
        limit = size - 600  # the whole history does not fit any more
        monkeypatch.setattr(P, "MAX_FRAME", limit)
        again = await Peer.connect(host.port)
        again.send({"t": "hello", "v": 2, "role": "spectator", "history": True})
        cut = await again.expect("snapshot")
        assert len(P.encode(cut)) <= limit
        assert 0 < len(cut["history"]) < len(full["history"])
        assert cut["history"] == full["history"][-len(cut["history"]) :]  # the newest kept
        assert host.stats["history_trimmed"] >= 1
        await host.close()

    run(scenario())


def test_a_resumed_host_rebuilds_the_recent_events(tmp_path):
    path = tmp_path / "game.json"

    async def scenario():
        host, clock = await start_host(seats=3, autosave=path, autosave_sync="none")
        a, b = await seat_peers(host, 2)
        a.send({"t": "start"})
        await b.expect("snapshot")
        play_some(host, 30)
        await b.quiet()
        token = b.token
        await host.close()
        host2, _ = await start_host(seats=3, resume=path)
        b2 = await Peer.connect(host2.port)
        b2.send({"t": "hello", "v": 2, "role": "player", "token": token, "history": True})
        snap = await b2.expect("snapshot")
        got = flat((h["version"], h["events"]) for h in snap["history"])
        assert got == flat(newest_whole(replayed(host2.game, 1)))
        await host2.close()

    run(scenario())


# --------------------------------------------------------------------------- the start


def test_a_bot_client_never_holds_the_start_and_a_table_of_bots_starts_when_full():
    async def scenario():
        host, clock = await start_host(seats=3)
        robo = await Peer.connect(host.port)
        await robo.hello("Robo", bot=True)
        seats = await robo.expect("seats")
        assert seats["starter"] is None  # nobody to wait for: "waiting for players"
        robo.send({"t": "start"})
        await robo.error("start_denied")
        ann = await Peer.connect(host.port)
        await ann.hello("Ann")
        seats = await ann.expect("seats")
        assert seats["starter"] == ann.seat == 1  # the first person seated, not the bot
        ann.send({"t": "start"})
        await ann.expect("snapshot")
        assert host.started
        await host.close()

        bots_only, _ = await start_host(seats=2)
        r1 = await Peer.connect(bots_only.port)
        await r1.hello("R1", bot=True)
        assert not bots_only.started
        r2 = await Peer.connect(bots_only.port)
        await r2.hello("R2", bot=True)
        await r1.expect("snapshot")  # full: it starts by itself
        assert bots_only.started
        await bots_only.close()

    run(scenario())


# --------------------------------------------------------------------------- names


def test_bot_names_are_readable_and_never_a_persons_name():
    assert [bot_name(i) for i in range(6)] == list(BOT_NAMES)
    assert bot_name(0, {"Ada"}) == "Bruno"
    assert bot_name(1, set(BOT_NAMES)) == "Bruno (2)"

    async def scenario():
        host, clock = await start_host(seats=4)
        chen = await Peer.connect(host.port)
        await chen.hello("Chen")  # a person called Chen at seat 0
        chen.send({"t": "start"})
        await chen.expect("snapshot")
        names = host.state.names
        assert names[0] == "Chen" and names[1] == "Bruno"
        assert len(set(names)) == 4 and all(n in BOT_NAMES for n in names[1:])
        await host.close()

    run(scenario())


# --------------------------------------------------------------------------- fair start


@pytest.mark.parametrize("answer", [0.0, 1.5])
def test_host_bots_give_a_person_a_fair_start_in_windows_and_deals(answer):
    """A person at the table: no bot answers a window or plays into a deal within
    FAIR_START of its opening (measured on the host's clock over a whole game)."""

    async def scenario():
        clock = ManualClock()
        frames = []

        def tap(conn, msg, frame):
            if msg["t"] == "update" and conn.seat == 0 and conn.role == "player":
                frames.append((clock.now(), conn, msg))

        timing = Timing(
            bot_answer=answer, bot_delay=0.0, bot_tick=0.05, window=3, going_once=2,
            negotiation=20, bot_patience=4,
        )  # fmt: skip
        host, _ = await start_host(clock, tap, seats=4, timing=timing, short_game=True)
        assert host.timing.fair_start == FAIR_START == 1.0
        (person,) = await seat_peers(host, 1)
        person.send({"t": "start"})
        await person.expect("snapshot")
        for _ in range(40000):
            if host.over:
                break
            st = host.state
            if 0 in waiting_for(st) and st.window is None:
                host.live.master.submit(default_action(st, 0))  # the person: quick, passive moves
            clock.advance(0.05)
        assert host.over
        gaps = fair_start_gaps(frames, 0)
        print(
            f"\nhost (bot_answer={answer}): first bot action {min(gaps['window']):.3f} s after "
            f"a window opened (min of {len(gaps['window'])}), {min(gaps['deal']):.3f} s after "
            f"a deal opened (min of {len(gaps['deal'])})"
        )
        assert gaps["window"] and gaps["deal"]
        assert min(gaps["window"]) >= FAIR_START - 1e-6
        assert min(gaps["deal"]) >= FAIR_START - 1e-6
        await host.close()

    run(scenario(), timeout=120)


def test_a_headless_bot_client_keeps_out_of_a_fresh_deal_for_the_fair_start():
    from game.rules import OpenDeal, Settings, Setup, WindowMode
    from net.client.bot import BotPlayer
    from net.client.session import Update

    g = Game(
        ["Ann", "Robo", "Bo"],
        4,
        Settings(players=3, window_mode=WindowMode.REAL_TIME),
        Setup(first_player=0, marker=0),
    )
    events = g.apply(OpenDeal(0))
    v = view(g.state, 1)

    async def delay_of(**kw) -> float:
        loop = asyncio.get_running_loop()
        bp = BotPlayer("127.0.0.1", 9, kind="random", idle=0.01, think=0.0, **kw)
        bp.bot = make_bot("random", 1, 1)
        bp._on_message(Update(1, v, events_for(events, 1), None, frozenset(), None))
        assert bp._timer is not None
        delay = bp._timer.when - loop.time()
        bp._cancel()
        return delay

    assert run(delay_of()) >= FAIR_START - 0.01  # the default bot: a person gets a second
    assert run(delay_of(answer_delay=0.0)) < 0.1  # told to answer at once (tests, benches)
