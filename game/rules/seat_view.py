"""One seat's view, typed: what `view(state, seat)` sends, read into frozen dataclasses.

The wire stays the plain map `view` builds (the host builds it section by section and a
client follows it by deltas); `SeatView.from_data` reads that map once, for whoever asks
questions of it (the UI, hints, the tutorial, the bots), and `to_data` gives the very map
back, key for key and in the same order, so it packs to the same msgpack bytes and hashes
to the same view hash. The questions readers ask (which clan a source stands for, who
holds it, a seat's terms) are methods here, not helpers over the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .board import CLAN_KEYS, Board, Clan, clan_from_key
from .cards import CARD_KEYS, CARD_KINDS, Card, card_from_key
from .state import POOL, GameState, Phase, Source, SourceKind, Terms, WindowKind
from .variants import Settings
from .view import board_of, hand_data, view

_PLACARD = SourceKind.PLACARD
_CARD = SourceKind.CARD
_PHASES = {p.value: p for p in Phase}
_WINDOW_KINDS = {k.value: k for k in WindowKind}
_CLANS = {key: clan_from_key(key) for key in CLAN_KEYS}
_CARDS = {key: card_from_key(key) for key in CARD_KEYS}


def counts_from_data(cards: dict[str, int]) -> tuple[int, ...]:
    """A {card key: count} map as counts per card kind."""
    counts = [0] * CARD_KINDS
    for key, n in cards.items():
        counts[_CARDS[key]] += n
    return tuple(counts)


def source_from_data(d: list) -> Source:
    """A source of a view: the host wrote it (`Source.from_data` checks an action's)."""
    kind, ref = d
    return Source(_PLACARD if kind == "placard" else _CARD, ref)


def terms_from_data(d: dict | None) -> Terms | None:
    if d is None:
        return None
    return Terms(
        tuple(map(source_from_data, d["sources"])), d["amount"], d["by_boss"], d["was_agreed"]
    )


_SETTINGS: dict[tuple, Settings] = {}


def settings_from_data(d: dict) -> Settings:
    """`Settings.from_data`, once per distinct settings map (a game has one)."""
    key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items())
    settings = _SETTINGS.get(key)
    if settings is None:
        if len(_SETTINGS) > 64:
            _SETTINGS.clear()
        settings = _SETTINGS[key] = Settings.from_data(d)
    return settings


def terms_to_data(t: Terms | None) -> dict | None:
    if t is None:
        return None
    return {
        "sources": [s.to_data() for s in t.sources],
        "amount": t.amount,
        "by_boss": t.by_boss,
        "was_agreed": t.was_agreed,
    }


def _seats(data: dict) -> dict[int, object]:
    return {int(k): v for k, v in data.items()}


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    name: str
    placards: tuple[int, ...]  # the clans whose placards the seat holds
    hand_count: int
    money_pile: int  # $5M notes: public even when the figure is hidden
    asks_only_when_touched: bool
    money: int | None  # None: hidden from this seat

    @classmethod
    def from_data(cls, d: dict) -> PlayerView:
        return cls(
            d["seat"],
            d["name"],
            tuple(d["placards"]),
            d["hand_count"],
            d["money_pile"],
            d["asks_only_when_touched"],
            d.get("money"),
        )

    def to_data(self) -> dict:
        d = {
            "seat": self.seat,
            "name": self.name,
            "placards": list(self.placards),
            "hand_count": self.hand_count,
            "money_pile": self.money_pile,
            "asks_only_when_touched": self.asks_only_when_touched,
        }
        if self.money is not None:
            d["money"] = self.money
        return d


class LaidView(NamedTuple):
    """A Clan card laid face up in the deal (unpacks as (id, owner, clan))."""

    id: int
    owner: int
    clan: Clan


