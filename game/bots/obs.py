"""What a bot knows at one decision: a compact observation built from a seat's view.

`Obs.from_view(view, money)` is what a bot at a real table decides from. Search bots roll
games out on *sampled* states (`determinize.state_from_view`); there `Obs.from_state(state,
seat)` builds the same observation straight from the sampled state, without the cost of a
view. Both read only what `view(state, seat)` shows: the seat's own hand and the public
table (the test suite checks that the two agree). Hidden money comes from the caller: a
`Memory` that adds up the public `paid` events, or the pile heights when it cannot.

`Memory` also remembers cards known to sit in other hands (Clan cards that went back to
their owners after a negotiation), which the search bot pins when it samples hands.
"""

from __future__ import annotations

from math import comb

from game.rules.board import Board, clan_from_key
from game.rules.cards import CARD_KINDS, DECK_COUNTS, Card, card_from_key, clan_card
from game.rules.state import POOL, GameState, Phase, Source, SourceKind, Terms
from game.rules.variants import Variant, WindowMode
from game.rules.view import PILE_NOTE, board_of, money_pile

_PHASES = {p.value: p for p in Phase}


class NegObs:
    """The open negotiation, as every seat sees it."""

    __slots__ = (
        "space",
        "price",
        "proceeds",
        "opener",
        "boss",
        "laid",
        "travel",
        "agreements",
        "pending",
        "played",
        "actions",
        "limit",
        "spent",
        "floor",
        "quiet",
        "last_proposal",
        "committed",
        "covered",
        "agreed_total",
        "cap",
    )

    def key(self) -> tuple:
        return tuple((k, _norm(getattr(self, k))) for k in self.__slots__)

    def laid_clan(self, card_id: int) -> int | None:
        for cid, _owner, clan in self.laid:
            if cid == card_id:
                return clan
        return None

    def source_clan(self, src: Source) -> int | None:
        if src.kind is SourceKind.PLACARD:
            return src.ref
        return self.laid_clan(src.ref)


class WinObs:
    __slots__ = ("kind", "actor", "card", "target", "recruit", "asked")

    def key(self) -> tuple:
        return tuple((k, _norm(getattr(self, k))) for k in self.__slots__)


