"""The arguments of every command, each bound to the function that runs it."""

from __future__ import annotations

import argparse

from .lan import run_host, run_join, run_table
from .offline import run_play, run_replay, run_simulate
from .options import EXIT_USAGE, error


def _host_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=0, help="TCP port (0: any free port)")
    p.add_argument("--seats", type=int, default=4, help="players at the table (2-6)")
    p.add_argument(
        "--bots",
        help="bot kinds filling empty seats, e.g. heuristic,random (default heuristic:friendly)",
    )
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
    # one name per knob (game.table.bot_schedule.Timing's, in seconds)
    p.add_argument(
        "--window", type=float, metavar="S", help="seconds to answer a Stop window (default 10)"
    )
    p.add_argument(
        "--window-mode",
        choices=["real_time", "ask_around"],
        help="reaction windows: one player after the other, each with the window's length "
        "(default of host), or everyone at once with a countdown (default of table while "
        "it serves phones)",
    )
    p.add_argument("--going-once", type=float, metavar="S", help="per 'going once/twice' (3)")
    p.add_argument(
        "--negotiation",
        dest="negotiation",
        type=float,
        metavar="S",
        help="negotiation clock (180; 0: none)",
    )
    p.add_argument("--turn", type=float, metavar="S", help="turn clock (0: off)")
    p.add_argument("--bot-delay", type=float, metavar="S", help="bots' pause before moving")
    p.add_argument("--negotiation-limit", type=int, help="negotiation actions per deal (60)")
    p.add_argument("--short", action="store_true", help="short game (tiles 3, 6, 9 removed)")
    p.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")
    p.add_argument(
        "--hints",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="players may ask the coach for a hint (key H); --no-hints forbids it",
    )
    p.add_argument(
        "--open-bot-seats",
        action="store_true",
        help="newcomers may take the seats bots play from the start (every screen is told); "
        "by default only a seat's own token takes a seat once the game runs",
    )
    p.add_argument(
        "--phone-port",
        type=int,
        metavar="N",
        help="port of the phone page and its WebSocket (default 8700; any free port when "
        "it is taken; 0: any free port)",
    )
    p.add_argument("--no-phones", action="store_true", help="do not serve the phone page")
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
    play.set_defaults(run=run_play)

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
    sim.set_defaults(run=run_simulate)

    rep = sub.add_parser("replay", help="replay a save file and print its result")
    rep.add_argument("file")
    rep.add_argument("--json", action="store_true")
    rep.set_defaults(run=run_replay)

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
    host.set_defaults(run=run_host)

    table = sub.add_parser("table", help="host with the fullscreen public table display")
    _host_args(table)
    table.set_defaults(run=run_table)

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
    join.set_defaults(run=run_join)

    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    if getattr(args, "games", 1) < 1 or getattr(args, "players", 2) not in range(2, 7):
        error("--games must be >= 1 and --players 2..6")
        return EXIT_USAGE
    return args.run(args)


