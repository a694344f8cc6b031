"""Why an action is not legal now: the rule id and sentence `IllegalAction` carries
(docs/PROTOCOL.md §7.1). Only the error path asks."""

from __future__ import annotations

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
from .cards import Card, clan_card, travel_card
from .legality import (
    QUIET_LAST_MADE,
    QUIET_LAST_SPENT,
    asked_seats,
)
from .state import (
    POOL,
    GameState,
    Phase,
    WindowKind,
)


def explain_illegal(state: GameState, action: Action) -> tuple[str, str]:
    """Why `action` is not legal now, as (rule id, sentence). Only used on the error path."""
    seat = action.seat
    neg = state.negotiation
    name = type(action).__name__
    if state.phase is Phase.GAME_OVER:
        return "game.over", "the game is over"
    if seat == HOST:
        if not isinstance(action, TimeUp):
            return "seat.host_only_clock", "the host only runs the negotiation clock"
        return "negotiation.none", "there is no negotiation whose time could run out"
    if not 0 <= seat < state.players:
        return "seat.unknown", f"there is no seat {seat}"
    if isinstance(action, SetAskPreference):
        return "preference.unchanged", "that preference is already set"
    if isinstance(action, TimeUp):
        return "seat.host_only_clock", "only the host's clock can end negotiation time"
    if state.window is not None:
        asked = asked_seats(state)
        if seat not in asked:
            return "window.not_asked", f"a reaction window is open and seat {seat} is not asked now"
        if isinstance(action, PlayStop):
            if not state.window.kind.stoppable:
                return (
                    "stop.only_after_play",
                    "Stop answers only a Travel, Boss or Recruitment play",
                )
            return "card.not_in_hand", "you hold no Stop card"
        if state.window.kind.stoppable:
            return "window.answer_only", "answer the open window first: pass or play Stop"
    elif isinstance(action, (Pass, PlayStop)):
        if isinstance(action, PlayStop):
            return (
                "stop.only_after_play",
                "Stop is played only right after a Travel, Boss or Recruitment play",
            )
        return "window.none", "no reaction window is open"
    phase = state.phase
    turn_actions = (PlaceMarker, OpenDeal, Roll, Draw)
    if isinstance(action, turn_actions + (Discard,)) and seat != state.turn:
        return "turn.not_yours", f"it is seat {state.turn}'s turn, not seat {seat}'s"
    if isinstance(action, PlaceMarker):
        if phase is not Phase.PLACE_MARKER:
            return "setup.marker_placed", "the marker is already on the board"
        return "setup.space_free", f"space {action.space} is not a free space"
    if isinstance(action, OpenDeal):
        if phase not in (Phase.TURN, Phase.MOVED):
            return "turn.phase", "a deal is opened at the start of a turn or after rolling"
        return "variant.V5", "V5: no deal may be opened with fewer than 3 cards in hand"
    if isinstance(action, Roll):
        return "turn.phase", "roll only at the start of your turn"
    if isinstance(action, Draw):
        if phase is not Phase.MOVED:
            return "turn.draw_after_roll", "draw only after rolling"
        return "variant.V2", "V2: starting a turn with 10 or more cards, you must attempt a deal"
    if isinstance(action, Discard):
        if phase is not Phase.DISCARD:
            return "hand.no_discard", "discard only down to the hand limit after drawing"
        return "card.not_in_hand", f"you hold no {action.card.key} card"
    if isinstance(action, Recruit):
        if state.hands[seat][Card.RECRUIT] < 3:
            return "recruit.triple", "Recruitment cards are played only as a triple"
        if phase is Phase.DISCARD and seat != state.turn:
            return "turn.not_yours", "only the player over the hand limit may recruit now"
        if phase not in (Phase.DISCARD, Phase.NEGOTIATION):
            return "card.only_in_negotiation", "influence cards are played only during negotiation"
        owner = state.placards[action.clan]
        if owner == seat:
            return "recruit.own_placard", "you already hold that placard"
        if owner != POOL and POOL in state.placards:
            return "recruit.pool_first", "while the pool holds placards, a triple must take from it"
        return _negotiation_reason(state, action)
    if phase is not Phase.NEGOTIATION or neg is None:
        return "negotiation.none", f"{name}: no negotiation is open"
    return _negotiation_reason(state, action)


