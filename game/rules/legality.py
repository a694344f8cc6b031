"""What is legal, stated once: one `Rule` per action type, answering "allowed" (None) or
the `Refusal` it breaks (rule id and sentence, docs/PROTOCOL.md §7.1).

A rule is two questions asked in order: `gate(state, seat)`, what the seat's situation
allows of that type at all (the game's phase, the seat's turn, an open window, the floor),
and `check(state, action)`, what the action's own fields allow (a card held, a free space,
terms within the cap); a few types ask a second gate, `then`, after the check, so that the
refusal named is the first rule broken. `rulebook.refusal` asks an action's rule,
`legal_list` builds a seat's list from the same rules (each gate once, then the check on
every candidate), and `engine.is_legal` / `engine.explain_illegal` are its two readings.

This module holds the refusals' vocabulary, the predicates several rules read, and the rules
of the turn, the reaction windows and the preferences; `deal_rules.py` the negotiation's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from . import negotiation as nego
from .actions import (
    Action,
    Discard,
    Draw,
    OpenDeal,
    Pass,
    PlaceMarker,
    PlayStop,
    Roll,
    SetAskPreference,
    TimeUp,
)
from .cards import CARD_KINDS, Card
from .state import GameState, Phase
from .variants import Variant, WindowMode

TRAVEL_RED = int(Card.TRAVEL_RED)
TRAVEL_GREY = int(Card.TRAVEL_GREY)
BOSS = int(Card.BOSS)
RECRUIT = int(Card.RECRUIT)
STOP = int(Card.STOP)
# Enum members read once: in CPython 3.11 looking a member up on its class costs ~0.1 µs.
_GAME_OVER = Phase.GAME_OVER
_PLACE_MARKER = Phase.PLACE_MARKER
_TURN = Phase.TURN
_MOVED = Phase.MOVED
_DISCARD = Phase.DISCARD
_V2 = Variant.V2
_V5 = Variant.V5
_REAL_TIME = WindowMode.REAL_TIME
# After a quiet round (RULES §6.3): the Boss's last proposal not made, made, spent.
QUIET_LAST_UNUSED, QUIET_LAST_MADE, QUIET_LAST_SPENT = 0, 1, 2


class Refusal(NamedTuple):
    """Why an action is not legal now: a stable rule id and the sentence saying it."""

    rule: str
    reason: str


Gate = Callable[[GameState, int], "Refusal | None"]
Check = Callable[[GameState, Action], "Refusal | None"]


def no_check(state: GameState, action: Action) -> None:
    """The check of a type with no fields that matter (the gate says it all)."""
    return None


class Rule(NamedTuple):
    """One action type's legality: refused by the first of `gate`, `check`, `then` that
    names a refusal, allowed when none does."""

    gate: Gate
    check: Check = no_check
    then: Gate | None = None


# --------------------------------------------------------------------------- refusals
# The refusals whose sentence names no seat or card, made once (a refusal is a value).

GAME_OVER = Refusal("game.over", "the game is over")
HOST_ONLY_CLOCK = Refusal("seat.host_only_clock", "the host only runs the negotiation clock")
NO_CLOCK = Refusal("negotiation.none", "there is no negotiation whose time could run out")
_CLOCK_IS_HOSTS = Refusal("seat.host_only_clock", "only the host's clock can end negotiation time")
_PREFERENCE_SET = Refusal("preference.unchanged", "that preference is already set")
_ANSWER_ONLY = Refusal("window.answer_only", "answer the open window first: pass or play Stop")
_NO_WINDOW = Refusal("window.none", "no reaction window is open")
_STOP_ANSWERS_PLAYS = Refusal(
    "stop.only_after_play", "Stop answers only a Travel, Boss or Recruitment play"
)
_STOP_AFTER_PLAYS = Refusal(
    "stop.only_after_play", "Stop is played only right after a Travel, Boss or Recruitment play"
)
_NO_STOP = Refusal("card.not_in_hand", "you hold no Stop card")
_MARKER_PLACED = Refusal("setup.marker_placed", "the marker is already on the board")
_OPEN_WHEN = Refusal("turn.phase", "a deal is opened at the start of a turn or after rolling")
_V5_OPEN = Refusal("variant.V5", "V5: no deal may be opened with fewer than 3 cards in hand")
_ROLL_WHEN = Refusal("turn.phase", "roll only at the start of your turn")
_DRAW_WHEN = Refusal("turn.draw_after_roll", "draw only after rolling")
_V2_DRAW = Refusal(
    "variant.V2", "V2: starting a turn with 10 or more cards, you must attempt a deal"
)
_NOT_COVERED = Refusal("close.not_covered", "the committed sources do not cover the space")
_UNPAID = Refusal("close.unpaid", "the agreements and two-player payments exceed the proceeds")
_MUST_CLOSE = Refusal("two_player.must_close", "two-player rules: a covered deal must be closed")
_DISCARD_WHEN = Refusal("hand.no_discard", "discard only down to the hand limit after drawing")


# The refusals that name a seat, a space or a card, made once each (a refused action is
# often asked again: a bot's or a fuzzer's draw, a client's retry).
@lru_cache(maxsize=256)
def unknown_seat(seat: int) -> Refusal:
    return Refusal("seat.unknown", f"there is no seat {seat}")


@lru_cache(maxsize=256)
def not_held(card: Card) -> Refusal:
    return Refusal("card.not_in_hand", f"you hold no {card.key} card")


@lru_cache(maxsize=256)
def _not_asked(seat: int) -> Refusal:
    return Refusal(
        "window.not_asked", f"a reaction window is open and seat {seat} is not asked now"
    )


@lru_cache(maxsize=256)
def _not_your_turn(turn: int, seat: int) -> Refusal:
    return Refusal("turn.not_yours", f"it is seat {turn}'s turn, not seat {seat}'s")


@lru_cache(maxsize=256)
def _not_free(space: int) -> Refusal:
    return Refusal("setup.space_free", f"space {space} is not a free space")


# --------------------------------------------------------------------------- shared rules


def asked_seats(state: GameState) -> list[int]:
    """Who must answer the open window now."""
    win = state.window
    if win is None:
        return []
    if state.settings.window_mode is _REAL_TIME:
        return list(win.waiting)
    return win.queue[:1]


def may_open(state: GameState, seat: int) -> bool:
    return not (_V5 in state.settings.variants and state.hand_size(seat) < 3)


def may_draw(state: GameState, seat: int, can_open: bool) -> bool:
    """V2: starting a turn with 10 or more cards, a player who may open a deal must."""
    return not (can_open and _V2 in state.settings.variants and state.hand_size(seat) >= 10)


def call_refusal(state: GameState, action: Action | None = None) -> Refusal | None:
    """GoingOnce's check: the Boss may call "going once" when the committed sources cover
    the space and the agreements and two-player payments fit the proceeds (`involved` is
    None exactly when they do not cover it)."""
    inv = nego.involved(state)
    if inv is None:
        return _NOT_COVERED
    neg = state.negotiation
    return None if nego.agreed_total(neg) + inv[1] <= neg.proceeds else _UNPAID


def fail_refusal(state: GameState, action: Action | None = None) -> Refusal | None:
    """FailDeal's check: two-player rules, the Boss must close whenever he may."""
    if state.settings.two_player and call_refusal(state) is None:
        return _MUST_CLOSE
    return None


