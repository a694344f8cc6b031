"""LAN figures on loopback: action -> all clients updated, and bytes per update.

    .venv/bin/python bench/net.py [--seats 6] [--games 2] [--mode sequential|bots] [--json]

One host process. ``--mode sequential`` (default): six protocol clients on one asyncio loop
in a second process; one action in flight at a time: a seat's random bot decides from its
own view (not timed), the clock starts as the action is sent and stops when the last of the
six clients has applied the update (delta applied, view hash verified). ``--mode bots``:
six headless bot clients in six processes playing concurrently (``join --bot``), with stale
actions and their snapshots; latency is measured for the actions the host applied (``ack``).
All processes read the same system-wide monotonic clock. Also printed: the host's own time
per applied action (message in -> every frame written). Bytes: every update frame the host
sent to a seat, against the JSON encoding of that seat's full view at that version
(computed afterwards by replaying the game, so the measurement does not slow the host).
Goals (issue 5): p99 <= 10 ms (goal 3 ms); bytes <= 0.2x the JSON view.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CODE = "BNCH"


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def host_main(
    port_q, out_q, seats: int, seed: int, short: bool, breakdown: bool = False, autosave=None
) -> None:
    from net.host.hooks import HostHooks
    from net.host.server import Host
    from tests.net_helpers import config_for_tests

    steps = extra = None
    if breakdown:
        from bench.net_cost import StepClock, instrument_host

        steps = StepClock()
        extra = instrument_host(steps)
    frames: list[tuple[int, int, int]] = []  # seat, version, bytes
    snapshots: list[int] = []
    host_ms: list[float] = []  # an applied action: message in -> every frame written
    handler_cpu_ms: list[float] = []  # the same in the thread's CPU time
    # the process's CPU time from the first action received to the last one handled
    cpu_marks: dict[str, int] = {}
    applied = [0]

    acked: set[int] = set()  # connections whose last action was applied (an "ack" went out)
    cpu_in = [0]

    def received(conn, msg) -> None:
        if msg["t"] == "action":
            if "first" not in cpu_marks:
                cpu_marks["first"] = time.process_time_ns()
                cpu_marks["first_sys"] = os.times().system
            cpu_in[0] = time.thread_time_ns()

    def handled(conn, msg, seconds: float) -> None:
        if msg["t"] == "action" and conn.id in acked:
            acked.discard(conn.id)
            host_ms.append(seconds * 1000)
            handler_cpu_ms.append((time.thread_time_ns() - cpu_in[0]) / 1e6)
            applied[0] += 1
            cpu_marks["last"] = time.process_time_ns()
            cpu_marks["last_sys"] = os.times().system

    def tap(conn, msg, frame) -> None:
        if "ack" in msg:
            acked.add(conn.id)
        if conn.role == "player":
            if msg["t"] == "update":
                frames.append((conn.seat, msg["version"], len(frame)))
            elif msg["t"] == "snapshot":
                snapshots.append(len(frame))

    async def main() -> None:
        config = config_for_tests(
            seats=seats, code=CODE, seed=seed, short_game=short, autosave=autosave
        )
        host = Host(config, hooks=HostHooks(tap=tap, received=received, handled=handled))
        await host.start()
        port_q.put(host.port)
        await host.finished.wait()
        await asyncio.sleep(0.3)
        await host.close("game_over")
        out_q.put(
            (
                "host",
                {
                    "save": host.game.to_data(),
                    "frames": frames,
                    "snapshots": snapshots,
                    "host_ms": host_ms,
                    "handler_cpu_ms": handler_cpu_ms,
                    # every action after the first (whose CPU time is not in the span)
                    "process_cpu_ms_per_action": (cpu_marks["last"] - cpu_marks["first"])
                    / 1e6
                    / max(1, applied[0] - 1),
                    "process_sys_ms_per_action": (cpu_marks["last_sys"] - cpu_marks["first_sys"])
                    * 1e3
                    / max(1, applied[0] - 1),
                    "stats": dict(host.stats),
                    "steps": steps.actions if steps is not None else None,
                    "extra": extra() if extra is not None else None,
                },
            )
        )

    asyncio.run(main())


def _player(port: int, index: int, delay: float, record: dict):
    from net.client.bot import BotPlayer
    from net.client.session import Update

    recv: dict[int, float] = record.setdefault("recv", {})
    sent: dict[int, float] = {}
    acked: dict[int, float] = record.setdefault("acked", {})

    def on_message(msg) -> None:
        if isinstance(msg, Update):
            now = time.monotonic()
            recv[msg.version] = now
            if msg.ack is not None and msg.ack in sent:
                acked[msg.version] = sent[msg.ack]

    player = BotPlayer(
        "127.0.0.1", port, kind="random", name=f"Bench{index}", code=CODE, seed=index,
        answer_delay=delay, think=delay, idle=max(0.005, delay), on_message=on_message,
    )  # fmt: skip
    real_send = player.session.send_action

    def send_action(action, version=None, id=None):
        t = time.monotonic()
        rid = real_send(action, version, id)
        sent[rid] = t
        return rid

    player.session.send_action = send_action
    return player


def client_main(port: int, indexes: list[int], out_q, delay: float) -> None:
    """One process playing the seats ``indexes`` (one asyncio loop for all of them)."""

    async def main() -> list[dict]:
        records = [{} for _ in indexes]
        players = [_player(port, i, delay, r) for i, r in zip(indexes, records, strict=True)]
        outcomes = await asyncio.gather(*(p.run() for p in players))
        for r, o in zip(records, outcomes, strict=True):
            r.update(seat=o.seat, finished=o.finished)
        return records

    for record in asyncio.run(main()):
        out_q.put(("client", record))


def sequential_main(
    port: int,
    seats: int,
    out_q,
    gap: float,
    seed: int,
    breakdown: bool = False,
    clients_batch: bool = False,
) -> None:
    """Six clients on one loop; one action in flight at a time: a seat's bot decides from
    its own view (not timed), the timer starts as the action is sent and stops when the
    last client has applied the update (delta applied, hash verified)."""
    import random

    from game.bots import make_bot
    from net.client.session import ClientSession, Update, legal_for_view

    if clients_batch:  # as on a LAN: the clients never take the host's core from it
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))

    steps = extra = None
    if breakdown:
        from bench.net_cost import StepClock, instrument_clients

        steps = StepClock()
        extra = instrument_clients(steps)

    async def main() -> dict:
        recv: list[dict[int, float]] = [{} for _ in range(seats)]
        arrived = asyncio.Event()
        awaited = [-1]  # the version the driver waits for
        sessions = []
        for i in range(seats):

            def on_message(msg, i=i) -> None:
                if isinstance(msg, Update):
                    recv[i][msg.version] = time.monotonic()
                    if msg.version == awaited[0] and all(msg.version in r for r in recv):
                        arrived.set()

            sessions.append(
                ClientSession("127.0.0.1", port, name=f"S{i}", code=CODE, on_message=on_message)
            )
        tasks = [asyncio.ensure_future(s.run()) for s in sessions]
        while any(s.view is None for s in sessions):
            await asyncio.sleep(0.01)
        by_seat = {s.seat: s for s in sessions}
        bots = {seat: make_bot("random", seat, seed) for seat in by_seat}
        rng = random.Random(seed)
        latencies = []
        client_cpu = []  # the clients' thread CPU from the send to the last update applied
        while True:
            await asyncio.sleep(gap)
            version = max(s.version for s in sessions)
            while any(s.version != version for s in sessions):
                await asyncio.sleep(0.001)
            v = sessions[0].view
            if v["phase"] == "game_over":
                break
            if v["window"] is not None:
                seat = rng.choice(v["window"]["asked"])
            elif v["waiting_for"]:
                seat = v["waiting_for"][0]
            else:
                movers = [s for s in by_seat if legal_for_view(by_seat[s].view).moves()]
                seat = rng.choice(movers)
            me = by_seat[seat]
            legal = legal_for_view(me.view).moves()
            action = bots[seat].choose(me.view, legal, True)
            if action is None:
                continue
            c0 = time.thread_time_ns()
            t0 = time.monotonic()
            me.send_action(action, version)
            # woken by the last client's update (no polling: the clients' loop is theirs)
            awaited[0] = version + 1
            arrived.clear()
            if any(version + 1 not in r for r in recv):
                await arrived.wait()
            latencies.append((max(r[version + 1] for r in recv) - t0) * 1000)
            client_cpu.append((time.thread_time_ns() - c0) / 1e6)
        for s in sessions:
            await s.close()
        for t in tasks:
            t.cancel()
        return {
            "latencies": latencies,
            "client_cpu_ms": client_cpu,
            "steps": steps.actions if steps is not None else None,
            "extra": extra() if extra is not None else None,
        }

    out_q.put(("sequential", asyncio.run(main())))


def full_view_sizes(save: dict, frames: list[tuple[int, int, int]]) -> dict[tuple[int, int], int]:
    """JSON size of each seat's full view at each version the frames mention."""
    from game.rules import game_from_data, view

    wanted = {(s, v) for s, v, _ in frames}
    actions = save["actions"]
    replay = dict(save, actions=[])
    game = game_from_data(replay)
    from game.rules import action_from_data

    out = {}
    seats = range(game.state.players)
    for i, raw in enumerate(actions):
        game.apply(action_from_data(raw))
        version = i + 1
        for s in seats:
            if (s, version) in wanted:
                out[s, version] = len(json.dumps(view(game.state, s)))
    return out


