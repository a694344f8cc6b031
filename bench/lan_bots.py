"""Headless bot clients at a real-time LAN table: do their deals ever wait out the clock?

    python -m bench.bots --lan [--games 3] [--bot heuristic] [--players 4] [--seed 1]

Issue 24: bots the bot scheduler drives (``game.table.simulate``) never let a negotiation sit until
the 180 s clock ends it; the same bots as LAN clients (``main.py join --bot KIND
--headless``) must not either. Each game: a loopback host in this process with the
table's own timing (real-time windows, the default clocks and bot pauses), and one
``main.py join`` process per seat, as a person would start them. The host's ``update``
hook stamps every applied action's events on this machine's monotonic clock; from them:
deals, how many ended by ``time_up`` (the negotiation clock), each deal's length, and the
game's length from its first action to its end, and the longest a deal stood still (no
action at all: a bot Boss settles after its patience, 20 s). Goals: 0 time-ups, a 4-bot game under
3 minutes.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = "LANB"
GAME_TIMEOUT = 900.0  # seconds: a game still running then is reported as not finished


@dataclass
class Deal:
    opened: float
    seconds: float | None = None  # None: the game ended first (it never does)
    still: float = 0.0  # the longest stretch without an action while it ran
    time_up: bool = False  # the negotiation clock ran out
    outcome: str = ""  # "closed" or "failed"


@dataclass
class LanGame:
    seed: int
    finished: bool = False
    seconds: float = 0.0  # first action to game over
    deals: list[Deal] = field(default_factory=list)
    clients: list[int] = field(default_factory=list)  # each bot client's exit code

    @property
    def time_ups(self) -> int:
        return sum(d.time_up for d in self.deals)

    def to_data(self) -> dict:
        lengths = [d.seconds for d in self.deals if d.seconds is not None]
        return {
            "seed": self.seed,
            "finished": self.finished,
            "seconds": round(self.seconds, 1),
            "deals": len(self.deals),
            "time_ups": self.time_ups,
            "deal_seconds_max": round(max(lengths, default=0.0), 1),
            "still_seconds_max": round(max((d.still for d in self.deals), default=0.0), 1),
            "clients_exit": self.clients,
        }


class DealLog:
    """The host's ``update`` hook: every applied action's events, stamped as they go out."""

    def __init__(self, game: LanGame) -> None:
        self.game = game
        self.first: float | None = None
        self.last = 0.0

    def __call__(self, events: list) -> None:
        now = time.monotonic()
        self.first = now if self.first is None else self.first
        deals = self.game.deals
        if deals and deals[-1].seconds is None:
            deals[-1].still = max(deals[-1].still, now - self.last)
        self.last = now
        for e in events:
            kind = e.type
            if kind == "deal_opened":
                deals.append(Deal(now))
            elif not deals or deals[-1].seconds is not None:
                continue
            elif kind == "negotiation_limit_reached" and e.reason == "time":
                deals[-1].time_up = True
            elif kind in ("deal_closed", "deal_failed"):
                deals[-1].seconds = now - deals[-1].opened
                deals[-1].outcome = kind.removeprefix("deal_")


async def lan_game(seed: int, bot: str, players: int) -> LanGame:
    """One game: a loopback host here, ``players`` bot-client processes."""
    from net.host.config import build_host_config
    from net.host.hooks import HostHooks
    from net.host.server import Host

    config = build_host_config(
        seats=players, bots=[bot], code=CODE, bind="127.0.0.1", seed=seed, autosave=None,
        announce=False, window_mode="real_time",
    )  # fmt: skip
    game = LanGame(seed)
    log = DealLog(game)
    host = Host(config, hooks=HostHooks(update=log))
    await host.start()
    address = f"127.0.0.1:{host.port}"
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "main.py"), "join", address, "--code", CODE,
            "--bot", bot, "--headless", "--name", f"Bot {i + 1}",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        for i in range(players)
    ]
    try:
        await asyncio.wait_for(host.finished.wait(), GAME_TIMEOUT)
        game.finished = True
    except TimeoutError:
        pass
    game.seconds = log.last - log.first if log.first is not None else 0.0
    await asyncio.sleep(0.05)  # let the last updates go out
    await host.close("game_over")
    for proc in procs:
        try:
            game.clients.append(await asyncio.wait_for(proc.wait(), 30.0))
        except TimeoutError:
            proc.kill()
            game.clients.append(await proc.wait())
    return game


def run_lan(games: int, bot: str = "heuristic", players: int = 4, seed: int = 1, out=None):
    """``games`` LAN games one after the other (with ``out``, a line for each as it ends)."""
    results = []
    for i in range(games):
        game = asyncio.run(lan_game(seed + i, bot, players))
        results.append(game)
        if out is not None:
            print_lan_game(game, out)
            out.flush()
    return summarize_lan(results)


def summarize_lan(results: list[LanGame]) -> dict:
    seconds = [g.seconds for g in results if g.finished]
    deals = sum(len(g.deals) for g in results)
    return {
        "games": [g.to_data() for g in results],
        "finished": sum(g.finished for g in results),
        "deals": deals,
        "time_ups": sum(g.time_ups for g in results),
        "games_with_a_time_up": sum(1 for g in results if g.time_ups),
        "still_seconds_max": max((g.to_data()["still_seconds_max"] for g in results), default=0.0),
        "game_seconds_median": round(statistics.median(seconds), 1) if seconds else None,
        "game_seconds_max": round(max(seconds), 1) if seconds else None,
    }


def print_lan_game(game: LanGame, out=sys.stdout) -> None:
    d = game.to_data()
    state = "" if game.finished else "  NOT FINISHED"
    print(
        f"seed {d['seed']}: {d['seconds']:6.1f} s, {d['deals']} deals, "
        f"{d['time_ups']} time-ups, longest deal {d['deal_seconds_max']} s, "
        f"longest still {d['still_seconds_max']} s{state}",
        file=out,
    )


def print_lan(summary: dict, out=sys.stdout) -> None:
    print(
        f"\n{len(summary['games'])} LAN games ({summary['finished']} finished): "
        f"{summary['time_ups']} time-ups in {summary['deals']} deals "
        f"({summary['games_with_a_time_up']} games with one); game length median "
        f"{summary['game_seconds_median']} s, max {summary['game_seconds_max']} s; a deal "
        f"stood still at most {summary['still_seconds_max']} s",
        file=out,
    )
