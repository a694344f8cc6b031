"""Save files, scenarios and replays read back: a `Game` (game.rules.game) rebuilt from its
seed, settings, optional explicit setup and action log, every action checked again.

`replay_log` is the one way a game is rebuilt from its log, step by step: a save file read
back, a hot-seat autosave replayed into its session, the LAN host's recent events and a
bot's memory after a resume, a lesson's bots taking over.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .actions import Action, ActionFormatError, action_from_data
from .cards import card_from_key
from .engine import Setup, SetupError
from .errors import IllegalAction
from .events import Event
from .game import SAVE_FORMAT, SAVE_VERSION, Game
from .setup import opening_events
from .state import GameState
from .variants import Settings, SettingsError


class SaveError(ValueError):
    """A save file that cannot be replayed; the message names the file, the action index
    and the rule, e.g. "game.json: action 17: [card.not_in_hand] you hold no Stop card"."""


class LogError(ValueError):
    """An action of a log that cannot be replayed: its index, the rule it breaks
    ("action.format" for one that is not an action at all) and why."""

    def __init__(self, index: int, rule: str, message: str) -> None:
        super().__init__(f"action {index}: [{rule}] {message}")
        self.index, self.rule, self.message = index, rule, message


def fresh_start(game: Game) -> Game:
    """A new game at ``game``'s start: its names, seed, settings and setup, no action yet."""
    return Game(list(game.names), game.seed, game.settings, game.setup)


def replay_log(
    start: Game,
    actions: Iterable[Action | dict],
    apply: Callable[[Action], list[Event] | None] | None = None,
) -> Iterator[tuple[int, list[Event] | None]]:
    """``start`` (a game at its start) rebuilt from the action log ``actions`` (Actions, or
    a file's raw data), step by step: (0, the opening's events), then (the version each
    action led to, its events). ``apply`` applies one (default ``start.apply``; a
    session's, so that its table is told too; its events are what it returns). An action
    that is malformed or illegal raises ``LogError``; those before it stay applied."""
    apply = start.apply if apply is None else apply
    yield 0, opening_events(start.state)
    for i, raw in enumerate(actions):
        try:
            events = apply(raw if isinstance(raw, Action) else action_from_data(raw))
        except ActionFormatError as exc:
            raise LogError(i, "action.format", str(exc)) from None
        except IllegalAction as exc:
            raise LogError(i, exc.rule, exc.message) from None
        yield i + 1, events


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
    try:
        for _ in replay_log(game, actions):
            pass
    except LogError as exc:
        raise SaveError(f"{source}: {exc}") from None
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