def former_total(state: GameState) -> int | None:
    """What the new Boss's `AcceptFormer` would add to the agreements (None: not on offer):
    the former agreements that fell back, if all of them fit and may be paid."""
    neg = state.negotiation
    former = 0
    for terms in neg.pending.values():
        if terms.was_agreed and not terms.by_boss:
            former += terms.amount
    if not former or nego.agreed_total(neg) + former > neg.proceeds:
        return None
    for p, t in neg.pending.items():
        if t.was_agreed and not nego.may_be_paid_amount(state, p, t.amount):
            return None
    return former


def window_gate(state: GameState, seat: int) -> Refusal | None:
    """Every move but the window's own answers: an open window waits for the seats it
    asks, and a Travel, Boss or Recruitment window takes only a pass or a Stop."""
    win = state.window
    if win is None:
        return None
    if seat not in asked_seats(state):
        return _not_asked(seat)
    if win.kind.stoppable:
        return _ANSWER_ONLY
    return None  # "going once": any card played or offer made cancels the call


def turn_gate(state: GameState, seat: int) -> Refusal | None:
    """The turn's moves: after the window's gate, the turn player's only."""
    if state.window is not None:
        refused = window_gate(state, seat)
        if refused is not None:
            return refused
    return None if seat == state.turn else _not_your_turn(state.turn, seat)


