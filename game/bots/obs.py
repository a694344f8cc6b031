"""What a bot knows at one decision: its seat's view (a `SeatView`) and its memory.

`Obs.of(view, money, failed)` is what a bot at a real table decides from: the view its seat
is shown, the money it tracks for the seats whose figures are hidden (a `Memory` that adds
up the public `paid` events, or the pile heights when it cannot) and the deals it saw fail.
Search bots roll games out on *sampled* states (`determinize.state_from_view`);
`Obs.from_state(state, seat)` builds the view of such a state for the seat, then the
observation from it, the sampled state's money standing for the memory. Either way a bot
reads only what `view(state, seat)` shows: `o.view` with its `negotiation` (`o.neg`) and
`window` (`o.win`), plus a few per-seat arrays worked out once from it.

`Memory` also remembers cards known to sit in other hands (Clan cards that went back to
their owners after a negotiation), which the search bot pins when it samples hands.
"""

from __future__ import annotations

from math import comb

from game.rules.board import clan_from_key
from game.rules.cards import CARD_KINDS, DECK_COUNTS, Card, card_from_key, clan_card
from game.rules.seat_view import SeatView
from game.rules.state import GameState, Phase, WindowKind
from game.rules.variants import Variant, WindowMode
from game.rules.view import PILE_NOTE, money_pile

_GAME_OVER = Phase.GAME_OVER
_EMPTY_HAND = (0,) * CARD_KINDS


class Obs:
    """One seat's knowledge of the game (see the module docstring)."""

    __slots__ = (
        "view",
        "seat",
        "n",
        "real_time",
        "two_player",
        "v3",
        "v2",
        "hand",
        "hand_counts",
        "placards",
        "money",
        "neg",
        "win",
        "failed",
        "_unseen",
        "cache",
    )

    # -- construction --------------------------------------------------------------------

    @classmethod
    def of(
        cls, v: SeatView, money: list[int] | None = None, failed: dict[int, int] | None = None
    ) -> Obs:
        """`money`: the figures to assume where the view hides them (default: the middle
        of each pile); `failed`: space -> deals failed there since the last close."""
        players = v.players
        if money is None:
            figures = [
                p.money if p.money is not None else pile_estimate(p.money_pile) for p in players
            ]
        else:
            figures = [money[i] if p.money is None else p.money for i, p in enumerate(players)]
        return cls._of(v, figures, failed or {})

    @classmethod
    def _of(cls, v: SeatView, money: list[int], failed: dict[int, int]) -> Obs:
        o = cls()
        o.view = v
        o.failed = failed
        o.seat = v.seat
        o.hand_counts = hand_counts = v.hand_counts
        o.n = n = len(hand_counts)
        settings = v.settings
        o.real_time = settings.window_mode is WindowMode.REAL_TIME
        o.two_player = n == 2
        o.v3 = Variant.V3 in settings.variants
        o.v2 = Variant.V2 in settings.variants
        o.hand = v.hand if v.hand is not None else _EMPTY_HAND
        o.placards = v.placard_owners
        o.money = money
        o.neg = v.negotiation
        o.win = v.window
        o._unseen = None
        o.cache = {}
        return o

    @classmethod
    def from_view(
        cls, v: dict, money: list[int] | None = None, failed: dict[int, int] | None = None
    ) -> Obs:
        """`Obs.of` the view read from its wire map."""
        return cls.of(SeatView.from_data(v), money, failed)

    @classmethod
    def from_state(cls, s: GameState, seat: int) -> Obs:
        """The observation of a state (a search bot's *sampled* state: the money it holds
        for other seats is the searcher's own estimate): its seat's view, then `of` it.
        Every figure the view shows is the state's, so the money is the state's."""
        return cls._of(SeatView.of(s, seat), list(s.money), {})

    # -- derived ---------------------------------------------------------------------------

    def discard_counts(self) -> tuple[int, ...]:
        return self.view.discard_pile

    def unseen(self) -> list[int]:
        """Cards this seat cannot place, per kind: other hands and the draw pile."""
        if self._unseen is None:
            counts = list(DECK_COUNTS)
            for k, x in enumerate(self.hand):
                counts[k] -= x
            for k, x in enumerate(self.discard_counts()):
                counts[k] -= x
            neg = self.neg
            if neg is not None:
                for card in neg.laid:
                    counts[card.clan] -= 1
                for card in neg.travel.values():
                    counts[card] -= 1
            w = self.win
            if w is not None:
                if w.kind is WindowKind.TRAVEL and w.card is not None:
                    counts[w.card] -= 1
                elif w.kind is WindowKind.BOSS:
                    counts[Card.BOSS] -= 1
                elif w.kind is WindowKind.RECRUIT:
                    counts[Card.RECRUIT] -= 3
            self._unseen = [max(0, x) for x in counts]
        return self._unseen

    def p_holds(self, seat: int, card: Card) -> float:
        """Chance that `seat` holds at least one `card`, from the unseen cards."""
        if seat == self.seat:
            return 1.0 if self.hand[card] else 0.0
        key = (seat, card)
        p = self.cache.get(key)
        if p is None:
            p = self.cache[key] = self._p_holds(seat, card)
        return p

    def _p_holds(self, seat: int, card: int) -> float:
        h = self.hand_counts[seat]
        if h <= 0:
            return 0.0
        unseen = self.unseen()
        return p_at_least_one(h, sum(unseen), unseen[card])

    def hope_clan(self, boss: int, clan: int) -> float:
        """Chance that a seat other than the Boss and me lays a Clan card of `clan` (and
        offers it at a price the Boss can meet): a rough 60% of someone holding one."""
        key = ("hope", boss, clan)
        p = self.cache.get(key)
        if p is None:
            held = sum(h for q, h in enumerate(self.hand_counts) if q != boss and q != self.seat)
            unseen = self.unseen()
            p = self.cache[key] = 0.6 * p_at_least_one(held, sum(unseen), unseen[clan])
        return p


