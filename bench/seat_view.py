"""What reading a seat's view into a `SeatView` costs: a client builds one per update it hands
to the table or a bot, so this is the price of the typed view on every update.

    python -m bench.seat_view [--games 4] [--repeat 5] [--search] [--json]

Views are taken at every step of seeded random-bot games (every seat and the public table,
in both window modes); printed are the microseconds per `SeatView.from_data` (the client's
build), per `to_data` (back to the wire map) and, as the yardstick, per `view(state, seat)`
(the host's build of the wire map itself) and per `Obs.from_state(state, seat)` (a search
bot's rollout step), each the median of `--repeat` passes. `--search` also plays a search
game (4 seats, steps=300, ms=0, seed 3) in each window mode and prints its CPU seconds:
at a real table the bot's time cap turns that cost into fewer rollouts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from game.bots.obs import Obs
from game.rules import Settings, WindowMode, view
from game.rules.seat_view import SeatView
from game.table.simulate import simulate_game


def collect(games: int) -> list[tuple]:
    """(state, seat) at every step of `games` seeded games, 3 to 6 players."""
    out = []

    def keep(game, action, events):
        st = game.state.clone()
        out.extend((st, seat) for seat in (None, *range(st.players)))

    for g in range(games):
        players = 3 + g % 4
        mode = (WindowMode.ASK_AROUND, WindowMode.REAL_TIME)[g % 2]
        settings = Settings(players=players, window_mode=mode, hidden_money=g % 2 == 0)
        simulate_game(players, g + 1, ["random"] * players, settings, on_step=keep)
    return out


def per_item(fn, items: list, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for x in items:
            fn(x)
        runs.append((time.perf_counter() - t0) / len(items) * 1e6)
    return statistics.median(runs)


def search_cpu(mode: WindowMode) -> float:
    """CPU seconds of a seeded game of four search bots without a time cap."""
    t0 = time.process_time()
    simulate_game(4, 3, ["search:steps=300+ms=0"] * 4, Settings(players=4, window_mode=mode))
    return round(time.process_time() - t0, 2)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--search", action="store_true", help="also time a search game")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    looks = collect(args.games)
    seats = [(st, seat) for st, seat in looks if seat is not None]
    wire = [view(st, seat) for st, seat in looks]
    typed = [SeatView.from_data(v) for v in wire]
    out = {
        "views": len(wire),
        "with_deal": sum(v["negotiation"] is not None for v in wire),
        "from_data_us": round(per_item(SeatView.from_data, wire, args.repeat), 1),
        "to_data_us": round(per_item(SeatView.to_data, typed, args.repeat), 1),
        "view_us": round(per_item(lambda look: view(*look), looks, args.repeat), 1),
        "obs_from_state_us": round(
            per_item(lambda look: Obs.from_state(*look), seats, args.repeat), 1
        ),
    }
    if args.search:
        out["search_cpu_s"] = {mode.name: search_cpu(mode) for mode in WindowMode}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['views']} views ({out['with_deal']} during a deal)")
        print(f"SeatView.from_data  {out['from_data_us']:7.1f} µs per view (the client's build)")
        print(f"SeatView.to_data    {out['to_data_us']:7.1f} µs per view")
        print(f"view(state, seat)   {out['view_us']:7.1f} µs per view (the host's wire map)")
        print(f"Obs.from_state      {out['obs_from_state_us']:7.1f} µs per call (a rollout step)")
        for mode, cpu in out.get("search_cpu_s", {}).items():
            print(f"search game {mode:11s} {cpu:6.2f} CPU s (4 seats, steps=300, ms=0, seed 3)")
    return out


if __name__ == "__main__":
    main()
