"""One action's legality, answered without building the seat's legal-action list.

`legal_now(state, action)` says what `action in legal_actions(state, action.seat)` says (for
an action whose fields have their declared types, as `action_from_data` makes them), by
following the list's own construction (`legal_list._legal` and its helpers) for that action's
type only. The LAN host checks every action a client sends, and `apply` checks every action
it plays: building the whole list to test one member cost most of that check.
tests/rules/test_rules_legality_direct.py holds the two to the same answers on random games.

The predicates the list and this check share (who is asked, who may open, call or fail a
deal, which placards a Recruitment triple may take) live here, so both read the same rule.
"""

from __future__ import annotations

from functools import lru_cache

from . import negotiation as nego
from .actions import (
    HOST,
    Accept,
    AcceptFormer,
    AcceptProposal,
    Action,
    Discard,
    Draw,
    FailDeal,
    GoingOnce,
    LayClan,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    Recruit,
    Roll,
    SetAskPreference,
    TimeUp,
    Withdraw,
)
from .actions import interned as _a
from .board import CLANS
from .cards import CARD_KINDS, Card
from .state import POOL, GameState, Phase, SourceKind
from .variants import Variant, WindowMode

TRAVEL_RED = int(Card.TRAVEL_RED)
TRAVEL_GREY = int(Card.TRAVEL_GREY)
BOSS = int(Card.BOSS)
RECRUIT = int(Card.RECRUIT)
STOP = int(Card.STOP)
# Enum members read once: in CPython 3.11 looking a member up on its class costs ~0.1 µs.
_GAME_OVER = Phase.GAME_OVER
_NEGOTIATION = Phase.NEGOTIATION
_PLACARD = SourceKind.PLACARD
_V2 = Variant.V2
_V3 = Variant.V3
_V5 = Variant.V5
_REAL_TIME = WindowMode.REAL_TIME
# After a quiet round (RULES §6.3): the Boss's last proposal not made, made, spent.
QUIET_LAST_UNUSED, QUIET_LAST_MADE, QUIET_LAST_SPENT = 0, 1, 2


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


def can_call(state: GameState) -> bool:
    inv = nego.involved(state)
    if inv is None:
        return False
    neg = state.negotiation
    return nego.agreed_total(neg) + inv[1] <= neg.proceeds


def may_fail(state: GameState) -> bool:
    # Two-player rules: the Boss must close whenever the sources on the table cover the deal.
    return not (state.settings.two_player and can_call(state))


@lru_cache(maxsize=1024)
def recruit_moves(seat: int, placards: tuple[int, ...]) -> tuple[Action, ...]:
    """The triples `seat` may play given each placard's owner: from the pool while it holds
    any, else any placard not the seat's own (a pure function of its arguments, so shared)."""
    pool = [c for c in range(6) if placards[c] == POOL]
    targets = pool or [c for c in range(6) if placards[c] != seat]
    return tuple(_a(Recruit, seat, CLANS[c]) for c in targets)


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


# --------------------------------------------------------------------------- one action


def legal_now(state: GameState, action: Action) -> bool:
    """`action in legal_actions(state, action.seat)`, without building that list."""
    if state.phase is _GAME_OVER:
        return False
    seat = action.seat
    kind = type(action)
    if seat == HOST:
        neg = state.negotiation
        return kind is TimeUp and neg is not None and not neg.time_up
    if not 0 <= seat < len(state.names):
        return False
    if kind is SetAskPreference:
        return action.only_when_touched == (not state.ask_only_when_touched[seat])
    win = state.window
    if win is not None:
        if seat not in asked_seats(state):
            return False
        if kind is Pass:
            return True
        if win.kind.stoppable:
            return kind is PlayStop and state.hands[seat][STOP] > 0
        return _negotiation_move(state, action, seat, kind, True)
    phase = state.phase
    if phase is _NEGOTIATION:
        return _negotiation_move(state, action, seat, kind, False)
    if seat != state.turn:
        return False
    check = _TURN_MOVES.get((phase, kind))
    return check is not None and check(state, action, seat)


def _place_marker(state: GameState, a: PlaceMarker, seat: int) -> bool:
    return 0 <= a.space < len(state.board.spaces) and a.space not in state.covered


def _open_deal(state: GameState, a: OpenDeal, seat: int) -> bool:
    return may_open(state, seat)


