"""Whole games over loopback: 3-6 headless bot clients, the command line (host --once and
join --bot), a host killed with SIGKILL and resumed from its autosave."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import main
from game.bots.base import Bot
from game.rules import load, view
from net.client.bot import BotPlayer
from net.client.session import Snapshot
from net.host.server import Host
from tests.net_helpers import CODE, config_for_tests, run

ROOT = Path(__file__).resolve().parents[2]
FAST = dict(answer_delay=0.0, think=0.0, idle=0.005, backoff=0.05)
pytestmark = pytest.mark.slow  # whole LAN games, each a few seconds


def bots_for(port: int, n: int, **kw) -> list[BotPlayer]:
    opts = {**FAST, **kw}
    return [
        BotPlayer("127.0.0.1", port, kind="random", name=f"Bot{i}", code=CODE, seed=i, **opts)
        for i in range(n)
    ]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seats, seed", [(3, 21), (4, 22), (6, 23)])
def test_full_game_with_headless_bot_clients(seats, seed, tmp_path):
    save = tmp_path / "lan.json"

    async def scenario():
        host = Host(config_for_tests(seats=seats, code=CODE, seed=seed, autosave=save))
        await host.start()
        players = bots_for(host.port, seats)
        outcomes = await asyncio.gather(*(p.run() for p in players))
        assert host.over and host.result is not None
        assert host.result.players == seats
        st = host.state
        for out in outcomes:
            assert out.finished, out.reason
            assert out.view == view(st, out.seat)  # the client's view is the host's
            assert out.stats["bad_snapshot_hash"] == 0
            assert out.stats["desync_hash"] == 0
        assert sorted(o.seat for o in outcomes) == list(range(seats))
        await host.close()
        saved = load(save)
        assert saved.state.hash() == st.hash()
        assert saved.state.phase.value == "game_over"
        return host.result

    result = run(scenario(), timeout=110)
    assert result.winners and max(result.money) == max(result.money[w] for w in result.winners)


@pytest.mark.timeout(120)
def test_remote_and_host_bots_share_a_table():
    """Two bot clients and three host-driven bots (one client arrives after the start, in a
    seat the host opened to newcomers)."""

    async def scenario():
        cfg = config_for_tests(seats=5, code=CODE, seed=31, short_game=True, open_bot_seats=True)
        host = Host(cfg)
        await host.start()
        first, late = bots_for(host.port, 2)
        t1 = asyncio.ensure_future(first.run())
        while not host.seats[0].conn:
            await asyncio.sleep(0.01)
        host.live.begin()  # as if the first player had pressed "start"
        t2 = asyncio.ensure_future(late.run())
        outcomes = await asyncio.gather(t1, t2)
        assert host.over
        assert sum(s.token_digest is not None for s in host.seats) == 2
        assert all(o.finished for o in outcomes)
        assert outcomes[1].seat == 1  # the late joiner took the first bot seat
        await host.close()

    run(scenario(), timeout=110)


# --------------------------------------------------------------------------- CLI


def _python(*args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def _host_line(proc: subprocess.Popen) -> tuple[int, str]:
    line = proc.stdout.readline()
    m = re.search(r"at 127\.0\.0\.1:(\d+)\s+room code ([A-Z]{4})", line)
    assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
    return int(m.group(1)), m.group(2)


def _reap(*procs: subprocess.Popen) -> None:
    for p in procs:
        if p.poll() is None:
            p.kill()
        with contextlib.suppress(Exception):
            p.communicate(timeout=10)


HOST_FLAGS = [
    "--headless",
    "--bind",
    "127.0.0.1",
    "--port",
    "0",
    "--bot-delay",
    "0",
    "--no-announce",
]


@pytest.mark.timeout(150)
def test_command_line_host_once_and_bot_joins(tmp_path):
    save = tmp_path / "cli.json"
    host = _python(
        "host", *HOST_FLAGS, "--seats", "3", "--code", "wxyz", "--once", "--short",
        "--autosave", str(save), "--seed", "5",
    )  # fmt: skip
    joins: list[subprocess.Popen] = []
    try:
        port, code = _host_line(host)
        assert code == "WXYZ"
        for i in range(3):
            joins.append(
                _python(
                    "join",
                    f"127.0.0.1:{port}",
                    "--code",
                    code,
                    "--name",
                    f"J{i}",
                    "--bot",
                    "random",
                    "--headless",
                    "--bot-delay",
                    "0",
                )  # fmt: skip
            )
        outs = [j.communicate(timeout=120) for j in joins]
        out, err = host.communicate(timeout=30)
    finally:
        _reap(host, *joins)
    for j, (o, e) in zip(joins, outs, strict=True):
        assert j.returncode == 0, e
        summary = json.loads(o.strip().splitlines()[-1])
        assert summary["finished"] and summary["winners"]
        assert "--token" in e
    assert host.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert set(result) >= {"seed", "players", "winners", "money", "deals_closed", "actions"}
    assert result["players"] == 3 and result["seed"] == 5
    assert load(save).state.phase.value == "game_over"


@pytest.mark.timeout(150)
def test_host_killed_and_resumed_from_its_autosave(tmp_path):
    save = tmp_path / "resume.json"
    flags = [*HOST_FLAGS, "--seats", "3", "--code", CODE, "--autosave", str(save), "--once"]
    first = _python("host", *flags)
    second = None
    try:
        port, _ = _host_line(first)
        flags[flags.index("--port") + 1] = str(port)

        async def scenario():
            nonlocal second
            snaps: list[int] = []

            def seen(msg):
                if isinstance(msg, Snapshot):
                    snaps.append(msg.version)

            players = bots_for(port, 3, retry_for=60, on_message=seen)
            tasks = [asyncio.ensure_future(p.run()) for p in players]
            while max((p.state.version or 0) for p in players) < 40:
                await asyncio.sleep(0.01)
            first.send_signal(signal.SIGKILL)
            await asyncio.to_thread(first.wait, 10)
            killed_at = max(p.state.version for p in players)
            assert save.exists()
            second = _python("host", *flags, "--resume", str(save))
            line = await asyncio.to_thread(second.stdout.readline)
            assert f":{port}" in line, line
            outcomes = await asyncio.gather(*tasks)
            return outcomes, killed_at, snaps

        outcomes, killed_at, snaps = run(scenario(), timeout=140)
        out, err = second.communicate(timeout=30)
    finally:
        _reap(first, *(p for p in [second] if p is not None))
    assert second.returncode == 0, err
    for o in outcomes:
        assert o.finished, o.reason
        assert o.stats["reconnects"] >= 1
    assert sorted(o.seat for o in outcomes) == [0, 1, 2]
    assert len(snaps) >= 6  # a snapshot at the start and again after the restart, per seat
    final = load(save)
    assert final.state.phase.value == "game_over"
    assert len(final.log) > killed_at - 5  # at most a few unsaved actions were replayed
    result = json.loads(out.strip().splitlines()[-1])
    assert result["players"] == 3 and result["actions"] == len(final.log)


# --------------------------------------------------------------------------- usage errors

@pytest.mark.parametrize(
    "argv",
    [
        ["host", "--headless", "--code", "12"],
        ["host", "--headless", "--seats", "7"],
        ["host", "--headless", "--bots", "random,random", "--seats", "4"],
        ["host", "--headless", "--bots", "nosuchbot"],
        ["join", "127.0.0.1:1", "--headless"],
        ["join", "127.0.0.1:1", "--headless", "--bot", "nosuchbot"],
        ["join", "127.0.0.1", "--headless", "--bot", "random"],
        ["join", "127.0.0.1:1", "--headless", "--bot", "random", "--token", "XY"],
    ],
)
def test_usage_errors_exit_2_with_one_line(argv, capsys):
    assert main.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err


def test_resume_of_a_missing_file_fails_cleanly(tmp_path, capsys):
    argv = ["host", *HOST_FLAGS, "--resume", str(tmp_path / "nope.json")]
    assert main.main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.json" in err[0]


def test_join_gives_up_when_nobody_listens(capsys):
    started = time.monotonic()
    argv = ["join", "127.0.0.1:9", "--headless", "--bot", "random", "--code", "ABCD"]
    argv += ["--retry-for", "0.3"]
    assert main.main(argv) == 1
    assert time.monotonic() - started < 20
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert not summary["finished"] and "cannot connect" in summary["reason"]


@pytest.mark.timeout(60)
def test_threaded_client_and_host_thread_for_a_pygame_loop():
    """The UI's path: a HostThread, Clients polled like a frame loop, a spectator."""
    from net.client.session import Client, Joined, Seats, ServerError, Update
    from net.host.thread import HostThread

    host = HostThread(config_for_tests(seats=3, code=CODE)).start()
    clients = [Client(("127.0.0.1", host.port), name=n, code=CODE).start() for n in ("Mei", "Ann")]
    table = Client(("127.0.0.1", host.port), role="spectator").start()
    got: dict[int, list] = {i: [] for i in range(3)}

    def pump(until, timeout=20.0):
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, {k: v[-3:] for k, v in got.items()}
            for i, c in enumerate([*clients, table]):
                got[i].extend(c.poll())  # never blocks
            time.sleep(0.005)

    try:
        pump(lambda: all(c.seats is not None for c in clients))
        mei = next(c for c in clients if c.seat == 0)
        assert isinstance(got[clients.index(mei)][0], Joined) and len(mei.token) == 32
        assert mei.seats.starter == 0 and not mei.seats.started
        mei.start_game()
        pump(lambda: all(c.view is not None for c in [*clients, table]))
        assert table.seat is None and "hand" not in table.view
        assert [s.status for s in mei.seats.seats] == ["human", "human", "open"]
        # Play whatever the game waits for from this screen, until the first action of ours
        # is acknowledged.
        acked = None
        while acked is None:
            pump(lambda: any(c.legal.moves() for c in clients), timeout=30)
            me = next(c for c in clients if c.legal.moves())
            rid = me.send_action(next(iter(me.legal.moves())))
            idx = clients.index(me)

            def answered(idx=idx, rid=rid):
                return any(
                    (isinstance(m, Update) and m.ack == rid)
                    or (isinstance(m, ServerError) and m.id == rid)
                    for m in got[idx]
                )

            pump(answered)
            acked = next((m for m in got[idx] if isinstance(m, Update) and m.ack == rid), None)
        assert me.version >= acked.version
        pump(lambda: table.version is not None and table.version >= acked.version)
        assert table.view["seat"] is None and table.view["version"] == table.version
        assert table.stats["desync_hash"] == 0 and table.stats["updates"] > 0
        assert any(isinstance(m, Seats) for m in got[2])
    finally:
        for c in [*clients, table]:
            c.close()
        host.stop()
    assert host.finished.is_set()


