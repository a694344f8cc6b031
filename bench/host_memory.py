"""The host's memory under hostile load: what a crowd of connections can make it hold, and
whether it gives it back.

    .venv/bin/python -m bench.host_memory [--flood 30] [--batches 240000] [--connections 32]

The host runs in its own process (``bench.fuzz_host --serve``: the real ``net.host.server.Host``
with the default limits). Two phases, each followed by a few idle seconds:

* flood: every connection slot sends full-size frames (64,000 bytes each, shapes the host
  refuses with ``bad_message``) as fast as TCP takes them, then resets; again and again;
* batches: ``--connections`` connections (30% of them spectators) send batches of hostile
  frames from ``bench.fuzz_host.make_case`` (a frame and a ping), reading the answers, and
  reconnect when the host closes them.

Prints one JSON line: the host's VmRSS (MiB) at the start, the peak sampled every 0.25 s,
at the end of each phase and after its idle time, and the host's counters.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fuzz_host import Ctx, _mem, make_case  # noqa: E402
from net import protocol as P  # noqa: E402

FULL_FRAME = P.encode({"t": "ping", "x": "a" * 64_000})  # refused: an extra field


class HostProcess:
    def __init__(self, save: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        cmd = [sys.executable, "-m", "bench.fuzz_host", "--serve", "--save", str(save)]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.port = int(self.proc.stdout.readline().split()[1])
        self.peak = 0

    def rss(self) -> int:
        rss = _mem(self.proc.pid).get("VmRSS", 0)
        self.peak = max(self.peak, rss)
        return rss

    async def sample(self) -> None:
        while True:
            self.rss()
            await asyncio.sleep(0.25)

    def stop(self) -> dict:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=60)
        for line in out.splitlines():
            if line.startswith("STATS "):
                return json.loads(line[6:])
        return {}


async def flood(port: int, seconds: float, connections: int) -> int:
    """Full frames from every connection until ``seconds`` have passed; returns frames."""
    sent = 0
    t_end = time.monotonic() + seconds

    async def one() -> None:
        nonlocal sent
        while time.monotonic() < t_end:
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            with contextlib.suppress(Exception):
                for _ in range(200):
                    if time.monotonic() >= t_end:
                        break
                    writer.write(FULL_FRAME)
                    sent += 1
                    await asyncio.wait_for(writer.drain(), 2)
            writer.transport.abort()

    await asyncio.gather(*(one() for _ in range(connections)))
    return sent


async def batches(port: int, total: int, connections: int, seed: int) -> int:
    """``total`` batches of a hostile frame and a ping, answers read; returns batches."""
    done = 0

    async def one(rng: random.Random) -> None:
        nonlocal done
        while done < total:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            ctx = Ctx()
            if rng.random() < 0.3:
                writer.write(P.encode({"t": "hello", "v": 2, "role": "spectator"}))
            for _ in range(rng.randrange(1, 40)):
                case = make_case(rng, ctx)
                writer.write(case.data + P.encode({"t": "ping", "n": 1}))
                done += 1
                try:
                    if not await asyncio.wait_for(reader.read(65536), 1.0):
                        break
                except (TimeoutError, OSError):
                    break
            if rng.random() < 0.5:
                writer.transport.abort()
            else:
                writer.close()

    rng = random.Random(seed)
    await asyncio.gather(*(one(random.Random(rng.random())) for _ in range(connections)))
    return done


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--flood", type=float, default=30.0, help="seconds of full frames (0: skip)")
    p.add_argument("--batches", type=int, default=240_000, help="hostile batches (0: skip)")
    p.add_argument("--connections", type=int, default=32)
    p.add_argument("--idle", type=float, default=8.0, help="seconds idle after each phase")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    host = HostProcess(Path(tempfile.mkdtemp(prefix="host_memory_")) / "save.json")
    out: dict = {"rss_mib": {"start": host.rss()}}
    try:

        async def run() -> None:
            sampler = asyncio.ensure_future(host.sample())
            try:
                t0 = time.perf_counter()
                if args.flood > 0:
                    out["flood_frames"] = await flood(host.port, args.flood, args.connections)
                    out["rss_mib"]["flood_end"] = host.rss()
                    await asyncio.sleep(args.idle)
                    out["rss_mib"]["flood_idle"] = host.rss()
                if args.batches > 0:
                    out["batches"] = await batches(
                        host.port, args.batches, args.connections, args.seed
                    )
                    out["rss_mib"]["batches_end"] = host.rss()
                    await asyncio.sleep(args.idle)
                    out["rss_mib"]["batches_idle"] = host.rss()
                out["seconds"] = round(time.perf_counter() - t0, 1)
            finally:
                sampler.cancel()

        asyncio.run(run())
        out["rss_mib"]["peak_sampled"] = host.peak
    finally:
        stats = host.stop()
    keys = ("connections", "bytes_in", "frames_in", "evicted", "memory_trims", "rate_limited")
    out["host"] = {k: stats.get(k, 0) for k in keys}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
