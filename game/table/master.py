"""The one submit path: every action of every table, a person's, a bot's or a time-up,
is applied here (compare boardgame.io's ``Master``: auth, reducer, storage, transport).

    master = Master(game, timing, clock, SeatPlayers(bots=..., plays=...),
                    Transport(publish=...), record=journal.add, rng=rng)
    master.start()                      # the countdowns, the bots' first moments
    master.submit(action, origin)       # checked, applied, recorded, timed, told, planned

``submit`` runs, in order: ``check`` (a table's own limit), the engine (an illegal action is
``Transport.refused``), ``record`` (storage: the LAN host's journal, written before any
frame about the action leaves), the countdowns (``game.table.countdowns``, so the update carries
them), ``Transport.publish(state, events, origin, countdowns)`` (the events and every seat's
update, once), ``Transport.over`` when that action ended the game, and the bot scheduler
(``game.table.bot_schedule``: the bots hear the action and their next moments are planned). A bot's
move and a time-up come back through ``submit`` like any other action.

The LAN host (``net.host``), hot-seat (``game.ui.sessions.session``) and simulations
(``game.table.simulate``) are a transport and a storage around one Master; a hook a table does
not give is left out of the path when the Master is made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from game.bots.base import Bot
from game.rules import Action, Game, GameState, IllegalAction, Phase
from game.rules.events import Event
from game.table.bot_schedule import BotScheduler, SeatPlayers, Timing, quick, think_here
from game.table.clock import Clock
from game.table.countdowns import Countdowns, Running


def _log():
    """This module's logger, loaded when something goes wrong: ``logging`` loads
    ``threading``, which a simulation never needs (tests/rules/test_rules_purity.py)."""
    import logging

    return logging.getLogger(__name__)


def _log_refusal(action: Action, exc: IllegalAction, origin) -> None:
    """Where a refusal goes unless the table shows it: the table's own actions (bots,
    time-ups) are checked before they are submitted, so one refused is a bug."""
    _log().error("action %r refused: %s", action, exc)


def _nothing() -> None:
    """A notice a table does not need (the countdowns' stage, the game's end)."""


@dataclass(frozen=True)
class Transport:
    """How a table hears what the Master did; every field may be left out."""

    #: (state, events, origin, countdowns): an applied action's state and events, told once;
    #: ``origin`` is what the submitter passed (the LAN host: the connection to acknowledge),
    #: ``countdowns`` their ``countdowns_data()`` when they changed since the table last heard
    #: them (with a publish or a stage), else None
    publish: Callable[[GameState, list[Event], object, dict | None], None] | None = None
    #: the game ended: the action just published was its last
    over: Callable[[], None] = _nothing
    #: (action, why, origin): an action the engine refused
    refused: Callable[[Action, IllegalAction, object], None] = _log_refusal
    #: "going twice": the countdowns changed stage between actions
    stage: Callable[[], None] = _nothing
    #: (seat, "phrase.*" key): a bot's phrase, after its move
    phrase: Callable[[int, str], None] | None = None
    #: (seat, remark, phrase let through): a bot's remark, before its move
    remark: Callable[[int, object, bool], None] | None = None


class Master:
    def __init__(
        self,
        game: Game,
        timing: Timing,
        clock: Clock,
        seating: SeatPlayers,
        transport: Transport = Transport(),
        *,
        rng,
        record: Callable[[Action], None] | None = None,
        check: Callable[[Action], None] | None = None,
        think: Callable[[Callable[[], Action | None], Callable], None] = think_here,
        inline: Callable[[Bot], bool] = quick,
        run_countdowns: bool = True,
        late_margin: float = 0.0,
        stats: Counter | None = None,
    ) -> None:
        """``record(action)``: storage, after the engine and before the table hears;
        ``check(action)``: raises to stop the table (a simulation's action limit);
        ``think``/``inline``: where a slow bot thinks, which bots are asked on the spot;
        ``run_countdowns`` False: no countdown runs (hot-seat ask-around: a person handing the
        screen over is never hurried); ``late_margin``: how long after its shown end a
        window that runs out really closes (``game.table.countdowns``: the LAN host's answers
        in flight)."""
        self.game = game
        self.stats = stats if stats is not None else Counter()
        state = self._state
        self.countdowns = Countdowns(
            state,
            timing,
            clock,
            self.submit,
            run_countdowns=run_countdowns,
            stats=self.stats,
            on_stage=self._stage,
            on_window_closed=self._window_closed,
            late_margin=late_margin,
        )
        self.scheduler = BotScheduler(
            state,
            timing,
            clock,
            seating,
            self.countdowns,
            self.submit,
            rng=rng,
            think=think,
            inline=inline,
            on_phrase=transport.phrase,
            on_remark=transport.remark,
        )
        self._refused = transport.refused
        self._publish = transport.publish
        self._over = transport.over
        self._told_stage = transport.stage
        self._told = -1  # the countdowns' serial the table last heard
        self._record = record
        self._check = check
        self.stopped = False

    def _state(self):
        return self.game.state

    def _window_closed(self, window_id: int) -> None:
        self.scheduler.drop_answers(window_id)

    @property
    def state(self):
        return self.game.state

    def start(self, heard: list[Event] = ()) -> None:
        """Run the table from the state as it is (a new game or a resumed one): its
        countdowns start, the bots hear ``heard`` (the opening, for bots new to the game)
        and are offered their first moments. A resumed game that had ended is
        ``Transport.over`` at once."""
        self.countdowns.after([])
        if self.game.state.phase is Phase.GAME_OVER:
            self._over()
            return
        if heard:
            self.scheduler.bots.observe(heard)
        self.scheduler.schedule()

    def submit(self, action: Action, origin=None, *, scripted: bool = False) -> bool:
        """Apply ``action`` and tell everybody (see the module's docstring). False if the
        table has stopped or the engine refused it; ``scripted`` (a scene's move, at a
        table that may have stopped): an illegal action raises ``IllegalAction``."""
        if self.stopped and not scripted:
            return False
        if self._check is not None:
            self._check(action)
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            if scripted:
                raise
            self._refused(action, exc, origin)
            return False
        if self._record is not None:
            self._record(action)
        countdowns = self.countdowns
        countdowns.after(events)
        state = self.game.state
        if self._publish is not None:
            told = None
            if countdowns.serial != self._told:
                self._told = countdowns.serial
                told = countdowns.countdowns_data()
            self._publish(state, events, origin, told)
        if state.phase is Phase.GAME_OVER:
            self._over()
        self.scheduler.after_action(events)
        return True

    def apply(self, action: Action, origin=None) -> None:
        """``submit`` for a scripted scene: an illegal action raises ``IllegalAction``."""
        self.submit(action, origin, scripted=True)

    def _stage(self) -> None:
        """The countdowns changed stage between actions: the table hears them now."""
        self._told = self.countdowns.serial
        self._told_stage()

    def schedule(self) -> None:
        """The seats changed (a bot took one over, a lesson released a move): the bots'
        moments are planned again."""
        self.scheduler.schedule()

    def stop(self) -> None:
        """Nothing more happens at this table: every countdown and bot timer is cancelled
        and later submits are refused (the game ended on a LAN host, or the host closes)."""
        self.stopped = True
        self.countdowns.cancel()
        self.scheduler.stop()

    def countdowns_data(self) -> dict:
        return self.countdowns.countdowns_data()

    def running(self) -> list[Running]:
        """The countdowns running now, with the seconds left and in all (a screen's bars)."""
        return self.countdowns.running()

    def resume_negotiation(self, seconds: float) -> None:
        """Run the negotiation clock on with ``seconds`` left (a restored save)."""
        self.countdowns.resume_negotiation(seconds)

    def window_version(self) -> int | None:
        """The version the open window's countdown started at (None: no window clock): an
        answer made on it or later still answers this window."""
        w = self.countdowns.window
        return None if w is None else w.version

    def thinking(self, seat: int) -> bool:
        return self.scheduler.thinking(seat)
