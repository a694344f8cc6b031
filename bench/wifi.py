"""Whole LAN games on a bad network: per wifi profile, what a table lives through.

    .venv/bin/python -m bench.wifi [--profiles good,busy,bad] [--games 2] [--seats 4]
                                   [--mode real_time|ask_around] [--before] [--json]

One host on loopback and one headless bot client per seat, each through its own link of
the bad-network proxy (``tests/badnet.py``: delay, jitter, bandwidth, stalls; on ``bad``
also outages with the line open, cuts and half-open lines). The clients play like people
who answer late: every window ``--answer`` of its length after it opened *on their own
screen* (receipt + the ``ms`` left), which is what a person pressing Stop near the end
does. The host runs its real presence timings (a ping after 4 s of quiet, away after 12 s,
the 30 s grace); the game's clocks are short so that a game takes minutes.

Printed per profile (means per game, and the worst): the game's length (s, actions), the
longest the table waited (the longest gap between two applied actions), stale errors,
window answers that reached the host after the end the screens showed (kept by the late
margin / lost; stale errors on window answers apart), the seats that showed away, the bot stand-ins, and rejoins. ``--before``
plays the same games with the fixes off (no late margin, no window-version rule, no
away detection: what the table did before issue 36) for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.table.bot_schedule import Timing  # noqa: E402
from game.table.clock import LoopClock  # noqa: E402
from net.client.bot import BotPlayer  # noqa: E402
from net.host import action_check  # noqa: E402
from net.host.config import LATE_MARGIN  # noqa: E402
from net.host.connections import Limits  # noqa: E402
from net.host.hooks import HostHooks  # noqa: E402
from net.host.server import Host  # noqa: E402
from tests.badnet import PROFILES, BadNet  # noqa: E402
from tests.net_helpers import config_for_tests  # noqa: E402

CODE = "WIFI"
LOOPBACK = "127.0.0.1"
WINDOW = 1.0  # seconds per window (the game's clocks are short: a game takes minutes)


class TableWatch:
    """What the host lived through, seen from its hooks and its state."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.counts: Counter = Counter()
        self.longest_wait = 0.0
        self._last_change = time.monotonic()
        self._version = 0
        self._opened = 0  # the version the last window (or asking) opened at
        self._timeouts = 0
        self._expired: list[tuple[int, int, float]] = []  # (opened, closed, when): by the clock
        self._types: dict[tuple[int, int], str] = {}  # (connection, action id) -> its type
        host.hooks.received = self._received
        host.hooks.tap = self._tap
        host.hooks.update = self._update

    def _update(self, events: list) -> None:
        """An applied action: note each window's opening version and, when the clock
        closed it (the host passed for the silent), that it did and when."""
        version = self.host.state.actions_taken
        names = {type(e).__name__ for e in events}
        if "WindowOpened" in names or "Asked" in names:
            self._opened = version
        timeouts = self.host.stats["window_timeouts"]
        if "WindowClosed" in names and timeouts != self._timeouts:
            self._expired.append((self._opened, version, self.host.clock.now()))
            del self._expired[:-8]
        self._timeouts = timeouts

    def _received(self, conn, msg: dict) -> None:
        """A window answer that comes after the end its screen showed: within the margin
        (the window still open), or after the clock closed the window it answers."""
        if msg["t"] != "action" or not self.host.started:
            return
        self._types[(conn.id, msg.get("id"))] = msg["action"].get("type")
        if msg["action"].get("type") not in ("pass", "play_stop"):
            return
        now, made_on = self.host.clock.now(), msg["version"]
        w = self.host.live.master.countdowns.window
        if w is not None and now > w.deadline:
            self.counts["late_kept"] += 1  # in the margin: it counts
        elif any(opened <= made_on < closed for opened, closed, _ in self._expired):
            self.counts["late_lost"] += 1  # made on a window the clock had closed

    def _tap(self, conn, msg: dict, frame: bytes) -> None:
        if msg["t"] == "error" and msg["code"] == "stale":
            kind = self._types.get((conn.id, msg.get("id")))
            self.counts["stale_answers" if kind in ("pass", "play_stop") else "stale_moves"] += 1
        if msg["t"] == "seats":
            for s in msg["seats"]:
                key = (s["seat"], s["status"])
                if key != self.counts.get(("seat", s["seat"])):
                    if s["status"] == "away":
                        self.counts["away"] += 1
                    elif s["status"] == "bot" and self.host.seats[s["seat"]].token_digest:
                        self.counts["stand_ins"] += 1
                    self.counts[("seat", s["seat"])] = key

    async def watch(self) -> None:
        while not self.host.finished.is_set():
            await asyncio.sleep(0.02)
            if not self.host.started:
                continue
            now = time.monotonic()
            version = self.host.state.actions_taken
            if version != self._version:
                self._version = version
                self._last_change = now
            self.longest_wait = max(self.longest_wait, now - self._last_change)