def _always(state: GameState, a: Action, seat: int) -> bool:
    return True


def _draw(state: GameState, a: Draw, seat: int) -> bool:
    return may_draw(state, seat, may_open(state, seat))


def _discard(state: GameState, a: Discard, seat: int) -> bool:
    return 0 <= a.card < CARD_KINDS and state.hands[seat][a.card] > 0


def _recruit(state: GameState, a: Recruit, seat: int) -> bool:
    """A Recruitment triple: from the pool while it holds a placard, else not one's own."""
    if state.hands[seat][RECRUIT] < 3 or not 0 <= a.clan < 6:
        return False
    placards = state.placards
    if POOL in placards:
        return placards[a.clan] == POOL
    return placards[a.clan] != seat


# The turn player's moves outside negotiation, by phase and action type.
_TURN_MOVES = {
    (Phase.PLACE_MARKER, PlaceMarker): _place_marker,
    (Phase.TURN, OpenDeal): _open_deal,
    (Phase.TURN, Roll): _always,
    (Phase.MOVED, OpenDeal): _open_deal,
    (Phase.MOVED, Draw): _draw,
    (Phase.DISCARD, Discard): _discard,
    (Phase.DISCARD, Recruit): _recruit,
}


# --------------------------------------------------------------------------- negotiation


def _negotiation_move(state: GameState, a: Action, seat: int, kind: type, in_call: bool) -> bool:
    """`legal_list._negotiation_actions` for one action: the same branches in the same order."""
    neg = state.negotiation
    settings = state.settings
    spent = neg.time_up or neg.actions >= settings.negotiation_limit
    real_time = settings.window_mode is _REAL_TIME
    if not in_call and not real_time and neg.floor != seat:
        return False
    boss = seat == neg.boss
    if spent:
        if in_call:
            play = _CARD_PLAYS.get(kind)
            return play is not None and play(state, a, seat)
        if boss:
            if kind is GoingOnce:
                return can_call(state)
            if kind is FailDeal:
                return may_fail(state)
        return False
    if boss and neg.quiet and not real_time:
        check = _QUIET_BOSS_MOVES.get(kind)
    elif boss:
        check = _BOSS_MOVES.get(kind) or _CARD_PLAYS.get(kind)
    else:
        check = _PLAYER_MOVES.get(kind) or _CARD_PLAYS.get(kind)
    return check is not None and check(state, a, seat, in_call, real_time)


def _lay_clan(state: GameState, a: LayClan, seat: int, *_) -> bool:
    """Clan cards of the clans the space uses; under V3 any clan (RULES §8.1)."""
    clan = a.clan
    if not 0 <= clan < 6 or not state.hands[seat][clan]:
        return False
    return _V3 in state.settings.variants or state.board.clan_masks[state.negotiation.space] >> clan & 1


def _going_once(state: GameState, a: GoingOnce, seat: int, *_) -> bool:
    return can_call(state)


def _fail_deal(state: GameState, a: FailDeal, seat: int, *_) -> bool:
    return may_fail(state)


def _quiet_propose(state: GameState, a: Propose, seat: int, *_) -> bool:
    return state.negotiation.last_proposal == QUIET_LAST_UNUSED and _propose(state, a, seat)


def _quiet_pass_floor(state: GameState, a: PassFloor, seat: int, *_) -> bool:
    return state.negotiation.last_proposal == QUIET_LAST_MADE


def _pass_floor(state: GameState, a: PassFloor, seat: int, in_call: bool, real_time: bool) -> bool:
    return not real_time  # the Boss may pass the floor even while "going once" is called


def _player_pass_floor(
    state: GameState, a: PassFloor, seat: int, in_call: bool, real_time: bool
) -> bool:
    return not in_call and not real_time


def _accept(state: GameState, a: Accept, seat: int, *_) -> bool:
    neg = state.negotiation
    terms = neg.pending.get(a.of)
    return (
        terms is not None
        and not terms.by_boss
        and nego.agreed_total(neg) + terms.amount <= neg.proceeds
        and nego.may_be_paid_amount(state, a.of, terms.amount)
    )


def _accept_former(state: GameState, a: AcceptFormer, seat: int, *_) -> bool:
    return former_total(state) is not None


def _boss_withdraw(state: GameState, a: Withdraw, seat: int, *_) -> bool:
    return a.player in state.negotiation.pending


