"""`Game`: a game with its log (seed, settings, optional explicit setup and the actions), so
anything can be saved; what the UI, the host and `simulate` hold. Reading a save back is
`replay.game_from_data` / `replay.load`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from game.files import atomic_write

from .actions import Action
from .engine import Setup, apply, new_game
from .events import Event
from .state import GameState
from .variants import Settings

SAVE_FORMAT = "imtheboss-save"
SAVE_VERSION = 1


def setup_to_data(setup: Setup | None) -> dict | None:
    if setup is None:
        return None
    out: dict = {}
    if setup.placards is not None:
        out["placards"] = list(setup.placards)
    if setup.hands is not None:
        out["hands"] = [[c.key for c in hand] for hand in setup.hands]
    if setup.deck is not None:
        out["deck"] = [c.key for c in setup.deck]
    for name in ("first_player", "marker"):
        if getattr(setup, name) is not None:
            out[name] = getattr(setup, name)
    if setup.tiles is not None:
        out["tiles"] = list(setup.tiles)
    if setup.covered is not None:
        out["covered"] = {str(k): v for k, v in setup.covered.items()}
    if setup.money is not None:
        out["money"] = list(setup.money)
    return out


@dataclass
class Game:
    """A game with its log: what the UI, the host and `simulate` hold."""

    names: list[str]
    seed: int
    settings: Settings
    setup: Setup | None = None
    state: GameState = field(init=False)
    log: list[Action] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = new_game(self.names, self.seed, self.settings, self.setup)

    def apply(self, action: Action) -> list[Event]:
        events = apply(self.state, action)
        self.log.append(action)
        return events

    def to_data(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seed": self.seed,
            "players": list(self.names),
            "settings": self.settings.to_data(),
            "setup": setup_to_data(self.setup),
            "actions": [a.to_data() for a in self.log],
        }

    def save(self, path: str | Path) -> None:
        """Write atomically (game.files) so a crash never leaves half a save."""
        atomic_write(path, json.dumps(self.to_data(), separators=(",", ":")))
