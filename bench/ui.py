"""Frame time of the busiest table at 1920x1080 (SDL dummy video driver), time to the first
frame of `main.py play`, and peak memory.

    .venv/bin/python bench/ui.py [--frames 600] [--json]

The busiest table: 6 players in a real-time negotiation (a travel marker, offers from
several players, an agreement, four laid Clan cards, a reaction window with its countdown),
15 cards in the viewer's hand, a full log, a tooltip, a selected card with its pop-up,
and coins, cards and banners flying all the time (a new burst of events every half second).

Frame time = one `App.step(1/60)`: input, update, the whole redraw and the present: the
1920x1080 canvas shown in the window (game/ui/screen/window.py: a blit at 1920x1080, a smoothscale
with letterbox bars at any other `--size`) and the flip. The redraw alone is printed too.
Bars: p95 <= 8 ms, goal 4 ms; first frame <= 0.8 s.

    .venv/bin/python bench/ui.py --size 1280x720   # the cost of scaling down (or 2560x1440: up)

Real-window mode: the dummy driver's present costs nothing, so idle is measured in a real
window too: its own Xvfb per screen size (--screens, 1920x1080 and 1366x768 unless told;
the first free display in :140-:149 unless --display names one) with openbox, the game
fullscreen in it, the app's own loop (`App.frame()`: update at 60 FPS, or about 20 times a
second with a sleep on the X connection between while only pulses change, then `refresh()`
draws and presents only what changed). Per state, the game process's CPU over --seconds (the share
of one core, from /proc), the X server's, the frames drawn, the idle frames (slept first)
and the frame times, update + redraw + present; "late": a frame starting more than 1.5
frame times after a busy (not idle) one. Each state runs --runs times (3 unless told), the
runs interleaved, and the medians are printed with each run's CPU and the load average;
--compare DIR runs the game from another checkout too (say, a `git worktree` of main),
state by state in turn with this one, for a before/after under the same load:

    .venv/bin/python bench/ui.py --real-window [--seconds 10] [--runs 3] [--always-draw]
        [--screens 1920x1080,1366x768] [--display 22] [--states title,table_still]
        [--compare ../before] [--json]

title: the title screen (drifting cards, the bobbing crown); table_idle: a hot-seat game
waiting for the person to place the marker (1 human + 3 bots, ask-around, the deal
animated and done: the turn ring and the 16 placeable spaces pulse); table_still: the
scripted negotiation, frozen, waiting (the ring round the seat with the floor and the
Travel targets pulse); table_countdown: the same with its window countdown running down
(5 s, again and again); animating: the
busiest table with a burst of flying coins and cards every half second. --always-draw
redraws and presents the whole canvas every frame (the loop before idle was free).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

FIRST_FRAME_CHILD = r"""
import os, sys, time
sys.path.insert(0, {root!r})
os.environ["IMTHEBOSS_CONFIG_DIR"] = {cfg!r}
from game.ui.screen.app import App
from game.ui.config import Config
from game.ui.scenes.title import TitleScene
app = App(Config(fullscreen=False), persist=False)
app.push(TitleScene(app))
app.step(1 / 60)
print("FIRST_FRAME", flush=True)
import resource
print("RSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)
"""


def first_frame(runs: int = 3) -> tuple[float, int]:
    """Wall time from starting a fresh interpreter to the title screen's first flip."""
    import tempfile

    best = None
    rss = 0
    with tempfile.TemporaryDirectory() as cfg:
        code = FIRST_FRAME_CHILD.format(root=str(ROOT), cfg=cfg)
        for _ in range(runs):
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-c", code],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            for line in proc.stdout:
                if line.startswith("FIRST_FRAME"):
                    dt = time.perf_counter() - t0
                    best = dt if best is None else min(best, dt)
                elif line.startswith("RSS_KB"):
                    rss = max(rss, int(line.split()[1]))
            proc.wait()
    return best or float("nan"), rss


def busiest_table(app):
    """The 6-player table, dressed up to be as busy as a real game gets."""
    from game.rules import Card, IllegalAction, LayClan, Offer, Pass, laid, placard
    from game.rules.board import Clan
    from game.ui.table.scene import TableScene
    from tools.screenshot import table_session

    s = table_session(seed=3, players=6)
    st = s.game.state
    # resolve Bo's Boss play, then fill the table some more
    s.frozen = False
    while st.window is not None:
        s.apply_scripted(Pass(st.window.waiting[0]))
    boss = st.negotiation.boss
    for seat, clan in ((5, Clan.BLUE), (1, Clan.RED), (3, Clan.RED)):
        if seat != boss and st.hands[seat][int(clan)]:
            s.apply_scripted(LayClan(seat, clan))
    for seat in range(6):
        if seat == boss:
            continue
        mine = [c.id for c in st.negotiation.laid if c.owner == seat]
        srcs = tuple(laid(i) for i in mine)
        if not srcs and st.placards.count(seat):
            srcs = tuple(
                placard(c)
                for c in range(6)
                if st.placards[c] == seat and c not in st.negotiation.travel
            )
        if seat not in st.negotiation.pending and seat not in st.negotiation.agreements:
            with contextlib.suppress(IllegalAction):  # an offer the rules refuse is left out
                s.apply_scripted(Offer(seat, tuple(sorted(srcs)), 2 + seat))
    # a 15-card hand for the viewer
    hand = st.hands[0]
    for k in (
        Card.CLAN_RED,
        Card.TRAVEL_GREY,
        Card.RECRUIT,
        Card.STOP,
        Card.TRAVEL_YELLOW,
        Card.CLAN_BLUE,
    ):
        if sum(hand) < 15 and st.deck.count(k):
            st.deck.remove(k)
            hand[k] += 1
    st.actions_taken += 1  # the view cache keys on the version
    st._legal_cache.clear()
    from game.rules import PlayTravel

    s.apply_scripted(PlayTravel(3, Card.TRAVEL_RED, placard(Clan.RED)))  # a window with a countdown
    s.frozen = True
    table = TableScene(app, s)
    table.auto_results = False
    app.push(table)
    for _ in range(200):
        table.log.add({"type": "offer_made", "seat": 1, "sources": [["placard", 1]], "amount": 5})
    app.step(1 / 60)
    # a selected card with its pop-up, and the mouse over a space (tooltip)
    table.hand.selected = 3
    table._refresh()
    import pygame

    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(0, 0), buttons=(0, 0, 0))
    )
    return table