class _HopefulBoss(Bot):
    """A bot that waits for a card nobody will play unless it must act: then it opens a
    deal on its turn, or fails the deal it is Boss of."""

    kind = "hopeful_boss"
    needs_view = False
    wants_events = False

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat

    def choose(self, view, legal, must_act=True):
        from game.rules import FailDeal, OpenDeal

        if not must_act:
            return None
        return next((a for a in legal.fixed if isinstance(a, (OpenDeal, FailDeal))), None)

    def observe(self, events) -> None:
        pass


@pytest.mark.timeout(60)
def test_a_bot_boss_on_the_host_settles_after_its_patience_not_the_clock():
    """Real time with no negotiation clock: a bot Boss that hopes for a card nobody plays
    would wait for ever; after `bot_patience` seconds of nothing it must settle."""
    from game.bots.base import BOT_KINDS
    from game.table.bot_schedule import Timing

    BOT_KINDS["hopeful_boss"] = _HopefulBoss
    try:

        async def scenario():
            timing = Timing(
                bot_answer=0, bot_delay=0, bot_tick=0.005, start_after=0, negotiation=0,
                bot_patience=0.3,
            )  # fmt: skip
            host = Host(config_for_tests(seats=3, bots=["hopeful_boss"], timing=timing, seed=3))
            await host.start()
            while host.game is None or host.state.negotiation is None:
                await asyncio.sleep(0.005)
            opened = time.monotonic()
            while host.state.deals_failed == 0:
                await asyncio.sleep(0.005)
            # not before its patience ran out (0.3 s; the margin covers this loop seeing the
            # deal open a little after the host opened it)
            assert time.monotonic() - opened >= 0.15
            assert host.state.deals_closed == 0
            await host.close()

        run(scenario(), timeout=30)
    finally:
        del BOT_KINDS["hopeful_boss"]


@pytest.mark.timeout(120)
def test_host_bots_that_think_in_a_thread():
    """Bots that need a view decide in a worker thread (the host keeps serving)."""
    from game.bots import BOT_KINDS
    from game.table.bot_schedule import Timing

    if "heuristic" not in BOT_KINDS:
        pytest.skip("no heuristic bot registered in this tree")

    async def scenario():
        # A heuristic Boss whose plan hopes for a card nobody plays settles after its
        # patience (20 s by default; the negotiation clock is 3 minutes): a short one here.
        timing = Timing(bot_answer=0, bot_delay=0, bot_tick=0.005, start_after=0, bot_patience=0.5)
        cfg = config_for_tests(seats=4, bots=["heuristic", "random"], timing=timing, seed=3)
        host = Host(cfg)
        await host.start()
        await host.finished.wait()
        assert host.result.players == 4
        assert host.state.phase.value == "game_over"
        await host.close()

    run(scenario(), timeout=110)
