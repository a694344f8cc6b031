"""Same seeds, same games: a fingerprint of a few scheduled bot games in both window modes.

It guards the bot scheduler's speed work (issue 16), which must never change a game. A change
of the rules or of a bot that really changes games changes these on purpose: print the new
ones with ``python -m tests.table.test_simulation_fingerprint`` and say why in the commit."""

from __future__ import annotations

import hashlib
import json

import pytest

from game.rules import Settings, WindowMode
from game.table.simulate import simulate_game

SEEDS = (0, 1)

#: sha256 (first 16 hex digits) of the action logs of SEEDS, as JSON, per mode and bot
EXPECTED = {
    ("ask_around", "random"): "fb086a9058ecf857",
    ("ask_around", "heuristic"): "1e529ec701ddae16",
    ("real_time", "random"): "a26e0dc85d686106",
    ("real_time", "heuristic"): "799a93233bd4d5cd",
}


def fingerprint(mode: WindowMode, bot: str) -> str:
    logs = []
    for seed in SEEDS:
        game, _ = simulate_game(4, seed, [bot] * 4, Settings(players=4, window_mode=mode))
        logs.append([action.to_data() for action in game.log])
    data = json.dumps(logs, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


@pytest.mark.parametrize(("mode", "bot"), sorted(EXPECTED))
def test_scheduled_games_are_the_same_games_as_before(mode, bot):
    assert fingerprint(WindowMode(mode), bot) == EXPECTED[(mode, bot)]


if __name__ == "__main__":
    for mode in WindowMode:
        for bot in ("random", "heuristic"):
            print(f'    ("{mode.value}", "{bot}"): "{fingerprint(mode, bot)}",')