# --------------------------------------------------------------------------- windows


def _pass_gate(state: GameState, seat: int) -> Refusal | None:
    if state.window is None:
        return _NO_WINDOW
    return _asked_gate(state, seat)


def _asked_gate(state: GameState, seat: int) -> Refusal | None:
    if seat not in asked_seats(state):
        return _not_asked(seat)
    return None


def _stop_gate(state: GameState, seat: int) -> Refusal | None:
    """Stop cancels a Travel, Boss or Recruitment play, asked in its window."""
    win = state.window
    if win is None:
        return _STOP_AFTER_PLAYS
    refused = _asked_gate(state, seat)
    if refused is not None:
        return refused
    if not win.kind.stoppable:
        return _STOP_ANSWERS_PLAYS
    return None if state.hands[seat][STOP] else _NO_STOP


# --------------------------------------------------------------------------- the turn


def _marker_gate(state: GameState, seat: int) -> Refusal | None:
    refused = turn_gate(state, seat)
    if refused is None and state.phase is not _PLACE_MARKER:
        return _MARKER_PLACED
    return refused


def _free_space(state: GameState, a: PlaceMarker) -> Refusal | None:
    if 0 <= a.space < len(state.board.spaces) and a.space not in state.covered:
        return None
    return _not_free(a.space)


def _open_gate(state: GameState, seat: int) -> Refusal | None:
    refused = turn_gate(state, seat)
    if refused is not None:
        return refused
    phase = state.phase
    if phase is not _TURN and phase is not _MOVED:
        return _OPEN_WHEN
    return None if may_open(state, seat) else _V5_OPEN


def _roll_gate(state: GameState, seat: int) -> Refusal | None:
    refused = turn_gate(state, seat)
    if refused is None and state.phase is not _TURN:
        return _ROLL_WHEN
    return refused


def _draw_gate(state: GameState, seat: int) -> Refusal | None:
    refused = turn_gate(state, seat)
    if refused is not None:
        return refused
    if state.phase is not _MOVED:
        return _DRAW_WHEN
    return None if may_draw(state, seat, may_open(state, seat)) else _V2_DRAW


def _discard_gate(state: GameState, seat: int) -> Refusal | None:
    refused = turn_gate(state, seat)
    if refused is None and state.phase is not _DISCARD:
        return _DISCARD_WHEN
    return refused


def _held(state: GameState, a: Discard) -> Refusal | None:
    card = a.card
    if 0 <= card < CARD_KINDS and state.hands[a.seat][card] > 0:
        return None
    return not_held(card)


# --------------------------------------------------------------------------- preferences


def _any_gate(state: GameState, seat: int) -> None:
    return None


def _preference_changed(state: GameState, a: SetAskPreference) -> Refusal | None:
    if a.only_when_touched == (not state.ask_only_when_touched[a.seat]):
        return None
    return _PREFERENCE_SET


def _clock_gate(state: GameState, seat: int) -> Refusal:
    """A seat's `TimeUp` (the host's own is answered before any rule: `rulebook`)."""
    return _CLOCK_IS_HOSTS


TURN_RULES: dict[type[Action], Rule] = {
    PlaceMarker: Rule(_marker_gate, _free_space),
    OpenDeal: Rule(_open_gate),
    Roll: Rule(_roll_gate),
    Draw: Rule(_draw_gate),
    Discard: Rule(_discard_gate, _held),
    Pass: Rule(_pass_gate),
    PlayStop: Rule(_stop_gate),
    SetAskPreference: Rule(_any_gate, _preference_changed),
    TimeUp: Rule(_clock_gate),
}
