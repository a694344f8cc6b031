"""One seat's view, typed: frozen dataclasses, and their wire form.

Every field of a view is written once, in the tables below: how it is built from the state
(`SeatView.of`), how it goes on the wire and how it is read back. `game.rules.view` builds
the wire map from the same tables section by section (the host shares sections between
audiences; a client follows the map by deltas), so `SeatView.of(state, seat).to_data()` is
`view(state, seat)`, key for key and in its order: the same msgpack bytes and view hash.
`SeatView.from_data` reads a map from the wire for whoever asks questions of it (the UI,
hints, the tutorial, the bots). The questions readers ask (which clan a source stands
for, who holds it, a seat's terms) are methods here, not helpers over the map.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import engine
from . import negotiation as nego
from .board import CLAN_KEYS, MASK_CLANS, Board, Clan, board_from_data, clan_from_key
from .cards import CARD_KEYS, CARD_KINDS, Card, card_from_key
from .state import POOL, GameState, Negotiation, Phase, Source, SourceKind, Terms, WindowKind
from .variants import Settings

_PLACARD = SourceKind.PLACARD
_CARD = SourceKind.CARD
_PHASES = {p.value: p for p in Phase}
_WINDOW_KINDS = {k.value: k for k in WindowKind}
_CLANS = {key: clan_from_key(key) for key in CLAN_KEYS}
_CARDS = {key: card_from_key(key) for key in CARD_KEYS}


VIEW_FORMAT = 1
PILE_NOTE = 5  # a pile is drawn in $5M notes: its height, not its figure, is public


def money_pile(amount: int) -> int:
    return -(-amount // PILE_NOTE)


def hand_data(hand) -> dict[str, int]:
    """Counts per card kind as the wire's {card key: count} (kinds held only)."""
    return {CARD_KEYS[k]: n for k, n in enumerate(hand) if n}


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


_BOARD_IDS: dict[int, str] = {}
_BOARDS: dict[str, Board] = {}


def board_id(board: Board) -> str:
    """A digest of the board's data: clients and bots rebuild a board once per id."""
    key = id(board)
    bid = _BOARD_IDS.get(key)
    if bid is None:
        blob = json.dumps(board.to_data(), sort_keys=True).encode()
        bid = hashlib.sha256(blob).hexdigest()[:12]
        _BOARD_IDS[key] = bid
        _BOARDS[bid] = board
    return bid


def board_of(view: dict) -> Board:
    """The board a wire view is played on (cached by its id)."""
    bid = view["board_id"]
    board = _BOARDS.get(bid)
    if board is None:
        board = board_from_data(view["board"], "view")
        _BOARDS[bid] = board
    return board


def _counts(cards) -> tuple[int, ...]:
    out = [0] * CARD_KINDS
    for c in cards:
        out[c] += 1
    return tuple(out)


# A field: (build from the state, to the wire, from the wire); None where the value goes
# as it is. A section builder takes (state, seat), a negotiation field (state, negotiation).
Build = Callable[..., Any]
Field = tuple[Build, Callable | None, Callable | None]


class Lazy:
    """A value a view built from a state (`SeatView.of`) works out on its first read and
    then keeps: a search bot's rollout builds a view at every step and reads a few fields of
    it. A view read from the wire holds every field already; a value derived from the
    fields (`of_fields`, e.g. who holds each placard) is worked out from them there. The
    state is read only at the version the view was built at: a read after it moved on
    raises instead of answering from a later state."""

    __slots__ = ("name", "of_state", "of_fields")

    def __init__(self, name: str, of_state: Build, of_fields: Callable | None = None) -> None:
        self.name = name
        self.of_state = of_state  # (state, seat) for a view, (state, negotiation) for a deal's
        self.of_fields = of_fields

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        d = obj.__dict__
        source = d.get("_source")
        if source is None:
            value = self.of_fields(obj)
        else:
            st, key, version = source
            if st.actions_taken != version:
                raise RuntimeError("a view was read after its state moved on")
            value = self.of_state(st, key)
        d[self.name] = value
        return value


def _built(cls, d: dict, st: GameState, key) -> Any:
    """An instance of the view class `cls` holding `d`, the rest of its fields `Lazy`."""
    obj = object.__new__(cls)
    d["_source"] = (st, key, st.actions_taken)
    obj.__dict__.update(d)
    return obj


def _lazy_fields(cls, table: dict[str, Field], names: frozenset[str]) -> tuple:
    """Make the fields `names` of `cls` `Lazy` (built from `table`); the others' builders."""
    for name in names:
        setattr(cls, name, Lazy(name, table[name][0]))
    return tuple((k, b) for k, (b, _e, _d) in table.items() if k not in names)


def _opt(code: Callable) -> Callable:
    return lambda x: None if x is None else code(x)


