"""A read-only session over a saved game, for the replay viewer.

The table scene draws it like any other session (views, no legal actions, redacted events),
but the game only moves when the viewer steps: `forward()` applies the next logged action
and queues its events (the board animates), `seek(i)` rebuilds the state after `i` actions
without animation (from the nearest deal's checkpoint, so going back is cheap).

The view drawn is the chosen seat's (`viewer`): before the game is over nobody else's hand
is ever shown. Once it is over, the choice ALL_HANDS shows the public table and every hand.

Save files: the engine's format (hot-seat saves, `simulate --save`, a LAN host's save); a
host's `<save>.journal` tail is read too (`load_replay`), by the few lines here rather than
through net/, which the UI's scenes never import.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from game.rules import Game, LegalActions, view
from game.rules.actions import ActionFormatError, action_from_data
from game.rules.engine import apply, new_game, opening_events, waiting_for
from game.rules.errors import IllegalAction
from game.rules.events import DealOpened
from game.rules.replay import load
from game.rules.state import Phase

from .session_api import SeatInfo, UpdateBatch

ALL_HANDS = "all"  # the viewer choice that shows every hand (game over only)


SEAT_KINDS = "seat_kinds"  # save-file field the engine ignores: "human" or a bot spec per seat


def with_seat_kinds(save_data: dict, kinds: list[str]) -> dict:
    """A save (the engine's format) that also says who played each seat, so the replay
    viewer shows bots as bots."""
    return {**save_data, SEAT_KINDS: list(kinds)}


def seat_kinds_in(data: dict) -> list[str] | None:
    """The seat kinds a save records, or None when it records none or nonsense (then every
    seat is shown as a person, as before the field existed)."""
    from game.bots import is_bot_spec

    kinds = data.get(SEAT_KINDS) if isinstance(data, dict) else None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(kinds, list) or not isinstance(players, list) or len(kinds) != len(players):
        return None
    if not all(isinstance(k, str) and (k == "human" or is_bot_spec(k)) for k in kinds):
        return None
    return kinds


def load_replay(path: str | Path) -> Game:
    """A saved game with its host journal's actions (if any) appended; SaveError if the
    save cannot be replayed. A damaged journal line ends the journal, as on the host."""
    path = Path(path)
    game = load(path)
    journal = path.with_name(path.name + ".journal")
    try:
        lines = journal.read_bytes().split(b"\n")[1:-1]  # past the header; no torn tail
    except OSError:
        return game
    for line in lines:
        text, _, crc = line.rpartition(b" ")
        try:
            if int(crc, 16) != zlib.crc32(text):
                break
            record = json.loads(text)
            if record["i"] < len(game.log):
                continue
            if record["i"] != len(game.log):
                break
            game.apply(action_from_data(record["a"]))
        except (ValueError, KeyError, TypeError, ActionFormatError, IllegalAction):
            break
    return game


class ReplaySession:
    """A saved game's log, played back step by step (see the module docstring)."""

    seats_local: tuple[int, ...] = ()
    live = False

    def __init__(self, game: Game, kinds: list[str] | None = None) -> None:
        self.names = list(game.names)
        self._start = (game.names, game.seed, game.settings, game.setup)
        self.actions = list(game.log)
        self.kinds = kinds  # "human" or a bot kind per seat, when the save knows them
        self.viewer: int | None = 0  # the seat whose view is drawn (None: the public table)
        self.all_hands = False  # game over only: every hand is shown
        self.hold = False
        self.index = 0  # actions applied to `state`
        self.deals: list[int] = []  # per deal: actions applied when it has just opened
        self._checkpoints: dict[int, object] = {}
        self._events: list[list] = []  # per action: what it caused
        st = self._fresh()
        self._checkpoints[0] = st.clone()
        for i, action in enumerate(self.actions):
            events = apply(st, action)
            self._events.append(events)
            if any(isinstance(e, DealOpened) for e in events):
                self.deals.append(i + 1)
                self._checkpoints[i + 1] = st.clone()
        self.final_hash = st.hash()
        self.state = self._checkpoints[0].clone()
        self._opening = opening_events(self.state)
        self._queue: list[UpdateBatch] = []
        self._views: dict = {}
        self.rebuilt = True  # the table must (re)build its log from `events_so_far`

    @classmethod
    def from_file(cls, path: str | Path) -> ReplaySession:
        game = load_replay(path)  # SaveError first: a bad file never gets this far
        try:
            kinds = seat_kinds_in(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError):
            kinds = None
        return cls(game, kinds)

    def _fresh(self):
        names, seed, settings, setup = self._start
        return new_game(list(names), seed, settings, setup)

    # -- moving ------------------------------------------------------------------------

    @property
    def length(self) -> int:
        return len(self.actions)

    @property
    def at_end(self) -> bool:
        return self.index >= len(self.actions)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    def forward(self) -> bool:
        """Apply the next action; its events are queued for the table to animate."""
        if self.at_end:
            return False
        events = apply(self.state, self.actions[self.index])
        self.index += 1
        self._queue.append(UpdateBatch(self._redact(events), self.index))
        return True

    def back(self) -> bool:
        if self.index == 0:
            return False
        self.seek(self.index - 1)
        return True

    def seek(self, index: int) -> None:
        """The state after `index` actions, rebuilt without animation."""
        index = max(0, min(index, len(self.actions)))
        base = max(i for i in self._checkpoints if i <= index)
        st = self._checkpoints[base].clone()
        for action in self.actions[base:index]:
            apply(st, action)
        self.state, self.index = st, index
        if self.all_hands and not self.over:
            self.all_hands = False  # back before the end: the hands are secret again
        self._queue.clear()
        self._views.clear()
        self.rebuilt = True

    def jump_to_deal(self, k: int) -> None:
        self.seek(self.deals[k])

    def deal_at(self, index: int | None = None) -> int | None:
        """Which deal (0-based) the position `index` (default: now) is in, if any opened."""
        index = self.index if index is None else index
        k = None
        for i, start in enumerate(self.deals):
            if start <= index:
                k = i
        return k

    @property
    def choice(self) -> int | str | None:
        """What the "show hand of" stepper shows: a seat, None (the table) or ALL_HANDS."""
        return ALL_HANDS if self.all_hands else self.viewer

    def set_choice(self, choice: int | str | None) -> None:
        """Whose view the table draws; every hand only once the game is over."""
        if choice == ALL_HANDS and not self.over:
            raise ValueError("all hands are shown only once the game is over")
        self.all_hands = choice == ALL_HANDS
        self.viewer = None if self.all_hands else choice
        self.rebuilt = True

    def viewer_choices(self) -> list:
        out: list = [None, *range(len(self.names))]
        return [*out, ALL_HANDS] if self.over else out

    def shown_hands(self) -> dict[int, dict]:
        """The hands the table may draw now: the chosen seat's, or all once it is over."""
        if self.all_hands and self.over:
            return {s: view(self.state, s)["hand"] for s in range(len(self.names))}
        seat = self.viewer
        return {} if seat is None else {seat: view(self.state, seat)["hand"]}

    def events_so_far(self) -> list[dict]:
        """Every event up to now, as the chosen seat saw it (the log after a rebuild)."""
        out = self._redact(self._opening)
        for events in self._events[: self.index]:
            out += self._redact(events)
        return out

    def _redact(self, events) -> list[dict]:
        return [e.for_seat(self.viewer).to_data() for e in events]

    # -- what the table reads ----------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.names)

    def view(self, seat: int | None) -> dict:
        key = (self.index, seat)
        hit = self._views.get(key)
        if hit is None:
            self._views = {k: v for k, v in self._views.items() if k[0] == self.index}
            hit = self._views[key] = view(self.state, seat)
        return hit

    def legal(self, seat) -> LegalActions:
        return LegalActions()

    def send(self, action) -> None:
        """A replay takes no moves."""

    def say(self, seat: int, phrase: str) -> None:
        """A replay says nothing."""

    def poll(self) -> list[UpdateBatch]:
        out, self._queue = self._queue, []
        return out

    def waiting_for(self) -> list[int]:
        return waiting_for(self.state)

    def decision_seat(self) -> int | None:
        return None

    def countdowns(self) -> list:
        return []

    def seat_info(self, seat: int) -> SeatInfo:
        kind = self.kinds[seat] if self.kinds and seat < len(self.kinds) else "human"
        if kind == "human":
            return SeatInfo("human", None, True, False)
        return SeatInfo("bot", kind, True, False)

    def update(self, dt: float) -> None:
        """Playback is paced by the replay scene (it waits for the animations)."""
