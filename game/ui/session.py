"""Hot-seat play on one screen: `LocalSession` owns a `game.rules.Game`, acts for the bot
seats with short human-like delays (inside `update(dt)`, never blocking a frame), and hands
the table per-seat redacted events, exactly as a LAN client would receive them.

Ask-around mode (the hot-seat default, docs/RULES.md §6) asks one seat at a time, so at most one
seat is ever awaited: a bot there acts after its delay, a human there needs the screen
(the table shows a hand-off first when that human is not the one looking).

Real-time mode (allowed here with at most one human) runs the host's clocks: a window
closes when its countdown ends (everyone still asked passes), the negotiation clock ends in
`TimeUp`, and bots may act whenever they like, a moment at a time.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from game.bots import make_bot
from game.bots.pacing import FAIR_START
from game.bots.talk import PhraseGate
from game.rules import (
    HOST,
    Action,
    FailDeal,
    Game,
    IllegalAction,
    LegalActions,
    Phase,
    Settings,
    Setup,
    TimeUp,
    WindowMode,
    default_action,
    legal_actions,
    opening_events,
    view,
    waiting_for,
)
from game.rules.view import events_for

from .session_api import Countdown, SeatInfo, UpdateBatch

HUMAN = "human"
# Bot kinds that decide in well under a millisecond are asked on the spot; any other kind
# (a search bot takes up to a second) thinks on the worker thread.
QUICK_BOTS = frozenset({"random", "heuristic"})


@dataclass(frozen=True)
class SeatSpec:
    name: str
    kind: str = HUMAN  # "human" or a bot spec for game.bots.make_bot ("random", ...)

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


@dataclass(frozen=True)
class Timers:
    """Real-time clocks (docs/RULES.md §6 defaults) and the bots' pace."""

    stop_seconds: float = 5.0
    going_once_seconds: float = 3.0
    negotiation_seconds: float = 180.0  # 0: no clock
    bot_pace: float = 1.0  # > 1: bots act faster (the speed setting)
    # Real time: a bot Boss that has seen nothing happen for this long must settle (close,
    # or fail a deal that waits for a card nobody plays) instead of waiting out the clock.
    bot_patience: float = 20.0
    # Real time: no bot answers a window or plays into a deal sooner than this after it
    # opened (game.bots.pacing, shared with the LAN host; not sped up by bot_pace)
    fair_start: float = FAIR_START


# While the negotiation clock runs, the autosave also records what is left of it this often
# (seconds of table time); actions are saved at once whatever this says.
CLOCK_SAVE_SECONDS = 2.0

# Bot "thinking" delays in seconds (lo, hi), by the kind of move they are about to make.
DELAYS = {
    "pass": (0.35, 0.7),
    "pass_floor": (0.45, 0.9),
    "turn": (0.55, 1.0),
    "negotiate": (0.7, 1.4),
    "card": (0.8, 1.5),
}
_DELAY_KIND = {
    "pass": "pass",
    "pass_floor": "pass_floor",
    "roll": "turn",
    "draw": "turn",
    "discard": "turn",
    "place_marker": "turn",
    "open_deal": "turn",
    "play_travel": "card",
    "play_boss": "card",
    "play_stop": "card",
    "recruit": "card",
}