class Obs:
    """One seat's knowledge of the game (see the module docstring)."""

    __slots__ = (
        "seat",
        "n",
        "phase",
        "turn",
        "real_time",
        "two_player",
        "v3",
        "v2",
        "board",
        "marker",
        "covered",
        "tiles",
        "price",
        "hand",
        "hand_counts",
        "placards",
        "money",
        "hand_limit",
        "deals_closed",
        "draw_pile",
        "discard",
        "neg",
        "win",
        "failed",
        "_unseen",
        "_discard_src",
        "cache",
    )

    # -- construction --------------------------------------------------------------------

    @classmethod
    def from_view(
        cls, v: dict, money: list[int] | None = None, failed: dict[int, int] | None = None
    ) -> Obs:
        o = cls()
        o.failed = failed or {}
        o.seat = v["seat"]
        players = v["players"]
        o.n = len(players)
        o.phase = _PHASES[v["phase"]]
        o.turn = v["turn"]
        st = v["settings"]
        o.real_time = st["window_mode"] == WindowMode.REAL_TIME.value
        o.two_player = o.n == 2
        o.v3 = Variant.V3.value in st["variants"]
        o.v2 = Variant.V2.value in st["variants"]
        o.board = board_of(v)
        o.marker = v["marker"]
        o.covered = frozenset(int(k) for k in v["covered"])
        o.tiles = tuple(v["tiles"])
        o.price = v["price"]
        hand = [0] * CARD_KINDS
        for key, count in v.get("hand", {}).items():
            hand[card_from_key(key)] = count
        o.hand = hand
        o.hand_counts = [p["hand_count"] for p in players]
        placards = [POOL] * 6
        for p in players:
            for c in p["placards"]:
                placards[c] = p["seat"]
        o.placards = placards
        if money is None:
            money = [
                p["money"] if "money" in p else pile_estimate(p["money_pile"]) for p in players
            ]
        else:
            money = [p.get("money", money[i]) for i, p in enumerate(players)]
        o.money = money
        o.hand_limit = v["hand_limit"]
        o.deals_closed = v["deals_closed"]
        o.draw_pile = v["draw_pile"]
        discard = [0] * CARD_KINDS
        for key, count in v["discard_pile"].items():
            discard[card_from_key(key)] = count
        o.discard = discard
        o._unseen = None
        o.cache = {}
        o._discard_src = None
        nv = v["negotiation"]
        if nv is None:
            o.neg = None
        else:
            ng = NegObs()
            ng.space = nv["space"]
            ng.price = nv["price"]
            ng.proceeds = nv["proceeds"]
            ng.opener = nv["opener"]
            ng.boss = nv["boss"]
            ng.laid = tuple(
                (c["id"], c["owner"], int(clan_from_key(c["clan"]))) for c in nv["laid"]
            )
            ng.travel = {int(k): card_from_key(c) for k, c in nv["travel"].items()}
            ng.agreements = {int(k): _terms(t) for k, t in nv["agreements"].items()}
            ng.pending = {int(k): _terms(t) for k, t in nv["pending"].items()}
            ng.played = frozenset(nv["played"])
            ng.actions = nv["actions"]
            ng.limit = nv["limit"]
            ng.spent = nv["limit_spent"]
            ng.floor = nv["floor"]
            ng.quiet = nv["quiet"]
            ng.last_proposal = nv["last_proposal"]
            mask = 0
            for c in nv["committed"]:
                mask |= 1 << c
            ng.committed = mask
            ng.covered = nv["covered"]
            ng.agreed_total = nv["agreed_total"]
            ng.cap = nv["cap"]
            o.neg = ng
        wv = v["window"]
        if wv is None:
            o.win = None
        else:
            w = WinObs()
            w.kind = wv["kind"]
            w.actor = wv["actor"]
            w.card = None if wv["card"] is None else card_from_key(wv["card"])
            w.target = None if wv["target"] is None else Source.from_data(wv["target"])
            w.recruit = None if wv["recruit"] is None else int(clan_from_key(wv["recruit"]))
            w.asked = tuple(wv["asked"])
            o.win = w
        return o

    @classmethod
    def from_state(cls, s: GameState, seat: int) -> Obs:
        """The same observation, straight from a state (a search bot's *sampled* state: the
        money it holds for other seats is the searcher's own estimate)."""
        from game.rules import engine
        from game.rules import negotiation as nego

        o = cls()
        o.failed = {}
        o.seat = seat
        o.n = n = len(s.names)
        o.phase = s.phase
        o.turn = s.turn
        settings = s.settings
        o.real_time = settings.window_mode is WindowMode.REAL_TIME
        o.two_player = n == 2
        o.v3 = Variant.V3 in settings.variants
        o.v2 = Variant.V2 in settings.variants
        o.board = s.board
        o.marker = s.marker
        o.covered = s.covered.keys()
        o.tiles = s.tiles
        o.price = s.board.tiles[s.tiles[0] - 1].price if s.tiles else 0
        o.hand = s.hands[seat]
        o.hand_counts = [sum(h) for h in s.hands]
        o.placards = s.placards
        o.money = s.money
        o.hand_limit = engine.hand_limit(s)
        o.deals_closed = s.deals_closed
        o.draw_pile = len(s.deck)
        o.discard = None  # counted on demand (only card-counting needs it)
        o._unseen = None
        o.cache = {}
        o._discard_src = s.discard
        neg = s.negotiation
        if neg is None:
            o.neg = None
        else:
            ng = NegObs()
            ng.space = neg.space
            ng.price = neg.price
            ng.proceeds = neg.proceeds
            ng.opener = neg.opener
            ng.boss = neg.boss
            ng.laid = tuple((c.id, c.owner, int(c.clan)) for c in neg.laid)
            ng.travel = neg.travel
            ng.agreements = neg.agreements
            ng.pending = neg.pending
            ng.played = neg.played
            ng.actions = neg.actions
            ng.limit = settings.negotiation_limit
            ng.spent = neg.time_up or neg.actions >= settings.negotiation_limit
            ng.floor = neg.floor
            ng.quiet = neg.quiet
            ng.last_proposal = neg.last_proposal
            boss = neg.boss
            travel = neg.travel
            two = n == 2
            mask = 0
            for c in range(6):
                owner = s.placards[c]
                if owner != POOL and c not in travel and (owner == boss or two):
                    mask |= 1 << c
            for card in neg.laid:
                if card.owner == boss:
                    mask |= 1 << card.clan
            agreed = 0
            for t in neg.agreements.values():
                agreed += t.amount
                for src in t.sources:
                    if src.kind is SourceKind.PLACARD:
                        mask |= 1 << src.ref
                    else:
                        card = neg.card(src.ref)
                        if card is not None:
                            mask |= 1 << card.clan
            ng.committed = mask
            ng.covered = s.board.cover[neg.space][mask]
            ng.agreed_total = agreed
            ng.cap = nego.offer_cap(s) if two else max(0, neg.proceeds - agreed)
            o.neg = ng
        win = s.window
        if win is None:
            o.win = None
        else:
            w = WinObs()
            w.kind = win.kind.value
            w.actor = win.actor
            w.card = win.card
            w.target = win.target
            w.recruit = None if win.recruit is None else int(win.recruit)
            w.asked = tuple(engine.asked_seats(s))
            o.win = w
        return o

    # -- derived ---------------------------------------------------------------------------

    def discard_counts(self) -> list[int]:
        if self.discard is None:
            counts = [0] * CARD_KINDS
            for c in self._discard_src:
                counts[c] += 1
            self.discard = counts
        return self.discard

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
                for _id, _owner, clan in neg.laid:
                    counts[clan] -= 1
                for card in neg.travel.values():
                    counts[card] -= 1
            w = self.win
            if w is not None:
                if w.kind == "travel" and w.card is not None:
                    counts[w.card] -= 1
                elif w.kind == "boss":
                    counts[Card.BOSS] -= 1
                elif w.kind == "recruit":
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

    def key(self) -> tuple:
        """Everything the observation holds, normalised, for equality tests."""
        self.discard_counts()
        return tuple(
            (k, _norm(getattr(self, k)))
            for k in self.__slots__
            if k not in ("_unseen", "_discard_src", "cache")
        )


