"""The legal-action list: everything a seat may do now, generated from the rules.

For each action type the list asks that type's rule (`rulebook.RULES`): its gate once for
the seat, then its check on each candidate the type could have (every space, every card
held, every target of a clan the space uses, every pending agreement...), keeping what no
rule refuses. The list never decides legality itself; where it skips candidates, a comment
names the rule that refuses all of them. `tests/rules/test_rules_legality_direct.py` holds the
candidates complete: random actions of every type are in the list exactly when their rule
allows them.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

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
    Recruit,
    Roll,
    SetAskPreference,
    TermsChoice,
    TimeUp,
    Withdraw,
)
from .actions import interned as _a
from .board import CLANS, MASK_CLANS
from .cards import CARD_KINDS, CARDS
from .deal_rules import (
    CARD_PLAYS,
    allowed_deal_kinds,
    deal_facts,
    recruit_target,
    target_clan,
    terms_cap,
)
from .legality import BOSS, RECRUIT, TRAVEL_GREY, TRAVEL_RED, no_check
from .rulebook import RULES, refusal
from .state import PLACARD_SOURCES, GameState, Phase, Source, laid
from .variants import Variant

# Enum members the legal-action path tests on every move, read once: in CPython 3.11 looking
# a member up on its class (`Phase.NEGOTIATION`) costs ~0.1 µs, as EnumType defines __getattr__.
_GAME_OVER = Phase.GAME_OVER
_NEGOTIATION = Phase.NEGOTIATION
_V3 = Variant.V3
_HOST_CLOCK = _a(TimeUp, HOST)
# Each type's gate and check, looked up by type alone.
_CHECK = {kind: rule.check for kind, rule in RULES.items()}
_GATE = {kind: rule.gate for kind, rule in RULES.items()}
_ACCEPT, _WITHDRAW = _CHECK[Accept], _CHECK[Withdraw]


def legal_actions(state: GameState, seat: int) -> LegalActions:
    """Everything `seat` may do now, complete and exact (HOST: the host's clock)."""
    key = (state.actions_taken, seat)
    cached = state._legal_cache.get(key)
    if cached is None:
        cached = _legal(state, seat)
        state._legal_cache[key] = cached
    return cached


def _legal(state: GameState, seat: int) -> LegalActions:
    # `rulebook.refusal` refuses every action when the game is over and every one of the
    # host's but its clock's, and knows no seat beyond the table.
    if state.phase is _GAME_OVER:
        return LegalActions()
    if seat == HOST:
        out = LegalActions()
        if refusal(state, _HOST_CLOCK) is None:
            out.fixed.append(_HOST_CLOCK)
        return out
    if not 0 <= seat < len(state.names):  # (state.players, without the property's call)
        return LegalActions()
    moves = LegalActions()
    phase = state.phase
    if state.window is not None:
        _window_actions(state, seat, moves)
    elif seat == state.turn or phase is _NEGOTIATION:
        # Out of a negotiation the turn's gates refuse every other seat.
        _PHASE_ACTIONS[phase](state, seat, moves)
    # SetAskPreference's check allows exactly the other value of the seat's preference.
    return LegalActions.with_meta(
        _a(SetAskPreference, seat, not state.ask_only_when_touched[seat]), moves
    )


def _admit(state: GameState, seat: int, kind: type[Action], fixed: list[Action]) -> None:
    """The one action of a type without fields: its rule's gate decides."""
    if _GATE[kind](state, seat) is None:
        fixed.append(_a(kind, seat))


def _marker_actions(state: GameState, seat: int, out: LegalActions) -> None:
    if _GATE[PlaceMarker](state, seat) is None:
        check = _CHECK[PlaceMarker]
        for space in range(len(state.board.spaces)):
            action = _a(PlaceMarker, seat, space)
            if check(state, action) is None:
                out.fixed.append(action)


def _turn_actions(state: GameState, seat: int, out: LegalActions) -> None:
    _admit(state, seat, OpenDeal, out.fixed)
    _admit(state, seat, Roll, out.fixed)


def _moved_actions(state: GameState, seat: int, out: LegalActions) -> None:
    _admit(state, seat, OpenDeal, out.fixed)
    _admit(state, seat, Draw, out.fixed)


def _discard_actions(state: GameState, seat: int, out: LegalActions) -> None:
    fixed = out.fixed
    if _GATE[Discard](state, seat) is None:
        check = _CHECK[Discard]
        hand = state.hands[seat]
        for k in range(CARD_KINDS):
            if hand[k]:  # the candidates: the cards held
                action = _a(Discard, seat, CARDS[k])
                if check(state, action) is None:
                    fixed.append(action)
    rule = RULES[Recruit]
    if rule.gate(state, seat) is None and rule.then(state, seat) is None:
        fixed.extend(recruit_moves(seat, tuple(state.placards)))


def _window_actions(state: GameState, seat: int, out: LegalActions) -> None:
    if _GATE[Pass](state, seat) is not None:
        return  # not asked: the window's gate refuses every other move too
    out.fixed.append(_a(Pass, seat))
    _admit(state, seat, PlayStop, out.fixed)
    if not state.window.kind.stoppable:  # (in the others the window's gate refuses the rest)
        _deal_actions(state, seat, out)


class _DealPlan(NamedTuple):
    """Which candidates `_deal_actions` builds for the types one set of facts allows (kept
    as a plain tuple: unpacking one is CPython's fast path, reading fields is not)."""

    lay: bool
    cards: frozenset  # the card plays allowed
    offer: bool
    propose: bool
    accept_proposal: bool
    accept: bool
    withdraw: bool
    singles: tuple  # (type, check or None) of AcceptFormer, GoingOnce, FailDeal, PassFloor allowed


@cache
def _deal_plan(facts: tuple) -> tuple | None:
    """`_DealPlan`'s fields; None: the gate allows no negotiation move (most seats, off the
    floor)."""
    kinds = allowed_deal_kinds(facts)
    if not kinds:
        return None
    plan = _DealPlan(
        LayClan in kinds,
        kinds & CARD_PLAYS,
        Offer in kinds,
        Propose in kinds,
        AcceptProposal in kinds,
        Accept in kinds,
        Withdraw in kinds,
        tuple(
            (k, None if _CHECK[k] is no_check else _CHECK[k])
            for k in (AcceptFormer, GoingOnce, FailDeal, PassFloor)
            if k in kinds
        ),
    )
    return tuple(plan)


def _deal_actions(state: GameState, seat: int, out: LegalActions) -> None:
    """The negotiation's moves: the types `deal_gate` allows this seat (the window's gate
    and the phase's hold here), then each type's check on its candidates."""
    plan = _deal_plan(deal_facts(state, seat))
    if plan is None:
        return
    lay, cards, offer, propose, accept_proposal, accept, withdraw, singles = plan
    fixed = out.fixed
    neg = state.negotiation
    if lay:
        # The Clan cards held of the clans the space uses, any clan under V3: exactly what
        # LayClan's check allows (card.not_in_hand, clan.not_on_space).
        hand = state.hands[seat]
        wanted = 63 if _V3 in state.settings.variants else state.board.clan_masks[neg.space]
        fixed.extend([_a(LayClan, seat, CLANS[c]) for c in MASK_CLANS[wanted] if hand[c]])
    if cards:
        _card_plays(state, seat, fixed, cards)
    if offer and seat != neg.boss:  # (the Boss proposes: Offer's check)
        _offers(state, seat, out)
    if propose:
        _proposals(state, seat, out)
    pending = neg.pending
    if pending:
        # The candidates: what is pending with the seat (its check refuses any other
        # answer), or for the Boss with each player in turn.
        if accept_proposal and seat in pending:
            action = _a(AcceptProposal, seat)
            if _CHECK[AcceptProposal](state, action) is None:
                fixed.append(action)
        if accept or withdraw:
            for p in sorted(pending) if seat == neg.boss else (seat,) if seat in pending else ():
                if accept and _ACCEPT(state, action := _a(Accept, seat, p)) is None:
                    fixed.append(action)
                if withdraw and _WITHDRAW(state, action := _a(Withdraw, seat, p)) is None:
                    fixed.append(action)
    for kind, check in singles:  # (their checks read no field of the action)
        if check is None or check(state, None) is None:
            fixed.append(_a(kind, seat))


def _card_plays(state: GameState, seat: int, fixed: list[Action], kinds=CARD_PLAYS) -> None:
    """Travel, Boss and Recruitment plays of the `kinds` the gates allow (they open a
    reaction window), by their checks."""
    neg = state.negotiation
    hand = state.hands[seat]
    grey = hand[TRAVEL_GREY] > 0
    if PlayTravel in kinds and (grey or any(hand[TRAVEL_RED:TRAVEL_GREY])):
        # Targets: the space's placards, then its laid cards (PlayTravel's check refuses a
        # clan the space does not use); on each the Travel card of the target's clan, then
        # a grey one, if held: exactly what the check allows of a target (card.not_in_hand,
        # travel.colour).
        wanted = state.board.clan_masks[neg.space]
        for clan in MASK_CLANS[wanted]:
            red = hand[TRAVEL_RED + clan]
            if (red or grey) and target_clan(state, PLACARD_SOURCES[clan]) >= 0:
                _travel_plays(seat, fixed, red, grey, clan, PLACARD_SOURCES[clan])
        for card in neg.laid:
            clan = card.clan
            if wanted >> clan & 1:  # (a laid card is a target)
                red = hand[TRAVEL_RED + clan]
                if red or grey:
                    _travel_plays(seat, fixed, red, grey, clan, laid(card.id))
    if PlayBoss in kinds and hand[BOSS]:  # (PlayBoss's check: the card held)
        fixed.append(_a(PlayBoss, seat))
    # (Recruit's gate refuses fewer than three cards: recruit.triple)
    if Recruit in kinds and hand[RECRUIT] >= 3 and RULES[Recruit].gate(state, seat) is None:
        fixed.extend(recruit_moves(seat, tuple(state.placards)))


def _travel_plays(seat: int, fixed: list[Action], red, grey, clan: int, target) -> None:
    if red:
        fixed.append(_a(PlayTravel, seat, CARDS[TRAVEL_RED + clan], target))
    if grey:
        fixed.append(_a(PlayTravel, seat, CARDS[TRAVEL_GREY], target))


def _offers(state: GameState, seat: int, out: LegalActions) -> None:
    """Offer's terms, as one range: what `terms_refusal` allows the seat."""
    pool = tuple(sorted(nego.offerable(state, seat)))
    paid = _V3 not in state.settings.variants or seat in state.negotiation.played  # (may_be_paid)
    hi = terms_cap(nego.offer_cap(state) if paid else 0, paid, pool)
    if hi >= 0:
        out.terms.append(_offer_choice(seat, pool, hi))


def _proposals(state: GameState, boss: int, out: LegalActions) -> None:
    """Propose's terms to each other player (Propose's check refuses the Boss himself)."""
    cap = nego.offer_cap(state)
    pools = nego.offerable_by_seat(state)
    v3 = _V3 in state.settings.variants
    played = state.negotiation.played
    for p in range(len(pools)):
        if p == boss:
            continue
        hi = terms_cap(cap, not v3 or p in played, pools[p])  # (nego.may_be_paid)
        if hi >= 0:
            out.terms.append(_proposal_choice(boss, p, pools[p], hi))


@lru_cache(maxsize=1024)
def recruit_moves(seat: int, placards: tuple[int, ...]) -> tuple[Action, ...]:
    """The triples `recruit_target` allows `seat` given each placard's owner (a pure
    function of its arguments, so shared)."""
    return tuple(_a(Recruit, seat, c) for c in CLANS if recruit_target(placards, seat, c) is None)


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
    Phase.NEGOTIATION: _deal_actions,
}
