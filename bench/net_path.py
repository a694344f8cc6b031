"""The LAN per-action path without sockets, a loop or a clock: what the host and the clients
compute for each action, in CPU time and (under callgrind) in instructions.

    .venv/bin/python -m bench.net_path [--seats 4] [--seed 100] [--record FILE]
    .venv/bin/python -m bench.net_path --replay FILE [--limit N] [--no-clients]

A real ``Host`` (its checks, ``Master.submit``, the fan-out, ``Connections.send``) gets each
action's frame as ``ConnectionProtocol.data_received`` would (``FrameDecoder.feed``, then
``_on_frame``), with connections whose writers keep the frames; four ``ClientSession``
objects read them as they would from their sockets (``FrameDecoder.feed``, then
``_on_raw``: the delta applied and the hash checked). What it leaves out is the operating system and the event loop: the
reads, the writes, ``epoll`` and the task switches (``bench/net.py`` has them all).

Printed: the host's and the clients' thread CPU per action (medians and means). The actions
are chosen by each seat's random bot from its own view (not timed) or, with ``--replay``,
read from a file ``--record`` wrote, so that a callgrind run counts only the path:
``valgrind --tool=callgrind`` on ``--replay FILE`` minus the same with ``--limit 0`` (the
start, the joins and the snapshots), divided by the actions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CODE = "BNCH"


class _Transport:
    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def can_write_eof(self) -> bool:
        return False


class _Writer:
    """Keeps what the host writes to one connection."""

    def __init__(self, n: int) -> None:
        self.transport = _Transport()
        self.frames: list[bytes] = []
        self._peer = ("127.0.0.1", 40000 + n)

    def get_extra_info(self, name: str):
        return self._peer if name == "peername" else None

    def write(self, frame: bytes) -> None:
        self.frames.append(frame)

    def close(self) -> None:
        pass


class Table:
    """A host and its seated clients, driven one action at a time."""

    def __init__(self, seats: int, seed: int, clients: bool = True) -> None:
        from game.table.clock import ManualClock
        from net import protocol as P
        from net.client.session import ClientSession
        from net.host.connections import Connection
        from net.host.server import Host
        from tests.net_helpers import config_for_tests

        self.P = P
        self.clients = clients
        config = config_for_tests(seats=seats, code=CODE, seed=seed)
        self.host = Host(config, clock=ManualClock())
        self.host.live.clock = self.host.clock
        self.conns, self.sessions, self.decoders, self.host_decoders = [], [], [], []
        for i in range(seats):
            writer = _Writer(i)
            conn = Connection(writer, 0.0, 1e9, 1e9)
            self.host.connections.conns.add(conn)
            self.conns.append(conn)
            self.sessions.append(ClientSession("127.0.0.1", 0, name=f"S{i}", code=CODE))
            self.decoders.append(P.FrameDecoder())
            self.host_decoders.append(P.FrameDecoder())
        for i, conn in enumerate(self.conns):
            hello = {"t": "hello", "v": 2, "role": "player", "name": f"S{i}", "code": CODE}
            self._to_host(conn, P.encode(hello))
        self.deliver(force=True)
        self.by_seat = {s.seat: (s, c) for s, c in zip(self.sessions, self.conns, strict=True)}

    def _to_host(self, conn, frame: bytes) -> None:
        decoder = self.host_decoders[self.conns.index(conn)]
        for raw in decoder.feed(frame):
            self.host._on_frame(conn, raw)

    def act(self, seat: int, action_data: dict, version: int) -> None:
        """The host's part: the client's frame decoded and handled, every frame written."""
        session, conn = self.by_seat[seat]
        msg = self.P.action_message(action_data, version, version + 1)
        self._to_host(conn, self.P.encode(msg))

    def deliver(self, force: bool = False) -> None:
        """The clients' part: every frame written to them read as from their sockets."""
        for conn, session, decoder in zip(self.conns, self.sessions, self.decoders, strict=True):
            frames, conn.writer.frames = conn.writer.frames, []
            if self.clients or force:
                for frame in frames:
                    for raw in decoder.feed(frame):
                        session._on_raw(raw)

    @property
    def over(self) -> bool:
        return self.host.over


def choose(table: Table, bots: dict, rng):
    """The seat that acts and its bot's action, from the clients' own views (as bench/net.py)."""
    from net.client.session import legal_for_view

    v = table.sessions[0].view
    if v["window"] is not None:
        seat = rng.choice(v["window"]["asked"])
    elif v["waiting_for"]:
        seat = v["waiting_for"][0]
    else:
        seat = rng.choice(
            [s for s in table.by_seat if legal_for_view(table.by_seat[s][0].view).moves()]
        )
    view = table.by_seat[seat][0].view
    return seat, bots[seat].choose(view, legal_for_view(view).moves(), True)


def main() -> int:
    import asyncio
    import random

    from game.bots import make_bot

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--record", type=Path, help="write the actions played here")
    parser.add_argument("--replay", type=Path, help="play the actions of this file")
    parser.add_argument("--limit", type=int, default=None, help="at most this many actions")
    parser.add_argument("--no-clients", action="store_true", help="the host's part only")
    parser.add_argument("--breakdown", action="store_true", help="the host's steps timed")
    args = parser.parse_args()
    steps = None
    if args.breakdown:
        from bench.net_cost import StepClock, instrument_host, print_breakdown

        steps = StepClock()
        instrument_host(steps)

    async def run() -> dict:
        recorded = json.loads(args.replay.read_text()) if args.replay else None
        seats = recorded["seats"] if recorded else args.seats
        seed = recorded["seed"] if recorded else args.seed
        table = Table(seats, seed, clients=not args.no_clients)
        bots = {s: make_bot("random", s, seed) for s in table.by_seat}
        rng = random.Random(seed)
        played: list = []
        host_cpu, client_cpu = [], []
        n = 0
        while not table.over and (args.limit is None or n < args.limit):
            version = table.host.state.actions_taken  # what every client holds
            if recorded is not None:
                if n >= len(recorded["actions"]):
                    break
                seat, data = recorded["actions"][n]
            else:
                for _ in range(100):  # a bot with nothing to do: another seat (as bench/net.py)
                    seat, action = choose(table, bots, rng)
                    if action is not None:
                        break
                else:
                    break
                data = action.to_data()
            played.append((seat, data))
            c0 = time.thread_time_ns()
            table.act(seat, data, version)
            c1 = time.thread_time_ns()
            table.deliver()
            c2 = time.thread_time_ns()
            host_cpu.append((c1 - c0) / 1000)
            client_cpu.append((c2 - c1) / 1000)
            n += 1
        if args.record:
            args.record.write_text(json.dumps({"seats": seats, "seed": seed, "actions": played}))
        return {"actions": n, "host": host_cpu, "clients": client_cpu}

    out = asyncio.run(run())
    n = out["actions"]
    if n:
        h, c = out["host"], out["clients"]
        print(
            f"{n} actions; host per action: median {statistics.median(h):.1f} us, mean "
            f"{statistics.mean(h):.1f} us; the clients together: median "
            f"{statistics.median(c):.1f} us, mean {statistics.mean(c):.1f} us (thread CPU)"
        )
    else:
        print("0 actions")
    if steps is not None:
        print_breakdown(f"host: per action, {len(steps.actions)} actions", steps.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