def _norm(v):
    if isinstance(v, (NegObs, WinObs)):
        return v.key()
    if isinstance(v, Board):
        return v.name, v.spaces, v.tiles
    if isinstance(v, Terms):
        return (tuple(v.sources), v.amount, v.by_boss, v.was_agreed)
    if isinstance(v, dict):
        return tuple(sorted((k, _norm(x)) for k, x in v.items()))
    if isinstance(v, (set, frozenset)) or type(v).__name__ == "dict_keys":
        return tuple(sorted(v))
    if isinstance(v, (list, tuple)):
        return tuple(_norm(x) for x in v)
    return v


def _terms(d: dict) -> Terms:
    return Terms(
        tuple(Source.from_data(s) for s in d["sources"]),
        d["amount"],
        d["by_boss"],
        d["was_agreed"],
    )


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

    def money_for(self, view: dict) -> list[int]:
        """Best estimate of every seat's money: exact figures where the view shows them,
        the tracked sums where they agree with the piles, else the middle of the pile."""
        players = view["players"]
        if (
            self.money is None
            and view["deals_closed"] == 0
            and view["phase"] != "game_over"
            and all(p.get("money", 0) == 0 and p["money_pile"] == 0 for p in players)
        ):
            self.money = [0] * len(players)  # nobody is paid before the first deal closes
        out = []
        tracked = self.money if self.money is not None and len(self.money) == len(players) else None
        for i, p in enumerate(players):
            if "money" in p:
                out.append(p["money"])
            elif tracked is not None and money_pile(tracked[i]) == p["money_pile"]:
                out.append(tracked[i])
            else:
                out.append(pile_estimate(p["money_pile"]))
        return out

    def known_cards(self, view: dict) -> dict[int, list[Card]]:
        """Cards known to be in other hands, capped by what each hand can hold."""
        out: dict[int, list[Card]] = {}
        players = view["players"]
        for seat, counts in self.known.items():
            if seat >= len(players) or seat == self.seat:
                continue
            cards = [Card(k) for k, x in enumerate(counts) for _ in range(x)]
            cards = cards[: players[seat]["hand_count"]]
            if cards:
                out[seat] = cards
        return out