BURST = [
    {"type": "paid", "payer": -1, "payee": 0, "amount": 18, "reason": "dividends"},
    {"type": "paid", "payer": 0, "payee": 1, "amount": 4, "reason": "agreement"},
    {"type": "card_played", "seat": 2, "card": "boss", "count": 1, "target": None, "clan": None},
    {"type": "clan_laid", "seat": 4, "clan": "green", "card_id": 1},
    {"type": "cards_drawn", "seat": 5, "count": 3, "cards": None},
    {"type": "die_rolled", "seat": 1, "value": 4, "purpose": "move"},
    {"type": "phrase", "seat": 3, "key": "phrase.too_expensive"},
]


def measure(frames: int, size: tuple[int, int] | None = None) -> dict:
    import pygame

    from game.ui.config import Config
    from game.ui.screen.app import App

    app = App(Config(fullscreen=False), window_size=size, sound=False, persist=False)
    table = busiest_table(app)
    for _ in range(30):  # warm the caches (first renders of faces, text, rotations)
        app.step(1 / 60)
    total, draw_only, cpu = [], [], []
    for i in range(frames):
        if i % 30 == 0:
            table.director.cursor = 0.0
            table.director.feed(BURST, 0)
        c0 = time.process_time()
        t0 = time.perf_counter()
        for event in pygame.event.get():
            app.handle(event)
        app.stack.update(1 / 60)
        t1 = time.perf_counter()
        app.stack.draw(app.screen)
        t2 = time.perf_counter()
        app.window.present()
        t3 = time.perf_counter()
        cpu.append((time.process_time() - c0) * 1000)
        total.append((t3 - t0) * 1000)
        draw_only.append((t2 - t1) * 1000)
    sprites = len(table.director.sprites)
    app.shutdown()
    return {"total": total, "draw": draw_only, "cpu": cpu, "sprites_at_end": sprites}


