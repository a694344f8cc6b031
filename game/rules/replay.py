"""Save files, scenarios and replays read back: a `Game` (game.rules.game) rebuilt from its
seed, settings, optional explicit setup and action log, every action checked again.
"""

from __future__ import annotations

import json
from pathlib import Path

from .actions import ActionFormatError, action_from_data
from .cards import card_from_key
from .engine import Setup, SetupError
from .errors import IllegalAction
from .game import SAVE_FORMAT, SAVE_VERSION, Game
from .state import GameState
from .variants import Settings, SettingsError


class SaveError(ValueError):
    """A save file that cannot be replayed; the message names the file, the action index
    and the rule, e.g. "game.json: action 17: [card.not_in_hand] you hold no Stop card"."""


def setup_from_data(data: dict | None) -> Setup | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise SetupError("setup must be a map")
    known = {"placards", "hands", "deck", "first_player", "marker", "tiles", "covered", "money"}
    if set(data) - known:
        raise SetupError(f"unknown setup fields: {sorted(set(data) - known)}")
    try:
        return Setup(
            placards=tuple(int(p) for p in data["placards"]) if "placards" in data else None,
            hands=tuple(tuple(card_from_key(c) for c in h) for h in data["hands"])
            if "hands" in data
            else None,
            deck=tuple(card_from_key(c) for c in data["deck"]) if "deck" in data else None,
            first_player=data.get("first_player"),
            marker=data.get("marker"),
            tiles=tuple(int(t) for t in data["tiles"]) if "tiles" in data else None,
            covered={int(k): int(v) for k, v in data["covered"].items()}
            if "covered" in data
            else None,
            money=tuple(int(m) for m in data["money"]) if "money" in data else None,
        )
    except (TypeError, ValueError, AttributeError) as exc:
        raise SetupError(f"bad setup: {exc}") from None


def game_from_data(data, source: str = "save") -> Game:
    """Rebuild a game by replaying its log; SaveError names what is wrong and where."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{source}: not an I'm the Boss! save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"{source}: save version {data.get('version')!r} is not supported")
    try:
        settings = Settings.from_data(data["settings"])
        names = data["players"]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise SaveError(f"{source}: 'players' must be a list of names")
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SaveError(f"{source}: 'seed' must be a whole number")
        game = Game(names, seed, settings, setup_from_data(data.get("setup")))
    except KeyError as exc:
        raise SaveError(f"{source}: missing field {exc}") from None
    except (SettingsError, SetupError) as exc:
        raise SaveError(f"{source}: {exc}") from None
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise SaveError(f"{source}: 'actions' must be a list")
    for i, raw in enumerate(actions):
        try:
            game.apply(action_from_data(raw))
        except ActionFormatError as exc:
            raise SaveError(f"{source}: action {i}: [action.format] {exc}") from None
        except IllegalAction as exc:
            raise SaveError(f"{source}: action {i}: [{exc.rule}] {exc.message}") from None
    return game


def load(path: str | Path) -> Game:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"{path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: not valid JSON ({exc})") from None
    return game_from_data(data, str(path))


def replay(path: str | Path) -> GameState:
    """The final state of a saved game."""
    return load(path).state
