"""The referee: the host's part of a game, written once for the LAN host, hot-seat and
headless runs (compare boardgame.io's ``Master``, which knows only a transport and storage).

It owns every real-time countdown (reaction windows with their "going once / going twice"
stages, the negotiation clock, the optional turn clock) and what happens when one runs out
(everyone still asked passes, ``TimeUp``, the waiting seat's default action); it schedules
the bots (answer times, pauses, the real-time negotiation tick, a bot Boss's patience, the
people's fair start, the phrase gate) and keeps a thinking bot from hearing events until it
has answered. Everything runs on an injected ``game.clock.Clock``.

What only its owner knows comes in through ``Hooks``: how an action is applied and told to
everybody (``apply``; the owner then calls ``after_action``), which seats a bot plays now,
whether a person sits at the table, where a bot may think (a worker thread), and where
notices go (timers changed, a bot's phrase).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from game.bots.base import Bot
from game.bots.pacing import (
    ANSWER_AFTER,
    ANSWER_BY,
    BOT_PATIENCE,
    FAIR_START,
    FLOOR_HURRY,
    HURRY_MARGIN,
    MIN_PAUSE,
    Patience,
)
from game.bots.talk import PhraseGate
from game.clock import Clock, Timer
from game.rules import (
    HOST,
    Action,
    Pass,
    Phase,
    TimeUp,
    WindowMode,
    asked_seats,
    default_action,
    legal_actions,
    view,
    waiting_for,
)
from game.rules.events import (
    Asked,
    DealClosed,
    DealFailed,
    DealOpened,
    Event,
    WindowClosed,
    WindowOpened,
)
from game.rules.view import LazyView, events_for

# Enum members read once: on its class a member is a descriptor lookup (~70 ns in Python
# 3.11), and these are read on every action, a simulated one too.
_GAME_OVER = Phase.GAME_OVER
_NEGOTIATION = Phase.NEGOTIATION
_REAL_TIME = WindowMode.REAL_TIME


class _LazyLog:
    """``logging`` on first use: it loads threading, which a simulation never needs."""

    def __getattr__(self, name):
        import logging

        return getattr(logging.getLogger(__name__), name)


log = _LazyLog()


@dataclass
class Timing:
    """Seconds; one name per knob for every table. Defaults follow docs/RULES.md §6 (5 s
    Stop windows, 3 s per "going once / going twice", a 3-minute negotiation clock)."""

    window: float = 5.0  # Travel / Boss / Recruitment reaction windows
    going_once: float = 3.0  # per stage: the call's window lasts two stages
    negotiation: float = 180.0  # then TimeUp: only close or fail (0: no clock)
    turn: float = 0.0  # turn clock for the seat the game waits for (0: off)
    grace: float = 30.0  # LAN: a dropped player's seat waits this long before a bot plays it
    start_after: float | None = None  # LAN: start (bots fill empty seats) this long after start
    bot_answer: float = 1.5  # bots answer every window exactly this long after it opens
    bot_delay: float = 0.8  # bots' pause before a move the game waits for
    bot_tick: float = 1.0  # how often bots are offered the moment in real-time negotiation
    bot_pace: float = 1.0  # > 1: bots' answers, pauses and ticks are that much shorter
    # no bot answers a window or plays into a deal sooner than this after it opened
    # (game.bots.pacing; not sped up by bot_pace): a person has a fair chance to act first
    fair_start: float = FAIR_START
    # Real time: a bot Boss that has seen nothing happen for this long must settle (close,
    # or fail a deal that waits for a card nobody plays) instead of waiting out the clock.
    bot_patience: float = BOT_PATIENCE

    def window_length(self, kind: str) -> float:
        return 2 * self.going_once if kind == "going_once" else self.window

    def paced(self, seconds: float) -> float:
        return seconds / max(0.05, self.bot_pace)

    def answer_delay(self, kind: str, people: bool = True) -> float:
        """When bots answer a window: fixed, whatever they hold, never after it ends, and
        (with ``people`` at the table) never within the fair start."""
        floor = self.fair_start if people else 0.0
        return min(max(self.paced(self.bot_answer), floor), self.window_length(kind))


def timing_from_data(data: dict) -> Timing:
    """A ``Timing`` from saved knobs (a hot-seat autosave); a knob this version does not
    have is left out with a warning naming it, the others keep their saved values."""
    known = Timing.__dataclass_fields__
    out = {}
    for key, value in data.items():
        if key not in known:
            log.warning("saved timing: no knob %r (knobs: %s); ignored", key, ", ".join(known))
        elif value is not None:
            out[key] = float(value)
    return Timing(**out)


def _always() -> bool:
    """The default ``Hooks.active``: an owner that runs one game for its whole life."""
    return True


def _nobody() -> bool:
    """The default ``Hooks.people``: bots only (no fair start to keep)."""
    return False


def _sync_think(call: Callable[[], Action | None], done: Callable) -> None:
    done(call())


@dataclass
class Hooks:
    """What the referee asks of its owner (the LAN host, the hot-seat session, a simulation)."""

    apply: Callable[[Action], bool]  # apply and tell everybody; the owner calls after_action
    bots: Callable[[], dict[int, Bot]]  # every bot object (they all hear the game)
    plays: Callable[[int], bool]  # a bot plays this seat now
    people: Callable[[], bool] = _nobody  # a person sits at the table (fair start)
    # think(call, done): run call() (a bot's choice) somewhere and done(result) back here
    think: Callable[[Callable[[], Action | None], Callable], None] = _sync_think
    # inline(bot): ask this bot on the spot rather than through think (a quick bot)
    inline: Callable[[Bot], bool] = lambda bot: not getattr(bot, "needs_view", True)
    active: Callable[[], bool] = _always  # the owner is running a game
    on_stage: Callable[[], None] = lambda: None  # "going twice": tell the table now
    on_phrase: Callable[[int, str], None] = lambda seat, key: None  # a bot's phrase.* key
    # on_remark(seat, remark, phrase): a bot's remark with the move it is about to make;
    # phrase: the phrase gate lets its phrase through (on_phrase follows after the move)
    on_remark: Callable[[int, object, bool], None] = lambda seat, remark, phrase: None


@dataclass
class WindowClock:
    id: int
    kind: str
    opened: float
    deadline: float
    stage: str | None
    timers: list[Timer] = field(default_factory=list)


@dataclass
class Deadline:
    """The negotiation or turn clock while it runs: when it ends, the timer armed for then."""

    deadline: float
    timer: Timer
    serial: int = 0
    seats: list[int] = field(default_factory=list)


class Referee:
    def __init__(
        self,
        game_state: Callable,
        timing: Timing,
        clock: Clock,
        hooks: Hooks,
        *,
        rng,
        clocks: bool = True,
        stats: Counter | None = None,
    ) -> None:
        """``game_state()`` gives the state now; ``clocks`` False runs no countdown at all
        (hot-seat ask-around: a person is never hurried); ``rng`` orders the bots."""
        self._state = game_state
        self.timing = timing
        self.clock = clock
        self.hooks = hooks
        self.clocks = clocks
        self.stats = stats if stats is not None else Counter()
        self._rng = rng
        self.window: WindowClock | None = None
        self.negotiation: Deadline | None = None
        self.turn: Deadline | None = None
        self.serial = 0  # bumped whenever a countdown changes
        self._window_id = 0
        self._deal_serial = 0
        self._bot_timer: Timer | None = None
        # A waited-for bot's move due at once, while a bot callback runs (``_drive``): that
        # callback makes it next, as the clock would have, without arming a timer.
        self._due: tuple[int, float, int] | None = None  # (state version, clock time, seat)
        self._driving = False
        self._answer_timers: dict[tuple[int, int], Timer] = {}
        self._phrase_gate = PhraseGate()
        self._patience = Patience()  # how long the bots have seen the negotiation stand still
        self._deal_fair_until = -1e18  # no bot plays into the deal before this (clock time)
        # a person's offers a bot Boss has yet to answer: (boss, seat, terms) -> since when
        self._offers_waiting: dict[tuple, float] = {}
        self._thinking: set[int] = set()
        self._backlog: dict[int, list] = {}  # events a thinking bot hears afterwards
        # the bots that listen, worked out again only when the seat-to-bot map changes
        self._listen_map: dict[int, Bot] = {}
        self._listeners: list[tuple[int, Bot]] = []
        self._traits: dict[int, tuple[Bot, BotTraits]] = {}  # id(bot): what it needs

    @property
    def state(self):
        return self._state()

    def _running(self, st=None) -> bool:
        """The owner runs a game that is not over (``st``: the state, if already at hand)."""
        active = self.hooks.active
        if active is not _always and not active():
            return False
        return (st if st is not None else self._state()).phase is not _GAME_OVER

    def thinking(self, seat: int) -> bool:
        return seat in self._thinking

    # ------------------------------------------------------------------ after an action

    def after_action(self, events: list[Event]) -> None:
        """After the owner applied an action and told the table: bots hear it, the bots'
        next moves are planned (clocks were set by ``clocks_after`` before telling)."""
        self.observe(events)
        st = self._state()
        active = self.hooks.active
        if st.phase is not _GAME_OVER and (active is _always or active()):
            self._plan(st)
        else:
            self.cancel_all()

    def observe(self, events: list[Event]) -> None:
        listeners = self._listening()
        if listeners:
            self._tell(listeners, events)

    def _tell(self, listeners: list[tuple[int, Bot]], events: list[Event]) -> None:
        for seat, bot in listeners:
            seen = events_for(events, seat)
            if seat in self._thinking:  # never touch a bot while a worker thread uses it
                self._backlog.setdefault(seat, []).append(seen)
                continue
            try:
                bot.observe(seen)
            except Exception:
                log.exception("bot %d observe failed", seat)

    def _listening(self) -> list[tuple[int, Bot]]:
        """(seat, bot) of every bot that listens, in the map's order. Worked out again when
        the map differs from a kept copy: bots compare by identity (``Bot`` defines no
        ``__eq__``), and the copy keeps them alive, so another bot never passes for one."""
        bots = self.hooks.bots()
        if bots != self._listen_map:
            self._listen_map = dict(bots)
            self._listeners = [(seat, bot) for seat, bot in bots.items() if listens(bot)]
            self._traits.clear()
        return self._listeners

    def _traits_of(self, bot: Bot) -> BotTraits:
        """What ``bot`` needs, looked up once while it sits (keyed by identity: the entry
        keeps the bot alive, so another bot never reuses its id)."""
        entry = self._traits.get(id(bot))
        if entry is None or entry[0] is not bot:
            entry = (bot, BotTraits.of(bot, self.hooks.inline(bot)))
            self._traits[id(bot)] = entry
        return entry[1]

    def _flush_backlog(self, seat: int, bot: Bot) -> None:
        for seen in self._backlog.pop(seat, []):
            try:
                bot.observe(seen)
            except Exception:
                log.exception("bot %d observe failed", seat)

    # ------------------------------------------------------------------ countdowns

    def clocks_after(self, events: list[Event]) -> None:
        """Keep the countdowns in step with the state after an action (or a start/resume)."""
        if not self.clocks:
            if any(type(e) is DealOpened for e in events):
                self._deal_fair_until = self.clock.now() + self.timing.fair_start
            return
        handlers = _CLOCK_EVENTS
        for e in events:
            on_event = handlers.get(type(e))
            if on_event is not None:
                on_event(self, e)
        st = self._state()
        if st.phase is _GAME_OVER:
            self.cancel_all()
            return
        # A resumed game (no events) may sit in a window or a negotiation: fresh clocks.
        if (st.window is None) is not (self.window is None):
            if st.window is None:
                self._close_window()
            else:
                self._open_window(st.window.kind.value)
        neg = st.negotiation
        if neg is None:
            if self.negotiation is not None:
                self._stop_negotiation()
        elif self.negotiation is None and not neg.time_up:
            self._start_negotiation()
        if self.timing.turn > 0:
            self._restart_turn()

    def _on_window_opened(self, e: WindowOpened) -> None:
        self._open_window(e.kind)

    def _on_window_closed(self, e: WindowClosed) -> None:
        self._close_window()

    def _on_asked(self, e: Asked) -> None:
        if self.window is not None:  # ask-around: the next one asked gets the whole window
            self._open_window(self.window.kind)

    def _on_deal_opened(self, e: DealOpened) -> None:
        self._deal_fair_until = self.clock.now() + self.timing.fair_start
        self._start_negotiation()

    def _on_deal_ended(self, e: DealClosed | DealFailed) -> None:
        self._stop_negotiation()

    def resume_negotiation(self, seconds: float) -> None:
        """Run the negotiation clock on with ``seconds`` left (a restored game)."""
        n = self.negotiation
        if n is None:
            return
        n.timer.cancel()
        n.deadline = self.clock.now() + min(float(seconds), self.timing.negotiation)
        n.timer = self.clock.call_at(n.deadline, partial(self._negotiation_expired, n.serial))
        self._touch()

    def _touch(self) -> None:
        self.serial += 1  # the LAN host compares it with the serial of the timers it last sent

    def cancel_all(self) -> None:
        self._close_window()
        self._stop_negotiation()
        self._stop_turn()
        self._due = None
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None
        for timer in self._answer_timers.values():
            timer.cancel()
        self._answer_timers.clear()

    def _open_window(self, kind: str) -> None:
        self._close_window()
        self._window_id += 1
        now = self.clock.now()
        wid = self._window_id
        w = WindowClock(
            wid,
            kind,
            now,
            now + self.timing.window_length(kind),
            "going_once" if kind == "going_once" else None,
        )
        w.timers.append(self.clock.call_at(w.deadline, partial(self._window_expired, wid)))
        if kind == "going_once":
            w.timers.append(
                self.clock.call_at(now + self.timing.going_once, partial(self._going_twice, wid))
            )
        self.window = w
        self._touch()

    def _close_window(self) -> None:
        w = self.window
        if w is None:
            return
        for timer in w.timers:
            timer.cancel()
        if self._answer_timers:  # (mostly answered already: nothing to look through)
            for key in [k for k in self._answer_timers if k[0] == w.id]:
                self._answer_timers.pop(key).cancel()
        self.window = None
        self._touch()

    def _going_twice(self, wid: int) -> None:
        w = self.window
        if w is None or w.id != wid:
            return
        w.stage = "going_twice"
        self._touch()
        self.hooks.on_stage()

    def _window_expired(self, wid: int) -> None:
        """Time is up: everyone who has not answered passes (in seat order)."""
        while self.window is not None and self.window.id == wid and self._running():
            asked = asked_seats(self.state)
            if not asked:
                break
            self.stats["window_timeouts"] += 1
            if not self.hooks.apply(Pass(asked[0])):
                break

    def _start_negotiation(self) -> None:
        self._stop_negotiation()
        if self.timing.negotiation <= 0:
            return
        self._deal_serial += 1
        deadline = self.clock.now() + self.timing.negotiation
        serial = self._deal_serial
        timer = self.clock.call_at(deadline, partial(self._negotiation_expired, serial))
        self.negotiation = Deadline(deadline, timer, serial)
        self._touch()

    def _stop_negotiation(self) -> None:
        if self.negotiation is not None:
            self.negotiation.timer.cancel()
            self.negotiation = None
            self._touch()

    def _negotiation_expired(self, serial: int) -> None:
        n = self.negotiation
        if n is None or n.serial != serial:
            return
        self.negotiation = None
        self._touch()
        neg = self.state.negotiation
        if neg is not None and not neg.time_up and self._running():
            self.hooks.apply(TimeUp(HOST))

    def _restart_turn(self) -> None:
        if self.timing.turn <= 0:
            return
        st = self._state()
        waiting = waiting_for(st) if st.window is None else []
        old = self.turn
        if old is not None:
            old.timer.cancel()
        if not waiting:
            if old is not None:
                self.turn = None
                self._touch()
            return
        deadline = self.clock.now() + self.timing.turn
        timer = self.clock.call_at(deadline, partial(self._turn_expired, st.actions_taken))
        self.turn = Deadline(deadline, timer, seats=list(waiting))
        self._touch()

    def _stop_turn(self) -> None:
        if self.turn is not None:
            self.turn.timer.cancel()
            self.turn = None
            self._touch()

    def _turn_expired(self, version: int) -> None:
        st = self._state()
        if not self._running(st) or st.actions_taken != version or st.window is not None:
            return
        for seat in waiting_for(st):
            action = default_action(st, seat)
            if action is not None:
                self.stats["turn_timeouts"] += 1
                self.hooks.apply(action)
                return

    def timers_data(self) -> dict:
        """The countdowns as the protocol's ``timers`` (milliseconds left and in all)."""
        now = self.clock.now()

        def ms(deadline: float) -> int:
            return max(0, int(round((deadline - now) * 1000)))

        out: dict = {"window": None, "negotiation": None, "turn": None}
        w = self.window
        if w is not None:
            out["window"] = {
                "kind": w.kind,
                "stage": w.stage,
                "ms": ms(w.deadline),
                "total_ms": int(round((w.deadline - w.opened) * 1000)),
            }
        n = self.negotiation
        if n is not None:
            out["negotiation"] = {
                "ms": ms(n.deadline),
                "total_ms": int(self.timing.negotiation * 1000),
            }
        t = self.turn
        if t is not None:
            out["turn"] = {
                "seats": t.seats,
                "ms": ms(t.deadline),
                "total_ms": int(self.timing.turn * 1000),
            }
        return out

    # ------------------------------------------------------------------ bots

    def _fair_delay(self, delay: float, st) -> float:
        """``delay``, stretched so that a bot move lands after a fresh deal's fair start."""
        people = self.hooks.people
        if st.phase is not _NEGOTIATION or people is _nobody or not people():
            return delay
        return max(delay, self._deal_fair_until - self.clock.now())

    def _offer_waits(self, st) -> float | None:
        """Since when the oldest person's offer that a bot Boss has not answered could be
        answered (real time: once made; ask-around: once the floor left the person)."""
        neg = st.negotiation
        if (
            neg is None
            or not neg.pending
            or self.hooks.people is _nobody  # no person at the table (a simulation)
            or not self.hooks.plays(neg.boss)
        ):
            self._offers_waiting = {}
            return None
        now = self.clock.now()
        real_time = st.settings.window_mode is _REAL_TIME
        plays = self.hooks.plays
        waiting = {}
        for q, t in neg.pending.items():
            if t.by_boss or plays(q):
                continue
            key = (neg.boss, q, t.sources, t.amount)
            since = self._offers_waiting.get(key)
            if since is None and (real_time or neg.floor != q):
                since = now
            if since is not None:
                waiting[key] = since
        self._offers_waiting = waiting
        return min(waiting.values(), default=None)

    def _hurry(self, st, seat: int, since: float, now: float) -> float:
        """Ask-around, a person's offer waiting: the pause before a bot's floor move, short
        enough that the floor reaches the Boss, and the Boss answers, by ANSWER_BY (about
        two moves a seat still to come, the Boss's answer included)."""
        boss = st.negotiation.boss
        moves = 2 * ((boss - seat) % st.players) + 1
        left = since + ANSWER_BY - HURRY_MARGIN - now
        return min(FLOOR_HURRY, max(MIN_PAUSE, left / moves))

    def schedule(self) -> None:
        """Plan the bots' next moves after any change (actions, a seat turning bot)."""
        st = self._state()
        if self._running(st):
            self._plan(st)

    def _plan(self, st) -> None:
        """``schedule`` for a running game whose state ``st`` the caller has at hand."""
        now = self.clock.now()
        plays = self.hooks.plays
        if st.window is not None and (self.window is not None or not self.clocks):
            if self.window is not None:
                wid, kind, opened = self.window.id, self.window.kind, self.window.opened
                when = opened + self.timing.answer_delay(kind, self.hooks.people())
            else:  # no window clock (hot-seat ask-around): a bot answers after its pause
                wid, when = -st.actions_taken - 1, now + self.timing.paced(self.timing.bot_delay)
            for seat in asked_seats(st):
                if plays(seat) and (wid, seat) not in self._answer_timers:
                    self._answer_timers[(wid, seat)] = self.clock.call_at(
                        max(now, when), partial(self._bot_answer, wid, seat)
                    )
            return
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None
        self._due = None
        version = st.actions_taken
        # people at the table: a person's offer may wait, and a fresh deal has a fair start
        people = self.hooks.people is not _nobody and st.phase is _NEGOTIATION
        since = self._offer_waits(st) if people else None
        for seat in waiting_for(st):
            if not plays(seat):
                continue
            timing = self.timing
            delay = timing.bot_delay / max(0.05, timing.bot_pace)  # Timing.paced
            if since is not None:  # a person waits for the bot Boss's answer
                delay = min(delay, self._hurry(st, seat, since, now))
                if seat == st.negotiation.boss:  # but the answer is no instant one
                    delay = max(delay, since + ANSWER_AFTER - now)
            if people:
                delay = self._fair_delay(delay, st)
            if delay <= 0 and self._driving and self.clock.next_deadline() > now:
                self._due = (version, now, seat)  # nothing else is due first: _drive runs it
            else:
                self._bot_timer = self.clock.call_later(delay, partial(self._bot_move, version))
            return
        if (
            st.phase is _NEGOTIATION
            and st.settings.window_mode is _REAL_TIME
            and any(plays(s) for s in range(st.players))
        ):
            tick = max(0.005, self.timing.paced(self.timing.bot_tick))
            if since is not None:  # the bot Boss is offered the moment the answer is due
                tick = min(tick, max(0.005, since + ANSWER_AFTER - now))
            self._bot_timer = self.clock.call_later(
                self._fair_delay(tick, st), partial(self._bot_tick, version)
            )

    def _valid_at(self, version: int) -> Callable[[], bool]:
        def valid() -> bool:
            st = self._state()
            return self._running(st) and st.actions_taken == version

        return valid

    def _drive(self, step: Callable, *args) -> None:
        """Run a bot callback (``step(*args)``), then each waited-for bot move it made due at
        once (``_due``), in turn: the move is what the clock would run next, so it runs
        here without arming a timer (a simulation moves every seat so). Should something
        be due before it after all, or a step fail, the clock gets it back."""
        if self._driving:  # pragma: no cover - callbacks are only called by the clock
            step(*args)
            return
        self._driving = True
        try:
            step(*args)
            clock = self.clock
            while self._due is not None:
                version, when, seat = self._due
                if clock.now() != when or clock.next_deadline() < when:
                    break  # the clock ran on, or has something due earlier: it goes first
                self._due = None
                st = self._state()  # the move, inline: this loop runs every bot move
                if st.actions_taken == version and st.window is None and self._running(st):
                    if self.hooks.plays(seat):
                        self._decide(seat, True, st, self._move_done)
                    else:  # pragma: no cover - nothing changes seats between plan and move
                        self._move(version)
        finally:
            self._driving = False
            if self._due is not None:
                version, when, _ = self._due
                self._due = None
                self._bot_timer = self.clock.call_at(when, partial(self._bot_move, version))

    def _decide(self, seat: int, must: bool, st, done: Callable, valid=None) -> bool:
        """Ask the seat's bot in state ``st``; ``done(seat, action or None)`` runs here. Fast
        bots (those that need no view) decide inline; others think through ``hooks.think``,
        and their answer counts while ``valid()`` (default: the state has not moved on).
        Returns False if the bot is busy or has no move."""
        bot = self.hooks.bots().get(seat)
        if bot is None or seat in self._thinking:
            return False
        legal = legal_actions(st, seat).moves()
        if not (legal.fixed or legal.terms):  # no move (LegalActions.__bool__, inline)
            return False
        entry = self._traits.get(id(bot))
        traits = entry[1] if entry is not None and entry[0] is bot else self._traits_of(bot)
        if traits.inline:
            v = view(st, seat) if traits.needs_view else LazyView(st, seat)
            action = _choose(bot, v, legal, must)
            if traits.remarks and action is not None:
                self._finish(seat, bot, traits, done, action)
            else:  # nothing to remark on
                done(seat, action)
            return True
        if valid is None:
            valid = self._valid_at(st.actions_taken)
        v = view(st, seat)
        self._thinking.add(seat)

        def answered(action) -> None:
            self._thinking.discard(seat)
            current = self.hooks.bots().get(seat) is bot
            if current:
                self._flush_backlog(seat, bot)
            else:
                self._backlog.pop(seat, None)
            if valid() and current and self.hooks.plays(seat):
                self._finish(seat, bot, traits, done, action)
            elif self._running():
                self.schedule()

        self.hooks.think(partial(_choose, bot, v, legal, must), answered)
        return True

    def _finish(self, seat: int, bot: Bot, traits: BotTraits, done: Callable, action) -> None:
        """`done(seat, action)`, with the bot's remark on the move: a phrase said to everybody
        like a player's `say` (at most one per bot every PHRASE_GAP seconds)."""
        remark = _remark_of(bot) if action is not None and traits.remarks else None
        if remark is None or remark.action != action:
            done(seat, action)
            return
        phrase = remark.phrase is not None and self._phrase_gate.allow(seat, self.clock.now())
        self.hooks.on_remark(seat, remark, phrase)
        done(seat, action)
        if phrase:
            self.hooks.on_phrase(seat, remark.phrase)

    def _bot_move(self, version: int) -> None:
        """The clock's callback for a bot move the game waits for (see ``_move``)."""
        self._bot_timer = None
        self._drive(self._move, version)

    def _move(self, version: int) -> None:
        """A bot the game waits for (turn, discard, the Boss once time is up) moves."""
        st = self._state()
        if st.actions_taken != version or st.window is not None or not self._running(st):
            return
        plays = self.hooks.plays
        for seat in waiting_for(st):
            if plays(seat):
                self._decide(seat, True, st, self._move_done)
                return

    def _move_done(self, seat: int, action: Action | None) -> None:
        """A waited-for bot's move; none (or a failing bot): the seat's default action."""
        if action is None:
            action = default_action(self._state(), seat)
        if action is not None:
            self.hooks.apply(action)

    def _bot_tick(self, version: int) -> None:
        self._bot_timer = None
        self._drive(self._tick, version)

    def _tick(self, version: int) -> None:
        """Real-time negotiation: offer the moment to each bot (shuffled); first taker acts."""
        valid = self._valid_at(version)
        st = self._state()
        if not valid() or st.window is not None:
            return
        now = self.clock.now()
        spent = self._patience.spent(st.actions_taken, now, self.timing.bot_patience)
        boss = st.negotiation.boss if st.negotiation is not None else None
        settle = boss is not None and self.hooks.plays(boss) and spent
        seats = [s for s in range(st.players) if self.hooks.plays(s)]
        self._rng.shuffle(seats)
        since = self._offer_waits(st) if boss is not None else None
        if since is not None and not settle:  # a person waits for the bot Boss's answer
            seats.remove(boss)
            if now - since >= ANSWER_AFTER - 1e-9:
                seats.insert(0, boss)  # the answer is due: the Boss goes first
        if settle:  # the bot Boss has waited long enough: it goes first, and must act
            seats.remove(boss)
            seats.insert(0, boss)
        acted = []

        def done(seat: int, action) -> None:
            if action is not None and valid():
                acted.append(self.hooks.apply(action))

        for seat in seats:
            self._decide(seat, settle and seat == boss, self._state(), done, valid)
            if acted:
                return
        if valid():
            tick = max(0.005, self.timing.paced(self.timing.bot_tick))
            if since is not None and now < since + ANSWER_AFTER:
                tick = min(tick, max(0.005, since + ANSWER_AFTER - now))
            self._bot_timer = self.clock.call_later(tick, partial(self._bot_tick, version))

    def _bot_answer(self, wid: int, seat: int) -> None:
        self._answer_timers.pop((wid, seat), None)
        self._drive(self._answer, wid, seat)

    def _answer(self, wid: int, seat: int) -> None:
        """A bot answers a window, always at the same moment after it opened."""
        st = self._state()
        if not self._running(st) or st.window is None:
            return
        if self.clocks and (self.window is None or self.window.id != wid):
            return
        if seat not in asked_seats(st) or not self.hooks.plays(seat):
            return
        version = st.actions_taken

        def valid() -> bool:
            st = self._state()
            if self.clocks:
                same = self.window is not None and self.window.id == wid
            else:
                same = st.actions_taken == version
            return (
                same
                and self._running(st)
                and st.window is not None
                and seat in asked_seats(st)
            )

        if not self._decide(seat, True, st, self._answer_done, valid):
            self.hooks.apply(Pass(seat))

    def _answer_done(self, seat: int, action: Action | None) -> None:
        if action is None or action not in legal_actions(self._state(), seat):
            action = Pass(seat)
        self.hooks.apply(action)