def _seat_map(code: Callable | None = None) -> tuple[Callable, Callable]:
    """A map keyed by seat (or clan, or space): string keys on the wire."""
    if code is None:
        return (lambda m: {str(k): v for k, v in m.items()}), (
            lambda d: {int(k): v for k, v in d.items()}
        )
    to_data, from_data = code
    return (lambda m: {str(k): to_data(v) for k, v in m.items()}), (
        lambda d: {int(k): from_data(v) for k, v in d.items()}
    )


def _encode(obj, table: dict[str, Field]) -> dict:
    return {
        k: getattr(obj, k) if enc is None else enc(getattr(obj, k))
        for k, (_b, enc, _d) in table.items()
    }


def _decode(cls, d: dict, table: dict[str, Field]):
    return cls(*[d[k] if dec is None else dec(d[k]) for k, (_b, _e, dec) in table.items()])


def _card_code() -> tuple[Callable, Callable]:
    return _opt(CARD_KEYS.__getitem__), _opt(_CARDS.__getitem__)


_TERMS = (terms_to_data, terms_from_data)
_SOURCES = (lambda ss: [s.to_data() for s in ss], lambda d: tuple(map(source_from_data, d)))
_LIST = (list, tuple)


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


def _players(st: GameState, seat: int | None) -> tuple[PlayerView, ...]:
    show_money = not st.settings.hidden_money or st.phase is Phase.GAME_OVER
    names, hands, money, asks = st.names, st.hands, st.money, st.ask_only_when_touched
    held: list[list[int]] = [[] for _ in names]
    for clan, owner in enumerate(st.placards):
        if owner != POOL:
            held[owner].append(clan)
    return tuple(
        PlayerView(
            s,
            names[s],
            tuple(held[s]),
            sum(hands[s]),
            money_pile(money[s]),
            asks[s],
            money[s] if show_money or s == seat else None,
        )
        for s in range(st.players)
    )


def _sorted(m: dict) -> dict:
    """A copy of a map keyed by int, in key order (the wire's)."""
    return dict(sorted(m.items())) if len(m) > 1 else dict(m)


class LaidView(NamedTuple):
    """A Clan card laid face up in the deal (unpacks as (id, owner, clan))."""

    id: int
    owner: int
    clan: Clan