@dataclass(frozen=True, slots=True)
class NegotiationView:
    """The open deal, as every seat sees it."""

    space: int
    price: int
    proceeds: int
    opener: int
    boss: int
    laid: tuple[LaidView, ...]
    next_card_id: int
    travel: dict[int, Card]  # clan -> the Travel card moving its placard
    agreements: dict[int, Terms]  # seat -> binding agreement
    pending: dict[int, Terms]  # seat -> open offer or proposal
    played: tuple[int, ...]
    actions: int
    limit: int
    limit_spent: bool
    time_up: bool
    floor: int
    quiet: int
    last_proposal: int  # 0 not made, 1 made, 2 spent (engine.QUIET_LAST_*)
    round_active: bool
    floor_passed: tuple[int, ...]
    committed: tuple[int, ...]  # the clans the Boss can count on now
    covered: bool
    involved: tuple[Source, ...]  # when covered: the sources that fill the space
    agreed_total: int
    cap: int

    @classmethod
    def from_data(cls, d: dict) -> NegotiationView:
        clans = _CLANS
        return cls(
            d["space"],
            d["price"],
            d["proceeds"],
            d["opener"],
            d["boss"],
            tuple(LaidView(c["id"], c["owner"], clans[c["clan"]]) for c in d["laid"]),
            d["next_card_id"],
            {int(k): _CARDS[c] for k, c in d["travel"].items()},
            {int(k): terms_from_data(t) for k, t in d["agreements"].items()},
            {int(k): terms_from_data(t) for k, t in d["pending"].items()},
            tuple(d["played"]),
            d["actions"],
            d["limit"],
            d["limit_spent"],
            d["time_up"],
            d["floor"],
            d["quiet"],
            d["last_proposal"],
            d["round_active"],
            tuple(d["floor_passed"]),
            tuple(d["committed"]),
            d["covered"],
            tuple(map(source_from_data, d["involved"])),
            d["agreed_total"],
            d["cap"],
        )

    def to_data(self) -> dict:
        return {
            "space": self.space,
            "price": self.price,
            "proceeds": self.proceeds,
            "opener": self.opener,
            "boss": self.boss,
            "laid": [{"id": c.id, "owner": c.owner, "clan": CLAN_KEYS[c.clan]} for c in self.laid],
            "next_card_id": self.next_card_id,
            "travel": {str(k): CARD_KEYS[v] for k, v in self.travel.items()},
            "agreements": {str(k): terms_to_data(t) for k, t in self.agreements.items()},
            "pending": {str(k): terms_to_data(t) for k, t in self.pending.items()},
            "played": list(self.played),
            "actions": self.actions,
            "limit": self.limit,
            "limit_spent": self.limit_spent,
            "time_up": self.time_up,
            "floor": self.floor,
            "quiet": self.quiet,
            "last_proposal": self.last_proposal,
            "round_active": self.round_active,
            "floor_passed": list(self.floor_passed),
            "committed": list(self.committed),
            "covered": self.covered,
            "involved": [s.to_data() for s in self.involved],
            "agreed_total": self.agreed_total,
            "cap": self.cap,
        }

    @property
    def committed_mask(self) -> int:
        """The committed clans as a clan set (bit c = clan c)."""
        mask = 0
        for c in self.committed:
            mask |= 1 << c
        return mask

    def laid_card(self, card_id: int) -> LaidView | None:
        for card in self.laid:
            if card.id == card_id:
                return card
        return None

    def laid_clan(self, card_id: int) -> Clan | None:
        card = self.laid_card(card_id)
        return None if card is None else card.clan

    def terms(self, seat: int) -> Terms | None:
        """The seat's binding agreement, else its open offer (None: neither)."""
        t = self.agreements.get(seat)
        return t if t is not None else self.pending.get(seat)


