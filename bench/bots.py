"""Bot figures: tournament tables, decision times per bot kind, and the legality sweep.

    python -m bench.bots --table 4:heuristic,random,random,random --games 2000 [--jobs 2]
    python -m bench.bots --tables --games 2000 --search-games 400      # the BOTS.md tables
    python -m bench.bots --timing [--games 20]        # p50/p99 decision time per bot kind
    python -m bench.bots --legality 3000              # mixed bot games, every action applied
    python -m bench.bots --profile search             # cProfile one game of a bot kind
    python -m bench.bots --haggle [--games 60]        # talk per deal (bench/haggle.py)
    python -m bench.bots --answers [--games 6]        # a bot Boss answering a person's offers
    python -m bench.bots --lan [--games 3]            # bot clients at a real-time LAN table
    python -m bench.bots --deal-runs [--games 200]    # bot turns without a deal, per style

Seats rotate game by game (`--rotate-seats` of `main.py simulate`), so no bot profits from
sitting first. Every action goes through `apply`, which raises on anything illegal, so a
finished sweep is the legality check.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time

from game.bots import make_bot
from game.rules import Game, Settings, Variant, WindowMode
from game.table.results import result_of
from game.table.simulate import play, simulate_game
from game.table.tournament import summarize

# The tables of docs/BOTS.md: (players, bots).
TABLES = [
    (3, ["heuristic", "random", "random"]),
    (4, ["heuristic", "random", "random", "random"]),
    (6, ["heuristic", "random", "random", "random", "random", "random"]),
]
SEARCH_TABLES = [
    (3, ["search", "heuristic", "heuristic"]),
    (4, ["search", "heuristic", "heuristic", "heuristic"]),
    (6, ["search", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"]),
]


def map_games(fn, work: list, jobs: int, chunksize: int = 1) -> list:
    """`fn` over `work` in `jobs` worker processes (in this one when `jobs` is 1), in order."""
    if jobs <= 1:
        return [fn(w) for w in work]
    with multiprocessing.Pool(jobs) as pool:
        return pool.map(fn, work, chunksize=chunksize)


def rotated(specs: list[str], i: int) -> list[str]:
    k = i % len(specs)
    return specs[-k:] + specs[:-k] if k else list(specs)


def _one_game(job):
    players, seed, specs, mode = job
    settings = Settings(players=players, window_mode=WindowMode(mode))
    _game, result = simulate_game(players, seed, specs, settings)
    return result


def run_table(
    players: int,
    specs: list[str],
    games: int,
    seed: int = 1,
    jobs: int = 1,
    mode: str = "ask_around",
) -> dict:
    work = [(players, seed + i, rotated(specs, i), mode) for i in range(games)]
    t0 = time.perf_counter()
    results = map_games(_one_game, work, jobs)
    summary = summarize(results, time.perf_counter() - t0)
    summary["players"] = players
    summary["bots_at_table"] = specs
    summary["window_mode"] = mode
    return summary


def print_table(summary: dict, out=sys.stdout) -> None:
    print(
        f"\n{summary['players']} players, {summary['games']} games "
        f"({', '.join(summary['bots_at_table'])}; {summary['window_mode']}, seats rotated)",
        file=out,
    )
    print(f"{'bot':<28}{'seats':>7}{'win rate':>10}{'95% CI':>18}{'money':>9}{'rank':>7}", file=out)
    for spec, d in summary["bots"].items():
        lo, hi = d["win_rate_ci95"]
        print(
            f"{spec:<28}{d['seats']:>7}{d['win_rate']:>10.3f}"
            f"{f'[{lo:.3f}, {hi:.3f}]':>18}{d['mean_money']:>9.1f}{d['mean_rank']:>7.2f}",
            file=out,
        )


# -- decision times -------------------------------------------------------------------------


class Timed:
    """Wraps a bot and records how long each decision takes (and, for a search bot, the
    simulated actions each searched decision used: fewer than its budget when the wall-clock
    cap stopped it, as on a loaded machine)."""

    def __init__(self, bot, sink: list[float], steps: list[int] | None = None) -> None:
        self.bot = bot
        self.sink = sink
        self.steps = steps
        self.seat = bot.seat
        self.kind = bot.kind
        self.needs_view = bot.needs_view
        self.wants_events = bot.wants_events

    def observe(self, events):
        self.bot.observe(events)

    def choose(self, view, legal, must_act=True):
        t = time.perf_counter()
        a = self.bot.choose(view, legal, must_act)
        self.sink.append(time.perf_counter() - t)
        if self.steps is not None and getattr(self.bot, "last_steps", 0):
            self.steps.append(self.bot.last_steps)
        return a


def _timing_game(job):
    players, seed, specs, mode = job
    settings = Settings(players=players, window_mode=WindowMode(mode))
    times: dict[str, list[float]] = {}
    steps: dict[str, list[int]] = {}
    bots = [
        Timed(make_bot(s, i, seed), times.setdefault(s, []), steps.setdefault(s, []))
        for i, s in enumerate(specs)
    ]
    game = Game([f"P{i}" for i in range(players)], seed, settings)
    play(game, bots)
    return times, steps


def timing(games: int, jobs: int, specs_list) -> dict:
    work = []
    for players, specs in specs_list:
        for i in range(games):
            work.append((players, 500 + i, rotated(specs, i), "ask_around"))
    parts = map_games(_timing_game, work, jobs)
    merged: dict[str, list[float]] = {}
    steps: dict[str, list[int]] = {}
    for p, s in parts:
        for k, v in p.items():
            merged.setdefault(k, []).extend(v)
        for k, v in s.items():
            steps.setdefault(k, []).extend(v)
    out = {}
    for kind, xs in sorted(merged.items()):
        xs.sort()
        n = len(xs)
        out[kind] = {
            "decisions": n,
            "p50_ms": round(xs[n // 2] * 1e3, 3),
            "p99_ms": round(xs[min(n - 1, int(n * 0.99))] * 1e3, 3),
            "max_ms": round(xs[-1] * 1e3, 3),
            "mean_ms": round(statistics.fmean(xs) * 1e3, 3),
        }
        if steps.get(kind):
            out[kind]["searched"] = len(steps[kind])
            out[kind]["median_steps"] = statistics.median(steps[kind])
    return out


# -- legality -------------------------------------------------------------------------------

KINDS = ["random", "heuristic", "heuristic:tight", "heuristic:greedy", "heuristic:chaotic"]


def _legality_game(job):
    seed, with_search = job
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4, 5, 6])
    mode = rng.choice([WindowMode.ASK_AROUND, WindowMode.REAL_TIME])
    variants = frozenset(v for v in Variant if rng.random() < 0.25)
    settings = Settings(
        players=players,
        window_mode=mode,
        variants=variants,
        short_game=rng.random() < 0.3,
        hidden_money=rng.random() < 0.8,
        ask_only_when_touched=tuple(rng.random() < 0.3 for _ in range(players)),
    )
    specs = [rng.choice(KINDS) for _ in range(players)]
    if with_search:
        specs[rng.randrange(players)] = "search:steps=150"
    _game, result = simulate_game(players, seed, specs, settings)
    return result.actions, players, mode.value


def legality(games: int, jobs: int, search_every: int = 20) -> dict:
    work = [(seed, seed % search_every == 0) for seed in range(games)]
    t0 = time.perf_counter()
    parts = map_games(_legality_game, work, jobs, chunksize=4)
    actions = sum(p[0] for p in parts)
    return {
        "games": games,
        "games_with_a_search_bot": sum(1 for w in work if w[1]),
        "actions_applied": actions,
        "illegal_actions": 0,  # apply raises IllegalAction: reaching this line means none
        "by_players": {n: sum(1 for p in parts if p[1] == n) for n in range(2, 7)},
        "real_time_games": sum(1 for p in parts if p[2] == "real_time"),
        "seconds": round(time.perf_counter() - t0, 1),
    }


# -- main -----------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.split("\n")[0])
    ap.add_argument("--table", action="append", default=[], help="PLAYERS:bot,bot,... (repeat)")
    ap.add_argument("--tables", action="store_true", help="the BOTS.md tables (3, 4, 6 players)")
    ap.add_argument("--games", type=int, default=200, help="games per table")
    ap.add_argument("--search-games", type=int, default=None, help="games per search table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--real-time", action="store_true", help="real-time windows")
    ap.add_argument("--timing", action="store_true", help="decision times per bot kind")
    ap.add_argument("--legality", type=int, metavar="GAMES", help="mixed-bot legality sweep")
    ap.add_argument("--profile", metavar="BOT", help="cProfile one 4-player game of BOT")
    ap.add_argument("--haggle", action="store_true", help="talk per deal, default bots only")
    ap.add_argument("--answers", action="store_true", help="a bot Boss answering a person")
    ap.add_argument("--lan", action="store_true", help="bot clients at a LAN table (real time)")
    ap.add_argument("--players", type=int, default=4, help="seats of the --lan table")
    ap.add_argument("--bot", default="heuristic", help="the bot kind of --haggle, --answers, --lan")
    ap.add_argument(
        "--deal-runs", action="store_true", help="bot turns in a row without a deal, per style"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    mode = "real_time" if args.real_time else "ask_around"
    report: dict = {}
    tables = []
    for t in args.table:
        players, _, bots = t.partition(":")
        specs = [b.strip() for b in bots.split(",")]
        if len(specs) == 1:
            specs = specs * int(players)
        tables.append((int(players), specs, args.games))
    if args.tables:
        tables += [(p, s, args.games) for p, s in TABLES]
        sg = args.search_games if args.search_games is not None else args.games
        tables += [(p, s, sg) for p, s in SEARCH_TABLES if sg]  # 0: heuristic tables only
    if tables:
        report["tables"] = []
        for players, specs, games in tables:
            summary = run_table(players, specs, games, args.seed, args.jobs, mode)
            report["tables"].append(summary)
            if not args.json:
                print_table(summary)
                sys.stdout.flush()
    if args.timing:
        specs_list = [
            (4, ["heuristic", "random", "random", "random"]),
            (4, ["search", "heuristic", "heuristic", "heuristic"]),
        ]
        report["timing"] = timing(args.games if args.games < 200 else 12, args.jobs, specs_list)
        if not args.json:
            print("\ndecision time per bot kind (4 players, ask-around):")
            for kind, d in report["timing"].items():
                searched = ""
                if "searched" in d:
                    searched = f"  ({d['searched']} searched, median {d['median_steps']:.0f} steps)"
                print(
                    f"  {kind:<12} {d['decisions']:>7} decisions  p50 {d['p50_ms']:8.3f} ms"
                    f"  p99 {d['p99_ms']:8.3f} ms  max {d['max_ms']:8.3f} ms{searched}"
                )
    if args.legality:
        report["legality"] = legality(args.legality, args.jobs)
        if not args.json:
            print("\nlegality sweep:", json.dumps(report["legality"]))
    if args.profile:
        import cProfile
        import pstats

        specs = [args.profile] + ["heuristic"] * 3
        game = Game([f"P{i}" for i in range(4)], args.seed, Settings(players=4))
        bots = [make_bot(s, i, args.seed) for i, s in enumerate(specs)]
        prof = cProfile.Profile()
        t0 = time.perf_counter()
        prof.runcall(play, game, bots)
        print(f"one game: {time.perf_counter() - t0:.1f} s", result_of(game, 0).money)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)
    if args.haggle:
        from bench.haggle import print_haggle, run_haggle

        report["haggle"] = run_haggle(args.games, args.bot, args.seed, args.jobs, map_games)
        if not args.json:
            print_haggle(report["haggle"])
    if args.answers:
        from bench.answers import print_answers, run_answers

        games = args.games if args.games < 200 else 6  # hot-seat games, one at a time
        report["answers"] = run_answers(games, args.bot, args.seed)
        if not args.json:
            print_answers(report["answers"])
    if args.lan:
        from bench.lan_bots import print_lan, run_lan

        games = args.games if args.games < 200 else 3  # real-time games, minutes each
        out = None if args.json else sys.stdout
        report["lan"] = run_lan(games, args.bot, args.players, args.seed, out)
        if not args.json:
            print_lan(report["lan"])
    if args.deal_runs:
        from bench.deal_runs import print_deal_runs, run_deal_runs

        report["deal_runs"] = run_deal_runs(args.games, args.seed, args.jobs, map_games)
        if not args.json:
            print_deal_runs(report["deal_runs"], args.games)
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