async def one_game(profile: str, seed: int, seats: int, mode: str, answer: float,
                   before: bool) -> dict:  # fmt: skip
    timing = Timing(
        window=WINDOW, going_once=WINDOW / 2, negotiation=15.0, grace=30.0,
        bot_answer=0.5, bot_delay=0.2, bot_tick=0.3, fair_start=0.0,
    )  # fmt: skip
    limits = Limits(rate=1000.0, burst=1000.0)
    if before:
        limits.away_after = limits.probe_interval = float("inf")
    cfg = config_for_tests(
        seats=seats, code=CODE, seed=seed, timing=timing, limits=limits, window_mode=mode,
        late_margin=0.0 if before else LATE_MARGIN,
    )  # fmt: skip
    host = Host(cfg, clock=LoopClock(asyncio.get_running_loop()), hooks=HostHooks())
    await host.start()
    table = TableWatch(host)
    proxy = BadNet(host.port, PROFILES[profile], seed=seed)
    port = await proxy.start()
    players = [
        BotPlayer(
            LOOPBACK, port, kind="random", name=f"P{i}", code=CODE, seed=seed * 10 + i,
            answer_delay=answer * WINDOW, think=0.4, idle=0.6, fair_start=0.0,
        )  # fmt: skip
        for i in range(seats)
    ]
    tasks = [asyncio.ensure_future(p.run()) for p in players]
    watcher = asyncio.ensure_future(table.watch())
    began = time.monotonic()
    finished = True
    try:
        await asyncio.wait_for(host.finished.wait(), 1800)
    except TimeoutError:
        finished = False
    length = time.monotonic() - began
    stats = host.stats
    out = {
        "profile": profile,
        "finished": finished,
        "seconds": round(length, 1),
        "actions": host.state.actions_taken if host.started else 0,
        "longest_wait_s": round(table.longest_wait, 2),
        "stale": stats["stale"],
        "stale_answers": table.counts["stale_answers"],  # passes and Stops bounced
        "stale_moves": table.counts["stale_moves"],  # other moves made on an old state
        "late_kept": table.counts["late_kept"],
        "late_lost": table.counts["late_lost"],
        "away": table.counts["away"],
        "stand_ins": table.counts["stand_ins"],
        "rejoins": stats["rejoins"],
        "faults": dict(proxy.stats),
    }
    watcher.cancel()
    for p in players:
        await p.session.close()
    for t in tasks:
        t.cancel()
    await proxy.close()
    await host.close()
    return out


def turn_off_the_fixes() -> None:
    """``--before``: an answer made on the window's version is stale again."""
    action_check._answers_window = lambda *args: False


def summary(games: list[dict]) -> dict:
    n = len(games)
    mean = lambda key: round(sum(g[key] for g in games) / n, 1)  # noqa: E731
    return {
        "profile": games[0]["profile"],
        "games": n,
        "finished": sum(g["finished"] for g in games),
        "length_s": mean("seconds"),
        "actions": mean("actions"),
        "longest_wait_s": max(g["longest_wait_s"] for g in games),
        "stale_per_game": mean("stale"),
        "stale_answers_per_game": mean("stale_answers"),
        "late_kept_per_game": mean("late_kept"),
        "late_lost_per_game": mean("late_lost"),
        "away": sum(g["away"] for g in games),
        "stand_ins": sum(g["stand_ins"] for g in games),
        "rejoins": sum(g["rejoins"] for g in games),
    }


async def main_async(args) -> list[dict]:
    """Every game of every profile at once (they wait on clocks, not on the CPU)."""
    profiles = args.profiles.split(",")

    async def game(profile: str, i: int) -> dict:
        g = await one_game(profile, args.seed + i, args.seats, args.mode, args.answer,
                           args.before)  # fmt: skip
        if args.verbose:
            print(json.dumps(g), file=sys.stderr)
        return g

    runs = [(p, i) for p in profiles for i in range(args.games)]
    games = await asyncio.gather(*(game(p, i) for p, i in runs))
    return [summary([g for g in games if g["profile"] == p]) for p in profiles]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profiles", default="good,busy,bad")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--mode", default="real_time", choices=["real_time", "ask_around"])
    ap.add_argument("--answer", type=float, default=0.9,
                    help="clients answer windows at this fraction of their length")  # fmt: skip
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", action="store_true", help="the fixes of issue 36 off")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="each game's figures on stderr")
    args = ap.parse_args()
    if args.before:
        turn_off_the_fixes()
    rows = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(rows))
        return
    cols = ["profile", "games", "finished", "length_s", "actions", "longest_wait_s",
            "stale_per_game", "stale_answers_per_game", "late_kept_per_game", "late_lost_per_game", "away",
            "stand_ins", "rejoins"]  # fmt: skip
    print("  ".join(cols))
    for r in rows:
        print("  ".join(str(r[c]).rjust(len(c)) for c in cols))


if __name__ == "__main__":
    main()
