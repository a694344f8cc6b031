"""How far the table's screen lags the game's state, and how long a slot of the hand stays
empty, in a hot-seat game against bots and in the replay viewer.

    .venv/bin/python -m bench.lag [--mode play,replay] [--seconds 120] [--seed 7]
        [--fixed-dt 0.0167] [--think 0.8] [--pointer hand] [--speed normal] [--json]

The table scene's own instrument (game/ui/table/lag.py, `TableScene.lag`) records per state
version when it reached the table and when its animations had played: *shown* (the last
card, coin, tile or banner of it in place: the lag) and *settled* (its fades and banners'
time on screen over too). Printed: p50 / p95 / max of both, and of the times a hand slot
stayed empty (a card gone, the others not yet closed up; or a card still flying in), with
the longest one still open at the end.

play: `main.py play`'s default table (you and three bots, ask-around, the settings'
defaults), the human seat played through the table's own controls by
`tools.autoplay.ScriptedHuman`, one gesture `--think` seconds after the table waits for
it with nothing animating (a quick player); between two gestures the pointer rests over
the hand (`--pointer hand`, as a person's hand rests on the mouse) or where it last clicked
(`--pointer clicked`).
replay: a whole bot game (seed `--seed`) in the replay viewer, Play pressed, Mei's hand.

The clock is real (the app's own loop, `App.frame()`: it sleeps while nothing changes)
unless `--fixed-dt` steps it by that many seconds a frame as fast as it can (the same
game, the numbers in the game's own time). Under the SDL dummy driver unless `--window`:
then in a real window on $DISPLAY (e.g. Xvfb :101 with openbox), `--size` big.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _quantiles(xs: list[float]) -> dict:
    if not xs:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return {
        "n": len(xs),
        "p50": round(statistics.median(xs), 3),
        "p95": round(p95, 3),
        "max": round(xs[-1], 3),
    }


class Driver:
    """Steps the app: real time (`App.frame()`) or a fixed dt a frame."""

    def __init__(self, app, fixed_dt: float | None) -> None:
        self.app = app
        self.fixed_dt = fixed_dt
        self.elapsed = 0.0
        self.started = time.perf_counter()

    def frame(self) -> None:
        if self.fixed_dt:
            self.app.step(self.fixed_dt, draw=False)
            self.elapsed += self.fixed_dt
        else:
            self.app.frame()
            self.elapsed = time.perf_counter() - self.started


def play_table(app, seed: int):
    from game.ui.scenes.newgame import build_session
    from game.ui.table.scene import TableScene

    app.config.seat_kinds = ["human", "bot", "bot", "bot"]
    app.config.seats = 4
    table = TableScene(app, build_session(app.config, seed))
    table.auto_results = False
    app.push(table)
    return table


def replay_table(app, seed: int):
    from game.ui.sessions.replay_session import ReplaySession
    from game.ui.table.replay import ReplayScene
    from tools.screenshot import finished_bot_game

    scene = ReplayScene(app, ReplaySession(finished_bot_game(seed, 4, "heuristic")))
    app.push(scene)
    scene.toggle()  # Play
    return scene


def run(mode: str, opts: argparse.Namespace) -> dict:
    """One run (`opts`: the command line's options) and its figures."""
    seconds, seed, fixed_dt, think = opts.seconds, opts.seed, opts.fixed_dt, opts.think
    import pygame

    from game.ui.table import layout as L
    from tools.autoplay import ScriptedHuman

    os.environ["IMTHEBOSS_CONFIG_DIR"] = tempfile.mkdtemp(prefix="lag-bench-")
    from game.ui.config import Config
    from game.ui.screen.app import App

    app = App(Config(fullscreen=False, speed=opts.speed), window_size=opts.size, sound=False,
              persist=False)  # fmt: skip
    table = play_table(app, seed) if mode == "play" else replay_table(app, seed)
    human = ScriptedHuman(seed)
    drive = Driver(app, fixed_dt)
    waiting_since = None
    gestures = 0
    try:
        while drive.elapsed < seconds and app.stack.top is table:
            s = table.session
            if mode == "replay" and s.at_end and not table.director.busy():
                break
            if mode == "play":
                if s.over and not table.director.busy():
                    break
                mine = s.decision_seat() == s.viewer and not table.director.busy()
                if not mine:
                    waiting_since = None
                elif waiting_since is None:
                    waiting_since = drive.elapsed
                elif drive.elapsed - waiting_since >= think and human.act(table) is not None:
                    gestures += 1
                    waiting_since = drive.elapsed
                    if opts.pointer == "hand":
                        rest = L.HAND.center
                        pygame.event.post(pygame.event.Event(
                            pygame.MOUSEMOTION, pos=rest, rel=(0, 0), buttons=(0, 0, 0)))  # fmt: skip
            drive.frame()
        meter = table.lag
        lags = [r.lag for r in meter.records if r.lag is not None]
        settles = [r.settle_lag for r in meter.records if r.settle_lag is not None]
        return {
            "mode": mode,
            "clock": f"fixed dt {fixed_dt}" if fixed_dt else "real",
            "seconds": round(drive.elapsed, 1),
            "versions": len(meter.records),
            "actions": getattr(table.session, "actions_applied", None)
            or getattr(table.session, "index", None),
            "gestures": gestures,
            "lag": _quantiles(lags),
            "settled": _quantiles(settles),
            "hand_slot_empty": _quantiles(meter.gaps),
            "slot_empty_now": meter.open_gap(table.t),
        }
    finally:
        app.shutdown()


def options(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="play,replay")
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--fixed-dt", type=float, default=None)
    ap.add_argument("--think", type=float, default=0.8)
    ap.add_argument("--pointer", default="hand", choices=("hand", "clicked"))
    ap.add_argument("--speed", default="normal", choices=("relaxed", "normal", "fast"))
    ap.add_argument("--window", action="store_true", help="a real window on $DISPLAY")
    ap.add_argument("--size", default="1366x768")
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args(argv)
    opts.size = tuple(int(x) for x in opts.size.split("x"))
    return opts


def main(argv: list[str] | None = None) -> int:
    opts = options(argv)
    if not opts.window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    results = [run(m, opts) for m in opts.mode.split(",")]
    if opts.json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        print(f"{r['mode']:<7} {r['clock']}, {r['seconds']} s, {r['versions']} versions, "
              f"{r['actions']} actions, {r['gestures']} gestures")  # fmt: skip
        for name in ("lag", "settled", "hand_slot_empty"):
            q = r[name]
            print(f"  {name:<16} n={q['n']:<5} p50={q['p50']}  p95={q['p95']}  max={q['max']} s")
        print(f"  slot empty at the end: {r['slot_empty_now']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
