"""The legal-action list: everything a seat may do now, built phase by phase."""

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
    LegalActions,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    Roll,
    SetAskPreference,
    TermsChoice,
    TimeUp,
    Withdraw,
)
from .actions import interned as _a
from .board import CLANS, MASK_CLANS
from .cards import CARDS
from .legality import (
    BOSS,
    QUIET_LAST_MADE,
    QUIET_LAST_UNUSED,
    RECRUIT,
    STOP,
    TRAVEL_GREY,
    TRAVEL_RED,
    asked_seats,
    can_call,
    former_total,
    may_draw,
    may_fail,
    may_open,
    recruit_moves,
)
from .state import (
    PLACARD_SOURCES,
    POOL,
    GameState,
    Phase,
    Source,
    laid,
)
from .turn import free_spaces
from .variants import Variant, WindowMode

# Enum members the legal-action path tests on every move, read once: in CPython 3.11 looking
# a member up on its class (`Phase.NEGOTIATION`) costs ~0.1 µs, as EnumType defines __getattr__.
_GAME_OVER = Phase.GAME_OVER
_NEGOTIATION = Phase.NEGOTIATION
_V3 = Variant.V3
_REAL_TIME = WindowMode.REAL_TIME


def legal_actions(state: GameState, seat: int) -> LegalActions:
    """Everything `seat` may do now, complete and exact (HOST: the host's clock)."""
    key = (state.actions_taken, seat)
    cached = state._legal_cache.get(key)
    if cached is None:
        cached = _legal(state, seat)
        state._legal_cache[key] = cached
    return cached


def _legal(state: GameState, seat: int) -> LegalActions:
    if state.phase is _GAME_OVER:
        return LegalActions()
    if seat == HOST:
        out = LegalActions()
        neg = state.negotiation
        if neg is not None and not neg.time_up:
            out.fixed.append(_a(TimeUp, HOST))
        return out
    if not 0 <= seat < len(state.names):  # (state.players, without the property's call)
        return LegalActions()
    moves = LegalActions()
    phase = state.phase
    if state.window is not None:
        if seat in asked_seats(state):
            _window_actions(state, seat, moves)
    elif seat == state.turn or phase is _NEGOTIATION:
        _PHASE_ACTIONS[phase](state, seat, moves)
    return LegalActions.with_meta(
        _a(SetAskPreference, seat, not state.ask_only_when_touched[seat]), moves
    )


def _marker_actions(state: GameState, seat: int, out: LegalActions) -> None:
    out.fixed.extend(_a(PlaceMarker, seat, s) for s in free_spaces(state))


def _turn_actions(state: GameState, seat: int, out: LegalActions) -> None:
    if may_open(state, seat):
        out.fixed.append(_a(OpenDeal, seat))
    out.fixed.append(_a(Roll, seat))


def _moved_actions(state: GameState, seat: int, out: LegalActions) -> None:
    can_open = may_open(state, seat)
    if can_open:
        out.fixed.append(_a(OpenDeal, seat))
    if may_draw(state, seat, can_open):
        out.fixed.append(_a(Draw, seat))


def _discard_actions(state: GameState, seat: int, out: LegalActions) -> None:
    hand = state.hands[seat]
    out.fixed.extend(_a(Discard, seat, CARDS[k]) for k in range(len(hand)) if hand[k])
    _recruit_actions(state, seat, out.fixed)


def _floor_actions(state: GameState, seat: int, out: LegalActions) -> None:
    _negotiation_actions(state, seat, out, in_call=False)


def _recruit_actions(state: GameState, seat: int, fixed: list[Action]) -> None:
    if state.hands[seat][RECRUIT] < 3:
        return
    fixed.extend(recruit_moves(seat, tuple(state.placards)))


def _window_actions(state: GameState, seat: int, out: LegalActions) -> None:
    out.fixed.append(_a(Pass, seat))
    if state.window.kind.stoppable:
        if state.hands[seat][STOP]:
            out.fixed.append(_a(PlayStop, seat))
    else:  # going once: any card played or offer made cancels the call
        _negotiation_actions(state, seat, out, in_call=True)


def _negotiation_actions(state: GameState, seat: int, out: LegalActions, in_call: bool) -> None:
    neg = state.negotiation
    boss = neg.boss
    settings = state.settings
    # nego.limit_spent and nego.is_real_time, inline: this runs for every negotiation move
    spent = neg.time_up or neg.actions >= settings.negotiation_limit
    real_time = settings.window_mode is _REAL_TIME
    if not in_call and not real_time and neg.floor != seat:
        return
    fixed = out.fixed
    if spent:
        if in_call:
            _card_plays(state, seat, fixed)
        elif seat == boss:
            if can_call(state):
                fixed.append(_a(GoingOnce, seat))
            if may_fail(state):
                fixed.append(_a(FailDeal, seat))
        return
    if seat == boss:
        if neg.quiet and not real_time:
            # A full round with nobody but the Boss acting: his own Clan cards, then close,
            # fail, or one last proposal (RULES §6.3).
            _lay_actions(state, seat, fixed)
            if can_call(state):
                fixed.append(_a(GoingOnce, seat))
            if may_fail(state):
                fixed.append(_a(FailDeal, seat))
            if neg.last_proposal == QUIET_LAST_UNUSED:
                _proposals(state, seat, out)
            elif neg.last_proposal == QUIET_LAST_MADE:
                fixed.append(_a(PassFloor, seat))
            return
        _lay_actions(state, seat, fixed)
        _card_plays(state, seat, fixed)
        _proposals(state, seat, out)
        cap = nego.agreed_total(neg)
        for p in sorted(neg.pending):
            terms = neg.pending[p]
            if (
                not terms.by_boss
                and cap + terms.amount <= neg.proceeds
                and nego.may_be_paid_amount(state, p, terms.amount)
            ):
                fixed.append(_a(Accept, seat, p))
            fixed.append(_a(Withdraw, seat, p))
        if former_total(state) is not None:
            fixed.append(_a(AcceptFormer, seat))
        if can_call(state):
            fixed.append(_a(GoingOnce, seat))
        if may_fail(state):
            fixed.append(_a(FailDeal, seat))
        if not real_time:
            fixed.append(_a(PassFloor, seat))
        return
    # anyone else
    _lay_actions(state, seat, fixed)
    _card_plays(state, seat, fixed)
    _offers(state, seat, out)
    terms = neg.pending.get(seat)
    if (
        terms is not None
        and terms.by_boss
        and nego.agreed_total(neg) + terms.amount <= neg.proceeds
        and nego.may_be_paid_amount(state, seat, terms.amount)
    ):
        fixed.append(_a(AcceptProposal, seat))
    if seat in neg.pending:
        fixed.append(_a(Withdraw, seat, seat))
    if not in_call and not real_time:
        fixed.append(_a(PassFloor, seat))


