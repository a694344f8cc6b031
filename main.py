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
            print(
                f"error: unknown bot {spec!r} (known: {', '.join(sorted(BOT_KINDS))})",
                file=sys.stderr,
            )
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


def _delegate(module: str, func: str, what: str):
    """Run `module.func(args)`; while that part is not built, exit 2 with one clear line."""

    def run(args) -> int:
        import importlib

        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and module.startswith(exc.name):
                print(f"error: {what} is not available in this version yet", file=sys.stderr)
                return EXIT_USAGE
            raise
        return getattr(mod, func)(args)

    return run


def _host_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=0, help="TCP port (0: any free port)")
    p.add_argument("--seats", type=int, default=4, help="players at the table (2-6)")
    p.add_argument("--bots", help="bot kinds filling empty seats, e.g. heuristic,random")
    p.add_argument("--code", help="room code (4 letters; default: random)")
    p.add_argument("--name", help="table name shown in the lobby")
    p.add_argument("--resume", metavar="FILE", help="resume a game from its autosave")
    p.add_argument("--seed", type=int, help="game seed (default: random)")
    p.add_argument("--variant", help="variants, e.g. V1,V3")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--autosave", metavar="FILE", help="autosave file ('none': no autosave)")
    p.add_argument(
        "--start-after", type=float, metavar="S", help="start S seconds after hosting (bots fill)"
    )
    p.add_argument("--grace", type=float, metavar="S", help="seconds before bots take a lost seat")
    p.add_argument("--window", type=float, metavar="S", help="Stop window length (default 5)")
    p.add_argument(
        "--window-mode",
        choices=["real_time", "ask_around"],
        default="real_time",
        help="reaction windows: everyone at once with a countdown (default), or one player "
        "after the other, each with the window's length",
    )
    p.add_argument("--going-once", type=float, metavar="S", help="per 'going once/twice' (3)")
    p.add_argument("--negotiation-time", type=float, metavar="S", help="negotiation clock (180)")
    p.add_argument("--turn-time", type=float, metavar="S", help="turn clock (default 0: off)")
    p.add_argument("--bot-delay", type=float, metavar="S", help="bots' pause before moving")
    p.add_argument("--negotiation-limit", type=int, help="negotiation actions per deal (60)")
    p.add_argument("--short", action="store_true", help="short game (tiles 3, 6, 9 removed)")
    p.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")
    p.add_argument("--verbose", action="store_true", help="log connections and games")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="imtheboss", description="I'm the Boss! - Sid Sackson's negotiation game"
    )
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="play on this screen against bots or friends (default)")
    play.add_argument("--lang", choices=["en", "zh_Hant", "zh_Hans", "th"], help="language")
    play.add_argument(
        "--windowed", action="store_true", help="start in a window (~90%% of the desktop)"
    )
    play.add_argument(
        "--size", default=None, help="window size, e.g. 1280x720 (shrunk to fit the desktop)"
    )
    play.set_defaults(run=_delegate("game.ui.app", "run_app", "the game window"))

    sim = sub.add_parser("simulate", help="play bot games headless and print results")
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument(
        "--bots", help="bot kinds, one per seat or one for all (e.g. random,heuristic)"
    )
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--variant", help="variants, e.g. V1,V3")
    sim.add_argument("--short", action="store_true", help="short game (tiles 3, 6, 9 removed)")
    sim.add_argument(
        "--real-time", action="store_true", help="real-time windows instead of ask-around"
    )
    sim.add_argument(
        "--rotate-seats", action="store_true", help="rotate the bots' seats game by game"
    )
    sim.add_argument("--save", metavar="DIR", help="write each game's save file into DIR")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=cmd_simulate)

    rep = sub.add_parser("replay", help="replay a save file and print its result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true")
    rep.set_defaults(run=cmd_replay)

    host = sub.add_parser("host", help="host a LAN table")
    _host_args(host)
    host.add_argument(
        "--headless", action="store_true", help="no window: run the table in this terminal"
    )
    host.add_argument(
        "--once", action="store_true", help="exit after one game, printing its JSON result"
    )
    host.add_argument(
        "--player-name", help="your name at the table (default: the settings' player name)"
    )
    host.set_defaults(run=_delegate("net.cli", "run_host", "LAN hosting"))

    table = sub.add_parser("table", help="host with the fullscreen public table display")
    _host_args(table)
    table.set_defaults(run=_delegate("net.cli", "run_table", "the table display"))

    join = sub.add_parser("join", help="join a LAN table (no address: open the lobby)")
    join.add_argument("address", nargs="?", help="HOST:PORT of the table")
    join.add_argument("--code", help="the room code shown on the host")
    join.add_argument("--name", help="your name at the table")
    join.add_argument("--bot", help="play as this bot kind (with --headless)")
    join.add_argument("--headless", action="store_true")
    join.add_argument("--token", help="reconnect token of a seat to take back")
    join.add_argument("--list", action="store_true", help="print the tables found on the LAN")
    join.add_argument("--timeout", type=float, default=2.0, help="seconds to look for tables")
    join.add_argument("--bot-delay", type=float, metavar="S", help="headless bot's pause (1.5)")
    join.add_argument("--retry-for", type=float, metavar="S", help="give up reconnecting after S")
    join.add_argument("--verbose", action="store_true", help="log the connection")
    join.set_defaults(run=_delegate("net.cli", "run_join", "joining a LAN table"))

    shot = sub.add_parser("screenshot", help="render a scene to a PNG without a display")
    shot.add_argument(
        "--scene",
        default="table",
        choices=["title", "table", "results", "rules", "lobby", "settings", "newgame", "handoff", "room", "display", "lan_table",
                 "table_6p", "hand_15", "recruit_5", "editor_4_sources", "pause", "leave"],
    )
    shot.add_argument("--lang", default="en", choices=["en", "zh_Hant", "zh_Hans", "th"])
    shot.add_argument("--seed", type=int, default=3)
    shot.add_argument("--out", default="shot.png")
    shot.add_argument("--size", default="1920x1080")
    shot.set_defaults(run=_delegate("game.ui.screenshot", "run", "screenshots"))
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
