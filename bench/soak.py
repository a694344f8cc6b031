"""Kill/rejoin soak: LAN games in which players' clients die at the worst moments and come
back with their tokens, and in which the host process itself is killed with SIGKILL and
resumed from its autosave.

    .venv/bin/python -m bench.soak clients --kills 100 [--seed 1]
    .venv/bin/python -m bench.soak host --kills 60 [--seed 1]

``clients``: loopback games, a headless bot client on every seat. A killer watches the seats
and, at moments chosen at random among the hard ones -- in the middle of a negotiation,
inside a reaction window the seat is asked to answer, while the seat owes a hand-limit
discard, or anywhere -- kills a client: its connection is cut (no ``bye``) and the client
object is thrown away. After a random pause (sometimes longer than the grace period, so a
bot has taken over meanwhile) a brand-new client rejoins with the seat's token. Checked:
every rejoin gets the seat and a snapshot that is exactly the host's view of the seat; every
game finishes; no client ends desynced (its view, kept from deltas, equals the host's); the
host's autosave (save + journal) holds exactly the host's game.

``host``: the host runs in its own process (``--serve``) with an autosave; bot clients play
from this process and reconnect by themselves. The host is killed with SIGKILL at random
events: just before an action reaches the journal, just after it (before any frame went
out), in the middle of sending an action's updates, while the save is being compacted
(before or after its rename), or from outside at a random moment. Each time: the autosave
must hold at least every action any client has seen, and each client's last view must be
exactly the view of that seat at that version of the saved game (nothing lost, nothing
changed); then the host is resumed (``--resume``, same port), the clients rejoin with their
tokens and the game goes on to its end.

Prints one JSON line of figures; exit 1 on any failure.
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
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.rules import Game, view  # noqa: E402
from game.table.bot_schedule import Timing  # noqa: E402
from net import protocol as P  # noqa: E402
from net.client.bot import BotPlayer  # noqa: E402
from net.client.session import Snapshot, Update  # noqa: E402
from net.host.connections import Connections  # noqa: E402
from net.host.journal import load_game  # noqa: E402
from net.host.server import Host  # noqa: E402
from tests.net_helpers import config_for_tests  # noqa: E402

CODE = "SOAK"
FAST = dict(answer_delay=0.0, think=0.0, idle=0.005, backoff=0.05, max_backoff=0.25)
MOMENTS = ("negotiation", "window", "discard", "anywhere")


def moment_of(v: dict | None, seat: int) -> str | None:
    """Which of the hard moments the seat is in (the most specific one)."""
    if v is None or v.get("phase") == "game_over":
        return None
    win = v.get("window")
    if win is not None and seat in win.get("waiting", ()):
        return "window"
    if v.get("phase") == "discard" and v.get("turn") == seat:
        return "discard"
    if v.get("phase") == "negotiation":
        return "negotiation"
    return "anywhere"


# --------------------------------------------------------------------------- clients


class Seat:
    """One seat's current client (replaced by a fresh one after each kill)."""

    def __init__(self, port: int, index: int, seed: int, tap=None, think: float = 0.0) -> None:
        self.port, self.index, self.seed = port, index, seed
        self.think = think
        self.token: str | None = None
        self.player: BotPlayer | None = None
        self.task: asyncio.Task | None = None
        self.snapshots: list[tuple[int, dict]] = []
        self.generation = 0
        self.tap = tap

    def start(self, token: str | None = None) -> None:
        self.generation += 1
        gen = self.generation

        def seen(msg) -> None:
            if isinstance(msg, Snapshot) and gen == self.generation:
                self.snapshots.append((msg.version, msg.view))
            if self.tap is not None:
                self.tap(self, msg)

        kw = dict(token=token) if token else dict(name=f"Soak {self.index}", code=CODE)
        self.player = BotPlayer(
            "127.0.0.1", self.port, kind="random", seed=self.seed * 31 + self.generation,
            on_message=seen, retry_for=60, **{**FAST, "think": self.think}, **kw,
        )  # fmt: skip
        self.task = asyncio.ensure_future(self.player.run())

    @property
    def view(self) -> dict | None:
        s = self.player.session if self.player else None
        return s.view if s is not None else None

    def kill(self) -> None:
        """The client process dies: its connection is cut, nothing more is sent."""
        p = self.player
        self.token = p.session.token
        p._cancel()
        p.session.closed = True
        transport = p.session._transport
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.abort()
        self.task.cancel()


