"""The bot scheduler: when the bots act, for every table (the LAN host, hot-seat, simulations).

It schedules the bots on an injected ``game.table.clock.Clock``: every window answered at a fixed
time after it opened, a pause before a move the game waits for, the real-time negotiation's
moment offered now and then, a bot Boss's patience and its answer to a person's offer, the
people's fair start, the phrase gate; and it keeps a thinking bot from hearing events until
it has answered. A bot's move goes back through ``submit`` (``game.table.master.Master.submit``,
the one way any action is applied). The countdowns are ``game.table.countdowns``; the bot scheduler
only reads them (which window is open, a fresh deal's fair start).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
from game.rules import (
    Action,
    Pass,
    Phase,
    WindowMode,
    asked_seats,
    default_action,
    is_legal,
    legal_actions,
    waiting_for,
)
from game.rules.events import Event
from game.rules.view import events_for
from game.table.clock import Clock, Timer
from game.table.countdowns import Countdowns
from game.table.seat_view import seat_view, view_now


def _log():
    """This module's logger, loaded when something goes wrong: ``logging`` loads
    ``threading``, which a simulation never needs (tests/rules/test_rules_purity.py)."""
    import logging

    return logging.getLogger(__name__)

# Enum members read once: on its class a member is a descriptor lookup (~70 ns in Python
# 3.11), and these are read on every action, a simulated one too.
_GAME_OVER = Phase.GAME_OVER
_NEGOTIATION = Phase.NEGOTIATION
_REAL_TIME = WindowMode.REAL_TIME


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
            _log().warning("saved timing: no knob %r (knobs: %s); ignored", key, ", ".join(known))
        elif value is not None:
            out[key] = float(value)
    return Timing(**out)


def think_here(call: Callable[[], Action | None], done: Callable) -> None:
    """Where a bot thinks unless its table says otherwise: on the spot."""
    done(call())


def quick(bot: Bot) -> bool:
    """Which bots are asked on the spot unless the table says otherwise: those needing no
    view (the random bot)."""
    return not getattr(bot, "needs_view", True)


@dataclass(frozen=True)
class SeatPlayers:
    """Who plays which seat now, as its table knows it."""

    bots: Callable[[], dict[int, Bot]]  # every bot object (they all hear the game)
    plays: Callable[[int], bool]  # a bot plays this seat now
    # a person sits at the table now (the fair start, a person's offer to a bot Boss);
    # None: a table of bots only, where neither can arise
    people: Callable[[], bool] | None = None


class BotScheduler:
    def __init__(
        self,
        game_state: Callable,
        timing: Timing,
        clock: Clock,
        seating: SeatPlayers,
        countdowns: Countdowns,
        submit: Callable[[Action], bool],
        *,
        rng,
        think: Callable[[Callable[[], Action | None], Callable], None] = think_here,
        inline: Callable[[Bot], bool] = quick,
        on_phrase: Callable[[int, str], None] | None = None,
        on_remark: Callable[[int, object, bool], None] | None = None,
    ) -> None:
        """``game_state()`` gives the state now; ``submit`` applies a bot's move; ``rng``
        orders the bots. ``think(call, done)`` runs ``call()`` (a slow bot's choice)
        somewhere and ``done(result)`` back here; ``inline(bot)``: ask it on the spot.
        ``on_remark(seat, remark, phrase)``: a bot's remark with the move it is about to
        make (``phrase``: the gate lets its phrase through; ``on_phrase(seat, key)`` follows
        after the move)."""
        self._state = game_state
        self.timing = timing
        self.clock = clock
        self.seat_players = seating
        self.countdowns = countdowns
        self._submit = submit
        self._rng = rng
        self._think = think
        self._on_phrase = on_phrase
        self._on_remark = on_remark
        self.stopped = False
        self._bot_timer: Timer | None = None
        # A waited-for bot's move due at once, while a bot callback runs (``_drive``): that
        # callback makes it next, as the clock would have, without arming a timer.
        self._due: tuple[int, float, int] | None = None  # (state version, clock time, seat)
        self._driving = False
        self._answer_timers: dict[tuple[int, int], Timer] = {}
        self._phrase_gate = PhraseGate()
        self._patience = Patience()  # how long the bots have seen the negotiation stand still
        # a person's offers a bot Boss has yet to answer: (boss, seat, terms) -> since when
        self._offers_waiting: dict[tuple, float] = {}
        self.bots = SeatedBots(seating.bots, inline)

    def _running(self, st=None) -> bool:
        """A game that is not over, on a table that has not stopped (``st``: the state, if
        already at hand)."""
        if self.stopped:
            return False
        return (st if st is not None else self._state()).phase is not _GAME_OVER

    def thinking(self, seat: int) -> bool:
        return seat in self.bots.thinking

    # ------------------------------------------------------------------ after an action

    def after_action(self, events: list[Event]) -> None:
        """The bots hear an applied action (told to the table already); their next moves
        are planned, or everything stops with the game."""
        self.bots.observe(events)
        st = self._state()
        if not self.stopped and st.phase is not _GAME_OVER:
            self._plan(st)
        else:
            self.cancel()

    def schedule(self) -> None:
        """Plan the bots' next moves after any change (a start, a seat turning bot)."""
        st = self._state()
        if self._running(st):
            self._plan(st)

    def stop(self) -> None:
        """The table stops (the host closes, or starts another game): nothing more runs."""
        self.stopped = True
        self.cancel()

    def cancel(self) -> None:
        self._due = None
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None
        for timer in self._answer_timers.values():
            timer.cancel()
        self._answer_timers.clear()

    def drop_answers(self, window_id: int) -> None:
        """A window closed: the bots' answers armed for it are moot."""
        if self._answer_timers:  # (mostly answered already: nothing to look through)
            for key in [k for k in self._answer_timers if k[0] == window_id]:
                self._answer_timers.pop(key).cancel()

    # ------------------------------------------------------------------ bots

    def _fair_delay(self, delay: float, st) -> float:
        """``delay``, stretched so that a bot move lands after a fresh deal's fair start."""
        people = self.seat_players.people
        if st.phase is not _NEGOTIATION or people is None or not people():
            return delay
        return max(delay, self.countdowns.deal_fair_until - self.clock.now())

    def _offer_waits(self, st) -> float | None:
        """Since when the oldest person's offer that a bot Boss has not answered could be
        answered (real time: once made; ask-around: once the floor left the person)."""
        neg = st.negotiation
        if (
            neg is None
            or not neg.pending
            or self.seat_players.people is None  # a table of bots only (a simulation)
            or not self.seat_players.plays(neg.boss)
        ):
            self._offers_waiting = {}
            return None
        now = self.clock.now()
        real_time = st.settings.window_mode is _REAL_TIME
        plays = self.seat_players.plays
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

    def _plan(self, st) -> None:
        """``schedule`` for a running game whose state ``st`` the caller has at hand."""
        now = self.clock.now()
        plays = self.seat_players.plays
        window = self.countdowns.window
        if st.window is not None and (window is not None or not self.countdowns.run_countdowns):
            if window is not None:
                wid, kind, opened = window.id, window.kind, window.opened
                people = self.seat_players.people
                seated = people is not None and people()
                when = opened + self.timing.answer_delay(kind, seated)
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
        people = self.seat_players.people is not None and st.phase is _NEGOTIATION
        since = self._offer_waits(st) if people else None
        for seat in waiting_for(st):
            if not plays(seat):
                continue
            delay = self.timing.paced(self.timing.bot_delay)
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
                    if self.seat_players.plays(seat):
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
        bots (those that need no view) decide inline; others think through ``think``,
        and their answer counts while ``valid()`` (default: the state has not moved on).
        Returns False if the bot is busy or has no move."""
        seated = self.bots
        bot = self.seat_players.bots().get(seat)
        if bot is None or seat in seated.thinking:
            return False
        legal = legal_actions(st, seat).moves()
        if not legal:
            return False
        traits = seated.traits(bot)
        if traits.inline:
            v = view_now(st, seat) if traits.needs_view else seat_view(st, seat)
            action = _choose(bot, v, legal, must)
            if traits.remarks and action is not None:
                self._finish(seat, bot, traits, done, action)
            else:  # nothing to remark on
                done(seat, action)
            return True
        if valid is None:
            valid = self._valid_at(st.actions_taken)
        v = view_now(st, seat)
        seated.thinking.add(seat)

        def answered(action) -> None:
            current = seated.answered(seat, bot)
            if valid() and current and self.seat_players.plays(seat):
                self._finish(seat, bot, traits, done, action)
            elif self._running():
                self.schedule()

        self._think(partial(_choose, bot, v, legal, must), answered)
        return True

    def _finish(self, seat: int, bot: Bot, traits: BotTraits, done: Callable, action) -> None:
        """`done(seat, action)`, with the bot's remark on the move: a phrase said to everybody
        like a player's `say` (at most one per bot every PHRASE_GAP seconds)."""
        remark = _remark_of(bot) if action is not None and traits.remarks else None
        if remark is None or remark.action != action:
            done(seat, action)
            return
        phrase = remark.phrase is not None and self._phrase_gate.allow(seat, self.clock.now())
        if self._on_remark is not None:
            self._on_remark(seat, remark, phrase)
        done(seat, action)
        if phrase and self._on_phrase is not None:
            self._on_phrase(seat, remark.phrase)

    def _bot_move(self, version: int) -> None:
        """The clock's callback for a bot move the game waits for (see ``_move``)."""
        self._bot_timer = None
        self._drive(self._move, version)

    def _move(self, version: int) -> None:
        """A bot the game waits for (turn, discard, the Boss once time is up) moves."""
        st = self._state()
        if st.actions_taken != version or st.window is not None or not self._running(st):
            return
        plays = self.seat_players.plays
        for seat in waiting_for(st):
            if plays(seat):
                self._decide(seat, True, st, self._move_done)
                return

    def _move_done(self, seat: int, action: Action | None) -> None:
        """A waited-for bot's move; none (or a failing bot): the seat's default action."""
        if action is None:
            action = default_action(self._state(), seat)
        if action is not None:
            self._submit(action)

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
        settle = boss is not None and self.seat_players.plays(boss) and spent
        seats = [s for s in range(st.players) if self.seat_players.plays(s)]
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
                acted.append(self._submit(action))

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
        countdowns = self.countdowns
        if countdowns.run_countdowns and (countdowns.window is None or countdowns.window.id != wid):
            return
        if seat not in asked_seats(st) or not self.seat_players.plays(seat):
            return
        version = st.actions_taken

        def valid() -> bool:
            st = self._state()
            if countdowns.run_countdowns:
                same = countdowns.window is not None and countdowns.window.id == wid
            else:
                same = st.actions_taken == version
            return (
                same
                and self._running(st)
                and st.window is not None
                and seat in asked_seats(st)
            )

        if not self._decide(seat, True, st, self._answer_done, valid):
            self._submit(Pass(seat))

    def _answer_done(self, seat: int, action: Action | None) -> None:
        if action is None or action.seat != seat or not is_legal(self._state(), action):
            action = Pass(seat)
        self._submit(action)



class SeatedBots:
    """The seated bots as the bot scheduler knows them: what each needs (looked up once while it
    sits) and what each hears: every event as its seat sees it, and a bot thinking on a
    worker thread only once it has answered (``observe`` never runs beside ``choose``)."""

    def __init__(self, bots: Callable[[], dict[int, Bot]], inline: Callable[[Bot], bool]):
        self._bots = bots
        self._inline = inline
        self.thinking: set[int] = set()
        self._backlog: dict[int, list] = {}  # events a thinking bot hears afterwards
        # the bots that listen, worked out again only when the seat-to-bot map changes
        self._listen_map: dict[int, Bot] = {}
        self._listeners: list[tuple[int, Bot]] = []
        self._traits: dict[int, tuple[Bot, BotTraits]] = {}  # id(bot): what it needs

    def observe(self, events: list[Event]) -> None:
        listeners = self._listening()
        if listeners:
            self._tell(listeners, events)

    def _tell(self, listeners: list[tuple[int, Bot]], events: list[Event]) -> None:
        for seat, bot in listeners:
            seen = events_for(events, seat)
            if seat in self.thinking:  # never touch a bot while a worker thread uses it
                self._backlog.setdefault(seat, []).append(seen)
                continue
            try:
                bot.observe(seen)
            except Exception:
                _log().exception("bot %d observe failed", seat)

    def _listening(self) -> list[tuple[int, Bot]]:
        """(seat, bot) of every bot that listens, in the map's order. Worked out again when
        the map differs from a kept copy: bots compare by identity (``Bot`` defines no
        ``__eq__``), and the copy keeps them alive, so another bot never passes for one."""
        bots = self._bots()
        if bots != self._listen_map:
            self._listen_map = dict(bots)
            self._listeners = [(seat, bot) for seat, bot in bots.items() if listens(bot)]
            self._traits.clear()
        return self._listeners

    def traits(self, bot: Bot) -> BotTraits:
        """What ``bot`` needs, looked up once while it sits (keyed by identity: the entry
        keeps the bot alive, so another bot never reuses its id)."""
        entry = self._traits.get(id(bot))
        if entry is None or entry[0] is not bot:
            entry = (bot, BotTraits.of(bot, self._inline(bot)))
            self._traits[id(bot)] = entry
        return entry[1]

    def answered(self, seat: int, bot: Bot) -> bool:
        """A thinking bot answered: it hears what it missed if it still sits there (True),
        else its backlog goes."""
        self.thinking.discard(seat)
        current = self._bots().get(seat) is bot
        backlog = self._backlog.pop(seat, [])
        if current:
            for seen in backlog:
                try:
                    bot.observe(seen)
                except Exception:
                    _log().exception("bot %d observe failed", seat)
        return current


@dataclass(frozen=True, slots=True)
class BotTraits:
    """What the bot scheduler needs to know of a seated bot, looked up once per bot."""

    inline: bool  # asked on the spot, not through the table's think
    needs_view: bool  # False: a view built key by key will do (the random bot)
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
        _log().debug("bot %s has no remark", getattr(bot, "kind", "?"), exc_info=True)
        return None


def _choose(bot: Bot, v, legal, must: bool) -> Action | None:
    try:
        action = bot.choose(v, legal, must)
    except Exception:
        _log().exception("bot %s failed to choose", getattr(bot, "kind", "?"))
        return None
    if action is not None and action not in legal:
        _log().warning("bot %s chose an illegal action %r", getattr(bot, "kind", "?"), action)
        return None
    return action
