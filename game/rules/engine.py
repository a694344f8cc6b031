"""The rules engine's front: `apply(state, action) -> events` and the questions about whose
turn it is, with the rest of the engine's public calls re-exported from its phase modules.

Rendering, bots and the network all go through `new_game`, `legal_actions`, `apply` (and
`view`). `apply` refuses anything that is not in `legal_actions` with an `IllegalAction`
naming the rule, and in that case leaves the state untouched.
"""

from __future__ import annotations

from . import deal_moves, turn, windows
from . import negotiation as nego
from .actions import (
    Action,
    Discard,
    Draw,
    FailDeal,
    GoingOnce,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    Roll,
    SetAskPreference,
)
from .errors import IllegalAction
from .events import AskPreferenceSet, Event
from .legal_list import legal_actions
from .legality import (
    QUIET_LAST_MADE,
    QUIET_LAST_SPENT,
    QUIET_LAST_UNUSED,
    Refusal,
    asked_seats,
)
from .rulebook import refusal
from .setup import Setup, SetupError, board_for, new_game, opening_events
from .state import GameState, Phase
from .turn import current_price, draw_count, free_spaces, hand_limit

__all__ = [
    "QUIET_LAST_MADE",
    "QUIET_LAST_SPENT",
    "QUIET_LAST_UNUSED",
    "Setup",
    "SetupError",
    "apply",
    "asked_seats",
    "board_for",
    "current_price",
    "default_action",
    "draw_count",
    "explain_illegal",
    "free_spaces",
    "hand_limit",
    "is_legal",
    "legal_actions",
    "new_game",
    "opening_events",
    "to_act",
    "waiting_for",
]

_GAME_OVER = Phase.GAME_OVER


def to_act(state: GameState) -> list[int]:
    """Seats that have a move now (meta actions aside). In ask-around mode at most one."""
    return [s for s in range(state.players) if legal_actions(state, s).moves()]


def apply(state: GameState, action: Action) -> list[Event]:
    """Play `action`; returns the events. Illegal actions raise IllegalAction, state untouched."""
    if not isinstance(action, Action):
        raise IllegalAction("action.unknown", f"not an action: {action!r}")
    if not is_legal(state, action):
        rule, message = explain_illegal(state, action)
        raise IllegalAction(rule, message)
    events: list[Event] = []
    state._legal_cache.clear()  # memos of this version must not outlive its changes
    _HANDLERS[type(action)](state, action, events)
    state.actions_taken += 1
    state._legal_cache.clear()
    return events


def is_legal(state: GameState, action: Action) -> bool:
    """No rule refuses `action` now (`rulebook.refusal`): from the seat's list when it is
    built already (a bot chose from it; the list is generated from the same rules), else by
    asking the action's rule (the LAN host checks each action a client sends, most of them
    on a version nobody listed)."""
    cache = state._legal_cache
    listed = cache.get((state.actions_taken, action.seat))
    if listed is not None:
        return action in listed
    key = ("legal", state.actions_taken)
    if cache.get(key) is action:  # checked already at this version (the host, then apply)
        return True
    try:
        ok = refusal(state, action) is None
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        # a field of another type than declared: the list's answer, whatever it makes of it
        return action in legal_actions(state, action.seat)
    if ok:
        cache[key] = action
    return ok


def explain_illegal(state: GameState, action: Action) -> Refusal:
    """Why `action` is not legal now: the first rule it breaks, as (rule id, sentence)
    (`IllegalAction`'s, docs/PROTOCOL.md §7.1). Only the error path asks."""
    refused = refusal(state, action)
    if refused is None:  # asked of a legal action: no rule to name
        return Refusal("action.not_now", f"{type(action).__name__} is legal now")
    return refused


def waiting_for(state: GameState) -> list[int]:
    """The seats the game cannot go on without: window answerers, the floor, the turn
    player; in real time the Boss once the limit is spent. Others may act but need not."""
    if state.phase is _GAME_OVER:
        return []
    if state.window is not None:
        return asked_seats(state)
    neg = state.negotiation
    if neg is None:
        return [state.turn]
    if not nego.is_real_time(state):
        return [neg.floor]
    return [neg.boss] if nego.limit_spent(state) else []


def default_action(state: GameState, seat: int) -> Action | None:
    """The passive choice when the game waits for `seat` and its clock runs out: pass, pass
    the floor, draw, close if covered else fail, discard the card held most. None when the
    game is not waiting for this seat (nobody else's move is ever made for them)."""
    if seat not in waiting_for(state):
        return None
    legal = legal_actions(state, seat).moves()
    for kind in (Pass, PassFloor, Draw, GoingOnce, FailDeal, Roll):
        for a in legal.fixed:
            if type(a) is kind:
                return a
    discards = [a for a in legal.fixed if isinstance(a, Discard)]
    if discards:
        hand = state.hands[seat]
        return max(discards, key=lambda a: (hand[a.card], -int(a.card)))
    for a in legal.fixed:
        if isinstance(a, (PlaceMarker, OpenDeal)):
            return a
    # A quiet-round Boss who may only make a last proposal: propose nothing, i.e. fail is
    # not available only under two-player rules, where a covered deal must close.
    return next(iter(legal), None)


def _set_pref(state: GameState, a: SetAskPreference, events: list[Event]) -> None:
    state.ask_only_when_touched[a.seat] = a.only_when_touched
    events.append(AskPreferenceSet(a.seat, a.only_when_touched))


_HANDLERS = {
    **turn.HANDLERS,
    **deal_moves.HANDLERS,
    **windows.HANDLERS,
    SetAskPreference: _set_pref,
}
