"""The negotiation's rules (RULES §4-§6, §8.1): one `Rule` per move of the floor, as
`legality` states the turn's.

The gate of every negotiation move reads the same few facts of the seat's situation (a call
open, real time, the floor, the Boss, the limit spent, a quiet round), `deal_facts`; what it
allows of each type is a pure function of those facts (`deal_gate`, memoized), so a seat's
list asks it once for all types (`allowed_deal_kinds`) and `is_legal` once for one.
"""

from __future__ import annotations

from functools import cache, lru_cache

from . import negotiation as nego
from .actions import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    Action,
    FailDeal,
    GoingOnce,
    LayClan,
    Offer,
    PassFloor,
    PlayBoss,
    PlayTravel,
    Propose,
    Recruit,
    Withdraw,
)
from .legality import (
    BOSS,
    QUIET_LAST_MADE,
    QUIET_LAST_SPENT,
    RECRUIT,
    TRAVEL_GREY,
    TRAVEL_RED,
    Gate,
    Refusal,
    Rule,
    call_refusal,
    fail_refusal,
    former_total,
    no_check,
    not_held,
    unknown_seat,
    window_gate,
)
from .state import POOL, GameState, Phase, Source, SourceKind
from .variants import Variant, WindowMode

_NEGOTIATION = Phase.NEGOTIATION
_DISCARD = Phase.DISCARD
_PLACARD = SourceKind.PLACARD
_V3 = Variant.V3
_REAL_TIME = WindowMode.REAL_TIME

_BOSS_ONLY = frozenset((GoingOnce, FailDeal, Propose, Accept, AcceptFormer))
_NOT_THE_BOSS = frozenset((PlayBoss, AcceptProposal))
CARD_PLAYS = frozenset((PlayTravel, PlayBoss, Recruit))  # they open a reaction window
_CLOSING = frozenset((GoingOnce, FailDeal))
_QUIET_CLOSING = frozenset((GoingOnce, FailDeal, LayClan))
_QUIET_MOVES = _QUIET_CLOSING | {Propose, PassFloor}
DEAL_KINDS = (
    LayClan, PlayTravel, PlayBoss, Recruit, Offer, Propose, Accept, AcceptFormer,
    AcceptProposal, Withdraw, PassFloor, GoingOnce, FailDeal,
)  # fmt: skip

