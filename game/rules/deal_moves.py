"""The negotiation moves (RULES §4-6): laying cards, Travel, Boss and Recruitment plays,
offers, proposals, agreements, the floor, the limit and the call to close or fail."""

from __future__ import annotations

from . import negotiation as nego
from .actions import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    FailDeal,
    GoingOnce,
    LayClan,
    Offer,
    PassFloor,
    PlayBoss,
    PlayTravel,
    Propose,
    Recruit,
    TimeUp,
    Withdraw,
)
from .cards import Card, clan_card
from .closing import clear_table, end_negotiation
from .events import (
    AgreementMade,
    CardPlayed,
    ClanLaid,
    DealFailed,
    Event,
    FloorPassed,
    GoingOnceCalled,
    NegotiationLimitReached,
    OfferMade,
    Proposed,
    QuietRound,
    Withdrawn,
)
from .legality import (
    QUIET_LAST_MADE,
    QUIET_LAST_SPENT,
    QUIET_LAST_UNUSED,
)
from .state import (
    GameState,
    LaidCard,
    Terms,
    WindowKind,
)
from .windows import cancel_call, open_window


def _count(state: GameState, seat: int, events: list[Event]) -> None:
    """A negotiation move: spend one of the limit; someone other than the Boss acting keeps
    the ask-around round alive."""
    neg = state.negotiation
    neg.actions += 1
    if seat != neg.boss:
        neg.round_active = True
        neg.quiet = False
        neg.last_proposal = QUIET_LAST_UNUSED
    _check_limit(state, events, "actions")


def _check_limit(state: GameState, events: list[Event], reason: str) -> None:
    neg = state.negotiation
    if neg is None:
        return
    if reason == "time" or neg.actions == state.settings.negotiation_limit:
        events.append(NegotiationLimitReached(reason))
        if not nego.is_real_time(state):
            neg.floor = neg.boss


