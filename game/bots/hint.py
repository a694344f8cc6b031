"""The coach on demand: what the heuristic would do in a seat's place, and why, in one line.

`hint_for(view, legal, memory)` reads only what the seat may see: its view, its legal
actions, and (optionally) a `Memory` fed with the events the seat saw (it tracks hidden
money from the public payments). It runs the balanced heuristic `Policy` without table talk
and with a fixed RNG, so a view always gives the same hint, then names the reason as a
translation key ("hint.*") and plain parameters the screen formats:

    space: int (0-based)   clans, held: tuple of clan indices   seat: int
    needs: ((k, clans), ...): k of those clans (all of them when k == len(clans))
    amount, left: int ($M)  card: a card key ("stop")

`Coach` keeps one `Memory` per seat for a table that asks for hints as it goes. Nothing
here imports the UI or the network; the hint never plays the move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum

from game.rules import (
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
    Withdraw,
)
from game.rules.seat_view import SeatView
from game.rules.state import Phase

from .heuristic import (
    BITS,
    CLANS_,
    NEEDED,
    PERSONALITIES,
    Policy,
    nothing_to_do,
    passive_move,
    plan_open_deal,
)
from .obs import Memory, Obs


class HintReason(str, Enum):
    """Why the coach suggests its move, by translation key (assets/lang "hint.*")."""

    DEAL_HERE = "hint.deal_here"  # space, needs, held
    DEAL_BUY = "hint.deal_buy"  # space, needs, amount
    DEAL_NOT_DISCARD = "hint.deal_not_discard"  # space
    ROLL = "hint.roll"  # space, amount
    ROLL_NO_COVER = "hint.roll_no_cover"  # space
    DRAW = "hint.draw"  # space, amount
    DRAW_NO_COVER = "hint.draw_no_cover"  # space
    PLACE_MARKER = "hint.place_marker"  # space, held
    PLACE_MARKER_AWAY = "hint.place_marker_away"  # space
    DISCARD = "hint.discard"  # card
    RECRUIT = "hint.recruit"  # clans
    RECRUIT_FOR_DEAL = "hint.recruit_for_deal"  # clans
    GOING_ONCE = "hint.going_once"
    LAY_OWN = "hint.lay_own"  # clans
    LAY_FOR_BOSS = "hint.lay_for_boss"  # clans
    ACCEPT = "hint.accept"  # seat, amount, left
    ACCEPT_FEE = "hint.accept_fee"  # seat, amount
    ACCEPT_FORMER = "hint.accept_former"
    REFUSE_EXPENSIVE = "hint.refuse_expensive"  # seat, amount
    REFUSE_UNNEEDED = "hint.refuse_unneeded"  # seat
    PROPOSE = "hint.propose"  # seat, amount, clans
    LAST_PROPOSAL = "hint.last_proposal"  # seat, amount, clans
    FAIL_NO_COVER = "hint.fail_no_cover"
    FAIL_TOO_EXPENSIVE = "hint.fail_too_expensive"
    FAIL_NO_TAKERS = "hint.fail_no_takers"
    FAIL_OUT_OF_TIME = "hint.fail_out_of_time"
    BOSS_PASS_FLOOR = "hint.boss_pass_floor"
    WAIT_OFFERS = "hint.wait_offers"
    OFFER = "hint.offer"  # amount, clans
    COUNTER = "hint.counter"  # amount, clans
    OFFER_FEE = "hint.offer_fee"  # amount
    ACCEPT_PROPOSAL = "hint.accept_proposal"  # amount
    PLAY_BOSS = "hint.play_boss"
    PLAY_TRAVEL = "hint.play_travel"  # clans
    NOT_NEEDED = "hint.not_needed"
    BETTER_WITHOUT = "hint.better_without"
    OUTBID = "hint.outbid"
    WAIT_ANSWER = "hint.wait_answer"
    AGREED = "hint.agreed"
    NOTHING_TO_SELL = "hint.nothing_to_sell"
    PLAY_STOP = "hint.play_stop"  # amount
    STOP_BOSS = "hint.stop_boss"  # seat, amount
    STOP_TRAVEL = "hint.stop_travel"  # seat, amount
    STOP_RECRUIT = "hint.stop_recruit"  # seat, amount
    WINDOW_PASS = "hint.window_pass"
    WINDOW_NO_STOP = "hint.window_no_stop"
    LET_CLOSE = "hint.let_close"
    WAIT = "hint.wait"


@dataclass(frozen=True)
class Hint:
    """The suggested move (None: nothing to do now but wait) and its one-line reason."""

    action: Action | None
    reason: HintReason
    params: dict = field(default_factory=dict)


def _policy() -> Policy:
    """A fresh balanced policy with a fixed RNG: the same view always gives the same hint."""
    return Policy(PERSONALITIES["balanced"], random.Random(0))


def hint_for(view: SeatView, legal: LegalActions, memory: Memory | None = None) -> Hint:
    """The heuristic's choice for the view's seat and why (see the module docstring)."""
    legal = legal.moves()
    money = memory.money_for(view) if memory is not None else None
    failed = dict(memory.failed) if memory is not None else None
    o = Obs.of(view, money, failed)
    policy = _policy()
    if not legal:
        return Hint(None, HintReason.WAIT)
    # real-time talks wait for nobody: there the heuristic may let the moment pass
    must_act = not (o.real_time and o.view.phase is Phase.NEGOTIATION and o.win is None)
    action = policy.decide(o, legal, must_act)
    if action is None and must_act:
        action = passive_move(legal)
    if action is None:
        return Hint(None, *_waiting(policy, o, legal))
    if isinstance(action, FailDeal):
        closing = closing_move(o, legal)
        if closing is not None:  # never fail a deal one legal move would still close
            action = closing
            if isinstance(closing, Propose):
                params = _propose(policy, o, legal, action)[1]
                return Hint(action, HintReason.LAST_PROPOSAL, params)
    return Hint(action, *_reason(policy, o, legal, action))


def closing_move(o: Obs, legal: LegalActions) -> Action | None:
    """A legal move of the Boss that closes the deal or covers it now: "going once", laying
    a Clan card that completes the cover, accepting a covering offer, or (after a quiet
    round, when offers can no longer be accepted) a last proposal on a covering offer's own
    terms. None when no single move does."""
    neg = o.neg
    if neg is None or neg.boss != o.seat:
        return None
    cover = o.view.board.cover[neg.space]
    for a in legal.fixed:
        if isinstance(a, GoingOnce):
            return a
    for a in legal.fixed:
        if isinstance(a, LayClan) and cover[neg.committed_mask | 1 << int(a.clan)]:
            return a
    for q in sorted(neg.pending, key=lambda s: (neg.pending[s].amount, s)):
        t = neg.pending[q]
        clans = {neg.source_clan(s) for s in t.sources} - {None}
        if t.by_boss or not cover[neg.committed_mask | sum(1 << c for c in clans)]:
            continue
        if (accept := Accept(o.seat, q)) in legal.fixed:
            return accept
        for choice in legal.terms:
            a = choice.action
            mirror = choice.make(t.sources, t.amount)
            if isinstance(a, Propose) and a.to == q and choice.covers(mirror):
                return mirror
    return None


class Coach:
    """Hints for the seats of one table: one `Memory` per seat, fed with what it saw."""

    def __init__(self, seats: int) -> None:
        self.memories = [Memory(s) for s in range(seats)]

    def observe(self, events: list[dict]) -> None:
        """Public events (any seat's redaction): money and failed deals are public."""
        for m in self.memories:
            m.observe(events)

    def hint(self, view: SeatView, legal: LegalActions) -> Hint:
        seat = view.seat
        memory = self.memories[seat] if 0 <= seat < len(self.memories) else None
        return hint_for(view, legal, memory)


# --------------------------------------------------------------------------- the reasons


def _reason(policy: Policy, o: Obs, legal: LegalActions, a: Action) -> tuple[HintReason, dict]:
    if o.win is not None:
        return _window_reason(policy, o, legal, a)
    explain = _REASONS.get(type(a))
    if explain is None:  # pragma: no cover - every move kind has a reason below
        return HintReason.WAIT, {}
    return explain(policy, o, legal, a)


def _space_clans(
    o: Obs, space: int, cards: bool = True
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The clans a space takes, and those of them the seat holds: its placards, and with
    `cards` its Clan cards too."""
    clans = BITS[o.view.board.clan_masks[space]]
    mine = o.seat
    return clans, tuple(c for c in clans if o.placards[c] == mine or (cards and o.hand[c]))


def space_needs(o: Obs, space: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """What a space needs, as (how many, of which clans): its required clans (all of them),
    then each "k of" group."""
    sp = o.view.board.spaces[space]
    out = []
    if sp.required:
        out.append((len(sp.required), tuple(int(c) for c in sp.required)))
    out += [(g.count, tuple(int(c) for c in g.clans)) for g in sp.groups]
    return tuple(out)


def _open_deal(policy, o, legal, a):
    space = o.view.marker
    _clans, held = _space_clans(o, space)
    if policy.reasonable_at_hand_limit(o):
        return HintReason.DEAL_NOT_DISCARD, {"space": space}
    needs = space_needs(o, space)
    if held:
        return HintReason.DEAL_HERE, {"space": space, "needs": needs, "held": held}
    amount = o.view.board.spaces[space].dividends * o.view.price
    return HintReason.DEAL_BUY, {"space": space, "needs": needs, "amount": amount}


def _not_here(policy: Policy, o: Obs, reason: HintReason, no_cover: HintReason):
    """Why not deal on the marker's space: what the deal would leave the seat (the
    heuristic's own estimate), or that it cannot be covered now."""
    value = policy.boss_value(o, o.view.marker)
    if value < 0:
        return no_cover, {"space": o.view.marker}
    return reason, {"space": o.view.marker, "amount": max(0, round(value))}


def _roll(policy, o, legal, a):
    return _not_here(policy, o, HintReason.ROLL, HintReason.ROLL_NO_COVER)


def _draw(policy, o, legal, a):
    return _not_here(policy, o, HintReason.DRAW, HintReason.DRAW_NO_COVER)


def _place_marker(policy, o, legal, a):
    _clans, held = _space_clans(o, a.space, cards=False)  # what the heuristic weighs there
    if held:
        return HintReason.PLACE_MARKER, {"space": a.space, "held": held}
    return HintReason.PLACE_MARKER_AWAY, {"space": a.space}


def _discard(policy, o, legal, a):
    return HintReason.DISCARD, {"card": a.card.key}


def _recruit(policy, o, legal, a):
    clan = int(a.clan)
    neg = o.neg
    if (
        neg is not None
        and not neg.covered
        and o.view.board.clan_masks[neg.space] >> clan & 1
        and not neg.committed_mask >> clan & 1  # a laid card or an agreement already brings it
    ):
        return HintReason.RECRUIT_FOR_DEAL, {"clans": (clan,)}
    return HintReason.RECRUIT, {"clans": (clan,)}


def _lay(policy, o, legal, a):
    clans = (int(a.clan),)
    if o.neg is not None and o.neg.boss == o.seat:
        return HintReason.LAY_OWN, {"clans": clans}
    return HintReason.LAY_FOR_BOSS, {"clans": clans}


def _boss_plan(o: Obs):
    return plan_open_deal(o, o.seat)


def _accept(policy, o, legal, a):
    neg = o.neg
    t = neg.pending[a.of]
    plan = _boss_plan(o)
    if a.of not in plan.seats:
        return HintReason.ACCEPT_FEE, {"seat": a.of, "amount": t.amount}
    left = neg.proceeds - neg.agreed_total - plan.cost + plan.seats[a.of][1] - t.amount
    return HintReason.ACCEPT, {"seat": a.of, "amount": t.amount, "left": max(0, round(left))}


def _accept_former(policy, o, legal, a):
    return HintReason.ACCEPT_FORMER, {}


def _withdraw(policy, o, legal, a):
    """The Boss turns an offer down (the heuristic answers every offer: taken, countered or
    refused). The heuristic never withdraws an investor's own terms; read as standing down."""
    neg = o.neg
    if neg.boss != o.seat:
        return _investor_idle(policy, o, legal)
    t = neg.pending.get(a.player)
    if t is not None and a.player in _boss_plan(o).seats:
        return HintReason.REFUSE_EXPENSIVE, {"seat": a.player, "amount": t.amount}
    return HintReason.REFUSE_UNNEEDED, {"seat": a.player}


def _clans_of(o: Obs, sources) -> tuple[int, ...]:
    neg = o.neg
    out = {neg.source_clan(s) for s in sources}
    return tuple(sorted(c for c in out if c is not None))


def _propose(policy, o, legal, a):
    return HintReason.PROPOSE, {"seat": a.to, "amount": a.amount, "clans": _clans_of(o, a.sources)}


def _fail(policy, o, legal, a):
    neg = o.neg
    if neg.limit_spent:
        return HintReason.FAIL_OUT_OF_TIME, {}
    plan = _boss_plan(o)
    if not plan.feasible:
        return HintReason.FAIL_NO_COVER, {}
    if neg.quiet or (o.real_time and plan.left >= 1):
        return HintReason.FAIL_NO_TAKERS, {}
    if neg.actions >= 0.8 * neg.limit and plan.left >= 1:
        return HintReason.FAIL_OUT_OF_TIME, {}
    return HintReason.FAIL_TOO_EXPENSIVE, {}


def _going_once(policy, o, legal, a):
    return HintReason.GOING_ONCE, {}


def _offer(policy, o, legal, a):
    if not a.sources:
        return HintReason.OFFER_FEE, {"amount": a.amount}
    mine = o.neg.pending.get(o.seat)
    kind = HintReason.COUNTER if mine is not None and mine.by_boss else HintReason.OFFER
    return kind, {"amount": a.amount, "clans": _clans_of(o, a.sources)}


def _accept_proposal(policy, o, legal, a):
    return HintReason.ACCEPT_PROPOSAL, {"amount": o.neg.pending[o.seat].amount}


def _play_boss(policy, o, legal, a):
    return HintReason.PLAY_BOSS, {}


def _play_travel(policy, o, legal, a):
    clan = o.neg.source_clan(a.target) if o.neg is not None else None
    return HintReason.PLAY_TRAVEL, {"clans": () if clan is None else (clan,)}


def _pass_floor(policy, o, legal, a):
    neg = o.neg
    if neg.boss == o.seat:
        return HintReason.BOSS_PASS_FLOOR, {}
    return _investor_idle(policy, o, legal)


def _investor_idle(policy: Policy, o: Obs, legal: LegalActions) -> tuple[HintReason, dict]:
    """Why an investor does nothing now (the branches of InvestorPlay.as_investor that idle)."""
    neg = o.neg
    me = o.seat
    if me in neg.agreements:
        return HintReason.AGREED, {}
    if nothing_to_do(legal):
        return HintReason.NOTHING_TO_SELL, {}
    plan = plan_open_deal(o, neg.boss, prefer=me)
    mine = plan.seats.get(me) if plan.feasible else None
    if mine is None:
        return HintReason.NOT_NEEDED, {}
    pending = neg.pending.get(me)
    if pending is not None and not pending.by_boss:
        return HintReason.WAIT_ANSWER, {}
    best = policy.current_plan(o)
    if best.feasible and me not in best.seats and plan.value < NEEDED * best.value:
        return HintReason.BETTER_WITHOUT, {}
    return HintReason.OUTBID, {"clans": BITS[mine[CLANS_]]}


def _window_reason(
    policy: Policy, o: Obs, legal: LegalActions, a: Action
) -> tuple[HintReason, dict]:
    if isinstance(a, PlayStop):
        amount = max(1, round(policy.stop_worth(o)))
        kind = _STOP_REASONS.get(o.win.kind)
        if kind is None or o.win.actor is None:
            return HintReason.PLAY_STOP, {"amount": amount}
        return kind, {"seat": o.win.actor, "amount": amount}
    if isinstance(a, PlayBoss):
        return HintReason.PLAY_BOSS, {}
    if isinstance(a, PlayTravel):
        return _play_travel(policy, o, None, a)
    if o.win.kind == "going_once":
        return HintReason.LET_CLOSE, {}
    if not any(isinstance(x, PlayStop) for x in legal.fixed):
        return HintReason.WINDOW_NO_STOP, {}
    return HintReason.WINDOW_PASS, {}


def _waiting(policy: Policy, o: Obs, legal: LegalActions) -> tuple[HintReason, dict]:
    """Real-time talks: why the heuristic lets the moment pass."""
    if o.neg is not None and o.neg.boss == o.seat:
        return HintReason.WAIT_OFFERS, {}
    return _investor_idle(policy, o, legal)


def _idle(policy, o, legal, a):
    """A Pass outside a window cannot happen; a Roll/Draw fallback reads as its own move."""
    if o.view.phase is Phase.NEGOTIATION and o.neg is not None and o.neg.boss != o.seat:
        return _investor_idle(policy, o, legal)
    return HintReason.WAIT, {}


# the play a Stop answers, by window kind
_STOP_REASONS = {
    "boss": HintReason.STOP_BOSS,
    "travel": HintReason.STOP_TRAVEL,
    "recruit": HintReason.STOP_RECRUIT,
}

_REASONS = {
    OpenDeal: _open_deal,
    Roll: _roll,
    Draw: _draw,
    PlaceMarker: _place_marker,
    Discard: _discard,
    Recruit: _recruit,
    LayClan: _lay,
    Accept: _accept,
    AcceptFormer: _accept_former,
    Withdraw: _withdraw,
    Propose: _propose,
    FailDeal: _fail,
    GoingOnce: _going_once,
    Offer: _offer,
    AcceptProposal: _accept_proposal,
    PlayBoss: _play_boss,
    PlayTravel: _play_travel,
    PassFloor: _pass_floor,
    Pass: _idle,
}

__all__ = ["Coach", "Hint", "HintReason", "hint_for"]
