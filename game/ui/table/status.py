"""What the panel says the game waits for: who, what for, and what the viewer can do.

Read from the seat's view only (never the state): who has the floor, who is the Boss, whose
offers and proposals are still open. These are explanations; the buttons stay enabled from
the legal actions alone.
"""

from __future__ import annotations

from game.rules.engine import QUIET_LAST_MADE, QUIET_LAST_SPENT, QUIET_LAST_UNUSED
from game.rules.seat_view import NegotiationView, SeatView
from game.rules.state import Phase

from ..i18n import tr, tr_count, tr_names

# the turn phases: (the viewer's own prompt, what the others are told they wait for)
TURN_PROMPTS = {
    "turn": ("prompt.turn", "wait.turn"),
    "moved": ("prompt.moved", "wait.moved"),
    "discard": ("prompt.discard", "wait.discard"),
    "place_marker": ("prompt.place_marker", "wait.place_marker"),
}


def turn_title(v: SeatView, viewer: int | None, names: list[str]) -> str:
    """'Your turn' / 'Dara's turn'; before the first turn, who places the marker."""
    turn = v.turn
    if v.phase is Phase.PLACE_MARKER:
        if turn == viewer:
            return tr("table.you_place_marker")
        return tr("table.places_marker", name=names[turn])
    return tr("table.your_turn") if turn == viewer else tr("table.turn_of", name=names[turn])


def turn_prompt(v: SeatView, viewer: int | None, names: list[str]) -> str:
    turn = v.turn
    own, other = TURN_PROMPTS[v.phase.value]
    key = own if turn == viewer else other
    name = names[turn]
    if v.phase is Phase.MOVED:  # "draw 3 cards": a counted sentence
        return tr_count(key, v.draw_count, name=name)
    args = {"name": name, "first": names[v.first_player], "limit": v.hand_limit}
    if v.phase is Phase.DISCARD:
        args["n"] = v.players[turn].hand_count - v.hand_limit
        if args["n"] <= 0:  # three Recruitment cards played first, the others answer it
            key = "prompt.discard_within" if turn == viewer else "wait.discard_within"
    return tr(key, **args)


def _open_proposals(neg: NegotiationView) -> list[int]:
    """Seats holding a proposal from the Boss they have not answered."""
    return sorted(s for s, t in neg.pending.items() if t and t.by_boss)


def _open_offers(neg: NegotiationView) -> list[int]:
    """Seats whose offer (or former agreement) waits for the Boss."""
    return sorted(s for s, t in neg.pending.items() if t and not t.by_boss)


# a quiet round by how far its last proposal has got:
# (what the Boss is told, what everyone else is told)
QUIET_STATUS = {
    QUIET_LAST_UNUSED: ("table.status.quiet", "table.status.quiet_wait"),
    QUIET_LAST_MADE: ("table.status.quiet_last", "table.status.quiet_last_wait"),
    QUIET_LAST_SPENT: ("table.status.quiet_again", "table.status.quiet_again_wait"),
}


def quiet_status(v: SeatView, viewer: int | None, names: list[str]) -> str | None:
    """While a quiet round lasts (ask-around, RULES §6.3): its name and what each player may
    still do; None at other times."""
    neg = v.negotiation
    if not neg.quiet or neg.floor is None or neg.limit_spent:
        return None
    boss = neg.boss
    own, other = QUIET_STATUS[neg.last_proposal]
    return tr(own) if viewer == boss else tr(other, name=names[boss])


def negotiation_status(v: SeatView, viewer: int | None, names: list[str]) -> str:
    """The line above the negotiation's bottom bar (no reaction window open)."""
    neg = v.negotiation
    boss = neg.boss
    floor = neg.floor
    if neg.limit_spent:
        return tr("table.status.limit", name=names[boss])
    quiet = quiet_status(v, viewer, names)
    if quiet is not None:
        return quiet
    proposals = _open_proposals(neg)
    offers = _open_offers(neg)
    listed = [names[s] for s in proposals]
    if floor is None:  # real time: anyone may act, nobody waits for a floor
        if viewer in proposals:
            return tr("table.status.rt_answer_boss", name=names[boss])
        if viewer == boss and proposals:
            return tr_names("table.status.rt_proposals_wait", listed)
        if viewer is not None and viewer in offers:
            return tr("table.status.rt_offer_waits", boss=names[boss])
        if viewer == boss and neg.covered:
            return tr("table.status.you_boss_covered")
        return tr("table.status.real_time")
    if floor == viewer == boss:
        if proposals and not offers:
            return tr_names("table.status.proposals_wait", listed)
        if neg.covered:
            return tr("table.status.you_boss_covered")
        if not offers:  # nothing on the table yet: say how a deal gets going
            return tr("table.status.you_boss_start")
        return tr("table.status.you_boss")
    if floor == viewer:
        if viewer in proposals:
            return tr("table.status.answer_boss", name=names[boss])
        return tr("table.status.you_floor")
    if viewer == boss and proposals:
        return tr_names("table.status.boss_waits_floor", listed, floor=names[floor])
    if viewer is not None and viewer in offers:
        if floor == boss:
            return tr("table.status.boss_answers", name=names[boss])
        return tr("table.status.offer_waits", name=names[floor], boss=names[boss])
    if floor == boss:
        return tr("table.status.boss_floor", name=names[boss])
    return tr("table.status.floor", name=names[floor])