def _lay_actions(state: GameState, seat: int, fixed: list[Action]) -> None:
    """Clan cards of the clans the space uses; under V3 any clan, since laying one is how a
    player qualifies to be paid (RULES §8.1)."""
    hand = state.hands[seat]
    wanted = 63 if _V3 in state.settings.variants else state.board.clan_masks[state.negotiation.space]
    fixed.extend([_a(LayClan, seat, CLANS[c]) for c in MASK_CLANS[wanted] if hand[c]])


def _card_plays(state: GameState, seat: int, fixed: list[Action]) -> None:
    """Travel, Boss and Recruitment plays (they open a reaction window)."""
    neg = state.negotiation
    hand = state.hands[seat]
    grey = hand[TRAVEL_GREY] > 0
    if grey or any(hand[TRAVEL_RED:TRAVEL_GREY]):
        # Targets: the space's placards in play and not travelling, then its laid cards;
        # on each the Travel card of the target's clan, then a grey one.
        wanted = state.board.clan_masks[neg.space]
        placards = state.placards
        travel = neg.travel
        grey_card = CARDS[TRAVEL_GREY]
        for clan in MASK_CLANS[wanted]:
            if placards[clan] != POOL and clan not in travel:
                target = PLACARD_SOURCES[clan]
                if hand[TRAVEL_RED + clan]:
                    fixed.append(_a(PlayTravel, seat, CARDS[TRAVEL_RED + clan], target))
                if grey:
                    fixed.append(_a(PlayTravel, seat, grey_card, target))
        for card in neg.laid:
            clan = card.clan
            if wanted >> clan & 1:
                target = laid(card.id)
                if hand[TRAVEL_RED + clan]:
                    fixed.append(_a(PlayTravel, seat, CARDS[TRAVEL_RED + clan], target))
                if grey:
                    fixed.append(_a(PlayTravel, seat, grey_card, target))
    if hand[BOSS] and seat != neg.boss:
        fixed.append(_a(PlayBoss, seat))
    if hand[RECRUIT] >= 3:
        _recruit_actions(state, seat, fixed)


def _offers(state: GameState, seat: int, out: LegalActions) -> None:
    """Any of the seat's sources for up to the cap; under V3 a seat that may not be paid
    offers its sources at $0 only, and has nothing to offer without one (RULES §8.1)."""
    pool = tuple(sorted(nego.offerable(state, seat)))
    if _V3 not in state.settings.variants or seat in state.negotiation.played:  # may_be_paid
        hi = nego.offer_cap(state)
    elif pool:
        hi = 0
    else:
        return
    out.terms.append(_offer_choice(seat, pool, hi))


def _proposals(state: GameState, boss: int, out: LegalActions) -> None:
    cap = nego.offer_cap(state)
    pools = nego.offerable_by_seat(state)
    v3 = _V3 in state.settings.variants
    played = state.negotiation.played
    for p in range(len(pools)):
        if p == boss:
            continue
        if not v3 or p in played:  # nego.may_be_paid
            out.terms.append(_proposal_choice(boss, p, pools[p], cap))
        elif pools[p]:  # V3: "let me use your sources, unpaid"
            out.terms.append(_proposal_choice(boss, p, pools[p], 0))


# Offer ranges are frozen values like actions, shared the same way: building one cost more
# than the rest of an offer's legality. Bounded, as pools and caps vary from deal to deal.
@lru_cache(maxsize=4096)
def _offer_choice(seat: int, pool: tuple[Source, ...], hi: int) -> TermsChoice:
    return TermsChoice(_a(Offer, seat, (), 0), pool, 0, hi)


@lru_cache(maxsize=4096)
def _proposal_choice(boss: int, to: int, pool: tuple[Source, ...], hi: int) -> TermsChoice:
    return TermsChoice(_a(Propose, boss, to, (), 0), pool, 0, hi)


# The moves of the seat whose turn it is (or, in a negotiation, of anyone), by phase.
_PHASE_ACTIONS = {
    Phase.PLACE_MARKER: _marker_actions,
    Phase.TURN: _turn_actions,
    Phase.MOVED: _moved_actions,
    Phase.DISCARD: _discard_actions,
    Phase.NEGOTIATION: _floor_actions,
}
