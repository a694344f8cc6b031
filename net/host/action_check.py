"""Every check an ``action`` message passes before the host applies it, in order.

The shape of the action, the sender holding the seat it acts for, the game started and not
over, the action legal for its seat (``is_legal``: membership in the seat's
``legal_actions`` without building that list; else the rule it breaks), at most one
preference change per ``Limits.meta_interval``, and the client's version current (a stale
action is refused and its sender gets a fresh snapshot). The host calls this one way and
applies what passes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from game.rules import (
    Action,
    ActionFormatError,
    GameState,
    Phase,
    action_from_data,
    asked_seats,
    is_legal,
)
from game.rules.engine import explain_illegal
from net.host.connections import Connection, Limits


@dataclass(frozen=True)
class ActionRefusal:
    """The error for the sender (``protocol.error`` code, message and extra fields)."""

    code: str
    message: str | None = None
    extra: dict = field(default_factory=dict)  # "rule" (illegal) or "version" (stale)
    resync: bool = False  # stale: the sender gets a fresh snapshot


class ActionCheck:
    """The gate for ``action`` messages; remembers when each seat last changed a preference."""

    def __init__(self, limits: Limits, stats: Counter) -> None:
        self.limits = limits
        self.stats = stats
        self._meta_at: dict[int, float] = {}  # seat -> when its last preference was applied

    def check(
        self,
        conn: Connection,
        msg: dict,
        *,
        holds_seat: bool,
        state: GameState | None,
        now: float,
        window_version: int | None = None,
    ) -> Action | ActionRefusal:
        """The action to apply, or why not. ``holds_seat``: ``conn`` holds its seat;
        ``state``: the game's (None before it started); ``window_version``: the version
        the open window's countdown started at (an answer made on it is no stale one)."""
        try:
            action = action_from_data(msg["action"])
        except ActionFormatError as exc:
            return ActionRefusal("bad_action", str(exc))
        if conn.role != "player" or conn.seat is None:
            return ActionRefusal("not_seated")
        if not holds_seat:
            return ActionRefusal("replaced")
        if action.seat != conn.seat:
            return ActionRefusal("wrong_seat", f"you hold seat {conn.seat}, not {action.seat}")
        if state is None:
            return ActionRefusal("not_started")
        if state.phase is Phase.GAME_OVER:
            return ActionRefusal("game_over")
        if not is_legal(state, action):
            rule, message = explain_illegal(state, action)
            return ActionRefusal("illegal", message, {"rule": rule[:80]})
        if action.meta:
            last = self._meta_at.get(action.seat)
            if last is not None and now - last < self.limits.meta_interval:
                return ActionRefusal("rate_limited", "one preference change a second at most")
        version = state.actions_taken
        if msg["version"] != version and not _answers_window(
            state, action, msg["version"], window_version
        ):
            self.stats["stale"] += 1
            made = f"made on version {msg['version']}, the game is at {version}"
            return ActionRefusal("stale", made, {"version": version}, resync=True)
        if action.meta:
            self._meta_at[action.seat] = now
        return action


def _answers_window(state: GameState, action: Action, made_on: int, opened: int | None) -> bool:
    """An answer of a seat the open window asks, made on the version the window opened at
    or later: only other answers (passes) and preferences came since, none of which
    changes what this answer means, so it still answers the window (it is legal now: that
    was checked first). Two seats answering the same window at once are both applied."""
    return (
        opened is not None
        and state.window is not None
        and opened <= made_on <= state.actions_taken
        and action.seat in asked_seats(state)
    )
