"""`TutorialSession`: a hot-seat `LocalSession` (the same bot scheduler, the same table) playing
the script of game/tutorial.py: the bots are scripted, and the player's moves go through
the current step. A move the step asks for is applied and ends the step; any other legal
move is not applied and the step's explanation is shown instead (the engine still decides
what is legal: an illegal move is refused by it as in any game).
"""

from __future__ import annotations

from collections.abc import Callable

from game.bots import make_bot
from game.bots.scripted import ScriptedBot
from game.rules import Action, legal_actions
from game.rules.replay import fresh_start, replay_log
from game.rules.view import events_for
from game.table.bot_schedule import Timing
from game.tutorial import Script, Step, Trigger

from ..sessions.replay_session import SeatChange, SeatRecord
from ..sessions.session import HUMAN, LocalSession, SeatSpec
from ..sessions.session_api import SeatInfo

#: how far the table clock jumps to let the bots make every move they may (catch-up, Skip)
CATCH_UP_SECONDS = 600.0
#: after the lesson: the bot kind that plays every seat to the end, and a bound on its jumps
PLAY_OUT_BOT = "heuristic"
PLAY_OUT_JUMPS = 400


class TutorialSession(LocalSession):
    lesson = True  # the pause menu: leaving keeps the step reached, there is no autosave
    hints_allowed = False  # the coach shows each move; a hint could point at another
    hints_off_reason = "hint.off_lesson"

    def __init__(
        self,
        script: Script,
        player_name: str,
        timing: Timing | None = None,
        on_progress: Callable[[int], None] | None = None,
    ) -> None:
        names = [player_name if i == script.human else n for i, n in enumerate(script.names)]
        seats = [SeatSpec(n, HUMAN if i == script.human else "random") for i, n in enumerate(names)]
        self.script = script
        self.step_index = 0  # steps done
        self.fired: list[str] = []  # ids of the steps whose trigger fired, in order
        self.wrong: str | None = None  # the explanation key of the last wrong move
        self._seen: list[str] = []  # event types since the current step began
        self.on_progress = on_progress
        self.playing_out = False  # the lesson is over: bots finish the game
        self.played_out_from: int | None = None  # actions played when the bots took over
        super().__init__(seats, script.seed, setup=script.setup, timing=timing)
        self.bots = {
            seat: ScriptedBot(seat, script.bot_moves.get(seat, ()), lambda: self.step_index)
            for seat in self.bots
        }
        # the seats as they are played: the script's bots, not the kind that built them
        self.specs = [s if s.is_human else SeatSpec(s.name, ScriptedBot.kind) for s in seats]
        self.master.schedule()

    def seat_info(self, seat: int) -> SeatInfo:
        """The lesson's bots are badged as such; once bots finish the game, every seat is
        that bot's, the player's marked as a bot standing in."""
        if self.playing_out:
            standing_in = "standing_in" if seat == self.script.human else None
            return SeatInfo("bot", PLAY_OUT_BOT, True, False, standing_in)
        return super().seat_info(seat)

    def seat_record(self) -> SeatRecord:
        """The script's bots from the start; from the play-out on, the play-out bot in
        every seat (the player's too)."""
        kinds = tuple(s.kind for s in self.specs)
        if self.played_out_from is None:
            return SeatRecord(kinds)
        at = self.played_out_from
        return SeatRecord(kinds, tuple(SeatChange(at, s, PLAY_OUT_BOT) for s in range(len(kinds))))

    # -- the script -----------------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        steps = self.script.steps
        return steps[self.step_index] if self.step_index < len(steps) else None

    @property
    def finished(self) -> bool:
        return self.step is None

    def ready(self) -> bool:
        """Whether the current step can be done now: an action step once the game waits
        for the player, an event step once its event happened."""
        step = self.step
        if step is None:
            return False
        if step.trigger is Trigger.ACTION:
            return self.decision_seat() == self.script.human
        if step.trigger is Trigger.EVENT:
            return step.event in self._seen
        return True

    def next(self) -> bool:
        """Next on an explanation (or a happened event): the step is done."""
        step = self.step
        if step is None or step.trigger is Trigger.ACTION or not self.ready():
            return False
        self._done()
        self.master.schedule()  # the bots' moves this step held back are released
        return True

    def skip(self) -> bool:
        """Skip: the bots make the moves they have due, then the step's own move is played
        for the player (or its event waited for)."""
        step = self.step
        if step is None:
            return False
        self.run_bots()
        if step.trigger is Trigger.ACTION:
            if not self.ready() or step.action not in legal_actions(
                self.game.state, step.action.seat
            ):
                return False
            self.send(step.action)
            return self.step is not step
        return self.next()

    def catch_up(self, steps: int) -> None:
        """Rebuild the tutorial at step `steps` (a resumed one): every step before it is
        skipped, the bots moving as they would."""
        guard = len(self.script.steps) + 1
        while self.step_index < min(steps, len(self.script.steps)) and guard:
            guard -= 1
            if not self.skip():
                raise RuntimeError(f"the tutorial script stalls at step {self.step.id}")

    def run_bots(self) -> None:
        """Let the scripted bots make every move they may now (no pauses)."""
        self.table_clock.advance(CATCH_UP_SECONDS)

    def _plays(self, seat: int) -> bool:
        """A scripted bot plays when it has a move now (its next one, or a pass); any other
        bot (the play-out's) whenever it sits."""
        bot = self.bots.get(seat)
        if not isinstance(bot, ScriptedBot):
            return bot is not None
        return bot.next_move(legal_actions(self.game.state, seat)) is not None

    def play_out(self) -> None:
        """The lesson is over: bots play every seat, the player's too, to the end of the
        game (no pauses: the table shows where it ended and the results)."""
        if not self.finished or self.playing_out:
            return
        bots = {s: make_bot(PLAY_OUT_BOT, s, self.script.seed) for s in range(self.players)}
        history = [events for _, events in replay_log(fresh_start(self.game), self.game.log)]
        for seat, bot in bots.items():  # what each seat has seen so far (bots with memory)
            for events in history:
                bot.observe(events_for(events, seat))
        self.bots = bots
        self.seats_local = ()
        self.playing_out = True
        self.played_out_from = len(self.game.log)
        self.master.schedule()
        for _ in range(PLAY_OUT_JUMPS):
            if self.over:
                break
            self.run_bots()

    def _done(self) -> None:
        self.fired.append(self.step.id)
        self.step_index += 1
        self._seen = []
        self.wrong = None
        if self.on_progress is not None:
            self.on_progress(self.step_index)

    # -- the player's moves -----------------------------------------------------------------

    def send(self, action: Action) -> None:
        step = self.step
        if action.meta or action.seat not in self.seats_local:
            super().send(action)
            return
        if step is not None and step.trigger is Trigger.ACTION and step.expects(action):
            self.master.submit(action, step)  # the step is done as the Master applies it
            return
        if action not in legal_actions(self.game.state, action.seat):
            super().send(action)  # the engine's refusal, as in any game
            return
        # a legal move the lesson does not want now: not applied, explained
        if step is not None and step.trigger is not Trigger.ACTION:
            self.wrong = "tutorial.wrong_next"  # the coach is still explaining
        else:
            self.wrong = (step.wrong if step is not None else None) or "tutorial.wrong"
        self._queue.append(([], self.version, None))

    def _publish(self, state, events: list, origin, countdowns) -> None:
        """An applied move; the step's own (its ``origin``) ends the step before the Master
        plans the bots, so the moves it held back are planned with it."""
        self._seen.extend(e.type for e in events)
        super()._publish(state, events, origin, countdowns)
        if origin is not None and origin is self.step:
            self._done()