def run_game(
    seats: int,
    seed: int,
    delay: float,
    short: bool,
    mode: str,
    gap: float = 0.01,
    breakdown: bool = False,
    autosave=None,
    clients_batch: bool = False,
) -> dict:
    """mode "bots": every seat a bot client acting on its own (concurrent, stale actions
    included); "sequential": one action in flight at a time (see sequential_main)."""
    ctx = mp.get_context("fork")
    port_q, out_q = ctx.Queue(), ctx.Queue()
    host = ctx.Process(
        target=host_main,
        args=(port_q, out_q, seats, seed, short, breakdown, autosave),
        daemon=True,
    )
    host.start()
    port = port_q.get(timeout=30)
    if mode == "sequential":
        procs = [
            ctx.Process(
                target=sequential_main,
                args=(port, seats, out_q, gap, seed, breakdown, clients_batch),
            )
        ]
        expect = 2
    else:
        procs = [
            ctx.Process(target=client_main, args=(port, [i], out_q, delay), daemon=True)
            for i in range(seats)
        ]
        expect = seats + 1
    for p in procs:
        p.start()
    results = [out_q.get(timeout=900) for _ in range(expect)]
    for p in (host, *procs):
        p.join(10)
    host_data = next(d for k, d in results if k == "host")
    client_cpu, client_steps = [], None
    if mode == "sequential":
        seq = next(d for k, d in results if k == "sequential")
        latencies, client_cpu, client_steps = seq["latencies"], seq["client_cpu_ms"], seq
        finished = True
    else:
        client_data = [d for k, d in results if k == "client"]
        latencies = []  # acked send -> the last client applied that version
        for c in client_data:
            for version, t_send in c["acked"].items():
                times = [d["recv"].get(version) for d in client_data]
                if all(t is not None for t in times):
                    latencies.append((max(times) - t_send) * 1000)
        finished = all(c["finished"] for c in client_data)
    sizes = full_view_sizes(host_data["save"], host_data["frames"])
    ratios = [b / sizes[s, v] for s, v, b in host_data["frames"] if (s, v) in sizes]
    return {
        "latencies_ms": latencies,
        "ratios": ratios,
        "frame_bytes": [b for _, _, b in host_data["frames"]],
        "view_bytes": list(sizes.values()),
        "snapshot_bytes": host_data["snapshots"],
        "host_ms": host_data["host_ms"],
        "handler_cpu_ms": host_data["handler_cpu_ms"],
        "host_cpu_ms_per_action": host_data["process_cpu_ms_per_action"],
        "host_sys_ms_per_action": host_data["process_sys_ms_per_action"],
        "client_cpu_ms": client_cpu,
        "host_steps": host_data["steps"],
        "host_extra": host_data["extra"],
        "client_steps": client_steps["steps"] if client_steps else None,
        "client_extra": client_steps["extra"] if client_steps else None,
        "actions": len(host_data["save"]["actions"]),
        "stale": host_data["stats"].get("stale", 0),
        "finished": finished,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--delay", type=float, default=0.02, help="bots' pause (s)")
    parser.add_argument("--short", action="store_true")
    parser.add_argument(
        "--mode",
        choices=["sequential", "bots"],
        default="sequential",
        help="sequential: one action in flight, six clients on one loop (default); "
        "bots: six bot clients in six processes acting concurrently",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="time each step of the host's (and, sequential, the clients') per-action path "
        "(bench/net_cost.py); the wrapping slows both a little",
    )
    parser.add_argument(
        "--autosave",
        action="store_true",
        help="the host keeps an autosave and its journal (in a temporary directory), as "
        "`main.py host` does",
    )
    parser.add_argument(
        "--clients-batch",
        action="store_true",
        help="sequential: the clients' process runs as SCHED_BATCH, so a frame the host "
        "writes never makes the kernel switch its core to the woken clients before the "
        "host has written the other frames (on a LAN the clients are other machines)",
    )
    args = parser.parse_args()
    save_dir = tempfile.TemporaryDirectory() if args.autosave else None
    lat, ratios, frame_bytes, view_bytes, snaps, host_ms = [], [], [], [], [], []
    handler_cpu, host_cpu, host_sys, client_cpu = [], [], [], []
    host_steps, client_steps = [], []
    actions = stale = 0
    last_extra = None
    t0 = time.perf_counter()
    for g in range(args.games):
        r = run_game(
            args.seats,
            args.seed + g,
            args.delay,
            args.short,
            args.mode,
            breakdown=args.breakdown,
            autosave=Path(save_dir.name) / f"game{g}.json" if save_dir else None,
            clients_batch=args.clients_batch,
        )
        assert r["finished"], "a game did not finish"
        lat += r["latencies_ms"]
        ratios += r["ratios"]
        frame_bytes += r["frame_bytes"]
        view_bytes += r["view_bytes"]
        snaps += r["snapshot_bytes"]
        host_ms += r["host_ms"]
        handler_cpu += r["handler_cpu_ms"]
        host_cpu.append(r["host_cpu_ms_per_action"])
        host_sys.append(r["host_sys_ms_per_action"])
        client_cpu += r["client_cpu_ms"]
        host_steps += r["host_steps"] or []
        last_extra = r["host_extra"]
        client_steps += r["client_steps"] or []
        actions += r["actions"]
        stale += r["stale"]
    figures = {
        "seats": args.seats,
        "games": args.games,
        "actions": actions,
        "seconds": round(time.perf_counter() - t0, 1),
        "bot_delay_s": args.delay,
        "mode": args.mode,
        "latency_samples": len(lat),
        "latency_p50_ms": round(_pct(lat, 50), 2),
        "latency_p99_ms": round(_pct(lat, 99), 2),
        "latency_max_ms": round(max(lat), 2),
        "host_ms_p50": round(_pct(host_ms, 50), 3),
        "host_ms_p99": round(_pct(host_ms, 99), 3),
        # the host process's CPU time per applied action (everything: reading, the loop,
        # the handler, the writes), the mean over the games
        "host_cpu_ms_per_action": round(statistics.mean(host_cpu), 3),
        "host_sys_ms_per_action": round(statistics.mean(host_sys), 3),  # of it in the kernel
        "host_handler_cpu_ms_p50": round(_pct(handler_cpu, 50), 3),
        # sequential: the clients' thread CPU from the send to the last update applied
        "clients_cpu_ms_p50": round(_pct(client_cpu, 50), 3) if client_cpu else None,
        "update_bytes_mean": round(statistics.mean(frame_bytes), 1),
        "full_view_json_bytes_mean": round(statistics.mean(view_bytes), 1),
        "bytes_ratio_mean": round(statistics.mean(ratios), 3),
        "bytes_ratio_p50": round(_pct(ratios, 50), 3),
        "bytes_ratio_p95": round(_pct(ratios, 95), 3),
        "snapshot_bytes_mean": round(statistics.mean(snaps), 1) if snaps else None,
        "stale_actions": stale,
        "clients_batch": args.clients_batch,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{args.seats} clients, {args.games} games, {actions} actions "
            f"({figures['seconds']} s, mode {args.mode}"
            + (f", bots pause {args.delay * 1000:.0f} ms" if args.mode == "bots" else "")
            + ")\n"
            f"action -> all {args.seats} clients updated: p50 {figures['latency_p50_ms']} ms, "
            f"p99 {figures['latency_p99_ms']} ms, max {figures['latency_max_ms']} ms "
            f"({len(lat)} actions; bar p99 <= 10 ms, goal 3 ms)\n"
            f"host, action in -> all frames written: p50 {figures['host_ms_p50']} ms, "
            f"p99 {figures['host_ms_p99']} ms; its thread CPU p50 "
            f"{figures['host_handler_cpu_ms_p50']} ms\n"
            f"host CPU per action (the whole process): {figures['host_cpu_ms_per_action']} ms "
            f"({figures['host_sys_ms_per_action']} ms of it in the kernel)"
            + (
                f"; the {args.seats} clients' CPU per action p50 {figures['clients_cpu_ms_p50']} ms\n"
                if client_cpu
                else "\n"
            )
            + f"bytes per update: mean {figures['update_bytes_mean']} B vs full view as JSON "
            f"{figures['full_view_json_bytes_mean']} B: ratio mean {figures['bytes_ratio_mean']}, "
            f"p50 {figures['bytes_ratio_p50']}, p95 {figures['bytes_ratio_p95']} (goal <= 0.2)\n"
            f"snapshots (join, rejoin, stale action): mean {figures['snapshot_bytes_mean']} B; "
            f"stale actions refused: {stale}"
        )
    if args.breakdown:
        from bench.net_cost import StepClock, print_breakdown

        print(
            "host extra figures (last game):",
            {k: v for k, v in (last_extra or {}).items() if k != "handler_cpu_us"},
        )
        for title, actions_steps in (("host", host_steps), ("clients", client_steps)):
            if actions_steps:
                clock = StepClock()
                clock.actions = actions_steps
                print_breakdown(
                    f"{title}: per action, {len(actions_steps)} actions", clock.summary()
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