#: What each event means for the countdowns (events of other types change none).
_CLOCK_EVENTS: dict[type, Callable[[Referee, Event], None]] = {
    WindowOpened: Referee._on_window_opened,
    WindowClosed: Referee._on_window_closed,
    Asked: Referee._on_asked,
    DealOpened: Referee._on_deal_opened,
    DealClosed: Referee._on_deal_ended,
    DealFailed: Referee._on_deal_ended,
}


@dataclass(frozen=True, slots=True)
class BotTraits:
    """What the referee needs to know of a seated bot, looked up once per bot."""

    inline: bool  # asked on the spot, not through hooks.think
    needs_view: bool  # False: a LazyView will do (the random bot)
    remarks: bool  # has a remark() that may say something

    @classmethod
    def of(cls, bot: Bot, inline: bool) -> BotTraits:
        method = getattr(type(bot), "remark", None)
        silent = method is None or (
            method is Bot.remark and "remark" not in getattr(bot, "__dict__", {})
        )
        return cls(inline, bool(getattr(bot, "needs_view", True)), not silent)


def listens(bot: Bot) -> bool:
    return bool(getattr(bot, "wants_events", False)) or type(bot).observe is not Bot.observe


def _remark_of(bot: Bot):
    """The bot's remark on its last choice (``BotTraits.remarks`` says whether to ask); a
    failing one says nothing, and its move is made all the same."""
    try:
        return bot.remark()
    except Exception:
        log.debug("bot %s has no remark", getattr(bot, "kind", "?"), exc_info=True)
        return None


def _choose(bot: Bot, v, legal, must: bool) -> Action | None:
    try:
        action = bot.choose(v, legal, must)
    except Exception:
        log.exception("bot %s failed to choose", getattr(bot, "kind", "?"))
        return None
    if action is not None and action not in legal:
        log.warning("bot %s chose an illegal action %r", getattr(bot, "kind", "?"), action)
        return None
    return action