_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__ (a rollout's hot path)


def _laid_to_data(laid) -> list:
    return [{"id": c.id, "owner": c.owner, "clan": CLAN_KEYS[c.clan]} for c in laid]


def _laid_from_data(d: list) -> tuple[LaidView, ...]:
    return tuple(LaidView(c["id"], c["owner"], _CLANS[c["clan"]]) for c in d)


def _involved(st: GameState, neg: Negotiation) -> tuple[Source, ...]:
    inv = nego.involved(st)
    return () if inv is None else tuple(e[1] for e in inv[0])


# The negotiation summary, field by field, in its wire order (`game.table.seat_view` builds the
# wire map one field at a time from it).
NEGOTIATION_FIELDS: dict[str, Field] = {
    "space": (lambda st, neg: neg.space, None, None),
    "price": (lambda st, neg: neg.price, None, None),
    "proceeds": (lambda st, neg: neg.proceeds, None, None),
    "opener": (lambda st, neg: neg.opener, None, None),
    "boss": (lambda st, neg: neg.boss, None, None),
    "laid": (
        lambda st, neg: tuple([_new_tuple(LaidView, (c.id, c.owner, c.clan)) for c in neg.laid]),
        _laid_to_data,
        _laid_from_data,
    ),
    "next_card_id": (lambda st, neg: neg.next_card_id, None, None),
    "travel": (
        lambda st, neg: _sorted(neg.travel),
        *_seat_map((CARD_KEYS.__getitem__, _CARDS.__getitem__)),
    ),
    "agreements": (lambda st, neg: _sorted(neg.agreements), *_seat_map(_TERMS)),
    "pending": (lambda st, neg: _sorted(neg.pending), *_seat_map(_TERMS)),
    "played": (lambda st, neg: tuple(sorted(neg.played)), *_LIST),
    "actions": (lambda st, neg: neg.actions, None, None),
    "limit": (lambda st, neg: st.settings.negotiation_limit, None, None),
    "limit_spent": (lambda st, neg: nego.limit_spent(st), None, None),
    "time_up": (lambda st, neg: neg.time_up, None, None),
    "floor": (lambda st, neg: neg.floor, None, None),
    "quiet": (lambda st, neg: neg.quiet, None, None),
    # 0 not made, 1 made, 2 spent (engine.QUIET_LAST_*); the state starts a deal with False
    "last_proposal": (lambda st, neg: int(neg.last_proposal), None, None),
    "round_active": (lambda st, neg: neg.round_active, None, None),
    "floor_passed": (lambda st, neg: tuple(sorted(neg.floor_passed)), *_LIST),
    "committed": (lambda st, neg: MASK_CLANS[nego.committed_mask(st)], *_LIST),
    "covered": (lambda st, neg: nego.involved(st) is not None, None, None),
    "involved": (_involved, *_SOURCES),
    "agreed_total": (lambda st, neg: nego.agreed_total(neg), None, None),
    "cap": (lambda st, neg: nego.offer_cap(st), None, None),
}


@dataclass(frozen=True)  # no slots: the `Lazy` fields are kept in the instance's dict
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
    def of(cls, st: GameState) -> NegotiationView | None:
        neg = st.negotiation
        if neg is None:
            return None
        return _built(cls, {k: build(st, neg) for k, build in _NEGOTIATION_EAGER}, st, neg)

    @classmethod
    def from_data(cls, d: dict) -> NegotiationView:
        return _decode(cls, d, NEGOTIATION_FIELDS)

    def to_data(self) -> dict:
        return _encode(self, NEGOTIATION_FIELDS)

    def laid_card(self, card_id: int) -> LaidView | None:
        for card in self.laid:
            if card.id == card_id:
                return card
        return None

    def laid_clan(self, card_id: int) -> Clan | None:
        card = self.laid_card(card_id)
        return None if card is None else card.clan

    def source_clan(self, src: Source) -> int | None:
        """The clan a source stands for (None: a laid card that is not on the table)."""
        return int(src.ref) if src.kind is _PLACARD else self.laid_clan(src.ref)

    def terms(self, seat: int) -> Terms | None:
        """The seat's binding agreement, else its open offer (None: neither)."""
        t = self.agreements.get(seat)
        return t if t is not None else self.pending.get(seat)


def _mask_of(clans) -> int:
    mask = 0
    for c in clans:
        mask |= 1 << c
    return mask


# The committed clans as a clan set (bit c = clan c).
NegotiationView.committed_mask = Lazy(
    "committed_mask", lambda st, neg: nego.committed_mask(st), lambda v: _mask_of(v.committed)
)
# Built on first read in a view of a state (the summaries a bot's decision may not need).
_NEGOTIATION_EAGER = _lazy_fields(
    NegotiationView,
    NEGOTIATION_FIELDS,
    frozenset(
        {
            "laid",
            "travel",
            "agreements",
            "pending",
            "played",
            "limit_spent",
            "floor_passed",
            "committed",
            "covered",
            "involved",
            "agreed_total",
            "cap",
        }
    ),
)


WINDOW_FIELDS: dict[str, Field] = {
    "kind": (lambda st, win: win.kind, lambda k: k.value, _WINDOW_KINDS.__getitem__),
    "actor": (lambda st, win: win.actor, None, None),
    "card": (lambda st, win: win.card, *_card_code()),
    "target": (lambda st, win: win.target, _opt(Source.to_data), _opt(source_from_data)),
    "recruit": (
        lambda st, win: win.recruit,
        _opt(CLAN_KEYS.__getitem__),
        _opt(_CLANS.__getitem__),
    ),
    "asked": (lambda st, win: tuple(engine.asked_seats(st)), *_LIST),
    "queue": (lambda st, win: tuple(win.queue), *_LIST),
    "waiting": (lambda st, win: tuple(win.waiting), *_LIST),
}


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
    def of(cls, st: GameState) -> WindowView | None:
        win = st.window
        if win is None:
            return None
        return cls(*[build(st, win) for build, _e, _d in WINDOW_FIELDS.values()])

    @classmethod
    def from_data(cls, d: dict) -> WindowView:
        return _decode(cls, d, WINDOW_FIELDS)

    def to_data(self) -> dict:
        return _encode(self, WINDOW_FIELDS)


# Each top-level key of a view, in its wire order ("hand" follows, in a seat's own view).
SECTIONS: dict[str, Field] = {
    "format": (lambda st, seat: VIEW_FORMAT, None, None),
    "seat": (lambda st, seat: seat, None, None),
    "version": (lambda st, seat: st.actions_taken, None, None),
    "phase": (lambda st, seat: st.phase, lambda p: p.value, _PHASES.__getitem__),
    "turn": (lambda st, seat: st.turn, None, None),
    "first_player": (lambda st, seat: st.first_player, None, None),
    "players": (
        _players,
        lambda ps: [p.to_data() for p in ps],
        lambda d: tuple(map(PlayerView.from_data, d)),
    ),
    "pool": (lambda st, seat: tuple(c for c in range(6) if st.placards[c] == POOL), *_LIST),
    "marker": (lambda st, seat: st.marker, None, None),
    "covered": (lambda st, seat: _sorted(st.covered), *_seat_map()),
    "tiles": (lambda st, seat: tuple(st.tiles), *_LIST),
    "price": (lambda st, seat: engine.current_price(st), None, None),
    "hand_limit": (lambda st, seat: engine.hand_limit(st), None, None),
    # how many cards the turn player would draw now (V4 makes it depend on placards)
    "draw_count": (lambda st, seat: engine.draw_count(st, st.turn), None, None),
    "draw_pile": (lambda st, seat: len(st.deck), None, None),
    "discard_pile": (lambda st, seat: _counts(st.discard), hand_data, counts_from_data),
    "discard_top": (lambda st, seat: st.discard[-1] if st.discard else None, *_card_code()),
    "deals_closed": (lambda st, seat: st.deals_closed, None, None),
    "deals_failed": (lambda st, seat: st.deals_failed, None, None),
    "last_roll": (lambda st, seat: st.last_roll, None, None),
    "winners": (lambda st, seat: tuple(st.winners), *_LIST),
    "settings": (lambda st, seat: st.settings, Settings.to_data, settings_from_data),
    "board_id": (lambda st, seat: board_id(st.board), None, None),
    "board": (lambda st, seat: st.board, Board.to_data, None),  # read with board_of
    "waiting_for": (lambda st, seat: tuple(engine.waiting_for(st)), *_LIST),
    "negotiation": (
        lambda st, seat: NegotiationView.of(st),
        _opt(NegotiationView.to_data),
        _opt(NegotiationView.from_data),
    ),
    "window": (
        lambda st, seat: WindowView.of(st),
        _opt(WindowView.to_data),
        _opt(WindowView.from_data),
    ),
}
_DECODERS = tuple((k, dec) for k, (_b, _e, dec) in SECTIONS.items())
_BOARD = list(SECTIONS).index("board")


def own_hand(state: GameState, seat: int | None) -> bool:
    """Whether `seat` is a seat at the table (its view holds its hand)."""
    return seat is not None and 0 <= seat < state.players


@dataclass(frozen=True)  # no slots: the `Lazy` fields are kept in the instance's dict
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
    def of(cls, state: GameState, seat: int | None) -> SeatView:
        """The view of `state` for `seat` (None: the public table)."""
        d = {k: build(state, seat) for k, build in _SECTIONS_EAGER}
        d["hand"] = tuple(state.hands[seat]) if own_hand(state, seat) else None
        # what every bot's observation reads at once, straight from the state
        d["hand_counts"] = _hand_counts(state, seat)
        d["placard_owners"] = _held_placards(state, seat)
        return _built(cls, d, state, seat)

    @classmethod
    def from_data(cls, v: dict) -> SeatView:
        """A view read from its wire map (`view(state, seat)`, or a client's copy)."""
        values = [v[k] if dec is None else dec(v[k]) for k, dec in _DECODERS]
        values[_BOARD] = board_of(v)
        hand = v.get("hand")
        return cls(*values, None if hand is None else counts_from_data(hand))

    def to_data(self) -> dict:
        """The wire map `view` builds, key for key and in its order."""
        data = _encode(self, SECTIONS)
        if self.hand is not None:
            data["hand"] = hand_data(self.hand)
        return data

    # -- the questions readers ask ------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def placard_owner(self, clan: int) -> int | None:
        """The seat holding the clan's placard (None: it lies in the pool)."""
        for p in self.players:
            if clan in p.placards:
                return p.seat
        return None

    def source_clan(self, src: Source) -> int | None:
        """The clan a source stands for (None: a laid card that is not on the table)."""
        neg = self.negotiation
        if neg is not None:
            return neg.source_clan(src)
        return int(src.ref) if src.kind is _PLACARD else None

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


def _placard_owners(v: SeatView) -> tuple[int, ...]:
    owners = [POOL] * 6
    for p in v.players:
        for c in p.placards:
            owners[c] = p.seat
    return tuple(owners)


# Per clan, the seat holding its placard (POOL: none).
def _held_placards(st: GameState, seat: int | None) -> tuple[int, ...]:
    return tuple(st.placards)


def _hand_counts(st: GameState, seat: int | None) -> tuple[int, ...]:
    return tuple(map(sum, st.hands))


SeatView.placard_owners = Lazy("placard_owners", _held_placards, _placard_owners)
# Per seat, the cards in hand (every seat's count is public).
SeatView.hand_counts = Lazy(
    "hand_counts",
    _hand_counts,
    lambda v: tuple(p.hand_count for p in v.players),
)
# Built on first read in a view of a state (a bot's decision reads few of them).
_SECTIONS_EAGER = _lazy_fields(
    SeatView,
    SECTIONS,
    frozenset(
        {
            "version",
            "first_player",
            "players",
            "pool",
            "covered",
            "draw_count",
            "discard_pile",
            "discard_top",
            "deals_failed",
            "last_roll",
            "winners",
            "board_id",
            "waiting_for",
        }
    ),
)
