"""What the table's own key commands do (the keymaps that bind them are keys.py): Esc steps
back, H says why no hint shows, ← → walk the fan, T aims the chosen Travel, PageUp /
PageDown move the log.

It reads the table's hand, panel, hints and discard marks and acts through them.
"""

from __future__ import annotations

from ..i18n import tr

LOG_PAGE = 8  # lines PageUp / PageDown move the log


class TableCommands:
    """The table's command table (`by_name()`), one small method a command."""

    def __init__(self, table) -> None:
        self.table = table

    def by_name(self) -> dict:
        t = self.table
        return {
            "table.escape": self.escape,
            "hint": self.hint_off,
            "hand.prev": lambda: self.step_hand(-1),
            "hand.next": lambda: self.step_hand(1),
            "hand.travel": self.travel_first,
            "log.page_back": lambda: t._page_log(LOG_PAGE),
            "log.page_on": lambda: t._page_log(-LOG_PAGE),
        }

    def escape(self) -> bool:
        """Esc on the table: drop the selected card, else keep the cards marked to
        discard, else the pause menu."""
        t = self.table
        if t.hand.selected is not None or t.panel.travel_choice:
            t.hand.selected = None
            t.panel.travel_choice = None
            return True
        if t.discard.marked:
            t.keep_all()
            return True
        from ..scenes.menu import PauseScene

        t.app.push(PauseScene(t.app, t))
        return True

    def hint_off(self) -> bool:
        """H where no Hint button shows: with hints off, say why nothing shows."""
        off = self.table.hints.off_reason()
        if off is None:
            return False
        self.table.toast = (tr(off), 3.0, "info")
        return True

    def step_hand(self, step: int) -> bool:
        """← →: the next pile in the fan (copies share one place)."""
        hand = self.table.hand
        starts = hand.starts()
        if not starts:
            return False
        cur = hand.selected
        n = len(starts)
        at = (0 if step > 0 else n - 1) if cur is None else (starts.index(cur) + step) % n
        hand.selected = hand.focus = starts[at]
        self.table.panel.travel_choice = None
        return True

    def travel_first(self) -> bool:
        """T: the chosen Travel card goes to its first target."""
        popup = self.table.popup
        targets = list(popup.travel_targets().values()) if self.table.panel.travel_choice else []
        if targets:
            popup.play_travel(targets[0])
        return bool(targets)