class LocalSession:
    """A hot-seat table: any mix of humans (on this screen) and bots."""

    def __init__(
        self,
        seats: list[SeatSpec],
        seed: int,
        settings: Settings | None = None,
        setup: Setup | None = None,
        timers: Timers | None = None,
    ) -> None:
        names = [s.name for s in seats]
        self.settings = settings or Settings(players=len(seats))
        self.specs = list(seats)
        self.game = Game(names, seed, self.settings, setup)
        self.timers = timers or Timers()
        self.bots = {i: make_bot(s.kind, i, seed) for i, s in enumerate(seats) if not s.is_human}
        self.seats_local: tuple[int, ...] = tuple(i for i, s in enumerate(seats) if s.is_human)
        self.viewer: int | None = self.seats_local[0] if len(self.seats_local) == 1 else None
        self.hold = False
        self.frozen = False  # a still picture: clocks and bots stop (screenshots)
        self.real_time = self.settings.window_mode is WindowMode.REAL_TIME
        if self.real_time and len(self.seats_local) > 1:
            raise ValueError("real-time windows need one screen per human: use ask-around")
        self._rng = random.Random(seed ^ 0xD1CE)
        self._queue: list[tuple[list, int, str | None]] = []  # (events, version, error)
        self._views: dict[int | None, tuple[int, dict]] = {}
        self._planned: tuple[int, int, Action] | None = None  # (version, seat, action)
        self._timer = 0.0
        self._delay = 0.0
        self.clock = 0.0  # seconds of table time (advances only while not holding)
        self._window_deadline = 0.0
        self._window_total = 0.0
        self._answers: dict[int, float] = {}  # real time: when each bot answers the window
        self._neg_deadline: float | None = None
        self._deal_fair_until = 0.0  # real time: no bot plays into the deal before this
        self._idle_next = 0.0
        self._phrase_gate = PhraseGate()
        self._idle_seat: int | None = None
        self._moved_at = 0.0  # the clock at the last action (real time: a bot Boss's patience)
        self._job = None  # ((version, seat, must), Future) of the bot now thinking
        self._executor: ThreadPoolExecutor | None = None
        self._unseen: dict[int, list] = {}  # events a thinking bot will observe afterwards
        self._planning: tuple | None = None
        self.actions_applied = 0
        self.autosave = None  # an autosave.AutosaveWriter: saves after every action
        self._saved = -1  # how many actions the last autosave request held
        self._clocks_saved_at = 0.0  # the table clock at the last save of running clocks
        self._head: dict | None = None
        self._queue.append((list(opening_events(self.game.state)), 0, None))
        for seat, bot in self.bots.items():
            bot.observe(events_for(self._queue[0][0], seat))

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

    def seat_info(self, seat: int) -> SeatInfo:
        spec = self.specs[seat]
        if spec.is_human:
            return SeatInfo(HUMAN, None, True, True)
        return SeatInfo("bot", spec.kind, True, False)

    def countdowns(self) -> list[Countdown]:
        out = []
        st = self.game.state
        if not self.real_time:
            return out
        if st.window is not None and st.window.waiting:
            out.append(
                Countdown(
                    "window", max(0.0, self._window_deadline - self.clock), self._window_total
                )
            )
        if (
            st.negotiation is not None
            and self._neg_deadline is not None
            and not st.negotiation.time_up
        ):
            total = self.timers.negotiation_seconds
            out.append(Countdown("negotiation", max(0.0, self._neg_deadline - self.clock), total))
        return out

    # -- acting ------------------------------------------------------------------------

    def send(self, action: Action) -> None:
        """A move from this screen (a human seat). Refusals come back as a batch error."""
        if action.seat not in self.seats_local:
            self._queue.append(([], self.version, "not your seat"))
            return
        self._apply(action)

    def apply_scripted(self, action: Action) -> None:
        """Any seat's move, for scripted scenes (screenshots, tests); raises if illegal."""
        events = self.game.apply(action)
        self.actions_applied += 1
        self._moved_at = self.clock
        self._queue.append((events, self.version, None))
        self._observe(events)
        if self.real_time:
            self._clock_events(events)
        self._planned = None

    def say(self, seat: int, phrase: str) -> None:
        if seat in self.seats_local:
            self._queue.append(([_Phrase(seat, phrase)], self.version, None))

    def _bot_remark(self, action: Action) -> list:
        """What a bot said with the move just applied: a speech bubble (at most one per bot
        every PHRASE_GAP seconds) and, when it failed a deal, why (for the log)."""
        bot = self.bots.get(action.seat)
        remark = bot.remark() if bot is not None else None
        if remark is None or remark.action != action:
            return []
        out: list = []
        if remark.reason is not None and isinstance(action, FailDeal):
            out.append(_GaveUp(action.seat, remark.reason))
        if remark.phrase is not None and self._phrase_gate.allow(action.seat, self.clock):
            out.append(_Phrase(action.seat, remark.phrase))
        return out

    def _apply(self, action: Action) -> bool:
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            self._queue.append(([], self.version, f"[{exc.rule}] {exc.message}"))
            return False
        self.actions_applied += 1
        self._moved_at = self.clock
        said = self._bot_remark(action)
        if said:
            self._queue.append((said, self.version, None))
        self._queue.append((events, self.version, None))
        if self.real_time:
            self._clock_events(events)
        self._observe(events)
        self._planned = None
        return True

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

    def attach_autosave(self, writer) -> None:
        """Save this game after every action from now on (hot-seat: nothing lost on a
        crash); the first save is requested at once."""
        self.autosave = writer
        self._saved = -1
        self._autosave_tick()

    def _autosave_tick(self) -> None:
        """Once a frame: a save request when actions were applied since the last one (the
        writer works on its own thread); a finished game removes the autosave."""
        writer = self.autosave
        if writer is None:
            return
        if self.over:
            writer.discard()
            self.autosave = None
            return
        n = len(self.game.log)
        # A running negotiation clock is saved now and then too, so Continue resumes it
        # with (nearly) what was left rather than from full.
        clocks_due = (
            self.real_time
            and self.clock - self._clocks_saved_at >= CLOCK_SAVE_SECONDS
            and bool(self.clocks_left())
        )
        if n != self._saved or clocks_due:
            from .autosave import seats_data

            self._saved = n
            self._clocks_saved_at = self.clock
            writer.save(self._header(), self.game.log, seats_data(self))

    def _header(self) -> dict:
        """The save file without its actions (made once)."""
        if self._head is None:
            head = self.game.to_data()
            head.pop("actions")
            self._head = head
        return self._head

    def clocks_left(self) -> dict[str, float]:
        """Seconds left on the running negotiation clock (real time), for the autosave."""
        return {c.kind: round(c.remaining, 2) for c in self.countdowns() if c.kind == "negotiation"}

    def resume_clocks(self, left: dict[str, float]) -> None:
        """Run the negotiation clock on from what `clocks_left` gave (a restored autosave),
        so leaving and continuing does not buy a fresh three minutes. A reaction window's
        few seconds start afresh: the player coming back must see the play it answers."""
        negotiation = left.get("negotiation")
        if self.real_time and negotiation is not None and self._neg_deadline is not None:
            secs = min(float(negotiation), self.timers.negotiation_seconds)
            self._neg_deadline = self.clock + secs

    def abandon(self) -> None:
        """The players left the game: its autosave goes."""
        if self.autosave is not None:
            self.autosave.discard()
            self.autosave = None

    # -- the clock and the bots --------------------------------------------------------

    def update(self, dt: float) -> None:
        self._autosave_tick()
        if self.over or self.hold or self.frozen:
            return
        self.clock += dt
        if self.real_time:
            self._update_real_time(dt)
        else:
            self._update_ask_around(dt)
        # and again once the bots have moved: a frame never ends with an unsaved action
        self._autosave_tick()

    # Bots think on a worker thread: a search bot may take a good part of a second, and a
    # frame must never wait for it. The question is tied to the state version; an answer
    # to a question the game has moved past is dropped. Events reach a thinking bot only
    # after it has answered (observe() never runs beside choose()).

    def _ask(self, seat: int, must: bool) -> tuple[bool, Action | None]:
        """(ready, action): ask bot `seat` for a move now; ready once it has answered."""
        key = (self.version, seat, must)
        job = self._job
        if job is not None:
            jkey, fut = job
            if not fut.done():
                return False, None
            self._job = None
            self._flush_observe(jkey[1])
            if jkey == key:
                return True, fut.result()
        st = self.game.state
        bot = self.bots[seat]
        v = view(st, seat) if bot.needs_view else None
        legal = legal_actions(st, seat).moves()
        if getattr(bot, "kind", "") in QUICK_BOTS:
            return True, bot.choose(v, legal, must)  # a few microseconds: no thread needed
        self._job = (key, self._pool().submit(bot.choose, v, legal, must))
        return False, None

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _observe(self, events) -> None:
        thinking = self._job[0][1] if self._job is not None else None
        for seat, bot in self.bots.items():
            if seat == thinking:
                self._unseen.setdefault(seat, []).append(events)
            else:
                bot.observe(events_for(events, seat))

    def _flush_observe(self, seat: int) -> None:
        for events in self._unseen.pop(seat, []):
            self.bots[seat].observe(events_for(events, seat))

    def _delay_for(self, action: Action) -> float:
        kind = _DELAY_KIND.get(action.type, "negotiate")
        lo, hi = DELAYS[kind]
        return self._rng.uniform(lo, hi) / max(0.05, self.timers.bot_pace)

    def _plan(self, seat: int, dt: float) -> None:
        """The awaited bot thinks (its thinking time counts toward its delay), then acts."""
        ver = self.version
        if self._planned is not None and self._planned[0] == ver and self._planned[1] == seat:
            self._timer += dt
            if self._timer >= self._delay:
                self._apply(self._planned[2])
            return
        if self._planning != (ver, seat):
            self._planning = (ver, seat)
            self._timer = 0.0
        else:
            self._timer += dt
        ready, action = self._ask(seat, True)
        if not ready:
            return
        if action is None:
            action = default_action(self.game.state, seat)
        self._planned = (ver, seat, action)
        self._delay = self._delay_for(action)

    def _update_ask_around(self, dt: float) -> None:
        waiting = self.waiting_for()
        if not waiting:
            return
        seat = waiting[0]
        if seat not in self.bots:
            self._planned = None
            return
        self._plan(seat, dt)

    def _clock_events(self, events) -> None:
        """Real time: a window or a negotiation that opens starts its clock."""
        for e in events:
            if e.type == "window_opened":
                total = (
                    self.timers.going_once_seconds
                    if e.kind == "going_once"
                    else self.timers.stop_seconds
                )
                self._window_deadline = self.clock + total
                self._window_total = total
                pace = max(0.05, self.timers.bot_pace)
                fair = self._fair_start()
                self._answers = {
                    s: self.clock
                    + min(
                        total,
                        max(fair, self._rng.uniform(0.5, max(0.6, min(total - 0.4, 2.2))) / pace),
                    )
                    for s in e.asked
                    if s in self.bots
                }
            elif e.type == "deal_opened":
                secs = self.timers.negotiation_seconds
                self._neg_deadline = self.clock + secs if secs > 0 else None
                self._deal_fair_until = self.clock + self._fair_start()

    def _fair_start(self) -> float:
        """The people's head start on the bots (none at a table of bots only)."""
        return self.timers.fair_start if self.seats_local else 0.0

    def _update_real_time(self, dt: float) -> None:
        st = self.game.state
        neg = st.negotiation
        if (
            neg is not None
            and self._neg_deadline is not None
            and self.clock >= self._neg_deadline
            and not neg.time_up
        ):
            self._apply(TimeUp(HOST))  # the host's negotiation clock runs out
            return
        win = st.window
        if win is not None:
            if self.clock >= self._window_deadline:
                # Time is up: everyone still asked lets the play stand.
                while self.game.state.window is win and win.waiting:
                    self._apply(default_action(self.game.state, win.waiting[0]))
                return
            for seat in list(win.waiting):
                if seat in self.bots and self.clock >= self._answers.get(seat, 0.0):
                    ready, action = self._ask(seat, True)
                    if ready:
                        self._apply(action or default_action(st, seat))
                    return
            return
        if neg is not None and self.clock < self._deal_fair_until:
            return  # a fresh deal: the person gets the first second
        waiting = self.waiting_for()
        must = [s for s in waiting if s in self.bots]
        if must:
            self._plan(must[0], dt)
            return
        if neg is None:
            return
        # Real-time negotiation: now and then one bot gets the moment (it may let it pass).
        # A bot Boss that has seen nothing happen for a while must settle.
        settle = neg.boss in self.bots and self.clock - self._moved_at >= self.timers.bot_patience
        if self._idle_seat is None:
            if self.clock < self._idle_next:
                return
            seats = [s for s in self.bots if legal_actions(st, s).moves()]
            if not seats:
                return
            self._idle_seat = neg.boss if settle and neg.boss in seats else self._rng.choice(seats)
        seat = self._idle_seat
        ready, action = self._ask(seat, seat in waiting or (settle and seat == neg.boss))
        if not ready:
            return
        self._idle_seat = None
        self._idle_next = self.clock + self._rng.uniform(0.5, 1.2) / max(0.05, self.timers.bot_pace)
        if action is not None and action in legal_actions(st, seat):
            self._apply(action)


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