# -- the real window -------------------------------------------------------------------

REAL_STATES = ("title", "table_idle", "table_still", "table_countdown", "animating")
DISPLAYS = range(140, 150)  # tried in turn unless --display names one
SCREEN = (1920, 1080)  # the X screen (the game is fullscreen in it) unless --screen


def _idle_table(app):
    """A hot-seat game waiting for its one person, the deal's animation over."""
    from game.ui.config import Config
    from game.ui.scenes.newgame import build_session
    from game.ui.table.scene import TableScene

    session = build_session(Config(), seed=11)
    table = TableScene(app, session)
    app.push(table)
    for _ in range(60 * 60):
        app.step(1 / 60, draw=False)
        waiting = session.decision_seat() == session.viewer
        if waiting and not table.director.moving() and not table.hand.moving():
            return table
    raise SystemExit("error: the bots never handed the table to the person")


def _scripted_table(app, countdown: bool):
    """The scripted negotiation frozen (nobody acts), with its window countdown running
    down (or none at all)."""
    from game.ui.sessions.session_api import Countdown
    from game.ui.table.scene import TableScene
    from tools.screenshot import table_session

    s = table_session()
    started = time.perf_counter()

    def countdowns():
        left = 5.0 - (time.perf_counter() - started) % 5.0
        return [Countdown("window", left, 5.0)] if countdown else []

    s.countdowns = countdowns
    table = TableScene(app, s)
    table.director.quiet = True
    app.push(table)
    for _ in range(5):
        app.step(1 / 30, draw=False)
    table.director.quiet = False
    return table


def _ticks(pid: int) -> int:
    """A process's CPU so far (user + system, clock ticks) from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def real_child(state: str, seconds: float, always_draw: bool, xserver: int) -> dict:
    """In the X server: the game fullscreen in `state`, the app's frame loop measured."""
    import pygame

    from game.ui.config import Config
    from game.ui.screen.app import FPS, App

    app = App(Config(fullscreen=True), windowed=False, sound=False, persist=False)
    burst = None
    if state == "title":
        from game.ui.scenes.title import TitleScene

        app.push(TitleScene(app))
    elif state == "table_idle":
        _idle_table(app)
    elif state in ("table_still", "table_countdown"):
        _scripted_table(app, countdown=state == "table_countdown")
    else:
        burst = busiest_table(app)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 1075), rel=(0, 0), buttons=(0, 0, 0)))

    def frame() -> None:
        if always_draw:
            dt = app.clock.tick(FPS) / 1000.0
            app.frame_started = time.perf_counter()
            app.step(min(dt, 0.1))
        else:
            app.frame()  # the loop's own: it sleeps on events while only pulses change

    warm_end = time.perf_counter() + 2.0
    while time.perf_counter() < warm_end:
        frame()
    work, gaps, idle = [], [], 0
    frames0, partial0 = app.frames, app.partial_frames
    c0, t0, x0 = time.process_time(), time.perf_counter(), _ticks(xserver)
    last = t0
    started = app.frame_started
    i = 0
    while last - t0 < seconds:
        if burst is not None and i % 30 == 0:
            burst.director.cursor = 0.0
            burst.director.feed(BURST, 0)
        was_idle = app.idle
        frame()
        last = time.perf_counter()
        work.append((last - app.frame_started) * 1000)  # update + redraw + present
        if was_idle:
            idle += 1  # slept up to 1/20 s on events first: not a late frame
        else:
            gaps.append((app.frame_started - started) * 1000)  # from the frame before
        started = app.frame_started
        i += 1
    cpu = (time.process_time() - c0) / (last - t0)
    x_cpu = (_ticks(xserver) - x0) / os.sysconf("SC_CLK_TCK") / (last - t0)
    out = {
        "state": state,
        "window": list(pygame.display.get_surface().get_size()),
        "cpu_percent": round(100 * cpu, 1),
        "xserver_cpu_percent": round(100 * x_cpu, 1),
        "frames": len(work),
        "drawn": app.frames - frames0,
        "drawn_in_part": app.partial_frames - partial0,
        "work_ms": {f"p{p}": round(pct(work, p), 2) for p in (50, 95, 99)},
        "work_ms_max": round(max(work), 2),
        "idle_frames": idle,
        "late_frames": sum(1 for g in gaps if g > 1.5 * 1000 / FPS),
    }
    app.shutdown()
    return out


