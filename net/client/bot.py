"""A bot playing one seat over the network: the headless ``join --bot KIND`` client.

It sits on a ``ClientSession`` (``net.client.session``) and only ever sees its seat's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from game.bots.pacing import BOT_PATIENCE, FAIR_START, Patience
from game.rules import WindowMode
from game.table.clock import Clock, LoopClock, Timer
from net.client.messages import (
    Disconnected,
    Joined,
    Message,
    Reconnected,
    ServerError,
    Snapshot,
    Update,
    ViewMessage,
    may_act,
)
from net.client.session import ClientSession
from net.client.state import ClientState

log = logging.getLogger(__name__)


@dataclass
class BotOutcome:
    seat: int | None
    view: dict | None  # the last view (phase "game_over" when the game ended)
    finished: bool  # the game ended
    reason: str | None  # why the session ended
    stats: Counter


class BotPlayer:
    """A bot playing one seat over the network (headless ``join --bot KIND``).

    Timing policy (so that nothing about its cards shows in its timing): it answers every
    reaction window ``answer_delay`` seconds after the window opened, whatever it holds;
    it makes a move the game waits for after ``think``; in real-time negotiation it is
    offered the moment again every ``idle`` seconds while nothing happens, and as the Boss
    it must settle once nothing has happened for ``patience`` seconds (the bot scheduler's bot
    Bosses count the same ``Patience``: a deal nobody moves ends long before its clock);
    and it never answers a window nor moves into a deal within ``fair_start`` of its
    opening (a person gets the first second; default ``min(FAIR_START, answer_delay)``).
    An action nobody answers within ``resend_after`` seconds is decided and sent again.
    ``clock`` (default: the running loop's) times all of it.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        kind: str = "random",
        name: str | None = None,
        code: str | None = None,
        token: str | None = None,
        seed: int | None = None,
        answer_delay: float = 1.5,
        think: float = 0.3,
        idle: float = 0.5,
        fair_start: float | None = None,
        resend_after: float = 1.0,
        patience: float = BOT_PATIENCE,
        clock: Clock | None = None,
        on_message: Callable[[Message], None] | None = None,
        **session: Any,
    ) -> None:
        from game.bots import check_bot_spec

        self.kind = check_bot_spec(kind)  # fail early on an unknown kind (UnknownBot)
        self.seed = random.randrange(1 << 30) if seed is None else seed
        self.answer_delay, self.think, self.idle = answer_delay, think, idle
        # no answer to a window nor a move into a deal sooner than this after it opened
        # (default: FAIR_START, or less for a bot told to answer at once: tests, benches)
        self.fair_start = min(FAIR_START, answer_delay) if fair_start is None else fair_start
        self._deal_opened: float | None = None  # clock time of the last deal_opened
        self.resend_after = resend_after
        self.patience = patience
        self._quiet = Patience()  # how long the state has stood still (a Boss settles by it)
        self._clock = clock
        self.bot = None
        self.done = asyncio.Event()
        self.outcome: BotOutcome | None = None
        self._extra = on_message
        self._timer: Timer | None = None
        self.state = ClientState()  # the seat as of the messages so far: the last view, the clocks
        self._acted_on: int | None = None
        self._stale_snapshot = False
        self._watch: Timer | None = None
        self._rng = random.Random(self.seed)
        self.session = ClientSession(
            host, port, name=name or f"{kind.title()} bot", code=code, token=token,
            on_message=self._on_message, bot=True, **session,
        )  # fmt: skip

    @property
    def clock(self) -> Clock:
        if self._clock is None:
            self._clock = LoopClock()  # made on first use: it needs the running loop
        return self._clock

    async def run(self) -> BotOutcome:
        await self.session.run()
        if self.outcome is None:
            self._finish(False, self.session.final)
        return self.outcome

    def _finish(self, finished: bool, reason: str | None) -> None:
        if self.outcome is None:
            view = self.state.view
            self.outcome = BotOutcome(self.session.seat, view, finished, reason, self.session.stats)
        self.done.set()

    def _on_message(self, msg: Message) -> None:
        if self._extra is not None:
            self._extra(msg)
        before = self.state.last
        self.state.absorb(msg)
        if isinstance(msg, (Joined, Reconnected)):
            self._acted_on = None  # whatever we sent before may never have arrived
            self._stale_snapshot = False
            if isinstance(msg, Joined) and msg.seat is not None and self.bot is None:
                from game.bots import make_bot

                self.bot = make_bot(self.kind, msg.seat, self.seed)
        elif isinstance(msg, (Snapshot, Update)):
            if self.bot is not None and msg.events:
                with contextlib.suppress(Exception):
                    self.bot.observe(msg.events)
            now = self.clock.now()
            if any(e.get("type") == "deal_opened" for e in msg.events):
                self._deal_opened = now
            self._quiet.quiet_for(msg.version, now)  # a new version starts a fresh count
            same = before is not None and before.version == msg.version
            if msg.view.get("phase") == "game_over":
                self._cancel()
                self._finish(True, "game over")
                asyncio.ensure_future(self.session.close())
                return
            if isinstance(msg, Snapshot) and self._stale_snapshot:
                self._stale_snapshot = False
                if same and msg.version == self._acted_on:
                    return  # after our stale action: we already acted on this version
            self._plan()
        elif isinstance(msg, ServerError) and self.state.last is not None:
            if msg.code == "stale":
                self._stale_snapshot = True  # a snapshot follows
            else:
                self._acted_on = None
                self._plan(retry=True)
        elif isinstance(msg, Disconnected) and not msg.will_retry:
            self._cancel()
            self._finish(False, msg.reason)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None

    def _plan(self, retry: bool = False) -> None:
        self._cancel()
        msg = self.state.last
        if msg is None or self.bot is None or not may_act(msg.view):
            return
        view = msg.view
        seat = view["seat"]
        now = self.clock.now()
        if view.get("window") is not None:
            # Answer at a fixed time after the window opened, whatever we hold.
            delay = answer = max(self.answer_delay, self.fair_start)
            w = self.state.countdowns.window if self.state.countdowns is not None else None
            if w is not None:
                delay = answer - (w.total - w.remaining())
        elif seat in view.get("waiting_for", ()):
            delay = self.think
        else:
            delay = self._idle_delay(msg, now)
        if view.get("negotiation") is not None and self._deal_opened is not None:
            delay = max(delay, self._deal_opened + self.fair_start - now)
        if retry:
            delay = max(delay, 0.05)
        self._timer = self.clock.call_later(max(0.0, delay), partial(self._decide, msg))

    def _idle_delay(self, msg: ViewMessage, now: float) -> float:
        """Until the moment is offered again in real-time negotiation: about ``idle``, and
        no later than when a Boss's patience runs out (after that, ``idle`` again)."""
        delay = self.idle * self._rng.uniform(0.5, 1.5)
        if self._settling_boss(msg.view):
            left = self.patience - self._quiet.quiet_for(msg.version, now)
            if left > 0:
                delay = min(delay, left)
        return delay

    @staticmethod
    def _settling_boss(view: dict) -> bool:
        """Real-time negotiation, no window open, and this seat is the Boss: it settles
        after its patience (the bot scheduler's ``_tick`` asks its bot Bosses so)."""
        neg = view.get("negotiation")
        return (
            neg is not None
            and neg.get("boss") == view["seat"]
            and view.get("window") is None
            and view["settings"]["window_mode"] == WindowMode.REAL_TIME.value
        )

    def _decide(self, msg: ViewMessage) -> None:
        self._timer = None
        if msg is not self.state.last or self.session.closed:
            return
        legal = msg.legal.moves()
        if not legal:
            return
        view = msg.view
        waited = view["seat"] in view.get("waiting_for", ())
        must = waited or (
            self._settling_boss(view)
            and self._quiet.spent(msg.version, self.clock.now(), self.patience)
        )
        try:
            action = self.bot.choose(view, legal, must)
        except Exception:
            log.exception("bot failed to choose")
            action = None
        if action is None or action not in legal:
            if not waited:
                delay = self._idle_delay(msg, self.clock.now())
                self._timer = self.clock.call_later(delay, partial(self._decide, msg))
            return
        self._acted_on = msg.version
        self.session.send_action(action, msg.version)
        # Nothing new within resend_after (the action was dropped over the rate limit, or
        # lost with a host that died)? Decide again.
        if self._watch is not None:
            self._watch.cancel()
        self._watch = self.clock.call_later(
            self.resend_after, partial(self._watchdog, msg.version)
        )

    def _watchdog(self, version: int) -> None:
        self._watch = None
        last = self.state.last
        if last is not None and last.version == version and not self.session.closed:
            self._acted_on = None
            self._plan(retry=True)


async def play_bot(host: str, port: int, **kw: Any) -> BotOutcome:
    """Play one seat with a bot until the game ends (see BotPlayer for the options)."""
    return await BotPlayer(host, port, **kw).run()
