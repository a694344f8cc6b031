"""I'm the Boss! - command line: play | simulate | replay | host | join | table | screenshot.

This file only parses arguments and hands over to the package that does the work.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

EXIT_USAGE = 2


def _bot_list(text: str, players: int) -> list[str]:
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SystemExit(f"error: --bots names {len(specs)} bots for {players} players")
    return specs


def _variants(text: str | None):
    from game.rules import Variant

    if not text:
        return frozenset()
    out = set()
    for part in text.split(","):
        part = part.strip().upper()
        try:
            out.add(Variant(part))
        except ValueError:
            raise SystemExit(f"error: unknown variant {part!r} (V1..V6)") from None
    return frozenset(out)


def cmd_simulate(args) -> int:
    from game.bots import BOT_KINDS
    from game.rules import Settings, SettingsError, WindowMode
    from game.simulate import SimulationError, simulate_game
    from game.tournament import summarize

    try:
        settings = Settings(
            players=args.players,
            variants=_variants(args.variant),
            short_game=args.short,
            window_mode=WindowMode.REAL_TIME if args.real_time else WindowMode.ASK_AROUND,
        )
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    specs = _bot_list(args.bots or "random", args.players)
    for spec in specs:
        if spec.partition(":")[0] not in BOT_KINDS:
            print(f"error: unknown bot {spec!r} (known: {', '.join(sorted(BOT_KINDS))})", file=sys.stderr)
            return EXIT_USAGE
    save_dir = Path(args.save) if args.save else None
    results = []
    t0 = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        seat_specs = specs
        if args.rotate_seats:
            k = i % args.players
            seat_specs = specs[-k:] + specs[:-k] if k else specs
        try:
            game, result = simulate_game(args.players, seed, seat_specs, settings)
        except SimulationError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        results.append(result)
        if save_dir is not None:
            game.save(save_dir / f"game-{seed}.json")
        if not args.json:
            print(
                f"seed {seed}: winners {result.winners} money {result.money} "
                f"deals {result.deals_closed} closed / {result.deals_failed} failed, "
                f"{result.actions} actions"
            )
    elapsed = time.perf_counter() - t0
    summary = summarize(results, elapsed)
    if args.json:
        print(json.dumps({"games": [r.to_data() for r in results], "summary": summary}))
    else:
        print(json.dumps(summary, indent=2))
    return 0


def cmd_replay(args) -> int:
    from game.rules import SaveError, load
    from game.simulate import result_of

    t0 = time.perf_counter()
    try:
        game = load(args.file)
    except SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    result = result_of(game, time.perf_counter() - t0)
    data = result.to_data()
    data["state_hash"] = game.state.hash()
    data["finished"] = game.state.phase.value == "game_over"
    if args.json:
        print(json.dumps(data))
    else:
        print(
            f"{args.file}: {len(game.log)} actions replayed, "
            f"{'finished' if data['finished'] else 'in progress'}, money {result.money}, "
            f"winners {result.winners}, state {data['state_hash']}"
        )
    return 0


def cmd_play(args) -> int:
    try:
        from game.ui.app import run_app
    except ImportError as exc:
        if "game.ui.app" not in str(exc):
            raise
        print("error: the game window is not built yet (see the README)", file=sys.stderr)
        return EXIT_USAGE
    return run_app(args)


def _not_yet(name: str):
    def run(args) -> int:
        print(f"error: '{name}' is not available in this version yet", file=sys.stderr)
        return EXIT_USAGE

    return run


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="imtheboss", description="I'm the Boss! - Sid Sackson's negotiation game")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="play on this screen (default)")
    play.add_argument("--lang", choices=["en", "zh_Hant", "zh_Hans", "th"])
    play.add_argument("--windowed", action="store_true")
    play.set_defaults(run=cmd_play)

    sim = sub.add_parser("simulate", help="play bot games headless and print results")
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--bots", help="bot kinds, one per seat or one for all (e.g. random,heuristic)")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--variant", help="variants, e.g. V1,V3")
    sim.add_argument("--short", action="store_true", help="short game (tiles 3, 6, 9 removed)")
    sim.add_argument("--real-time", action="store_true", help="real-time windows instead of ask-around")
    sim.add_argument("--rotate-seats", action="store_true", help="rotate the bots' seats game by game")
    sim.add_argument("--save", metavar="DIR", help="write each game's save file into DIR")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=cmd_simulate)

    rep = sub.add_parser("replay", help="replay a save file and print its result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true")
    rep.set_defaults(run=cmd_replay)

    for name, text in (
        ("host", "host a LAN table"),
        ("join", "join a LAN table"),
        ("table", "host with the fullscreen public table display"),
        ("screenshot", "render a scene to a PNG headless"),
    ):
        sp = sub.add_parser(name, help=text)
        sp.add_argument("rest", nargs=argparse.REMAINDER)
        sp.set_defaults(run=_not_yet(name))
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    if getattr(args, "games", 1) < 1 or getattr(args, "players", 2) not in range(2, 7):
        print("error: --games must be >= 1 and --players 2..6", file=sys.stderr)
        return EXIT_USAGE
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