async def client_soak_game(
    game_no: int,
    seed: int,
    kills_wanted: int,
    grace: float = 1.5,
    autosave: Path | None = None,
    seats: int | None = None,
    short_game: bool | None = None,
    discard_wait: float = 12.0,
    think: float = 0.0,
) -> dict:
    """One game with ``kills_wanted`` client kills; returns its figures and problems.
    ``think`` slows every client's moves, so that a game on a fast, quiet machine still
    lasts long enough for the kills wanted (kills are paced in wall-clock time)."""
    rng = random.Random(seed * 1_000 + game_no)
    seats_n = seats or rng.randint(3, 5)
    short = rng.random() < 0.5 if short_game is None else short_game
    timing = Timing(bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, grace=grace)
    host = Host(
        config_for_tests(
            seats=seats_n, code=CODE, seed=rng.randrange(1 << 40), timing=timing,
            short_game=short, autosave=autosave,
        )
    )  # fmt: skip
    problems: list[str] = []
    figures: Counter = Counter()

    def check_snapshot(conn, msg, frame) -> None:  # the host's tap: every snapshot it sends
        mine = msg["t"] == "snapshot" and conn.role == "player"
        if mine and msg["view"] != view(host.state, conn.seat):
            problems.append(f"a snapshot to seat {conn.seat} is not its view")

    host.tap = check_snapshot
    await host.start()
    armed: dict = {}  # moment -> future of (seat, moment, view before)

    def tap(seat: Seat, msg) -> None:
        """Kill a client the moment a message puts its seat where we want it."""
        if not armed or not isinstance(msg, (Snapshot, Update)):
            return
        moment = moment_of(msg.view, seat.index)
        fut = armed.get(moment) or (armed.get("anywhere") if moment else None)
        if fut is not None and not fut.done():
            armed.clear()
            before = view(host.state, seat.index)
            seat.kill()
            fut.set_result((seat, moment, before))

    seats = [Seat(host.port, i, seed * 100 + game_no, tap, think) for i in range(seats_n)]
    try:
        for s in seats:
            s.start()
            while s.player.session.seat is None:
                await asyncio.sleep(0.002)
            s.token = s.player.session.token
        kills = 0
        deadline = time.monotonic() + 240
        while not host.over and time.monotonic() < deadline and kills < kills_wanted:
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            want = MOMENTS[kills % len(MOMENTS)]
            fut = asyncio.get_running_loop().create_future()
            armed[want] = fut
            try:
                wait = discard_wait if want == "discard" else 4.0  # a discard is rarer
                victim, moment, before = await asyncio.wait_for(asyncio.shield(fut), wait)
            except TimeoutError:
                armed.clear()
                if host.over:
                    break
                victim = rng.choice(seats)  # the moment did not come: any moment then
                moment = moment_of(victim.view, victim.index) or "anywhere"
                before = view(host.state, victim.index)
                victim.kill()
            kills += 1
            figures["kills." + moment] += 1
            pause = rng.choice([0.0, 0.05, 0.3, 1.0, grace + 0.5])
            await asyncio.sleep(pause)
            if pause > grace:
                figures["rejoined_after_a_bot_took_over"] += 1
            victim.snapshots.clear()
            victim.start(token=victim.token)
            t_end = time.monotonic() + 20
            while not victim.snapshots and time.monotonic() < t_end and not host.over:
                await asyncio.sleep(0.005)
            if not victim.snapshots:
                if not host.over:
                    problems.append(f"seat {victim.index} got no snapshot after rejoining")
                continue
            version, snap = victim.snapshots[0]
            figures["rejoins"] += 1
            if version == before["version"] and snap != before:
                problems.append(f"seat {victim.index}: the view changed across a kill")
            if snap["seat"] != victim.index or "hand" not in snap:
                problems.append(f"seat {victim.index}: rejoined to the wrong view")
        outs = await asyncio.wait_for(asyncio.gather(*(s.task for s in seats)), 240)
        if not host.over:
            problems.append("the game did not finish")
        st = host.state
        for s, out in zip(seats, outs, strict=True):
            if not out.finished:
                problems.append(f"seat {s.index} did not finish: {out.reason}")
            elif out.view != view(st, s.index):
                problems.append(f"seat {s.index} ended desynced from the host")
            elif P.view_hash(out.view) != P.view_hash(view(st, s.index)):
                problems.append(f"seat {s.index}: view hash differs from the host's")
            figures["bad_snapshot_hash"] += out.stats["bad_snapshot_hash"]
            figures["desync_repaired"] += out.stats["desync_hash"] + out.stats["desync_version"]
        replay = Game(list(host.game.names), host.game.seed, host.game.settings, host.game.setup)
        for a in host.game.log:
            replay.apply(a)
        if replay.state.hash() != st.hash():
            problems.append("the host's log does not replay to its state")
        figures["kills"] = kills
        figures["actions"] = len(host.game.log)
    finally:
        for s in seats:
            if s.task is not None and not s.task.done():
                s.kill()
        await host.close()
    if autosave is not None:
        saved, _ = load_game(autosave)
        if saved.state.hash() != host.state.hash():
            problems.append("the autosave does not hold the host's game")
    return {"figures": dict(figures), "problems": problems, "seats": seats_n}


