"""Phones against TCP clients on loopback: action -> every client updated, and the host's CPU.

    .venv/bin/python bench/phones.py [--games 1] [--seed 5] [--json]

One host process serving phones (net/web) and the TCP protocol; every client in a second
process, on one asyncio loop, one action in flight at a time (as bench/net.py's sequential
mode): a seat's random bot decides from its own view (not timed), the clock starts as the
action is sent and stops when the last client of each kind has applied the update (delta
applied, view hash verified). A phone is a WebSocket client (aiohttp) doing what the page
does: binary messages of msgpack, ``"legal": true`` in its hello, the schema check, the
delta and the hash; a TCP client is the project's own ``ClientSession``.

Tables, each a whole game (short), the same seed:
  phones  - 6 seats: 4 phones (WebSocket) and 2 TCP clients
  tcp4    - 4 seats: 4 TCP clients alone
  tcp6    - 6 seats: 6 TCP clients (the same table as ``phones`` without the WebSocket)
Printed per table: action -> every phone / every TCP client updated, p50 / p99 (ms), and
the host process's CPU time per applied action (user + system, from the first action to
the last).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CODE = "PHNE"
TABLES = {"phones": (6, 4), "tcp4": (4, 0), "tcp6": (6, 0)}  # name -> (seats, phones)


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def host_main(port_q, out_q, seats: int, seed: int) -> None:
    from net.host.hooks import HostHooks
    from net.host.server import Host
    from tests.net_helpers import config_for_tests

    marks: dict[str, float] = {}
    applied = [0]

    def cpu() -> float:
        t = os.times()
        return t.user + t.system

    def received(conn, msg) -> None:
        if msg["t"] == "action" and "first" not in marks:
            marks["first"] = cpu()

    def handled(conn, msg, seconds: float) -> None:
        if msg["t"] == "action":
            applied[0] += 1
            marks["last"] = cpu()

    async def main() -> None:
        config = config_for_tests(
            seats=seats, code=CODE, seed=seed, short_game=True, phone_port=0
        )
        host = Host(config, hooks=HostHooks(received=received, handled=handled))
        await host.start()
        port_q.put((host.port, host.phones.port))
        await host.finished.wait()
        await asyncio.sleep(0.3)
        await host.close("game_over")
        actions = len(host.game.log)
        out_q.put(
            ("host", {
                "actions": actions,
                "cpu_ms_per_action": (marks["last"] - marks["first"]) * 1000
                / max(1, applied[0] - 1),
                "web_connections": host.stats["web_connections"],
            })
        )  # fmt: skip

    asyncio.run(main())


class Phone:
    """What the phone page does over its WebSocket, in Python: hello with ``legal``, every
    message checked, deltas applied and hashes verified (net.client.follow.ViewFollower)."""

    def __init__(self, port: int, name: str, on_update) -> None:
        from net.client.follow import ViewFollower

        self.port, self.name, self.on_update = port, name, on_update
        self.stats: Counter = Counter()
        self.follower = ViewFollower(self.stats, lambda: self.send({"t": "sync"}))
        self.seat: int | None = None
        self.ws = None
        self.closed = asyncio.Event()

    @property
    def view(self):
        return self.follower.view

    @property
    def version(self):
        return self.follower.version

    def send(self, msg: dict) -> None:
        from net import protocol as P

        asyncio.ensure_future(self.ws.send_bytes(P.encode(msg)))

    def send_action(self, action, version: int) -> None:
        self.send({"t": "action", "version": version, "action": action.to_data()})

    async def run(self) -> None:
        import aiohttp
        import msgpack

        from net import protocol as P

        url = f"http://127.0.0.1:{self.port}/ws"
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            self.ws = ws
            self.send({"t": "hello", "v": 2, "role": "player", "name": self.name,
                       "code": CODE, "legal": True})  # fmt: skip
            async for raw in ws:
                if raw.type is not aiohttp.WSMsgType.BINARY:
                    break
                msg = P.check_host_message(msgpack.unpackb(raw.data, raw=False))
                t = msg["t"]
                if t == "welcome":
                    self.seat = msg["seat"]
                elif t == "snapshot":
                    self.follower.snapshot(msg)
                elif t == "update" and self.follower.update(msg) is not None:
                    self.on_update(self, msg["version"])
        self.closed.set()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


def clients_main(ports: tuple[int, int], seats: int, phones: int, out_q, seed: int) -> None:
    import random

    from game.bots import make_bot
    from net.client.session import ClientSession, Update, legal_for_view

    port, phone_port = ports

    async def main() -> dict:
        recv: dict[int, dict[int, float]] = {}  # client index -> version -> time applied
        arrived = asyncio.Event()
        awaited = [-1]

        def note(i: int, version: int) -> None:
            recv.setdefault(i, {})[version] = time.monotonic()
            if version == awaited[0] and all(version in recv.get(j, {}) for j in range(seats)):
                arrived.set()

        clients = []
        for i in range(seats):
            if i < phones:
                clients.append(Phone(phone_port, f"Phone{i}", lambda c, v, i=i: note(i, v)))
            else:

                def on_message(msg, i=i) -> None:
                    if isinstance(msg, Update):
                        note(i, msg.version)

                clients.append(
                    ClientSession("127.0.0.1", port, name=f"Tcp{i}", code=CODE,
                                  on_message=on_message)
                )  # fmt: skip
        tasks = []
        for c in clients:  # one after the other: seat i is client i
            tasks.append(asyncio.ensure_future(c.run()))
            while c.seat is None:
                await asyncio.sleep(0.005)
        while any(c.view is None for c in clients):
            await asyncio.sleep(0.01)
        by_seat = {c.seat: c for c in clients}
        kinds = {c.seat: "phone" if isinstance(c, Phone) else "tcp" for c in clients}
        bots = {seat: make_bot("random", seat, seed) for seat in by_seat}
        rng = random.Random(seed)
        latencies: dict[str, list[float]] = {"phone": [], "tcp": []}
        while True:
            await asyncio.sleep(0.005)
            version = max(c.version for c in clients)
            while any(c.version != version for c in clients):
                await asyncio.sleep(0.001)
            v = clients[0].view
            if v["phase"] == "game_over":
                break
            if v["window"] is not None:
                seat = rng.choice(v["window"]["asked"])
            elif v["waiting_for"]:
                seat = v["waiting_for"][0]
            else:
                seat = rng.choice([s for s in by_seat if legal_for_view(by_seat[s].view).moves()])
            me = by_seat[seat]
            action = bots[seat].choose(me.view, legal_for_view(me.view).moves(), True)
            if action is None:
                continue
            t0 = time.monotonic()
            me.send_action(action, version)
            awaited[0] = version + 1
            arrived.clear()
            if any(version + 1 not in recv.get(j, {}) for j in range(seats)):
                await arrived.wait()
            for kind in ("phone", "tcp"):
                times = [recv[j][version + 1] for j in range(seats) if kinds[j] == kind]
                if times:
                    latencies[kind].append((max(times) - t0) * 1000)
        for c in clients:
            await c.close()
        for t in tasks:
            t.cancel()
        return {"latencies": latencies, "desyncs": sum(
            c.stats.get("desync_hash", 0) + c.stats.get("desync_version", 0) for c in clients
        )}  # fmt: skip

    out_q.put(("clients", asyncio.run(main())))


def run_table(name: str, seed: int) -> dict:
    seats, phones = TABLES[name]
    ctx = mp.get_context("fork")
    port_q, out_q = ctx.Queue(), ctx.Queue()
    host = ctx.Process(target=host_main, args=(port_q, out_q, seats, seed), daemon=True)
    host.start()
    ports = port_q.get(timeout=30)
    clients = ctx.Process(target=clients_main, args=(ports, seats, phones, out_q, seed))
    clients.start()
    results = dict(out_q.get(timeout=900) for _ in range(2))
    for p in (host, clients):
        p.join(10)
    return {"table": name, "seats": seats, "phones": phones, **results["host"],
            **results["clients"]}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per table")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    summary = {}
    for name in TABLES:
        runs = [run_table(name, args.seed + g) for g in range(args.games)]
        lat = {k: [x for r in runs for x in r["latencies"][k]] for k in ("phone", "tcp")}
        actions = sum(r["actions"] for r in runs)
        cpu = sum(r["cpu_ms_per_action"] * r["actions"] for r in runs) / actions
        row = {
            "actions": actions,
            "host_cpu_ms_per_action": round(cpu, 3),
            "desyncs": sum(r["desyncs"] for r in runs),
            "web_connections": sum(r["web_connections"] for r in runs),
        }
        for kind, values in lat.items():
            if values:
                row[f"{kind}_p50_ms"] = round(_pct(values, 50), 2)
                row[f"{kind}_p99_ms"] = round(_pct(values, 99), 2)
                row[f"{kind}_max_ms"] = round(max(values), 2)
        summary[name] = row
        if not args.json:
            seats, phones = TABLES[name]
            parts = [f"{name:6} ({seats} seats, {phones} phones): {actions} actions"]
            for kind in ("phone", "tcp"):
                if f"{kind}_p50_ms" in row:
                    parts.append(f"{kind} updated p50/p99 {row[f'{kind}_p50_ms']:.2f}/"
                                 f"{row[f'{kind}_p99_ms']:.2f} ms")  # fmt: skip
            parts.append(f"host CPU {row['host_cpu_ms_per_action']:.3f} ms/action")
            print("  ".join(parts), flush=True)
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
