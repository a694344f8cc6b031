"""Why a card in a seat's hand, or a move, is not open to it now, worked out from that
seat's view alone.

The table greys such a card or button out; this says which rule stands in the way. It asks
the engine's own `explain_illegal` about the play the card would make (or the move the
button sends), on a state rebuilt from the view (legal actions never depend on what the
seat cannot see), so no rule is written twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, LayClan, PlayBoss, PlayStop, PlayTravel, Recruit
from .board import CLANS
from .cards import Card, card_from_key
from .determinize import state_from_view
from .engine import explain_illegal, legal_actions
from .seat_view import SeatView
from .state import POOL, GameState, placard

LAST_TILE = 15  # the stack's last tile always ends the game (RULES §7.2)


def _travel_target(state: GameState, card: Card):
    """The placard a Travel card would aim at: its own clan's, or (grey) the first clan of
    the deal's space."""
    if card.clan is not None:
        return placard(card.clan)
    neg = state.negotiation
    if neg is not None:
        wanted = state.board.clan_masks[neg.space]
        for c in range(6):
            if wanted >> c & 1:
                return placard(c)
    return placard(0)


def _recruit_target(state: GameState, seat: int) -> int:
    pool = [c for c in range(6) if state.placards[c] == POOL]
    others = [c for c in range(6) if state.placards[c] != seat]
    return (pool or others or [0])[0]


def _candidate(state: GameState, seat: int, card: Card) -> Action:
    """The play this card would make now."""
    if card.is_clan:
        return LayClan(seat, card.clan)
    if card.is_travel:
        return PlayTravel(seat, card, _travel_target(state, card))
    plays = {
        Card.BOSS: lambda: PlayBoss(seat),
        Card.STOP: lambda: PlayStop(seat),
        Card.RECRUIT: lambda: Recruit(seat, CLANS[_recruit_target(state, seat)]),
    }
    return plays[card]()


_last: tuple[SeatView, GameState] | None = None  # the latest view asked about, its state


def _state(view: SeatView) -> GameState:
    """The state rebuilt from `view`, once per view (a panel asks about many buttons)."""
    global _last
    if _last is None or _last[0] is not view:
        _last = (view, state_from_view(view, shuffle=False))
    return _last[1]


def action_reason(view: SeatView, action: Action) -> str | None:
    """The rule id (as `explain_illegal` names it) keeping the viewing seat from `action`
    now, or None when it is legal. The action's seat must be the view's."""
    seat = view.seat
    if seat != action.seat:
        raise ValueError(f"a view of seat {seat} explains no move of seat {action.seat}")
    state = _state(view)
    if action in legal_actions(state, action.seat):
        return None
    return explain_illegal(state, action)[0]


def card_play_reason(view: SeatView, card_key: str) -> str | None:
    """The rule id (as `explain_illegal` names it) keeping the viewing seat from playing
    this card now, or None when it has a play or the view has no seat."""
    seat = view.seat
    if seat is None:
        return None
    state = _state(view)
    card = card_from_key(card_key)
    if not state.hands[seat][card]:
        return "card.not_in_hand"
    legal = legal_actions(state, seat)
    action = _candidate(state, seat, card)
    if action in legal:
        return None
    return explain_illegal(state, action)[0]


@dataclass(frozen=True)
class GameEnd:
    """Why a finished game ended (RULES §7.2): the last deal tile went down (``die`` None),
    or the end die, rolled after ``tile``, showed ``die``, a face printed on its back."""

    tile: int
    die: int | None = None
    faces: tuple[int, ...] = ()


def game_end(view: SeatView) -> GameEnd | None:
    """Why the game of this final view ended, from the view alone (None: not over, or over
    some other way). The last tile placed is the highest number covering a space: the tiles
    are stacked in order."""
    if not view.over or not view.covered:
        return None
    tile = max(view.covered.values())
    faces = view.board.tile(tile).end_faces
    if not view.tiles or tile == LAST_TILE:
        return GameEnd(tile)
    roll = view.last_roll
    if roll is not None and roll in faces:
        return GameEnd(tile, roll, tuple(faces))
    return None