def _start_x(screen: tuple[int, int], displays) -> tuple[list[subprocess.Popen], dict]:
    """Xvfb on the first free display of `displays`, with openbox managing it."""
    for number in displays:
        if Path(f"/tmp/.X11-unix/X{number}").exists() or Path(f"/tmp/.X{number}-lock").exists():
            continue
        xvfb = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", f"{screen[0]}x{screen[1]}x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + 10
        while time.monotonic() < end and xvfb.poll() is None:
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            time.sleep(0.1)
        if xvfb.poll() is not None:
            continue
        env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_VIDEO")}
        env.update(DISPLAY=f":{number}", SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
        wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        return [wm, xvfb], env
    raise SystemExit(f"error: no free display in {list(displays)} (or Xvfb is missing)")


def _run_state(code: Path, state: str, seconds: float, always_draw: bool, xserver: int, env) -> dict:
    """One state measured in a child process running the game from `code` (a checkout)."""
    cmd = [sys.executable, str(code / "bench" / "ui.py"), "--child", state, "--seconds", str(seconds)]
    cmd += ["--xserver", str(xserver)]
    if always_draw:
        cmd.append("--always-draw")
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds + 120)
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
    if out.returncode != 0 or not lines:
        raise SystemExit(f"error: {state} failed: {out.stderr.strip()[-2000:]}")
    result = json.loads(lines[-1])
    result["load"] = round(os.getloadavg()[0], 2)
    return result


def real_window(
    seconds: float,
    always_draw: bool,
    screens=(SCREEN,),
    displays=DISPLAYS,
    states=REAL_STATES,
    runs: int = 1,
    codes: tuple[Path, ...] = (ROOT,),
) -> list[dict]:
    """Every state on every screen, `runs` times, interleaved: run after run, screen after
    screen, and each state with each code tree in turn (a before/after comparison sees the
    same load). Each result names its screen, run and code tree."""
    results = []
    for run in range(runs):
        for screen in screens:
            procs, env = _start_x(screen, displays)
            try:
                for state in states:
                    for code in codes:
                        r = _run_state(code, state, seconds, always_draw, procs[1].pid, env)
                        r.update(screen=list(screen), run=run, code=str(code))
                        results.append(r)
            finally:
                for proc in procs:
                    proc.terminate()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(5)
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
    return results