_FLOOR_NONE = Refusal("floor.none", "there is no floor to pass now")
_BOSS_ONLY_R = Refusal("boss.only", "only the Boss may do that")
_BOSS_ALREADY = Refusal("boss.already", "the Boss cannot do that")
_LIMIT = Refusal(
    "negotiation.limit", "the negotiation limit is spent: the Boss may only close or fail"
)
_QUIET_AGAIN = Refusal(
    "floor.quiet_again",
    "the last proposal found no taker in another quiet round: the Boss may only"
    " lay his own Clan cards, close or fail",
)
_QUIET_ROUND = Refusal(
    "floor.quiet_round",
    "after a quiet round the Boss may only lay his own Clan cards, close, fail or"
    " make a last proposal",
)
_LAST_PROPOSAL_MADE = Refusal(
    "floor.last_proposal_made",
    "the last proposal has been made: pass the floor so that it can be answered",
)
_QUIET_ROUND_PASS = Refusal(
    "floor.quiet_round",
    "after a quiet round the Boss may only close, fail or make a last proposal",
)
_NOT_ON_SPACE = Refusal("clan.not_on_space", "that clan has no slot on this space")
_TRAVEL_TARGET = Refusal(
    "travel.target", "a Travel card goes on a placard or laid Clan card in play"
)
_TRAVEL_COLOUR = Refusal("travel.colour", "a coloured Travel card only matches its own clan")
_NO_BOSS_CARD = Refusal("card.not_in_hand", "you hold no Boss card")
_TRIPLE = Refusal("recruit.triple", "Recruitment cards are played only as a triple")
_RECRUIT_TURN = Refusal("turn.not_yours", "only the player over the hand limit may recruit now")
_IN_NEGOTIATION = Refusal(
    "card.only_in_negotiation", "influence cards are played only during negotiation"
)
_OWN_PLACARD = Refusal("recruit.own_placard", "you already hold that placard")
_POOL_FIRST = Refusal(
    "recruit.pool_first", "while the pool holds placards, a triple must take from it"
)
_BOSS_PROPOSES = Refusal(
    "boss.proposes", "the Boss does not offer: the Boss proposes terms to a player"
)
_SELF = Refusal("agreement.self", "the Boss does not negotiate with themself")
_V3_SOURCE = Refusal(
    "variant.V3", "V3: a player who has played no influence card takes part only with a source"
)
_V3_FOR_NOTHING = Refusal(
    "variant.V3", "V3: a player who has played no influence card may only take part for $0"
)
_V3_PAID = Refusal("variant.V3", "V3: only players who played an influence card may be paid")
_EXCEEDS = Refusal(
    "agreement.total_exceeds_proceeds", "all agreements together may not exceed the deal's proceeds"
)
_SOURCES = Refusal("agreement.sources", "those are not usable sources of that player for this deal")
_OFFER = Refusal("agreement.offer", "that offer is not possible now")
_NO_FORMER = Refusal(
    "agreement.no_former", "there are no former agreements to accept as they stand"
)
_NO_PROPOSAL = Refusal("agreement.no_proposal", "the Boss has proposed nothing to you")
_NOTHING_PENDING = Refusal("agreement.nothing_pending", "nothing is pending with that player")
_NOT_PARTY = Refusal("agreement.not_party", "only the Boss or that player may withdraw it")


@lru_cache(maxsize=256)
def _no_clan_card(clan) -> Refusal:
    return Refusal("card.not_in_hand", f"you hold no {clan.key} Clan card")


@lru_cache(maxsize=256)
def _no_offer(seat: int) -> Refusal:
    return Refusal("agreement.no_offer", f"seat {seat} has no pending offer")


# --------------------------------------------------------------------------- the gate


def deal_facts(state: GameState, seat: int) -> tuple[bool, bool, int, bool, bool, int]:
    """What a negotiation move's gate reads of `seat`'s situation, once the window's gate
    passed in a negotiation: a call open, real time, the seat holding the floor when it is
    not this one's to hold (-1: it is, or nobody's), the Boss, the limit spent, and the
    last-proposal step of a quiet round the seat closes as the Boss (-1: none)."""
    neg = state.negotiation
    settings = state.settings
    in_call = state.window is not None  # past the window's gate: only "going once"
    real_time = settings.window_mode is _REAL_TIME
    spent = neg.time_up or neg.actions >= settings.negotiation_limit
    boss = seat == neg.boss
    floor = neg.floor if not in_call and not real_time and neg.floor != seat else -1
    quiet = neg.last_proposal if neg.quiet and boss and not real_time and not spent else -1
    return in_call, real_time, floor, boss, spent, quiet


@cache
def deal_gate(facts: tuple, kind: type[Action]) -> Refusal | None:
    """The negotiation's gate for one move type, in the order its refusals are named."""
    in_call, real_time, floor, boss, spent, quiet = facts
    if kind is PassFloor and (real_time or in_call):
        return _FLOOR_NONE
    if floor >= 0:
        return Refusal("floor.not_yours", f"seat {floor} has the floor")  # (memoized)
    if kind in _BOSS_ONLY and not boss:
        return _BOSS_ONLY_R
    if kind in _NOT_THE_BOSS and boss:
        return _BOSS_ALREADY
    if spent and not (in_call and kind in CARD_PLAYS) and kind not in _CLOSING:
        return _LIMIT
    if quiet >= 0:  # after a quiet round (RULES §6.3)
        if quiet == QUIET_LAST_SPENT and kind not in _QUIET_CLOSING:
            return _QUIET_AGAIN
        if kind not in _QUIET_MOVES:
            return _QUIET_ROUND
        if kind is Propose and quiet == QUIET_LAST_MADE:
            return _LAST_PROPOSAL_MADE
        if kind is PassFloor and quiet != QUIET_LAST_MADE:
            return _QUIET_ROUND_PASS
    return None


