"""The "Learn to play" script: data in assets/tutorial/script.json, read into dataclasses.

A script is a fixed game (seed + `Setup`: placards, hands, deck order, marker, first
player) and one ordered list of entries. A *step* is something the player does, with
what triggers its end:

- ``next``: an explanation; the player presses Next;
- ``action``: the player must make this move (``do``, compared on the fields in
  ``match``; Skip plays ``do`` for them);
- ``event``: something the bots do; Next is offered once an event of that type happened.

A *bot* entry is a scripted bot's move (game/bots/scripted.py), released once every step
listed before it is done. Each step names its coach text key, the key explaining a wrong
move (action steps), the widgets the coach points at (the first the table can find) and
the table areas its text talks about (the coach's panel leaves them in view).
Pure: no pygame, no clock; the tutorial session (game/ui/tutorial) drives it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from game.bots.scripted import ScriptedMove
from game.rules import Action, Card, Setup
from game.rules.actions import action_from_data
from game.rules.board import clan_from_key
from game.rules.cards import DECK_COUNTS, card_from_key
from game.rules.state import POOL

SCRIPT_PATH = Path(__file__).resolve().parent.parent / "assets" / "tutorial" / "script.json"


class Trigger(str, Enum):
    NEXT = "next"
    ACTION = "action"
    EVENT = "event"


@dataclass(frozen=True)
class Step:
    id: str
    trigger: Trigger
    text: str  # translation key of the coach's text
    point: tuple[str, ...] = ()  # widget names, the first the table resolves is pointed at
    shows: tuple[str, ...] = ()  # what the text talks about: areas the coach leaves in view
    action: Action | None = None  # ACTION: the expected move (Skip plays it)
    match: tuple[str, ...] = ()  # ACTION: the fields compared (empty: all of them)
    event: str | None = None  # EVENT: the event type waited for
    wrong: str | None = None  # ACTION: translation key explaining a different move

    def expects(self, action: Action) -> bool:
        """Whether `action` is the move this step asks for (on the fields it names)."""
        if self.action is None:
            return False
        want, got = self.action.to_data(), action.to_data()
        keys = self.match or tuple(want)
        return all(want.get(k) == got.get(k) for k in ("type", "seat", *keys))


@dataclass(frozen=True)
class Script:
    seed: int
    names: tuple[str, ...]  # the human seat's name is filled in by the session
    human: int
    setup: Setup
    steps: tuple[Step, ...]
    bot_moves: dict[int, tuple[ScriptedMove, ...]]

    def index_of(self, step_id: str) -> int:
        return next(i for i, s in enumerate(self.steps) if s.id == step_id)


class ScriptError(ValueError):
    """A script file that does not describe a tutorial (unknown trigger, bad action...)."""


def _setup(data: dict, players: int) -> Setup:
    owners = [POOL] * 6
    for clan, seat in data["placards"].items():
        owners[clan_from_key(clan)] = seat
    hands = tuple(tuple(card_from_key(c) for c in hand) for hand in data["hands"])
    top = [card_from_key(c) for c in data.get("deck_top", [])]
    used = [0] * len(DECK_COUNTS)
    for card in [c for h in hands for c in h] + top:
        used[card] += 1
    rest = []
    for card in Card:  # the rest of the pile in a fixed order under the scripted top
        left = DECK_COUNTS[card] - used[card]
        if left < 0:
            raise ScriptError(f"the script uses too many {card.key} cards")
        rest.extend([card] * left)
    if len(hands) != players:
        raise ScriptError("one hand per player")
    return Setup(
        placards=tuple(owners),
        hands=hands,
        deck=tuple(top + rest),
        first_player=data["first_player"],
        marker=data["marker"],
    )


def _step(entry: dict) -> Step:
    trigger = Trigger(entry["trigger"])
    action = action_from_data(entry["do"]) if "do" in entry else None
    if (trigger is Trigger.ACTION) != (action is not None):
        raise ScriptError(f"step {entry['id']}: an action step, and only one, has 'do'")
    if trigger is Trigger.EVENT and not entry.get("event"):
        raise ScriptError(f"step {entry['id']}: an event step names its event")
    return Step(
        id=entry["id"],
        trigger=trigger,
        text=entry["text"],
        point=tuple(entry.get("point", ())),
        shows=tuple(entry.get("shows", ())),
        action=action,
        match=tuple(entry.get("match", ())),
        event=entry.get("event"),
        wrong=entry.get("wrong"),
    )


def load_script(path: Path = SCRIPT_PATH) -> Script:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    names = tuple(data["players"])
    steps: list[Step] = []
    moves: dict[int, list[ScriptedMove]] = {}
    for entry in data["steps"]:
        if "bot" in entry:
            action = action_from_data(entry["bot"])
            moves.setdefault(action.seat, []).append(ScriptedMove(action, len(steps)))
        else:
            steps.append(_step(entry))
    human = data["human"]
    if human in moves:
        raise ScriptError("the player's seat has no scripted bot moves")
    return Script(
        seed=data["seed"],
        names=names,
        human=human,
        setup=_setup(data["setup"], len(names)),
        steps=tuple(steps),
        bot_moves={seat: tuple(m) for seat, m in moves.items()},
    )