async def client_soak(kills: int, seed: int, per_game: int = 8) -> dict:
    total: Counter = Counter()
    problems: list[str] = []
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        while total["kills"] < kills:
            n = min(per_game, kills - total["kills"])
            r = await client_soak_game(games, seed, n, autosave=Path(tmp) / f"g{games}.json")
            games += 1
            total.update(r["figures"])
            problems += [f"game {games}: {p}" for p in r["problems"]]
            print(f"  game {games}: {r['figures'].get('kills', 0)} kills, "
                  f"{len(r['problems'])} problems", file=sys.stderr, flush=True)  # fmt: skip
    return {
        "games": games,
        "client_kills": total["kills"],
        "rejoins_survived": total["rejoins"],
        "kills_by_moment": {m: total["kills." + m] for m in MOMENTS},
        "rejoined_after_a_bot_took_over": total["rejoined_after_a_bot_took_over"],
        "desyncs_repaired_on_the_way": total["desync_repaired"],
        "bad_snapshot_hashes": total["bad_snapshot_hash"],
        "actions": total["actions"],
        "problems": len(problems),
        "problem_list": problems[:20],
    }


# --------------------------------------------------------------------------- host kills

CRASH_POINTS = (
    "before_journal", "after_journal", "mid_broadcast", "compaction_before_rename",
    "compaction_after_rename", "outside",
)  # fmt: skip


