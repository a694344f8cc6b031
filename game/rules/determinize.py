"""Rebuild a full game state from one seat's view, filling in what the seat cannot see.

Search bots sample many such states (information-set Monte Carlo); a LAN client can use one
to work out its own legal actions. Everything public is copied from the view; the other
hands and the draw pile are dealt from the cards the seat has not seen, at the sizes the view
shows. Legal actions never depend on hidden information, so for the seat itself the rebuilt
state offers exactly the moves the real one does.
"""

from __future__ import annotations

import random

from .cards import CARD_KINDS, CARDS, DECK_COUNTS, Card, clan_card
from .seat_view import SeatView
from .state import GameState, LaidCard, Negotiation, Rng, Terms, Window, WindowKind

_FIXED = random.Random(0)  # never drawn from when shuffle=False


class ViewError(ValueError):
    """A view that is not self-consistent (e.g. more cards than the deck has)."""


def unseen_cards(view: SeatView) -> list[int]:
    """Counts per card kind of the cards `view`'s seat cannot place: other hands + draw pile."""
    counts = list(DECK_COUNTS)
    if view.hand is not None:
        for k, n in enumerate(view.hand):
            counts[k] -= n
    for k, n in enumerate(view.discard_pile):
        counts[k] -= n
    neg = view.negotiation
    if neg is not None:
        for c in neg.laid:
            counts[clan_card(c.clan)] -= 1
        for card in neg.travel.values():
            counts[card] -= 1
    win = view.window
    if win is not None:
        if win.kind is WindowKind.TRAVEL:
            counts[win.card] -= 1
        elif win.kind is WindowKind.BOSS:
            counts[Card.BOSS] -= 1
        elif win.kind is WindowKind.RECRUIT:
            counts[Card.RECRUIT] -= 3
    if any(n < 0 for n in counts):
        raise ViewError("the view accounts for more cards than the deck has")
    return counts


def _copy(t: Terms) -> Terms:
    return Terms(t.sources, t.amount, t.by_boss, t.was_agreed)


def state_from_view(
    view: SeatView,
    rng: random.Random | None = None,
    known: dict[int, list[Card]] | None = None,
    money: list[int] | None = None,
    seed: int = 0,
    shuffle: bool = True,
) -> GameState:
    """A full state consistent with `view`.

    `known` pins cards the seat knows another seat holds (e.g. Clan cards that went back to
    its hand); the rest of the unseen cards are shuffled with `rng` into the other hands and
    the draw pile. `money` replaces hidden money figures (default: the pile height x $5M).
    `shuffle=False` deals the unseen cards in a fixed order (enough for legal actions).
    """
    if rng is None:
        rng = random.Random(seed) if shuffle else _FIXED
    seat = view.seat
    players = view.players
    n = len(players)
    unseen = unseen_cards(view)
    pool_cards: list[int] = []
    hands = [[0] * CARD_KINDS for _ in range(n)]
    if seat is not None:
        hands[seat] = list(view.hand)
    for s, cards in (known or {}).items():
        if s == seat:
            continue
        for c in cards:
            if unseen[c] <= 0:
                raise ViewError(f"seat {s} cannot hold {Card(c).key}: none unseen")
            unseen[c] -= 1
            hands[s][c] += 1
    for k, count in enumerate(unseen):
        pool_cards.extend([k] * count)
    if shuffle:
        rng.shuffle(pool_cards)
    for s, p in enumerate(players):
        if s == seat:
            continue
        need = p.hand_count - sum(hands[s])
        if need < 0 or need > len(pool_cards):
            raise ViewError(f"seat {s}'s hand size does not fit the unseen cards")
        for _ in range(need):
            hands[s][pool_cards.pop()] += 1
    if len(pool_cards) != view.draw_pile:
        raise ViewError("the draw pile size does not fit the unseen cards")
    deck = [CARDS[k] for k in pool_cards]
    discard = [CARDS[k] for k, count in enumerate(view.discard_pile) for _ in range(count)]
    if view.discard_top is not None:
        discard.remove(view.discard_top)
        discard.append(view.discard_top)

    cash = []
    for s, p in enumerate(players):
        if p.money is not None:
            cash.append(p.money)
        elif money is not None:
            cash.append(money[s])
        else:
            cash.append(p.money_pile * 5)

    st = GameState(
        settings=view.settings,
        board=view.board,
        seed=seed,
        rng=Rng(rng.getrandbits(64) if shuffle else seed),
        names=[p.name for p in players],
        hands=hands,
        money=cash,
        placards=list(view.placard_owners),
        deck=deck,
        discard=discard,
        tiles=list(view.tiles),
        covered=dict(view.covered),
        phase=view.phase,
        turn=view.turn,
        first_player=view.first_player,
        marker=view.marker,
        deals_closed=view.deals_closed,
        deals_failed=view.deals_failed,
        last_roll=view.last_roll,
        winners=list(view.winners),
        ask_only_when_touched=[p.asks_only_when_touched for p in players],
        actions_taken=view.version,
    )
    neg = view.negotiation
    if neg is not None:
        st.negotiation = Negotiation(
            space=neg.space,
            price=neg.price,
            proceeds=neg.proceeds,
            opener=neg.opener,
            boss=neg.boss,
            laid=[LaidCard(c.id, c.owner, c.clan) for c in neg.laid],
            next_card_id=neg.next_card_id,
            travel=dict(neg.travel),
            agreements={k: _copy(t) for k, t in neg.agreements.items()},
            pending={k: _copy(t) for k, t in neg.pending.items()},
            played=set(neg.played),
            actions=neg.actions,
            time_up=neg.time_up,
            floor=neg.floor,
            round_active=neg.round_active,
            quiet=neg.quiet,
            last_proposal=neg.last_proposal,
            floor_passed=set(neg.floor_passed),
        )
    win = view.window
    if win is not None:
        st.window = Window(
            kind=win.kind,
            actor=win.actor,
            card=win.card,
            target=win.target,
            recruit=win.recruit,
            queue=list(win.queue),
            waiting=list(win.waiting),
        )
    return st


def hidden_twin(state: GameState, seat: int | None, rng: random.Random, keep_rng: bool = False):
    """The state as it might be for all `seat` knows: the other hands (same sizes) and the
    draw order dealt again from the same cards, and (unless `keep_rng`) another RNG state.
    `seat=None` (the public table) reshuffles every hand. Audits use it: anything `seat`
    receives must be the same for the twin."""
    other = state.clone()
    pool = list(other.deck)
    others = [s for s in range(other.players) if s != seat]
    for s in others:
        for kind, count in enumerate(other.hands[s]):
            pool.extend([kind] * count)
            other.hands[s][kind] = 0
    rng.shuffle(pool)
    for s in others:
        for _ in range(state.hand_size(s)):
            other.hands[s][pool.pop()] += 1
    other.deck = [CARDS[k] for k in pool]
    if not keep_rng:
        other.rng.state ^= 0x5DEECE66D
    return other