@cache
def allowed_deal_kinds(facts: tuple) -> frozenset[type[Action]]:
    """The move types `deal_gate` lets through with these facts (a seat's list asks once)."""
    return frozenset(k for k in DEAL_KINDS if deal_gate(facts, k) is None)


def _deal_gate_of(kind: type[Action]) -> Gate:
    """A negotiation move's gate: the window's, a negotiation open, then `deal_gate`."""
    missing = Refusal("negotiation.none", f"{kind.__name__}: no negotiation is open")

    def gate(state: GameState, seat: int) -> Refusal | None:
        if state.window is not None:
            refused = window_gate(state, seat)
            if refused is not None:
                return refused
        if state.phase is not _NEGOTIATION or state.negotiation is None:
            return missing
        return deal_gate(deal_facts(state, seat), kind)

    return gate


# --------------------------------------------------------------------------- cards


def _lay(state: GameState, a: LayClan) -> Refusal | None:
    """Clan cards of the clans the space uses; under V3 any clan (RULES §8.1)."""
    clan = a.clan
    if not state.hands[a.seat][clan]:
        return _no_clan_card(clan)
    if (
        _V3 in state.settings.variants
        or state.board.clan_masks[state.negotiation.space] >> clan & 1
    ):
        return None
    return _NOT_ON_SPACE


def target_clan(state: GameState, target: Source) -> int:
    """The clan of a source a Travel card may be sent to: a placard in play and not
    travelling, or a laid Clan card (-1: neither)."""
    neg = state.negotiation
    kind, ref = target
    if kind is _PLACARD:
        if not 0 <= ref < 6 or state.placards[ref] == POOL or ref in neg.travel:
            return -1
        return ref
    laid = neg.card(ref)
    return -1 if laid is None else laid.clan


def _travel(state: GameState, a: PlayTravel) -> Refusal | None:
    """A Travel card of the target's clan, or a grey one, on a target of a clan the space
    uses."""
    card = a.card
    if not TRAVEL_RED <= card <= TRAVEL_GREY or not state.hands[a.seat][card]:
        return not_held(card)
    clan = target_clan(state, a.target)
    if clan < 0:
        return _TRAVEL_TARGET
    if card != TRAVEL_GREY and card != TRAVEL_RED + clan:
        return _TRAVEL_COLOUR
    return None if state.board.clan_masks[state.negotiation.space] >> clan & 1 else _NOT_ON_SPACE


def _boss_card(state: GameState, a: PlayBoss) -> Refusal | None:
    return None if state.hands[a.seat][BOSS] else _NO_BOSS_CARD


def _recruit_gate(state: GameState, seat: int) -> Refusal | None:
    if state.window is not None:
        refused = window_gate(state, seat)
        if refused is not None:
            return refused
    if state.hands[seat][RECRUIT] < 3:
        return _TRIPLE
    phase = state.phase
    if phase is _DISCARD:
        return _RECRUIT_TURN if seat != state.turn else None
    return None if phase is _NEGOTIATION else _IN_NEGOTIATION


def recruit_target(placards, seat: int, clan: int) -> Refusal | None:
    """A triple takes from the pool while it holds a placard, else any but one's own."""
    owner = placards[clan]
    if owner == seat:
        return _OWN_PLACARD
    if owner != POOL and POOL in placards:
        return _POOL_FIRST
    return None


def _recruit(state: GameState, a: Recruit) -> Refusal | None:
    return recruit_target(state.placards, a.seat, a.clan)


def _recruit_then(state: GameState, seat: int) -> Refusal | None:
    """Outside the hand limit's discards a triple is a negotiation move like any other."""
    if state.phase is not _NEGOTIATION:
        return None
    return deal_gate(deal_facts(state, seat), Recruit)