def print_real(results: list[dict], always_draw: bool) -> None:
    """Per screen and code tree, each state's medians over the runs (with each run's CPU)."""
    how = "whole canvas every frame" if always_draw else "only what changed"
    loads = [r["load"] for r in results]
    print(f"real window (Xvfb + openbox, the game fullscreen), drawing {how}")
    print(f"  load average during the runs: {min(loads):.2f} - {max(loads):.2f} (median {statistics.median(loads):.2f})")
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        groups.setdefault((tuple(r["screen"]), r["code"]), []).append(r)
    codes = {r["code"] for r in results}
    for (screen, code), rows in groups.items():
        runs = 1 + max(r["run"] for r in rows)
        where = f" ({code})" if len(codes) > 1 else ""
        print(f"\n  {screen[0]}x{screen[1]}{where}, medians of {runs} run(s)")
        print(f"  {'state':16} {'CPU':>6} {'runs':>18} {'Xvfb':>6} {'drawn':>11} {'idle':>5}  {'work p50/p95/p99/max ms':>26}  late")
        for state in dict.fromkeys(r["state"] for r in rows):
            rs = [r for r in rows if r["state"] == state]

            def med(f, rs=rs):
                return round(statistics.median(f(r) for r in rs), 2)

            cpu = med(lambda r: r["cpu_percent"])
            each = "/".join(f"{r['cpu_percent']}" for r in rs)
            drawn = f"{med(lambda r: r['drawn']):g}/{med(lambda r: r['frames']):g}"
            times = "/".join(f"{med(lambda r, p=p: r['work_ms'][p]):g}" for p in ("p50", "p95", "p99"))
            times += f"/{med(lambda r: r['work_ms_max']):g}"
            xcpu, idle = med(lambda r: r["xserver_cpu_percent"]), med(lambda r: r.get("idle_frames", 0))
            late = sum(r["late_frames"] for r in rs)
            print(f"  {state:16} {cpu:>5}% {each:>18} {xcpu:>5}% {drawn:>11} {idle:>5g}  {times:>26}  {late}")


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--size", default="1920x1080", help="window size (the canvas is 1920x1080)")
    ap.add_argument("--real-window", action="store_true", help="CPU per state in a real X window")
    ap.add_argument("--seconds", type=float, default=10.0, help="real window: seconds per state")
    ap.add_argument("--always-draw", action="store_true", help="real window: redraw all, every frame")
    ap.add_argument("--screens", "--screen", default="1920x1080,1366x768",
                    help="real window: the X screens' sizes, comma-separated")
    ap.add_argument("--runs", type=int, default=3, help="real window: runs (medians printed)")
    ap.add_argument("--compare", type=Path, help="real window: also run the game from this checkout, interleaved")
    ap.add_argument("--display", type=int, help="real window: the X display number to start")
    ap.add_argument("--states", default=",".join(REAL_STATES), help="real window: which states")
    ap.add_argument("--child", choices=REAL_STATES, help=argparse.SUPPRESS)
    ap.add_argument("--xserver", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(real_child(args.child, args.seconds, args.always_draw, args.xserver)))
        return 0
    if args.real_window:
        from game.ui.screen.app import parse_size

        displays = DISPLAYS if args.display is None else [args.display]
        states = [st for st in args.states.split(",") if st]
        unknown = sorted(set(states) - set(REAL_STATES))
        if unknown:
            raise SystemExit(f"error: unknown states {unknown} (known: {', '.join(REAL_STATES)})")
        screens = [parse_size(x) for x in args.screens.split(",") if x]
        codes = (ROOT,) if args.compare is None else (args.compare.resolve(), ROOT)
        results = real_window(args.seconds, args.always_draw, screens, displays, states, args.runs, codes)
        if args.json:
            print(json.dumps(results))
        else:
            print_real(results, args.always_draw)
        return 0
    from game.ui.screen.app import parse_size

    size = parse_size(args.size)
    ff, ff_rss = first_frame()
    m = measure(args.frames, size)
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out = {
        "frames": args.frames,
        "window": list(size),
        "frame_ms": {p: round(pct(m["total"], p), 2) for p in (50, 95, 99)},
        "draw_ms": {p: round(pct(m["draw"], p), 2) for p in (50, 95, 99)},
        "frame_cpu_ms": {p: round(pct(m["cpu"], p), 2) for p in (50, 95, 99)},
        "load_average": round(os.getloadavg()[0], 2),
        "frame_ms_mean": round(statistics.fmean(m["total"]), 2),
        "first_frame_s": round(ff, 3),
        "peak_rss_mb": round(rss_kb / 1024, 1),
        "first_frame_peak_rss_mb": round(ff_rss / 1024, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        f, d = out["frame_ms"], out["draw_ms"]
        print(f"busiest table, {size[0]}x{size[1]} window, dummy driver, {args.frames} frames")
        print(
            f"  frame (update+draw+show)  p50 {f[50]} ms  p95 {f[95]} ms  p99 {f[99]} ms  (bar p95 <= 8, goal 4)"
        )
        print(f"  redraw only               p50 {d[50]} ms  p95 {d[95]} ms  p99 {d[99]} ms")
        c = out["frame_cpu_ms"]
        print(
            f"  frame, CPU time           p50 {c[50]} ms  p95 {c[95]} ms  p99 {c[99]} ms  (this process only)"
        )
        print(
            f"  load average              {out['load_average']} (other processes inflate wall-clock figures)"
        )
        print(f"  time to first frame       {out['first_frame_s']} s  (goal <= 0.8 s)")
        print(
            f"  peak RSS                  {out['peak_rss_mb']} MB (benchmark), {out['first_frame_peak_rss_mb']} MB (title screen)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
