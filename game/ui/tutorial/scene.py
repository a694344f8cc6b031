"""The tutorial's table: the real `TableScene` on a `TutorialSession`, with the coach's
panel and buttons on top. Starting it (fresh, or rebuilt at the step reached) and
finishing it live here too."""

from __future__ import annotations

import pygame

from game.table.bot_schedule import Timing
from game.tutorial import load_script

from ..screen import router
from ..screen.router import Route
from ..sessions.seating import seat_name
from ..table.keys import LESSON_KEYMAPS
from ..table.scene import TableScene
from .coach import LessonCoach
from .progress import clear_progress, load_progress, save_progress
from .session import TutorialSession

#: the bots' pauses in the lesson: long enough to follow what each one does
LESSON_BOT_DELAY = 1.4


class TutorialTable(TableScene):
    name = "tutorial"
    KEYMAPS = LESSON_KEYMAPS  # the table's, and N for the coach's Next
    animated = True  # the coach's arrow bobs and its target glows, every frame

    def __init__(self, app, session: TutorialSession, catch_up: bool = False) -> None:
        super().__init__(app, session, on_exit=self.new_game, catch_up=catch_up)
        self.auto_results = False  # the lesson ends with the coach (or the bots play it out)
        self.coach = LessonCoach(self, self.leave, self.finish, self.play_out)

    def _refresh(self) -> None:
        super()._refresh()
        if not self.session.playing_out:
            self.set_widgets(self.coach.layout() + self.widgets)

    def _log_changed(self) -> None:
        super()._log_changed()
        if not self.session.playing_out:
            self.set_widgets(self.coach.buttons + self.widgets)

    def handle(self, event) -> bool:
        """The coach's panel lies over the table: a click on it reaches its own buttons and
        nothing under it."""
        if (
            event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
            and not self.session.playing_out
            and self.coach.rect.collidepoint(event.pos)
        ):
            for b in list(self.coach.buttons):
                if b.visible and b.handle(event):
                    break
            return True
        return super().handle(event)

    def tooltip_avoid(self) -> tuple[pygame.Rect, ...]:
        """Tooltips never cover the coach's text nor its Next / Skip / Leave."""
        coach = () if self.session.playing_out else (self.coach.rect,)
        return super().tooltip_avoid() + coach

    def coach_changed(self) -> None:
        self._refresh()

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.app.stack.top is self and self.coach.changed():
            self._refresh()

    def draw(self, surface) -> None:
        super().draw(surface)
        self.coach.draw(surface, self.t)

    def leave(self) -> None:
        """Back to the title; the progress is kept (saved at every step)."""
        self.app.replace(router.scene(Route.TITLE, self.app))

    def play_out(self) -> None:
        """After the last step: bots finish the game at once, then the results (the lesson
        is done, its progress goes)."""
        if self.app.persist:
            clear_progress()
        self.director.finish()
        self.session.play_out()
        self._catch_up = True  # the rest of the game is logged, not animated
        self.auto_results = True
        self._refresh()

    def new_game(self) -> None:
        """Play again on the results of the lesson: the new-game screen, for a real game."""
        from ..scenes.newgame import NewGameScene

        self.app.replace(router.scene(Route.TITLE, self.app))
        self.app.push(NewGameScene(self.app))

    def finish(self) -> None:
        """The lesson is over: its progress goes, the title offers a real game."""
        if self.app.persist:
            clear_progress()
        self.app.replace(router.scene(Route.TITLE, self.app))


def build_tutorial(app, step: int = 0) -> TutorialSession:
    """The lesson's session at `step` (0: the start), saving its progress as it goes."""
    persist = app.persist
    session = TutorialSession(
        load_script(),
        seat_name(app.config, 0),
        Timing(bot_delay=LESSON_BOT_DELAY, bot_pace=app.config.speed_factor),
        on_progress=save_progress if persist else None,
    )
    session.catch_up(step)
    return session


def start_tutorial(app, resume: bool = True) -> None:
    """Open the lesson: at the step reached last (`resume`), or from the beginning."""
    step = load_progress() if resume and app.persist else 0
    if not resume and app.persist:
        clear_progress()
    session = build_tutorial(app, step)
    app.replace(TutorialTable(app, session, catch_up=step > 0))


def render_still(app, step_id: str) -> TutorialTable:
    """The lesson at one step, settled (screenshots, the layout test): nothing saved."""
    script = load_script()
    session = TutorialSession(script, seat_name(app.config, 0), Timing())
    session.catch_up(script.index_of(step_id))
    session.run_bots()
    table = TutorialTable(app, session, catch_up=True)
    app.push(table)
    return table


def saved_step() -> int:
    return load_progress()