@dataclass(frozen=True, slots=True)
class WindowView:
    """The open reaction window."""

    kind: WindowKind
    actor: int
    card: Card | None  # the Travel card being played
    target: Source | None  # the Travel's target
    recruit: Clan | None  # the placard a Recruitment triple takes
    asked: tuple[int, ...]
    queue: tuple[int, ...]
    waiting: tuple[int, ...]

    @classmethod
    def from_data(cls, d: dict) -> WindowView:
        card, target, recruit = d["card"], d["target"], d["recruit"]
        return cls(
            _WINDOW_KINDS[d["kind"]],
            d["actor"],
            None if card is None else _CARDS[card],
            None if target is None else source_from_data(target),
            None if recruit is None else _CLANS[recruit],
            tuple(d["asked"]),
            tuple(d["queue"]),
            tuple(d["waiting"]),
        )

    def to_data(self) -> dict:
        return {
            "kind": self.kind.value,
            "actor": self.actor,
            "card": None if self.card is None else CARD_KEYS[self.card],
            "target": None if self.target is None else self.target.to_data(),
            "recruit": None if self.recruit is None else CLAN_KEYS[self.recruit],
            "asked": list(self.asked),
            "queue": list(self.queue),
            "waiting": list(self.waiting),
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """The game as one seat (or, `seat` None, the public table) sees it."""

    format: int
    seat: int | None
    version: int  # actions taken
    phase: Phase
    turn: int
    first_player: int
    players: tuple[PlayerView, ...]
    pool: tuple[int, ...]  # clans whose placards lie in the pool
    marker: int | None
    covered: dict[int, int]  # space -> tile placed on it
    tiles: tuple[int, ...]
    price: int
    hand_limit: int
    draw_count: int  # how many cards the turn player would draw now
    draw_pile: int
    discard_pile: tuple[int, ...]  # counts per card kind
    discard_top: Card | None
    deals_closed: int
    deals_failed: int
    last_roll: int | None
    winners: tuple[int, ...]
    settings: Settings
    board_id: str
    board: Board
    waiting_for: tuple[int, ...]
    negotiation: NegotiationView | None
    window: WindowView | None
    hand: tuple[int, ...] | None  # counts per card kind; None for the public table

    @classmethod
    def from_data(cls, v: dict) -> SeatView:
        neg, win, hand = v["negotiation"], v["window"], v.get("hand")
        return cls(
            v["format"],
            v["seat"],
            v["version"],
            _PHASES[v["phase"]],
            v["turn"],
            v["first_player"],
            tuple(PlayerView.from_data(p) for p in v["players"]),
            tuple(v["pool"]),
            v["marker"],
            {int(k): t for k, t in v["covered"].items()},
            tuple(v["tiles"]),
            v["price"],
            v["hand_limit"],
            v["draw_count"],
            v["draw_pile"],
            counts_from_data(v["discard_pile"]),
            None if v["discard_top"] is None else _CARDS[v["discard_top"]],
            v["deals_closed"],
            v["deals_failed"],
            v["last_roll"],
            tuple(v["winners"]),
            settings_from_data(v["settings"]),
            v["board_id"],
            board_of(v),
            tuple(v["waiting_for"]),
            None if neg is None else NegotiationView.from_data(neg),
            None if win is None else WindowView.from_data(win),
            None if hand is None else counts_from_data(hand),
        )

    @classmethod
    def of(cls, state: GameState, seat: int | None) -> SeatView:
        """The view of `state` for `seat`: what the wire would carry, read back."""
        return cls.from_data(view(state, seat))

    def to_data(self) -> dict:
        """The wire map `view` builds, key for key and in its order."""
        neg, win = self.negotiation, self.window
        data = {
            "format": self.format,
            "seat": self.seat,
            "version": self.version,
            "phase": self.phase.value,
            "turn": self.turn,
            "first_player": self.first_player,
            "players": [p.to_data() for p in self.players],
            "pool": list(self.pool),
            "marker": self.marker,
            "covered": {str(k): t for k, t in self.covered.items()},
            "tiles": list(self.tiles),
            "price": self.price,
            "hand_limit": self.hand_limit,
            "draw_count": self.draw_count,
            "draw_pile": self.draw_pile,
            "discard_pile": hand_data(self.discard_pile),
            "discard_top": None if self.discard_top is None else CARD_KEYS[self.discard_top],
            "deals_closed": self.deals_closed,
            "deals_failed": self.deals_failed,
            "last_roll": self.last_roll,
            "winners": list(self.winners),
            "settings": self.settings.to_data(),
            "board_id": self.board_id,
            "board": self.board.to_data(),
            "waiting_for": list(self.waiting_for),
            "negotiation": None if neg is None else neg.to_data(),
            "window": None if win is None else win.to_data(),
        }
        if self.hand is not None:
            data["hand"] = hand_data(self.hand)
        return data

    # -- the questions readers ask ------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def placard_owners(self) -> tuple[int, ...]:
        """Per clan, the seat holding its placard (POOL: none)."""
        owners = [POOL] * 6
        for p in self.players:
            for c in p.placards:
                owners[c] = p.seat
        return tuple(owners)

    def placard_owner(self, clan: int) -> int | None:
        """The seat holding the clan's placard (None: it lies in the pool)."""
        for p in self.players:
            if clan in p.placards:
                return p.seat
        return None

    def source_clan(self, src: Source) -> int | None:
        """The clan a source stands for (None: a laid card that is not on the table)."""
        if src.kind is _PLACARD:
            return int(src.ref)
        neg = self.negotiation
        return None if neg is None else neg.laid_clan(src.ref)

    def source_owner(self, src: Source) -> int | None:
        """The seat holding a source (a placard's holder, a laid card's owner)."""
        if src.kind is _PLACARD:
            return self.placard_owner(src.ref)
        neg = self.negotiation
        card = None if neg is None else neg.laid_card(src.ref)
        return None if card is None else card.owner

    def terms(self, seat: int) -> Terms | None:
        """The seat's agreement, else its open offer, in the open deal (None: none)."""
        neg = self.negotiation
        return None if neg is None else neg.terms(seat)

    def hand_cards(self) -> dict[Card, int]:
        """The seat's own hand, {card: count} (empty for the public table)."""
        if self.hand is None:
            return {}
        return {Card(k): n for k, n in enumerate(self.hand) if n}