def _recruit(state: GameState, a: Recruit, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    state.hands[a.seat][Card.RECRUIT] -= 3
    events.append(CardPlayed(a.seat, Card.RECRUIT, 3, None, a.clan))
    if state.negotiation is not None:
        state.negotiation.played.add(a.seat)
        _count(state, a.seat, events)
    open_window(state, WindowKind.RECRUIT, a.seat, events, recruit=a.clan)


def _lay_clan(state: GameState, a: LayClan, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    neg = state.negotiation
    state.hands[a.seat][clan_card(a.clan)] -= 1
    card = LaidCard(neg.next_card_id, a.seat, a.clan)
    neg.next_card_id += 1
    neg.laid.append(card)
    neg.played.add(a.seat)
    events.append(ClanLaid(a.seat, a.clan, card.id))
    _count(state, a.seat, events)


def _play_travel(state: GameState, a: PlayTravel, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    state.hands[a.seat][a.card] -= 1
    state.negotiation.played.add(a.seat)
    events.append(CardPlayed(a.seat, a.card, 1, a.target, None))
    _count(state, a.seat, events)
    open_window(state, WindowKind.TRAVEL, a.seat, events, card=a.card, target=a.target)


def _play_boss(state: GameState, a: PlayBoss, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    state.hands[a.seat][Card.BOSS] -= 1
    state.negotiation.played.add(a.seat)
    events.append(CardPlayed(a.seat, Card.BOSS, 1, None, None))
    _count(state, a.seat, events)
    open_window(state, WindowKind.BOSS, a.seat, events)


def _offer(state: GameState, a: Offer, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    state.negotiation.pending[a.seat] = Terms(tuple(sorted(a.sources)), a.amount, by_boss=False)
    events.append(OfferMade(a.seat, tuple(sorted(a.sources)), a.amount))
    _count(state, a.seat, events)


def _propose(state: GameState, a: Propose, events: list[Event]) -> None:
    neg = state.negotiation
    nego.touch(state, a.to)
    neg.pending[a.to] = Terms(tuple(sorted(a.sources)), a.amount, by_boss=True)
    events.append(Proposed(a.seat, a.to, tuple(sorted(a.sources)), a.amount))
    if neg.quiet and not nego.is_real_time(state):
        neg.last_proposal = QUIET_LAST_MADE
    _count(state, a.seat, events)


def _agree(state: GameState, seat: int, terms: Terms, events: list[Event]) -> None:
    neg = state.negotiation
    agreed = neg.agreements[seat] = nego.merged_terms(neg.agreements.get(seat), terms)
    events.append(AgreementMade(seat, neg.boss, agreed.sources, agreed.amount))


def _accept(state: GameState, a: Accept, events: list[Event]) -> None:
    terms = state.negotiation.pending.pop(a.of)
    nego.touch(state, a.of)
    _agree(state, a.of, terms, events)
    _count(state, a.seat, events)


def _accept_former(state: GameState, a: AcceptFormer, events: list[Event]) -> None:
    neg = state.negotiation
    for seat in sorted(neg.pending):
        terms = neg.pending[seat]
        if terms.was_agreed and not terms.by_boss:
            del neg.pending[seat]
            nego.touch(state, seat)
            _agree(state, seat, terms, events)
    _count(state, a.seat, events)


def _accept_proposal(state: GameState, a: AcceptProposal, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    terms = state.negotiation.pending.pop(a.seat)
    _agree(state, a.seat, terms, events)
    _count(state, a.seat, events)


def _withdraw(state: GameState, a: Withdraw, events: list[Event]) -> None:
    cancel_call(state, a.seat, events)
    del state.negotiation.pending[a.player]
    nego.touch(state, a.player)
    events.append(Withdrawn(a.seat, a.player))
    _count(state, a.seat, events)


def _pass_floor(state: GameState, a: PassFloor, events: list[Event]) -> None:
    neg = state.negotiation
    if a.seat == neg.boss:
        neg.round_active = False
    else:
        neg.floor_passed.add(a.seat)
    n = state.players
    nxt = (neg.floor + 1) % n
    events.append(FloorPassed(a.seat, nxt))
    while nxt != neg.boss and nego.floor_skips(state, nxt):  # ends at the Boss at the latest
        events.append(FloorPassed(nxt, (nxt + 1) % n, True))
        nxt = (nxt + 1) % n
    neg.floor = nxt
    if nxt == neg.boss and not neg.round_active:
        if neg.last_proposal == QUIET_LAST_MADE:
            neg.last_proposal = QUIET_LAST_SPENT
        neg.quiet = True
        events.append(QuietRound(neg.boss))


def _going_once(state: GameState, a: GoingOnce, events: list[Event]) -> None:
    events.append(GoingOnceCalled(a.seat))
    open_window(state, WindowKind.GOING_ONCE, a.seat, events)


def _fail_deal(state: GameState, a: FailDeal, events: list[Event]) -> None:
    neg = state.negotiation
    state.deals_failed += 1
    events.append(DealFailed(neg.boss, neg.space))
    clear_table(state, events, involved_cards=set())
    end_negotiation(state, neg, events)


def _time_up(state: GameState, a: TimeUp, events: list[Event]) -> None:
    state.negotiation.time_up = True
    _check_limit(state, events, "time")


#: the actions this module applies, by type (engine.apply dispatches on it)
HANDLERS = {
    Recruit: _recruit,
    LayClan: _lay_clan,
    PlayTravel: _play_travel,
    PlayBoss: _play_boss,
    Offer: _offer,
    Propose: _propose,
    Accept: _accept,
    AcceptFormer: _accept_former,
    AcceptProposal: _accept_proposal,
    Withdraw: _withdraw,
    PassFloor: _pass_floor,
    GoingOnce: _going_once,
    FailDeal: _fail_deal,
    TimeUp: _time_up,
}
