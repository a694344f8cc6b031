"""A read-only session over a saved game, for the replay viewer.

The table scene draws it like any other session (views, no legal actions, redacted events),
but the game only moves when the viewer steps: `forward()` applies the next logged action
and queues its events (the board animates), `seek(i)` rebuilds the state after `i` actions
without animation (from the nearest deal's checkpoint, so going back is cheap).

The view drawn is the chosen seat's (`viewer`): before the game is over nobody else's hand
is ever shown. Once it is over, the choice ALL_HANDS shows the public table and every hand.

Save files: the engine's format (hot-seat saves, `simulate --save`, a LAN host's save); a
host's `<save>.journal` tail is read too (`load_replay`), and its `<save>.seats.json` for
who held each seat, by the few lines here rather than through net/, which the UI's scenes
never import.

Who played each seat (`SeatRecord`): the kinds at the start and every change of hands since
(the lesson's bots and its player handing the seats to bots to finish the game), so the
plates show each seat as it was at the moment replayed. A save that does not say shows a
neutral plate (no badge), one that names the kinds but not their changes a bot's badge
without a style: never a style the bot may not have had.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from game.rules import Game, LegalActions, view
from game.rules.actions import ActionFormatError, action_from_data
from game.rules.engine import apply, new_game, waiting_for
from game.rules.errors import IllegalAction
from game.rules.events import DealOpened
from game.rules.replay import fresh_start, load, replay_log
from game.rules.state import Phase

from .session_api import HUMAN, SeatChange, SeatInfo, SeatRecord, Session, UpdateBatch

ALL_HANDS = "all"  # the viewer choice that shows every hand (game over only)


SEAT_KINDS = "seat_kinds"  # save-file field the engine ignores: "human" or a bot spec per seat
SEAT_CHANGES = "seat_changes"  # [[actions before, seat, kind], ...]: a seat changing hands


def recorded_kind(kind: object) -> bool:
    """A kind a save may name: a person, a registered bot spec, or the lesson's script."""
    from game.bots import is_bot_spec
    from game.bots.scripted import ScriptedBot

    return isinstance(kind, str) and (kind in (HUMAN, ScriptedBot.kind) or is_bot_spec(kind))


def with_seat_kinds(
    save_data: dict, kinds: list[str], changes: tuple[SeatChange, ...] | list = ()
) -> dict:
    """A save (the engine's format) that also says who played each seat and when a seat
    changed hands, so the replay viewer shows each seat as it was."""
    return {
        **save_data,
        SEAT_KINDS: list(kinds),
        SEAT_CHANGES: [[c.at, c.seat, c.kind] for c in changes],
    }


def seat_kinds_in(data: dict) -> list[str] | None:
    """The seat kinds a save records, or None when it records none or nonsense."""
    kinds = data.get(SEAT_KINDS) if isinstance(data, dict) else None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(kinds, list) or not isinstance(players, list) or len(kinds) != len(players):
        return None
    if not all(recorded_kind(k) for k in kinds):
        return None
    return kinds


def seat_record_in(data: dict) -> SeatRecord | None:
    """Who played each seat, as a save records it; None when it names no kinds and
    changes (or nonsense)."""
    kinds = seat_kinds_in(data)
    if kinds is None:
        return None
    raw = data.get(SEAT_CHANGES)
    if not isinstance(raw, list):
        return None
    changes = []
    for item in raw:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and all(isinstance(x, int) and not isinstance(x, bool) for x in item[:2])
            and 0 <= item[1] < len(kinds)
            and recorded_kind(item[2])
        ):
            return None
        changes.append(SeatChange(item[0], item[1], item[2]))
    return SeatRecord(tuple(kinds), tuple(sorted(changes, key=lambda c: c.at)))


def host_seats_record(save: Path, players: int) -> SeatRecord | None:
    """A LAN host's seats file (`<save>.seats.json`): a seat a person claimed is theirs, the
    others the host's bots (their kinds as written); None if there is none or it is not one."""
    try:
        data = json.loads(save.with_name(save.name + ".seats.json").read_text(encoding="utf-8"))
        seats = data["seats"]
        kinds = tuple(HUMAN if s.get("token_sha256") else s["bot"] for s in seats)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if len(kinds) != players or not all(recorded_kind(k) for k in kinds):
        return None
    return SeatRecord(kinds)


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


class ReplaySession(Session):
    """A saved game's log, played back step by step (see the module docstring)."""

    def __init__(self, game: Game, seats: SeatRecord | None = None) -> None:
        self.names = list(game.names)
        self._start = (game.names, game.seed, game.settings, game.setup)
        self.actions = list(game.log)
        self.seats = seats  # who played each seat, when the save says
        self.viewer: int | None = 0  # the seat whose view is drawn (None: the public table)
        self.all_hands = False  # game over only: every hand is shown
        self.hold = False
        self.index = 0  # actions applied to `state`
        self.deals: list[int] = []  # per deal: actions applied when it has just opened
        self._checkpoints: dict[int, object] = {}
        self._events: list[list] = []  # per action: what it caused
        start = fresh_start(game)
        st = start.state
        self._checkpoints[0] = st.clone()
        steps = replay_log(start, self.actions)
        _, self._opening = next(steps)
        for version, events in steps:
            self._events.append(events)
            if any(isinstance(e, DealOpened) for e in events):
                self.deals.append(version)
                self._checkpoints[version] = st.clone()
        self.final_hash = st.hash()
        self.state = self._checkpoints[0].clone()
        self._queue: list[UpdateBatch] = []
        self._views: dict = {}
        self.rebuilt = True  # the table must (re)build its log from `events_so_far`

    @classmethod
    def from_file(cls, path: str | Path) -> ReplaySession:
        game = load_replay(path)  # SaveError first: a bad file never gets this far
        try:
            seats = seat_record_in(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError):
            seats = None
        if seats is None:  # a LAN host's save: its seats file says who held each seat
            seats = host_seats_record(Path(path), len(game.names))
        return cls(game, seats)

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
        """The seat as it was at this point of the game (neutral when the save does not
        say who played it)."""
        if self.seats is None:
            return SeatInfo("unknown", None, True, False)
        return self.seats.info_at(seat, self.index)

    def update(self, dt: float) -> None:
        """Playback is paced by the replay scene (it waits for the animations)."""