def _negotiation_reason(state: GameState, action: Action) -> tuple[str, str]:
    seat = action.seat
    neg = state.negotiation
    in_call = state.window is not None and state.window.kind is WindowKind.GOING_ONCE
    if isinstance(action, PassFloor) and (nego.is_real_time(state) or in_call):
        return "floor.none", "there is no floor to pass now"
    if not in_call and not nego.is_real_time(state) and neg.floor != seat:
        return "floor.not_yours", f"seat {neg.floor} has the floor"
    spent = nego.limit_spent(state)
    boss_only = (GoingOnce, FailDeal, Propose, Accept, AcceptFormer)
    if isinstance(action, boss_only) and seat != neg.boss:
        return "boss.only", "only the Boss may do that"
    if isinstance(action, (PlayBoss, AcceptProposal)) and seat == neg.boss:
        return "boss.already", "the Boss cannot do that"
    card_play = in_call and isinstance(action, (PlayTravel, PlayBoss, Recruit))
    if spent and not card_play and not isinstance(action, (GoingOnce, FailDeal)):
        return (
            "negotiation.limit",
            "the negotiation limit is spent: the Boss may only close or fail",
        )
    if neg.quiet and seat == neg.boss and not nego.is_real_time(state) and not spent:
        closing = (GoingOnce, FailDeal, LayClan)
        if neg.last_proposal == QUIET_LAST_SPENT and not isinstance(action, closing):
            return (
                "floor.quiet_again",
                "the last proposal found no taker in another quiet round: the Boss may only"
                " lay his own Clan cards, close or fail",
            )
        if not isinstance(action, closing + (Propose, PassFloor)):
            return (
                "floor.quiet_round",
                "after a quiet round the Boss may only lay his own Clan cards, close, fail or"
                " make a last proposal",
            )
        if isinstance(action, Propose) and neg.last_proposal == QUIET_LAST_MADE:
            return (
                "floor.last_proposal_made",
                "the last proposal has been made: pass the floor so that it can be answered",
            )
        if isinstance(action, PassFloor) and neg.last_proposal != QUIET_LAST_MADE:
            return (
                "floor.quiet_round",
                "after a quiet round the Boss may only close, fail or make a last proposal",
            )
    if isinstance(action, GoingOnce):
        if not nego.is_covered(state):
            return "close.not_covered", "the committed sources do not cover the space"
        return "close.unpaid", "the agreements and two-player payments exceed the proceeds"
    if isinstance(action, FailDeal):
        return "two_player.must_close", "two-player rules: a covered deal must be closed"
    hand = state.hands[seat]
    if isinstance(action, LayClan):
        if not hand[clan_card(action.clan)]:
            return "card.not_in_hand", f"you hold no {action.clan.key} Clan card"
        return "clan.not_on_space", "that clan has no slot on this space"
    if isinstance(action, PlayTravel):
        if not action.card.is_travel or not hand[action.card]:
            return "card.not_in_hand", f"you hold no {action.card.key} card"
        clan = nego.source_clan(state, action.target)
        if clan is None or not nego.usable(state, action.target):
            return "travel.target", "a Travel card goes on a placard or laid Clan card in play"
        if action.card is not Card.TRAVEL_GREY and action.card is not travel_card(clan):
            return "travel.colour", "a coloured Travel card only matches its own clan"
        return "clan.not_on_space", "that clan has no slot on this space"
    if isinstance(action, PlayBoss):
        return "card.not_in_hand", "you hold no Boss card"
    if isinstance(action, Recruit):
        return "recruit.target", "that placard cannot be recruited"
    if isinstance(action, Offer) and seat == neg.boss:
        return "boss.proposes", "the Boss does not offer: the Boss proposes terms to a player"
    if isinstance(action, (Offer, Propose)):
        target = action.to if isinstance(action, Propose) else seat
        if not 0 <= target < state.players:
            return "seat.unknown", f"there is no seat {target}"
        if isinstance(action, Propose) and target == neg.boss:
            return "agreement.self", "the Boss does not negotiate with themself"
        if not nego.may_be_paid(state, target) and not nego.offerable(state, target):
            return (
                "variant.V3",
                "V3: a player who has played no influence card takes part only with a source",
            )
        if not nego.may_be_paid_amount(state, target, action.amount):
            return (
                "variant.V3",
                "V3: a player who has played no influence card may only take part for $0",
            )
        if action.amount > nego.offer_cap(state):
            return (
                "agreement.total_exceeds_proceeds",
                "all agreements together may not exceed the deal's proceeds",
            )
        offerable = set(nego.offerable(state, target))
        if any(s not in offerable for s in action.sources):
            return "agreement.sources", "those are not usable sources of that player for this deal"
        return "agreement.offer", "that offer is not possible now"
    if isinstance(action, Accept):
        terms = neg.pending.get(action.of)
        if terms is None or terms.by_boss:
            return "agreement.no_offer", f"seat {action.of} has no pending offer"
        if not nego.may_be_paid_amount(state, action.of, terms.amount):
            return "variant.V3", "V3: only players who played an influence card may be paid"
        return (
            "agreement.total_exceeds_proceeds",
            "all agreements together may not exceed the deal's proceeds",
        )
    if isinstance(action, AcceptFormer):
        return "agreement.no_former", "there are no former agreements to accept as they stand"
    if isinstance(action, AcceptProposal):
        terms = neg.pending.get(seat)
        if terms is None or not terms.by_boss:
            return "agreement.no_proposal", "the Boss has proposed nothing to you"
        if not nego.may_be_paid_amount(state, seat, terms.amount):
            return "variant.V3", "V3: only players who played an influence card may be paid"
        return (
            "agreement.total_exceeds_proceeds",
            "all agreements together may not exceed the deal's proceeds",
        )
    if isinstance(action, Withdraw):
        if action.player not in neg.pending:
            return "agreement.nothing_pending", "nothing is pending with that player"
        return "agreement.not_party", "only the Boss or that player may withdraw it"
    return "action.not_now", f"{type(action).__name__} is not possible now"
