"""The commands that need no network: play (the window), simulate, replay."""

from __future__ import annotations

import json
import time
from pathlib import Path

from game.files import atomic_write
from game.rules import SaveError, Settings, SettingsError, WindowMode, load
from game.table.results import result_of
from game.table.simulate import SimulationError, simulate_game
from game.table.tournament import summarize
from game.ui.sessions.replay_session import with_seat_kinds

from .options import EXIT_USAGE, UsageError, bot_specs, error, variants


def run_play(args) -> int:
    """``play``: the game window (pygame is loaded only for the commands that open one)."""
    from game.ui.screen.windows import run_app

    return run_app(args)


def run_simulate(args) -> int:
    try:
        settings = Settings(
            players=args.players,
            variants=variants(args.variant),
            short_game=args.short,
            window_mode=WindowMode.REAL_TIME if args.real_time else WindowMode.ASK_AROUND,
        )
        specs = bot_specs(args.bots, args.players)
    except (SettingsError, UsageError) as exc:
        error(str(exc))
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
            error(str(exc))
            return 1
        results.append(result)
        if save_dir is not None:
            data = with_seat_kinds(game.to_data(), list(seat_specs))
            atomic_write(save_dir / f"game-{seed}.json", json.dumps(data, separators=(",", ":")))
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


def run_replay(args) -> int:
    t0 = time.perf_counter()
    try:
        game = load(args.file)
    except SaveError as exc:
        error(str(exc))
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


__all__ = ["run_play", "run_replay", "run_simulate"]
