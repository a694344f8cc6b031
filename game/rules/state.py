"""The game state: plain mutable dataclasses, a seeded RNG, cheap copies and a stable hash.

`engine.apply` validates an action completely before it changes anything, so the state is
mutated in place; `GameState.clone()` gives search bots and tests an independent copy in a
few microseconds.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from .board import CLANS, Board, Clan
from .cards import CARD_KINDS, Card
from .variants import Settings

POOL = -1  # owner of a placard lying face up beside the board
MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: tiny, fast, platform-independent; its whole state is one int."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n) without modulo bias."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def die(self) -> int:
        return self.below(6) + 1

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Phase(str, Enum):
    PLACE_MARKER = "place_marker"  # the player right of the first player places the marker
    TURN = "turn"  # the active player: deal here or roll
    MOVED = "moved"  # after rolling: deal here or draw
    DISCARD = "discard"  # over the hand limit after drawing
    NEGOTIATION = "negotiation"
    GAME_OVER = "game_over"


class SourceKind(str, Enum):
    PLACARD = "placard"
    CARD = "card"  # a Clan card laid face up on the table


class Source(NamedTuple):
    """A clan slot filler: a placard (ref = clan) or a laid Clan card (ref = table card id)."""

    kind: SourceKind
    ref: int

    def to_data(self) -> list:
        return ["placard" if self.kind is _PLACARD else "card", self.ref]

    @classmethod
    def from_data(cls, data) -> Source:
        if not isinstance(data, (list, tuple)) or len(data) != 2:
            raise ValueError(f"a source is [kind, ref], not {data!r}")
        kind, ref = data
        if not isinstance(ref, int) or isinstance(ref, bool) or ref < 0:
            raise ValueError(f"bad source reference {ref!r}")
        kind = SourceKind(kind)
        if kind is SourceKind.PLACARD and ref >= len(CLANS):
            raise ValueError(f"no clan {ref} (placards are clans 0..{len(CLANS) - 1})")
        return cls(kind, ref)


_PLACARD = SourceKind.PLACARD


# Sources are values: the engine hands out shared instances instead of building a tuple
# each time (legal actions and the involved-source choice ask for them after every move).
PLACARD_SOURCES: tuple[Source, ...] = tuple(Source(SourceKind.PLACARD, c) for c in range(6))
_CARD_SOURCES: list[Source] = [Source(SourceKind.CARD, i) for i in range(64)]


def placard(clan: Clan | int) -> Source:
    if 0 <= clan < 6:
        return PLACARD_SOURCES[clan]
    return Source(SourceKind.PLACARD, int(clan))  # not a clan: let the rules reject it


def laid(card_id: int) -> Source:
    if 0 <= card_id < 64:
        return _CARD_SOURCES[card_id]
    return Source(SourceKind.CARD, card_id)


class WindowKind(str, Enum):
    TRAVEL = "travel"
    BOSS = "boss"
    RECRUIT = "recruit"
    GOING_ONCE = "going_once"

    @property
    def stoppable(self) -> bool:
        return self is not WindowKind.GOING_ONCE


@dataclass(slots=True)
class LaidCard:
    id: int
    owner: int
    clan: Clan


@dataclass(slots=True)
class Terms:
    """An accepted agreement (binding) or a pending offer / proposal."""

    sources: tuple[Source, ...]
    amount: int
    by_boss: bool = False  # pending only: the Boss proposed it, the player must answer
    was_agreed: bool = False  # pending only: an agreement that fell back on a Boss change


@dataclass(slots=True)
class Window:
    """A reaction window: nothing else happens until it is answered (docs/RULES.md §6)."""

    kind: WindowKind
    actor: int
    card: Card | None = None  # the Travel card being played
    target: Source | None = None  # Travel target
    recruit: Clan | None = None  # placard a Recruitment triple takes
    queue: list[int] = field(default_factory=list)  # ask-around: still to be asked, head asked
    waiting: list[int] = field(default_factory=list)  # real time: not yet passed


@dataclass(slots=True)
class Negotiation:
    space: int
    price: int
    proceeds: int
    opener: int
    boss: int
    laid: list[LaidCard] = field(default_factory=list)
    next_card_id: int = 0
    travel: dict[int, Card] = field(default_factory=dict)  # clan of placard -> Travel card on it
    agreements: dict[int, Terms] = field(default_factory=dict)
    pending: dict[int, Terms] = field(default_factory=dict)
    played: set[int] = field(default_factory=set)  # seats that played an influence card (V3)
    actions: int = 0  # negotiation actions taken (the limit)
    time_up: bool = False  # the host's clock ran out (real-time mode)
    floor: int | None = None  # ask-around: who may act outside windows
    round_active: bool = False  # someone but the Boss acted since the floor left the Boss
    quiet: bool = False  # a full round passed with only the Boss acting
    # after a quiet round: 0 the Boss's last proposal is not made, 1 made, 2 spent
    # (engine.QUIET_LAST_*); False (== 0) when a deal opens keeps GameState.hash() as it
    # was; the view sends int() of it (docs/PROTOCOL.md §8.2)
    last_proposal: int = False
    # ask-around: seats that passed the floor and nothing touched since (RULES §6.4)
    floor_passed: set[int] = field(default_factory=set)

    def clone(self) -> Negotiation:
        return Negotiation(
            self.space,
            self.price,
            self.proceeds,
            self.opener,
            self.boss,
            [LaidCard(c.id, c.owner, c.clan) for c in self.laid],
            self.next_card_id,
            dict(self.travel),
            {
                s: Terms(t.sources, t.amount, t.by_boss, t.was_agreed)
                for s, t in self.agreements.items()
            },
            {
                s: Terms(t.sources, t.amount, t.by_boss, t.was_agreed)
                for s, t in self.pending.items()
            },
            set(self.played),
            self.actions,
            self.time_up,
            self.floor,
            self.round_active,
            self.quiet,
            self.last_proposal,
            set(self.floor_passed),
        )

    def card(self, card_id: int) -> LaidCard | None:
        for c in self.laid:
            if c.id == card_id:
                return c
        return None


@dataclass(slots=True)
class GameState:
    settings: Settings
    board: Board
    seed: int
    rng: Rng
    names: list[str]
    hands: list[list[int]]  # per seat: count per card kind
    money: list[int]
    placards: list[int]  # per clan: owner seat or POOL
    deck: list[Card]  # draw pile, top card last
    discard: list[Card]
    tiles: list[int]  # deal tiles still stacked, top first
    covered: dict[int, int]  # space -> tile number placed on it
    phase: Phase
    turn: int  # whose turn it is (or who places the marker / discards)
    first_player: int
    marker: int | None = None
    negotiation: Negotiation | None = None
    window: Window | None = None
    deals_closed: int = 0
    deals_failed: int = 0
    last_roll: int | None = None
    winners: list[int] = field(default_factory=list)
    ask_only_when_touched: list[bool] = field(default_factory=list)
    actions_taken: int = 0  # the length of the action log; also the view version
    _legal_cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def players(self) -> int:
        return len(self.names)

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def clone(self) -> GameState:
        return GameState(
            self.settings,
            self.board,
            self.seed,
            Rng(self.rng.state),
            list(self.names),
            [list(h) for h in self.hands],
            list(self.money),
            list(self.placards),
            list(self.deck),
            list(self.discard),
            list(self.tiles),
            dict(self.covered),
            self.phase,
            self.turn,
            self.first_player,
            self.marker,
            None if self.negotiation is None else self.negotiation.clone(),
            None
            if self.window is None
            else Window(
                self.window.kind,
                self.window.actor,
                self.window.card,
                self.window.target,
                self.window.recruit,
                list(self.window.queue),
                list(self.window.waiting),
            ),
            self.deals_closed,
            self.deals_failed,
            self.last_roll,
            list(self.winners),
            list(self.ask_only_when_touched),
            self.actions_taken,
        )

    # -- serialisation (complete: for hashing and autosave, never sent to a player) --

    def to_data(self) -> dict:
        neg = self.negotiation
        win = self.window
        return {
            "settings": self.settings.to_data(),
            "seed": self.seed,
            "rng": self.rng.state,
            "names": self.names,
            "hands": self.hands,
            "money": self.money,
            "placards": self.placards,
            "deck": [int(c) for c in self.deck],
            "discard": [int(c) for c in self.discard],
            "tiles": self.tiles,
            "covered": {str(k): v for k, v in sorted(self.covered.items())},
            "phase": self.phase.value,
            "turn": self.turn,
            "first_player": self.first_player,
            "marker": self.marker,
            "negotiation": None if neg is None else _negotiation_data(neg),
            "window": None
            if win is None
            else {
                "kind": win.kind.value,
                "actor": win.actor,
                "card": None if win.card is None else int(win.card),
                "target": None if win.target is None else win.target.to_data(),
                "recruit": None if win.recruit is None else int(win.recruit),
                "queue": win.queue,
                "waiting": win.waiting,
            },
            "deals_closed": self.deals_closed,
            "deals_failed": self.deals_failed,
            "last_roll": self.last_roll,
            "winners": self.winners,
            "ask_only_when_touched": self.ask_only_when_touched,
            "actions_taken": self.actions_taken,
        }

    def hash(self) -> str:
        """A short, stable digest of the whole state (replays must reproduce it bit for bit)."""
        blob = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _terms_data(t: Terms) -> dict:
    return {
        "sources": [s.to_data() for s in t.sources],
        "amount": t.amount,
        "by_boss": t.by_boss,
        "was_agreed": t.was_agreed,
    }


def _negotiation_data(n: Negotiation) -> dict:
    return {
        "space": n.space,
        "price": n.price,
        "proceeds": n.proceeds,
        "opener": n.opener,
        "boss": n.boss,
        "laid": [[c.id, c.owner, int(c.clan)] for c in n.laid],
        "next_card_id": n.next_card_id,
        "travel": {str(k): int(v) for k, v in sorted(n.travel.items())},
        "agreements": {str(k): _terms_data(v) for k, v in sorted(n.agreements.items())},
        "pending": {str(k): _terms_data(v) for k, v in sorted(n.pending.items())},
        "played": sorted(n.played),
        "actions": n.actions,
        "time_up": n.time_up,
        "floor": n.floor,
        "round_active": n.round_active,
        "quiet": n.quiet,
        "last_proposal": n.last_proposal,
        "floor_passed": sorted(n.floor_passed),
    }


def empty_hand() -> list[int]:
    return [0] * CARD_KINDS