def serve(args) -> int:
    """The host under test (``--serve``): crashes itself with SIGKILL where told."""
    import net.host.journal as J
    from net.host.config import HostConfig

    save = Path(args.save)
    timing = Timing(bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, grace=30.0)
    cfg = HostConfig(
        seats=args.seats, bots=["random"], code=CODE, bind="127.0.0.1", port=args.port,
        seed=args.seed, timing=timing, autosave=save, resume=save if args.resume else None,
        announce=False, compact_every=args.compact_every, short_game=args.short,
    )  # fmt: skip
    config_limits = cfg.limits
    config_limits.rate = config_limits.burst = 1000.0
    at, point = args.crash_at, args.crash_point

    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    if at is not None and point in ("before_journal", "after_journal"):
        real_add = J.Autosaver.add

        def add(self, action):
            if point == "before_journal" and len(self._actions) == at:
                die()
            real_add(self, action)
            if point == "after_journal" and len(self._actions) == at + 1:
                die()

        J.Autosaver.add = add
    elif at is not None and point == "mid_broadcast":
        real_send = Connections.send
        sent = [0]

        def send(self, conn, msg, frame=None):
            real_send(self, conn, msg, frame)
            if msg.get("t") == "update" and msg.get("version") == at + 1:
                sent[0] += 1
                if sent[0] >= args.crash_after_sends:
                    die()

        Connections.send = send
    elif at is not None and point.startswith("compaction"):
        real_replace = os.replace

        def replace(src, dst, *a, **kw):
            if Path(dst) == save and Path(src).name.startswith(save.name) and _save_len(src) >= at:
                if point == "compaction_before_rename":
                    die()
                real_replace(src, dst, *a, **kw)
                die()
            return real_replace(src, dst, *a, **kw)

        J.os.replace = replace

    async def main() -> None:
        host = Host(cfg)
        await host.start()
        print(f"PORT {host.port}", flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        finished = asyncio.ensure_future(host.finished.wait())
        await asyncio.wait([finished, asyncio.ensure_future(stop.wait())],
                           return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        await asyncio.sleep(0.3)  # the last updates go out
        await host.close("game_over" if host.over else "shutdown")
        print("DONE " + json.dumps({"actions": len(host.game.log) if host.game else 0}), flush=True)

    asyncio.run(main())
    return 0


def _save_len(path) -> int:
    """How many actions a save file (being written) holds."""
    try:
        return len(json.loads(Path(path).read_text())["actions"])
    except (OSError, ValueError, KeyError):
        return -1


def _spawn(args: list[str]) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "bench.soak", "serve", *args], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip


async def host_kill_game(
    game_no: int,
    seed: int,
    kills_wanted: int,
    tmp: Path,
    points=CRASH_POINTS,
    plan=None,
    seats: int | None = None,
    short: bool | None = None,
) -> dict:
    """One game whose host is killed up to ``kills_wanted`` times, resumed after each."""
    rng = random.Random(seed * 7_777 + game_no)
    seats_n = seats or rng.randint(2, 4)
    short = rng.random() < 0.5 if short is None else short
    save = tmp / f"host{game_no}.json"
    base = ["--save", str(save), "--seats", str(seats_n), "--seed", str(rng.randrange(1 << 40)),
            "--compact-every", "40", *(["--short"] if short else [])]  # fmt: skip
    plan = list(plan) if plan else [rng.choice(points) for _ in range(kills_wanted)]
    problems: list[str] = []
    figures: Counter = Counter()
    procs: list[subprocess.Popen] = []

    def spawn(resume: bool, k: int, at: int) -> subprocess.Popen:
        args = [*base, "--resume"] if resume else list(base)
        if k < len(plan) and plan[k] != "outside":  # the host kills itself there
            args += ["--crash-at", str(at), "--crash-point", plan[k],
                     "--crash-after-sends", str(rng.randint(1, seats_n))]  # fmt: skip
        proc = _spawn(args)
        procs.append(proc)
        return proc

    at = rng.randrange(5, 60)
    proc = spawn(False, 0, at)
    line = await asyncio.to_thread(proc.stdout.readline)
    port = int(line.split()[1])
    base += ["--port", str(port)]
    seats = [Seat(port, i, seed * 100 + game_no) for i in range(seats_n)]
    for s in seats:
        s.start()
    try:
        for k in range(len(plan) + 1):
            point = plan[k] if k < len(plan) else None
            while proc.poll() is None and not all(s.task.done() for s in seats):
                reached = max((s.player.session.version or 0) for s in seats) >= at
                if point == "outside" and reached:
                    proc.send_signal(signal.SIGKILL)
                    await asyncio.to_thread(proc.wait, 20)
                    break
                await asyncio.sleep(0.002)
            if all(s.task.done() for s in seats):
                break  # the game ended before this crash point came
            if proc.returncode != -signal.SIGKILL:
                problems.append(f"host exited with {proc.returncode} instead of being killed")
                break
            figures["host_kills"] += 1
            figures["kills." + str(point)] += 1
            # Let every client notice (it keeps what reached it before the connection died).
            t_end = time.monotonic() + 5
            while time.monotonic() < t_end and any(s.player.session.connected for s in seats):
                await asyncio.sleep(0.005)
            seen = {s.index: (s.player.session.version, s.player.session.view) for s in seats}
            game, report = load_game(save)
            saved_v = len(game.log)
            top = max((v for v, _ in seen.values() if v is not None), default=0)
            if saved_v < top:
                problems.append(f"{point}: the autosave has {saved_v} actions, a client saw {top}")
            replay = Game(list(game.names), game.seed, game.settings, game.setup)
            by_version: dict[int, list] = {}
            for idx, (v, sv) in seen.items():
                if v is not None:
                    by_version.setdefault(v, []).append((idx, sv))
            for i in range(saved_v + 1):
                for idx, sv in by_version.get(i, ()):
                    if view(replay.state, idx) != sv:
                        problems.append(
                            f"{point}: seat {idx}'s view at {i} is not the saved game's"
                        )
                    figures["client_views_checked"] += 1
                if i < saved_v:
                    replay.apply(game.log[i])
            figures["journal_replayed"] += report.replayed
            figures["torn_lines_dropped"] += report.dropped_lines
            figures["actions_ahead_of_clients"] += saved_v - top
            at = saved_v + rng.randrange(3, 40)
            proc = spawn(True, k + 1, at)
            line = await asyncio.to_thread(proc.stdout.readline)
            if not line.startswith("PORT"):
                problems.append("the host did not resume")
                break
            figures["host_resumes"] += 1
        outs = await asyncio.wait_for(asyncio.gather(*(s.task for s in seats)), 180)
        final, _ = load_game(save)
        for s, out in zip(seats, outs, strict=True):
            if not out.finished:
                problems.append(f"seat {s.index} did not finish: {out.reason}")
            elif out.view != view(final.state, s.index):
                problems.append(f"seat {s.index} ended desynced from the saved game")
        if final.state.phase.value != "game_over":
            problems.append("the saved game did not reach its end")
        figures["actions"] = len(final.log)
    except TimeoutError:
        problems.append("timed out")
    finally:
        for s in seats:
            if s.task is not None and not s.task.done():
                s.kill()
        for p in procs:
            if p.poll() is None:
                p.kill()
            with contextlib.suppress(Exception):
                p.communicate(timeout=10)
    return {"figures": dict(figures), "problems": problems}


async def host_soak(kills: int, seed: int, per_game: int = 3) -> dict:
    total: Counter = Counter()
    problems: list[str] = []
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        while total["host_kills"] < kills:
            r = await host_kill_game(
                games, seed, min(per_game, kills - total["host_kills"]), Path(tmp)
            )
            games += 1
            total.update(r["figures"])
            problems += [f"game {games}: {p}" for p in r["problems"]]
            print(f"  game {games}: {r['figures'].get('host_kills', 0)} host kills, "
                  f"{len(r['problems'])} problems", file=sys.stderr, flush=True)  # fmt: skip
            if games > 4 * kills:
                problems.append("too few kills happened")
                break
    return {
        "games": games,
        "host_kills": total["host_kills"],
        "host_resumes": total["host_resumes"],
        "kills_by_point": {p: total["kills." + p] for p in CRASH_POINTS},
        "client_views_checked_against_the_save": total["client_views_checked"],
        "actions_saved_ahead_of_every_client": total["actions_ahead_of_clients"],
        "journal_actions_replayed": total["journal_replayed"],
        "torn_lines_dropped": total["torn_lines_dropped"],
        "actions": total["actions"],
        "problems": len(problems),
        "problem_list": problems[:20],
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("clients")
    c.add_argument("--kills", type=int, default=100)
    c.add_argument("--seed", type=int, default=1)
    h = sub.add_parser("host")
    h.add_argument("--kills", type=int, default=60)
    h.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("serve")
    s.add_argument("--save", required=True)
    s.add_argument("--port", type=int, default=0)
    s.add_argument("--seats", type=int, default=3)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--resume", action="store_true")
    s.add_argument("--short", action="store_true")
    s.add_argument("--compact-every", type=int, default=256)
    s.add_argument("--crash-at", type=int, default=None)
    s.add_argument("--crash-point", choices=CRASH_POINTS, default=None)
    s.add_argument("--crash-after-sends", type=int, default=1)
    args = p.parse_args(argv)
    if args.what == "serve":
        return serve(args)
    t0 = time.perf_counter()
    if args.what == "clients":
        out = asyncio.run(client_soak(args.kills, args.seed))
    else:
        out = asyncio.run(host_soak(args.kills, args.seed))
    out["seconds"] = round(time.perf_counter() - t0, 1)
    for prob in out["problem_list"]:
        print("PROBLEM", prob, file=sys.stderr)
    print(json.dumps(out))
    return 1 if out["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