def _player_withdraw(state: GameState, a: Withdraw, seat: int, *_) -> bool:
    return a.player == seat and seat in state.negotiation.pending


def _accept_proposal(state: GameState, a: AcceptProposal, seat: int, *_) -> bool:
    neg = state.negotiation
    terms = neg.pending.get(seat)
    return (
        terms is not None
        and terms.by_boss
        and nego.agreed_total(neg) + terms.amount <= neg.proceeds
        and nego.may_be_paid_amount(state, seat, terms.amount)
    )


def _terms_fit(sources, amount: int, pool, hi: int) -> bool:
    """`TermsChoice(_, pool, 0, hi).covers` for given terms, with `LegalActions`' refusal of
    a source named twice."""
    return (
        0 <= amount <= hi
        and len(set(sources)) == len(sources)
        and all(s in pool for s in sources)
    )


def _offer(state: GameState, a: Offer, seat: int, *_) -> bool:
    """Any of the seat's sources for up to the cap; under V3 a seat that may not be paid
    offers its sources at $0 only, and has nothing to offer without one (RULES §8.1)."""
    pool = nego.offerable(state, seat)
    if _V3 not in state.settings.variants or seat in state.negotiation.played:
        hi = nego.offer_cap(state)
    elif pool:
        hi = 0
    else:
        return False
    return _terms_fit(a.sources, a.amount, pool, hi)


def _propose(state: GameState, a: Propose, seat: int, *_) -> bool:
    to = a.to
    if to == seat or not 0 <= to < len(state.names):
        return False
    pool = nego.offerable(state, to)
    if _V3 not in state.settings.variants or to in state.negotiation.played:
        hi = nego.offer_cap(state)
    elif pool:
        hi = 0  # V3: "let me use your sources, unpaid"
    else:
        return False
    return _terms_fit(a.sources, a.amount, pool, hi)


def _play_travel(state: GameState, a: PlayTravel, seat: int, *_) -> bool:
    """A Travel card of the target's clan, or a grey one, on a placard in play and not
    travelling or a laid Clan card, of a clan the space uses."""
    hand = state.hands[seat]
    card = a.card
    if card == TRAVEL_GREY:
        if not hand[TRAVEL_GREY]:
            return False
    elif not TRAVEL_RED <= card < TRAVEL_GREY or not hand[card]:
        return False
    neg = state.negotiation
    wanted = state.board.clan_masks[neg.space]
    kind, ref = a.target
    if kind == _PLACARD:
        if not 0 <= ref < 6 or state.placards[ref] == POOL or ref in neg.travel:
            return False
        clan = ref
    else:
        laid = neg.card(ref)
        if laid is None:
            return False
        clan = laid.clan
    return wanted >> clan & 1 and (card == TRAVEL_GREY or card == TRAVEL_RED + clan)


def _play_boss(state: GameState, a: PlayBoss, seat: int, *_) -> bool:
    return state.hands[seat][BOSS] > 0 and seat != state.negotiation.boss


def _negotiation_recruit(state: GameState, a: Recruit, seat: int, *_) -> bool:
    return _recruit(state, a, seat)


# Travel, Boss and Recruitment plays (they open a reaction window): `legal_list._card_plays`.
_CARD_PLAYS = {
    PlayTravel: _play_travel,
    PlayBoss: _play_boss,
    Recruit: _negotiation_recruit,
}
# After a quiet round: his own Clan cards, close, fail, or one last proposal (RULES §6.3).
_QUIET_BOSS_MOVES = {
    LayClan: _lay_clan,
    GoingOnce: _going_once,
    FailDeal: _fail_deal,
    Propose: _quiet_propose,
    PassFloor: _quiet_pass_floor,
}
_BOSS_MOVES = {
    LayClan: _lay_clan,
    Propose: _propose,
    Accept: _accept,
    Withdraw: _boss_withdraw,
    AcceptFormer: _accept_former,
    GoingOnce: _going_once,
    FailDeal: _fail_deal,
    PassFloor: _pass_floor,
}
_PLAYER_MOVES = {
    LayClan: _lay_clan,
    Offer: _offer,
    AcceptProposal: _accept_proposal,
    Withdraw: _player_withdraw,
    PassFloor: _player_pass_floor,
}