_P_ONE: dict[tuple[int, int, int], float] = {}


def p_at_least_one(h: int, total: int, k: int) -> float:
    """Chance that `h` cards dealt from `total` (of which `k` are of a kind) hold one."""
    key = (h, total, k)
    p = _P_ONE.get(key)
    if p is None:
        if k <= 0 or total <= 0:
            p = 0.0
        elif h >= total or total - k < h:
            p = 1.0
        else:
            p = 1.0 - comb(total - k, h) / comb(total, h)
        _P_ONE[key] = p
    return p


def pile_estimate(pile: int) -> int:
    """Money behind a pile of `pile` notes: somewhere in (5(p-1), 5p]; take the middle."""
    return max(0, pile * PILE_NOTE - PILE_NOTE // 2)


class Memory:
    """What a seat remembers from the public events: everyone's money (the `paid` events add
    up exactly when followed from the start) and Clan cards known to be in other hands."""

    __slots__ = ("seat", "money", "from_start", "known", "failed")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.money: list[int] | None = None
        self.from_start = False
        self.known: dict[int, list[int]] = {}  # seat -> count per card kind known in hand
        self.failed: dict[int, int] = {}  # space -> deals failed there since the last close

    def observe(self, events: list[dict]) -> None:
        for e in events:
            t = e["type"]
            if t == "paid":
                if self.money is None:
                    continue
                if e["payer"] >= 0:
                    self.money[e["payer"]] -= e["amount"]
                self.money[e["payee"]] += e["amount"]
            elif t == "game_started":
                self.money = [0] * len(e["names"])
                self.from_start = True
                self.known = {}
            elif t == "deal_failed":
                self.failed[e["space"]] = self.failed.get(e["space"], 0) + 1
            elif t == "deal_closed":
                self.failed = {}
            elif t == "cards_returned":
                if e["seat"] != self.seat:
                    counts = self.known.setdefault(e["seat"], [0] * CARD_KINDS)
                    for key in e["cards"]:
                        counts[card_from_key(key)] += 1
            elif t == "clan_laid":
                counts = self.known.get(e["seat"])
                if counts is not None:
                    k = clan_card(clan_from_key(e["clan"]))
                    counts[k] = max(0, counts[k] - 1)
            elif t == "card_discarded":
                counts = self.known.get(e["seat"])
                if counts is not None:
                    k = card_from_key(e["card"])
                    counts[k] = max(0, counts[k] - 1)

    def money_for(self, view: SeatView) -> list[int]:
        """Best estimate of every seat's money: exact figures where the view shows them,
        the tracked sums where they agree with the piles, else the middle of the pile."""
        players = view.players
        if (
            self.money is None
            and view.deals_closed == 0
            and view.phase is not _GAME_OVER
            and all(not p.money and p.money_pile == 0 for p in players)
        ):
            self.money = [0] * len(players)  # nobody is paid before the first deal closes
        out = []
        tracked = self.money if self.money is not None and len(self.money) == len(players) else None
        for i, p in enumerate(players):
            if p.money is not None:
                out.append(p.money)
            elif tracked is not None and money_pile(tracked[i]) == p.money_pile:
                out.append(tracked[i])
            else:
                out.append(pile_estimate(p.money_pile))
        return out

    def known_cards(self, view: SeatView) -> dict[int, list[Card]]:
        """Cards known to be in other hands, capped by what each hand can hold."""
        out: dict[int, list[Card]] = {}
        players = view.players
        for seat, counts in self.known.items():
            if seat >= len(players) or seat == self.seat:
                continue
            cards = [Card(k) for k, x in enumerate(counts) for _ in range(x)]
            cards = cards[: players[seat].hand_count]
            if cards:
                out[seat] = cards
        return out
