"""Where the table gives the screen to someone else: the hot-seat hand-off before another
human's private decision ("Pass to …"), and the results once the game is over and its
animations have played (the hot-seat results with the finished game kept for its replay,
or the results scene the caller gave: the LAN's, the lesson's).

It reads the table's session, director, flags (`multi`, `auto_results`, `results`,
`on_exit`) and names, and clears the hand, the panel and the view before a hand-off.
"""

from __future__ import annotations

from game.rules.seat_view import SeatView

from ..screen import router
from ..screen.router import Route

RESULTS_DELAY = 1.2  # seconds the finished board stays before the results come up


class TableHandover:
    """The table's exits to the hand-off screen and to the results (`results_shown`)."""

    def __init__(self, table) -> None:
        self.table = table
        self.results_shown = False
        self._results_timer: float | None = None

    def step(self, dt: float) -> None:
        """After a frame: hand the screen over before someone else's private decision
        (hot-seat), or count down to the results once the game is over."""
        t = self.table
        s = t.session
        if t.multi and not t.director.busy():
            seat = s.decision_seat()
            if seat is not None and seat != s.viewer:
                self.hand_off(seat)
                return
        if t.seen.over and not t.director.busy() and t.auto_results:
            self._results_timer = (self._results_timer or 0.0) + dt
            if self._results_timer > RESULTS_DELAY:
                self.show_results()

    def hand_off(self, seat: int) -> None:
        from ..scenes.handoff import HandOffScene

        t = self.table
        s = t.session
        s.viewer = None  # nothing private is drawn while the screen changes hands
        t.hand.selected = None
        t.panel.close_editor()
        t.panel.travel_choice = None
        t._refresh()

        def reveal(seat=seat):
            s.viewer = seat
            t._refresh()

        t.app.push(HandOffScene(t.app, seat, t.names[seat], reveal))

    def show_results(self) -> None:
        if self.results_shown:
            return
        self.results_shown = True
        t = self.table
        if t.results is not None:
            t.app.replace(t.results(t))
            return
        session = t.session
        finished = session.finished_game()  # a hot-seat game: kept for its replay
        if finished is not None and t.app.persist:
            session.keep_finished()
        t.app.replace(
            router.scene(
                Route.RESULTS,
                t.app,
                SeatView.from_data(session.view(None)),
                t.history,
                t.names,
                restart=t.on_exit,
                replay=finished and finished.game,
                replay_seats=finished and finished.seats,
                played_by=[session.seat_info(s) for s in range(t.n)],
            )
        )
