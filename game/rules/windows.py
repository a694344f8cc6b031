"""Reaction windows (RULES §5, §6): who is asked, passing, Stop, and what a play does
once everyone has passed (a Travel card sent, a new Boss, a placard recruited, a close)."""

from __future__ import annotations

from . import negotiation as nego
from .actions import (
    Pass,
    PlayStop,
)
from .board import Clan
from .cards import Card, clan_card
from .closing import close_deal
from .events import (
    AgreementsFellBack,
    Asked,
    BossChanged,
    CallCancelled,
    Event,
    Passed,
    PlacardRecruited,
    Stopped,
    TravelSent,
    WindowClosed,
    WindowOpened,
)
from .legality import (
    QUIET_LAST_UNUSED,
)
from .state import (
    POOL,
    GameState,
    Phase,
    Source,
    SourceKind,
    Terms,
    Window,
    WindowKind,
)
from .turn import after_discard_step


def cancel_call(state: GameState, seat: int, events: list[Event]) -> None:
    """Any card played or offer made during "going once" cancels the call."""
    win = state.window
    if win is not None and win.kind is WindowKind.GOING_ONCE:
        state.window = None
        events.append(CallCancelled(seat))
        events.append(WindowClosed(WindowKind.GOING_ONCE.value))
        if not nego.is_real_time(state):
            state.negotiation.floor = seat


def open_window(state: GameState, kind: WindowKind, actor: int, events: list[Event], **kw) -> None:
    win = Window(kind, actor, **kw)
    state.window = win
    order = nego.ask_order(state, actor)
    events.append(WindowOpened(kind.value, actor, tuple(order)))
    if nego.is_real_time(state):
        for s in order:
            if state.ask_only_when_touched[s] and not nego.touches(state, s):
                events.append(Passed(s, True))
            else:
                win.waiting.append(s)
        if not win.waiting:
            _resolve_window(state, events)
    else:
        win.queue = order
        _advance_queue(state, events)


def _advance_queue(state: GameState, events: list[Event]) -> None:
    """Skip the players whose preference says this window does not concern them."""
    win = state.window
    while win.queue:
        s = win.queue[0]
        if state.ask_only_when_touched[s] and not nego.touches(state, s):
            win.queue.pop(0)
            events.append(Passed(s, True))
            continue
        events.append(Asked(s))
        return
    _resolve_window(state, events)


def _pass(state: GameState, a: Pass, events: list[Event]) -> None:
    win = state.window
    events.append(Passed(a.seat, False))
    if nego.is_real_time(state):
        win.waiting.remove(a.seat)
        if not win.waiting:
            _resolve_window(state, events)
    else:
        win.queue.pop(0)
        _advance_queue(state, events)


def _window_cards(win: Window) -> tuple[Card, ...]:
    if win.kind is WindowKind.TRAVEL:
        return (win.card,)
    if win.kind is WindowKind.BOSS:
        return (Card.BOSS,)
    if win.kind is WindowKind.RECRUIT:
        return (Card.RECRUIT,) * 3
    return ()


def _play_stop(state: GameState, a: PlayStop, events: list[Event]) -> None:
    win = state.window
    state.window = None
    state.hands[a.seat][Card.STOP] -= 1
    cancelled = _window_cards(win)
    state.discard.extend(cancelled)
    state.discard.append(Card.STOP)
    if state.negotiation is not None:
        state.negotiation.played.add(a.seat)
        if a.seat != state.negotiation.boss:
            state.negotiation.round_active = True
    events.append(Stopped(a.seat, win.kind.value, cancelled))
    events.append(WindowClosed(win.kind.value))
    _after_window(state, win, events)


def _resolve_window(state: GameState, events: list[Event]) -> None:
    """Everyone passed: the play takes effect (or the deal closes)."""
    win = state.window
    state.window = None
    events.append(WindowClosed(win.kind.value))
    kind = win.kind
    if kind is WindowKind.GOING_ONCE:
        close_deal(state, events)
        return
    neg = state.negotiation
    if kind is WindowKind.TRAVEL:
        target = win.target
        owner = nego.source_owner(state, target)
        nego.touch_clan(state, int(nego.source_clan(state, target)))
        if target.kind is SourceKind.PLACARD:
            neg.travel[target.ref] = win.card
            events.append(TravelSent(win.actor, win.card, target, owner, False))
        else:
            card = neg.card(target.ref)
            neg.laid.remove(card)
            state.discard.extend((clan_card(card.clan), win.card))
            events.append(TravelSent(win.actor, win.card, target, owner, True))
        nego.lapse(state, target, events)
    elif kind is WindowKind.BOSS:
        state.discard.append(Card.BOSS)
        _change_boss(state, win.actor, events)
    elif kind is WindowKind.RECRUIT:
        state.discard.extend((Card.RECRUIT,) * 3)
        clan = int(win.recruit)
        old = state.placards[clan]
        if neg is not None:
            nego.touch_clan(state, clan)
            if old != POOL:
                nego.touch(state, old)
        state.placards[clan] = win.actor
        events.append(PlacardRecruited(Clan(clan), old, win.actor))
        if neg is not None:
            nego.lapse(state, Source(SourceKind.PLACARD, clan), events)
    _after_window(state, win, events)


def _after_window(state: GameState, win: Window, events: list[Event]) -> None:
    if state.phase is Phase.DISCARD:
        after_discard_step(state, events)
        return
    neg = state.negotiation
    if neg is None or nego.is_real_time(state):
        return
    if win.kind is WindowKind.BOSS and neg.boss == win.actor:
        return  # the new Boss has the floor (set by _change_boss)
    neg.floor = neg.boss if nego.limit_spent(state) else win.actor


def _change_boss(state: GameState, new: int, events: list[Event]) -> None:
    """RULES §5.3: agreements fall back to pending offers the new Boss may accept as they
    stand; the old Boss's proposals lapse; the old Boss negotiates like anyone else."""
    neg = state.negotiation
    old = neg.boss
    neg.boss = new
    fell = []
    pending: dict[int, Terms] = {}
    for seat, terms in neg.pending.items():
        if not terms.by_boss and seat != new:
            pending[seat] = terms
    for seat, terms in neg.agreements.items():
        if seat != new:
            pending[seat] = Terms(terms.sources, terms.amount, by_boss=False, was_agreed=True)
            fell.append(seat)
    neg.pending = pending
    neg.agreements = {}
    neg.floor_passed.clear()  # a new Boss touches everyone (RULES §6.4)
    events.append(BossChanged(old, new))
    if fell:
        events.append(AgreementsFellBack(tuple(sorted(fell))))
    if not nego.is_real_time(state):
        neg.floor = new
        neg.round_active = False
        neg.quiet = False
        neg.last_proposal = QUIET_LAST_UNUSED


#: the actions this module applies, by type (engine.apply dispatches on it)
HANDLERS = {
    Pass: _pass,
    PlayStop: _play_stop,
}
