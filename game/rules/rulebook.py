"""Every action type's rule (`legality.Rule`), and `refusal(state, action)`: the one
answer to "may this seat do that now?" that `is_legal`, `explain_illegal` and the legal-action
list (`legal_list`) all read."""

from __future__ import annotations

from .actions import HOST, Action, TimeUp
from .deal_rules import DEAL_RULES
from .legality import GAME_OVER, HOST_ONLY_CLOCK, NO_CLOCK, TURN_RULES, Refusal, Rule, unknown_seat
from .state import GameState, Phase

RULES: dict[type[Action], Rule] = {**TURN_RULES, **DEAL_RULES}
_GAME_OVER = Phase.GAME_OVER


def refusal(state: GameState, action: Action) -> Refusal | None:
    """Why `action` is not legal now (the first rule it breaks), None when it is legal.
    Before any type's rule: the game over, the host (who only runs the clock), a seat not
    at the table."""
    if state.phase is _GAME_OVER:
        return GAME_OVER
    seat = action.seat
    if seat == HOST:
        if type(action) is not TimeUp:
            return HOST_ONLY_CLOCK
        neg = state.negotiation
        return None if neg is not None and not neg.time_up else NO_CLOCK
    if not 0 <= seat < len(state.names):  # (state.players, without the property's call)
        return unknown_seat(seat)
    rule = RULES.get(type(action))
    if rule is None:
        return Refusal("action.not_now", f"{type(action).__name__} is not possible now")
    refused = rule.gate(state, seat)
    if refused is None:
        refused = rule.check(state, action)
        if refused is None and rule.then is not None:
            return rule.then(state, seat)
    return refused
