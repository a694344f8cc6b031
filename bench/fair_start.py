"""How long a person has before the first bot acts, in wall-clock time (issue 13).

    .venv/bin/python bench/fair_start.py [--seconds 40] [--json]

Real-time windows, one person and three random bots, each table for ``--seconds`` of real time:

- **host**: a LAN host on loopback (its real asyncio clock, default bot timing, 3 s windows).
  The person is a protocol connection; the times are when *its socket* received the frame
  that opened a window or a deal and the frame with the first bot action in it (a bot's pass
  or Stop in a window; an offer, card, proposal or call in a deal). The person only makes
  the moves the game waits for (passive ones) and lets every window run out.
  Two host settings: the defaults (bots answer windows 1.5 s after they open) and "eager"
  bots (answer at 0 s, offered the moment every 50 ms): the fair start alone holds them back.
- **hot-seat**: a LocalSession stepped at 60 frames a second on the wall clock, bots at the
  "fast" speed setting; times are when the table polled the events.

Printed: per table, the windows and deals seen and the min / median seconds to the first bot
action. The floor is ``game.bots.pacing.FAIR_START``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.bots.pacing import FAIR_START  # noqa: E402
from game.rules import Settings, WindowMode, default_action, waiting_for  # noqa: E402


def fair_start_gaps(frames, seat: int) -> dict[str, list[float]]:
    """From (time, conn, msg) frames to `seat`'s connection: seconds from each window's or
    deal's opening to the first bot action in it (a pass or a Stop; an offer or a card)."""
    opened: dict[str, float | None] = {"window": None, "deal": None}
    gaps: dict[str, list[float]] = {"window": [], "deal": []}
    kinds = {"passed": "window", "stopped": "window", "offer_made": "deal", "card_played": "deal"}
    kinds |= {"proposed": "deal", "going_once_called": "deal", "withdrawn": "deal"}
    for now, _, msg in frames:
        for e in msg["events"]:
            if e["type"] == "window_opened":
                opened["window"] = now
            elif e["type"] == "deal_opened":
                opened["deal"] = now
            kind = kinds.get(e["type"])
            actor = e.get("seat", e.get("boss"))
            if kind is None or actor == seat or opened[kind] is None:
                continue
            if e["type"] == "passed" and e.get("auto"):
                continue  # the host's pass when time ran out
            gaps[kind].append(now - opened[kind])
            opened[kind] = None
    return gaps


def summary(gaps: dict[str, list[float]]) -> dict:
    out = {}
    for kind, values in gaps.items():
        out[kind] = {
            "n": len(values),
            "min_s": round(min(values), 3) if values else None,
            "median_s": round(statistics.median(values), 3) if values else None,
        }
    return out


async def host_table(seconds: float, eager: bool) -> dict:
    from game.table.bot_schedule import Timing
    from net import protocol as P
    from net.host.config import HostConfig
    from net.host.connections import Limits
    from net.host.server import Host

    timing = Timing(window=3, going_once=2, negotiation=30, bot_patience=5)
    if eager:
        timing.bot_answer, timing.bot_delay, timing.bot_tick = 0.0, 0.0, 0.05
    cfg = HostConfig(
        seats=4, code="FAIR", bind="127.0.0.1", announce=False, seed=7, timing=timing,
        limits=Limits(rate=1000, burst=1000),
    )  # fmt: skip
    host = Host(cfg)
    await host.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    writer.write(P.encode({"t": "hello", "v": 2, "role": "player", "name": "Ann", "code": "FAIR"}))
    writer.write(P.encode({"t": "start"}))
    decoder = P.FrameDecoder()
    frames: list = []
    end = time.monotonic() + seconds

    async def person() -> None:  # the moves the game waits for, at once; windows run out
        while time.monotonic() < end and not host.over:
            st = host.state if host.started else None
            if st is not None and st.window is None and 0 in waiting_for(st):
                host.live.master.submit(default_action(st, 0))
            await asyncio.sleep(0.05)

    task = asyncio.ensure_future(person())
    while time.monotonic() < end and not host.over:
        try:
            data = await asyncio.wait_for(reader.read(1 << 16), 0.5)
        except TimeoutError:
            continue
        now = time.monotonic()
        for msg in decoder.feed(data):
            if msg.get("t") == "update":
                frames.append((now, None, msg))
    task.cancel()
    writer.close()
    await host.close()
    return summary(fair_start_gaps(frames, 0))


def hot_seat_table(seconds: float) -> dict:
    from game.table.bot_schedule import Timing
    from game.ui.sessions.session import LocalSession, SeatSpec

    settings = Settings(players=4, window_mode=WindowMode.REAL_TIME)
    timing = Timing(window=3, going_once=2, negotiation=30, bot_pace=1.6)
    specs = [SeatSpec("Ann")] + [SeatSpec(n, "random") for n in ("Ada", "Bo", "Cy")]
    s = LocalSession(specs, seed=7, settings=settings, timing=timing)
    frames = []
    start = last = time.monotonic()
    while time.monotonic() - start < seconds and not s.over:
        time.sleep(1 / 60)
        now = time.monotonic()
        st = s.state
        if st.window is None and 0 in s.waiting_for():
            s.send(default_action(st, 0))
        s.update(now - last)
        last = now
        for batch in s.poll():
            frames.append((now, None, {"events": batch.events}))
    s.close()
    return summary(fair_start_gaps(frames, 0))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=40.0, help="real time per table")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = {
        "fair_start_s": FAIR_START,
        "host_default": asyncio.run(host_table(args.seconds, eager=False)),
        "host_eager_bots": asyncio.run(host_table(args.seconds, eager=True)),
        "hot_seat_fast": hot_seat_table(args.seconds),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"fair start {FAIR_START} s; seconds from the opening to the first bot action:")
    for table, res in out.items():
        if table == "fair_start_s":
            continue
        for kind, r in res.items():
            print(
                f"  {table:16} {kind:7} n={r['n']:3}  min {r['min_s']} s  median {r['median_s']} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
