"""Hot-seat play on one screen: `LocalSession` owns a `game.rules.Game` and runs it through a
`game.table.master.Master` (the LAN host's too): every move goes through `Master.submit`, the
bot scheduler acts for the bot seats with its pauses (inside `update(dt)`, never blocking a
frame), and the table is handed per-seat redacted events, exactly as a LAN client would
receive them.

Ask-around mode (the hot-seat default, docs/RULES.md §6) asks one seat at a time, so at most one
seat is ever awaited: a bot there acts after its pause, a human there needs the screen
(the table shows a hand-off first when that human is not the one looking). Unlike the LAN
host, no clock runs in ask-around here: a person passing the screen is never hurried.

Real-time mode (allowed here with at most one human) runs the host's clocks: a window
closes when its countdown ends (everyone still asked passes), the negotiation clock ends in
`TimeUp`, and bots are offered the moment now and then.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from game.bots import make_bot
from game.rules import (
    Action,
    FailDeal,
    Game,
    IllegalAction,
    LegalActions,
    Phase,
    Settings,
    Setup,
    WindowMode,
    legal_actions,
    opening_events,
    view,
    waiting_for,
)
from game.table.bot_schedule import SeatPlayers, Timing
from game.table.clock import ManualClock
from game.table.master import Master, Transport

from .replay_session import SeatRecord
from .session_api import HUMAN, Countdown, FinishedGame, SeatInfo, Session, UpdateBatch

# Bot kinds that decide in well under a millisecond are asked on the spot; any other kind
# (a search bot takes up to a second) thinks on the worker thread.
QUICK_BOTS = frozenset({"random", "heuristic"})


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: str = HUMAN  # "human" or a bot spec for game.bots.make_bot ("random", ...)
    # `name` is this seat's default ("Player 1" in the language shown), not one typed: saved
    # as such, so a game continued in another language shows that language's default
    default_name: bool = False

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


# While the negotiation clock runs, the autosave also records what is left of it this often
# (seconds of table time); actions are saved at once whatever this says.
CLOCK_SAVE_SECONDS = 2.0

class LocalSession(Session):
    """A hot-seat table: any mix of humans (on this screen) and bots. Its clocks and bots
    are the Master's (game.table.master, as on the LAN host), on a table clock that moves only
    in ``update(dt)`` while the table is not holding (animating, handing over, frozen)."""

    def __init__(
        self,
        seats: list[SeatSpec],
        seed: int,
        settings: Settings | None = None,
        setup: Setup | None = None,
        timing: Timing | None = None,
    ) -> None:
        names = [s.name for s in seats]
        self.settings = settings or Settings(players=len(seats))
        self.specs = list(seats)
        self.game = Game(names, seed, self.settings, setup)
        self.timing = timing or Timing()
        self.bots = {i: make_bot(s.kind, i, seed) for i, s in enumerate(seats) if not s.is_human}
        self.seats_local: tuple[int, ...] = tuple(i for i, s in enumerate(seats) if s.is_human)
        for bot in self.bots.values():
            bot.meet(self.seats_local)  # a gentle style spares the people (Friendly)
        self.viewer: int | None = self.seats_local[0] if len(self.seats_local) == 1 else None
        self.hold = False
        self.frozen = False  # a still picture: clocks and bots stop (screenshots)
        self.real_time = self.settings.window_mode is WindowMode.REAL_TIME
        if self.real_time and len(self.seats_local) > 1:
            raise ValueError("real-time windows need one screen per human: use ask-around")
        self._queue: list[tuple[list, int, str | None]] = []  # (events, version, error)
        self._views: dict[int | None, tuple[int, dict]] = {}
        self.table_clock = ManualClock(start=0.0)
        self._executor: ThreadPoolExecutor | None = None
        self._thoughts: list[tuple[Future, Callable]] = []  # bots thinking on the worker
        # Ask-around runs no clock (a person passing the screen is never hurried): the
        # one difference between this table and the LAN host's.
        self.master = Master(
            self.game,
            self.timing,
            self.table_clock,
            SeatPlayers(
                bots=lambda: self.bots,
                plays=self._plays,
                people=lambda: bool(self.seats_local),
            ),
            Transport(
                publish=self._publish, over=self._game_over, refused=self._refused,
                remark=self._bot_remark,
            ),  # fmt: skip
            rng=random.Random(seed ^ 0xD1CE),
            think=self._think,
            inline=self._inline,
            run_countdowns=self.real_time,
        )
        self.actions_applied = 0
        self.autosave = None  # an autosave.AutosaveWriter: saves after every action
        self.autosave_path = None  # this game's file in the writer's folder
        self._saved = -1  # how many actions the last autosave request held
        self._countdowns_saved_at = 0.0  # the table clock at the last save of running clocks
        self._head: dict | None = None
        opening = list(opening_events(self.game.state))
        self._queue.append((opening, 0, None))
        self.master.start(opening)

    @property
    def clock(self) -> float:
        """Seconds of table time (advances only while not holding)."""
        return self.table_clock.now()

    # -- what the table reads ----------------------------------------------------------

    @property
    def state(self):  # for tests and tools only: the table never reads it
        return self.game.state

    @property
    def players(self) -> int:
        return self.game.state.players

    @property
    def version(self) -> int:
        return self.game.state.actions_taken

    @property
    def over(self) -> bool:
        return self.game.state.phase is Phase.GAME_OVER

    def view(self, seat: int | None) -> dict:
        ver = self.version
        hit = self._views.get(seat)
        if hit is not None and hit[0] == ver:
            return hit[1]
        data = view(self.game.state, seat)
        self._views[seat] = (ver, data)
        return data

    def legal(self, seat: int) -> LegalActions:
        if seat is None or seat not in self.seats_local:
            return LegalActions()
        return legal_actions(self.game.state, seat)

    def waiting_for(self) -> list[int]:
        return waiting_for(self.game.state)

    def decision_seat(self) -> int | None:
        if self.over:
            return None
        for seat in self.waiting_for():
            if seat in self.seats_local:
                return seat
        return None

    def seat_record(self) -> SeatRecord:
        """Who played each seat (for the kept game's replay): the specs' kinds throughout."""
        return SeatRecord(tuple(s.kind for s in self.specs))

    def finished_game(self) -> FinishedGame:
        return FinishedGame(self.game, self.seat_record())

    def keep_finished(self) -> None:
        from .autosave import keep_finished
        from .replay_session import with_seat_kinds

        seats = self.seat_record()
        data = with_seat_kinds(self.game.to_data(), list(seats.kinds), seats.changes)
        with contextlib.suppress(OSError):
            keep_finished(data)

    def seat_info(self, seat: int) -> SeatInfo:
        spec = self.specs[seat]
        if spec.is_human:
            return SeatInfo(HUMAN, None, True, True)
        return SeatInfo("bot", spec.kind, True, False)

    def countdowns(self) -> list[Countdown]:
        """The Master's window and negotiation clocks while they still count for somebody
        (a window someone is asked in, a negotiation not yet timed out)."""
        st = self.game.state
        shown = {
            "window": st.window is not None and st.window.waiting,
            "negotiation": st.negotiation is not None and not st.negotiation.time_up,
        }
        return [Countdown(c.kind, c.left, c.total) for c in self.master.running() if shown.get(c.kind)]

    # -- acting ------------------------------------------------------------------------

    def send(self, action: Action) -> None:
        """A move from this screen (a human seat). Refusals come back as a batch error."""
        if action.seat not in self.seats_local:
            self._queue.append(([], self.version, "not your seat"))
            return
        self.master.submit(action)

    def apply_scripted(self, action: Action) -> None:
        """Any seat's move, for scripted scenes (screenshots, tests); raises if illegal."""
        self.master.apply(action)

    def say(self, seat: int, phrase: str) -> None:
        if seat in self.seats_local:
            self._queue.append(([_Phrase(seat, phrase)], self.version, None))

    def _bot_remark(self, seat: int, remark, phrase: bool) -> None:
        """What a bot said with the move it is making: a speech bubble (the bot scheduler lets at
        most one per bot through every PHRASE_GAP seconds) and, when it fails a deal, why."""
        out: list = []
        if remark.reason is not None and isinstance(remark.action, FailDeal):
            out.append(_GaveUp(seat, remark.reason))
        if phrase:
            out.append(_Phrase(seat, remark.phrase))
        if out:
            self._queue.append((out, self.version, None))

    def _plays(self, seat: int) -> bool:
        """A bot plays this seat now."""
        return seat in self.bots

    def _publish(self, state, events: list, origin, countdowns) -> None:
        """The master applied an action: the screen shows it on the next poll."""
        self.actions_applied += 1
        self._queue.append((events, self.version, None))

    def _refused(self, action: Action, exc: IllegalAction, origin) -> None:
        self._queue.append(([], self.version, f"[{exc.rule}] {exc.message}"))

    def poll(self) -> list[UpdateBatch]:
        """New events since the last poll. With one human they are that seat's own; when
        several humans share the screen they are the public ones, so nothing private
        outlives a hand-off in the log or the animations."""
        seat = self.viewer if len(self.seats_local) <= 1 else None
        out = []
        for events, version, error in self._queue:
            data = [
                e.to_data() if isinstance(e, (_Phrase, _GaveUp)) else e.for_seat(seat).to_data()
                for e in events
            ]
            out.append(UpdateBatch(data, version, error))
        self._queue.clear()
        return out

    # -- autosave ----------------------------------------------------------------------

    def attach_autosave(self, writer, path=None) -> None:
        """Save this game after every action from now on (hot-seat: nothing lost on a
        crash) to `path` (a continued game's own file) or a new file of its own; the first
        save is requested at once."""
        self.autosave = writer
        self.autosave_path = path if path is not None else writer.new_path()
        self._saved = -1
        self._autosave_tick()

    def _game_over(self) -> None:
        """The Master says the game ended: a finished game removes its autosave."""
        self._drop_autosave()

    def _autosave_tick(self) -> None:
        """Once a frame: a save request when actions were applied since the last one (the
        writer works on its own thread)."""
        writer = self.autosave
        if writer is None:
            return
        n = len(self.game.log)
        # A running negotiation clock is saved now and then too, so Continue resumes it
        # with (nearly) what was left rather than from full.
        clocks_due = (
            self.real_time
            and self.clock - self._countdowns_saved_at >= CLOCK_SAVE_SECONDS
            and bool(self.countdowns_left())
        )
        if n != self._saved or clocks_due:
            from .autosave import seats_data

            self._saved = n
            self._countdowns_saved_at = self.clock
            writer.save(self.autosave_path, self._header(), self.game.log, seats_data(self))

    def _header(self) -> dict:
        """The save file without its actions (made once)."""
        if self._head is None:
            head = self.game.to_data()
            head.pop("actions")
            self._head = head
        return self._head

    def countdowns_left(self) -> dict[str, float]:
        """Seconds left on the running negotiation clock (real time), for the autosave."""
        return {c.kind: round(c.remaining, 2) for c in self.countdowns() if c.kind == "negotiation"}

    def resume_countdowns(self, left: dict[str, float]) -> None:
        """Run the negotiation clock on from what `countdowns_left` gave (a restored autosave),
        so leaving and continuing does not buy a fresh three minutes. A reaction window's
        few seconds start afresh: the player coming back must see the play it answers."""
        negotiation = left.get("negotiation")
        if negotiation is not None:
            self.master.resume_negotiation(float(negotiation))

    def abandon(self) -> None:
        """The players left the game: its autosave goes."""
        self._drop_autosave()

    def _drop_autosave(self) -> None:
        if self.autosave is not None:
            self.autosave.discard(self.autosave_path)
            self.autosave = None

    # -- the clock and the bots --------------------------------------------------------

    def update(self, dt: float) -> None:
        self._autosave_tick()
        if self.over or self.hold or self.frozen:
            return
        self._collect_thoughts()
        self.table_clock.tick(dt)
        # and again once the bots have moved: a frame never ends with an unsaved action
        self._autosave_tick()

    # Bots think on a worker thread: a search bot may take a good part of a second, and a
    # frame must never wait for it. Its answer is handed to the bot scheduler on a later frame
    # (the bot scheduler drops it if the game has moved on, and keeps events from a thinking bot
    # until it has answered: observe() never runs beside choose()).

    def _inline(self, bot) -> bool:
        return not bot.needs_view or getattr(bot, "kind", "") in QUICK_BOTS

    def _think(self, call: Callable, done: Callable) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        self._thoughts.append((self._executor.submit(call), done))

    def _collect_thoughts(self) -> None:
        ready = [t for t in self._thoughts if t[0].done()]
        for thought in ready:
            self._thoughts.remove(thought)
            fut, done = thought
            done(None if fut.cancelled() or fut.exception() else fut.result())

    def wait_for_bots(self, timeout: float = 30.0) -> None:
        """Let every thinking bot answer (tests and tools: the next frame then sees it)."""
        for fut, _done in list(self._thoughts):
            fut.result(timeout=timeout)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        self._thoughts.clear()


@dataclass(frozen=True)
class _GaveUp:
    """A bot Boss's reason for failing a deal ("reason.too_expensive"), for the log."""

    seat: int
    reason: str

    def to_data(self) -> dict:
        return {"type": "gave_up", "seat": self.seat, "reason": self.reason}


@dataclass(frozen=True)
class _Phrase:
    seat: int
    key: str

    def to_data(self) -> dict:
        return {"type": "phrase", "seat": self.seat, "key": self.key}