# --------------------------------------------------------------------------- terms


def terms_cap(cap: int, paid: bool, pool) -> int:
    """The most terms with a player may ask, the offer cap being `cap`: the cap when the
    player may be paid (`paid`), else $0 with a source of theirs (`pool`) and no terms at
    all without one (-1): under V3 a player who may not be paid takes part for $0 only, and
    only with a source (RULES §8.1)."""
    if paid:
        return cap
    return 0 if pool else -1


def terms_refusal(
    state: GameState, paid: bool, pool, sources: tuple[Source, ...], amount: int
) -> Refusal | None:
    """Terms with a player: any of the sources they may offer (`pool`), each named once,
    for $0 up to `terms_cap`."""
    hi = terms_cap(nego.offer_cap(state) if paid else 0, paid, pool)
    if hi < 0:
        return _V3_SOURCE
    if amount > hi:
        return _EXCEEDS if paid else _V3_FOR_NOTHING
    if any(s not in pool for s in sources):
        return _SOURCES
    if amount < 0 or len(set(sources)) != len(sources):
        return _OFFER
    return None


def _offer(state: GameState, a: Offer) -> Refusal | None:
    seat = a.seat
    if seat == state.negotiation.boss:
        return _BOSS_PROPOSES
    paid = nego.may_be_paid(state, seat)
    return terms_refusal(state, paid, nego.offerable(state, seat), a.sources, a.amount)


def _propose(state: GameState, a: Propose) -> Refusal | None:
    to = a.to
    if not 0 <= to < len(state.names):
        return unknown_seat(to)
    if to == state.negotiation.boss:
        return _SELF
    paid = nego.may_be_paid(state, to)
    return terms_refusal(state, paid, nego.offerable(state, to), a.sources, a.amount)


def _fits(state: GameState, seat: int, terms) -> Refusal | None:
    """Pending terms with `seat` may be agreed: they may be paid and fit the proceeds."""
    if not nego.may_be_paid_amount(state, seat, terms.amount):
        return _V3_PAID
    neg = state.negotiation
    return None if nego.agreed_total(neg) + terms.amount <= neg.proceeds else _EXCEEDS


def _accept(state: GameState, a: Accept) -> Refusal | None:
    terms = state.negotiation.pending.get(a.of)
    if terms is None or terms.by_boss:
        return _no_offer(a.of)
    return _fits(state, a.of, terms)


def _accept_former(state: GameState, a: AcceptFormer) -> Refusal | None:
    return None if former_total(state) is not None else _NO_FORMER


def _accept_proposal(state: GameState, a: AcceptProposal) -> Refusal | None:
    terms = state.negotiation.pending.get(a.seat)
    if terms is None or not terms.by_boss:
        return _NO_PROPOSAL
    return _fits(state, a.seat, terms)


def _withdraw(state: GameState, a: Withdraw) -> Refusal | None:
    """Either side withdraws what is pending between the Boss and `player`."""
    neg = state.negotiation
    if a.player not in neg.pending:
        return _NOTHING_PENDING
    if a.seat != neg.boss and a.player != a.seat:
        return _NOT_PARTY
    return None


# Each move's check (closing and failing: `legality.call_refusal`, `legality.fail_refusal`).
_CHECKS = {
    LayClan: _lay,
    PlayTravel: _travel,
    PlayBoss: _boss_card,
    Offer: _offer,
    Propose: _propose,
    Accept: _accept,
    AcceptFormer: _accept_former,
    AcceptProposal: _accept_proposal,
    Withdraw: _withdraw,
    PassFloor: no_check,
    GoingOnce: call_refusal,
    FailDeal: fail_refusal,
}
DEAL_RULES: dict[type[Action], Rule] = {
    **{kind: Rule(_deal_gate_of(kind), check) for kind, check in _CHECKS.items()},
    Recruit: Rule(_recruit_gate, _recruit, _recruit_then),
}
