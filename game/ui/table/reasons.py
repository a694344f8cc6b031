"""Why a control of the table is off, in the player's language.

The rule comes from the engine (`game.rules.explain.action_reason`, from the seat's view),
never decided here; this only turns its id into the sentence of the translation tables,
"why_off.<rule id>". Controls whose bounds are no rule of the game (an amount at its
lowest, a page at its end) name theirs with `ui_reason`.
"""

from __future__ import annotations

from collections.abc import Callable

from game.rules import Action
from game.rules.explain import action_reason
from game.rules.seat_view import SeatView

from ..i18n import tr


def why_off(v: SeatView, action: Action | None) -> Callable[[], str]:
    """The reason `action` is not open to the viewer now, as a label (read in the language
    of the moment). Worked out when first read: most controls are on and never ask. No
    action (a spectator's view): spectators make no moves."""
    if action is None or v.seat is None:
        return ui_reason("spectator")
    rule: list[str] = []

    def text() -> str:
        if not rule:
            rule.append(action_reason(v, action) or "action.not_now")
        return tr(f"why_off.{rule[0]}")

    return text


def ui_reason(name: str) -> Callable[[], str]:
    """The reason of a control whose bound is no rule of the game ("why_off.ui.<name>")."""
    return lambda: tr(f"why_off.ui.{name}")
