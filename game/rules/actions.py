"""Every action a player (or the host's clock) can take, as small frozen dataclasses.

Actions are what bots choose, what the UI sends, what the host validates and what a save
file logs. `to_data` / `action_from_data` turn them into plain maps (JSON and msgpack ready)
and back, checking every field, so a malformed message can never become an action.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from itertools import combinations
from typing import ClassVar

from .board import Clan
from .cards import Card
from .state import Source

HOST = -1  # the seat of actions the host's clock takes (e.g. the negotiation time limit)


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    type: ClassVar[str] = "action"
    meta: ClassVar[bool] = False  # a preference, not a move: bots and turn prompts skip it

    def to_data(self) -> dict:
        out: dict = {"type": self.type}
        for f in fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out


def _encode(value):
    if isinstance(value, Source):
        return value.to_data()
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, (Card, Clan)):
        return value.key
    return value


# -- turn --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceMarker(Action):
    """Setup: the player right of the first player puts the marker on any space."""

    space: int
    type: ClassVar[str] = "place_marker"


@dataclass(frozen=True, slots=True)
class OpenDeal(Action):
    """ "Let's make a deal!" on the marker's space: the player becomes the Boss."""

    type: ClassVar[str] = "open_deal"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    type: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    type: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """One card down toward the hand limit (repeat until at the limit)."""

    card: Card
    type: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """A Recruitment triple taking the placard of `clan` (from the pool while it has any)."""

    clan: Clan
    type: ClassVar[str] = "recruit"


# -- negotiation ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LayClan(Action):
    """Lay a Clan card face up: a source for its clan until the negotiation ends."""

    clan: Clan
    type: ClassVar[str] = "lay_clan"


@dataclass(frozen=True, slots=True)
class PlayTravel(Action):
    """Send a placard or laid Clan card travelling with `card` (matching or grey)."""

    card: Card
    target: Source
    type: ClassVar[str] = "play_travel"


@dataclass(frozen=True, slots=True)
class PlayBoss(Action):
    """ "I'm the Boss!"."""

    type: ClassVar[str] = "play_boss"


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """A player offers these sources of theirs (none: a fee) to the Boss for `amount` $M."""

    sources: tuple[Source, ...]
    amount: int
    type: ClassVar[str] = "offer"


@dataclass(frozen=True, slots=True)
class Propose(Action):
    """The Boss proposes (or counters) terms to player `to`; no sources = a fee."""

    to: int
    sources: tuple[Source, ...]
    amount: int
    type: ClassVar[str] = "propose"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """The Boss accepts player `of`'s pending offer: it becomes a binding agreement."""

    of: int
    type: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class AcceptFormer(Action):
    """After a Boss change: the new Boss accepts every former agreement as it stands."""

    type: ClassVar[str] = "accept_former"


@dataclass(frozen=True, slots=True)
class AcceptProposal(Action):
    """A player accepts the Boss's pending proposal to them."""

    type: ClassVar[str] = "accept_proposal"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Either side withdraws the pending offer/proposal between the Boss and `player`."""

    player: int
    type: ClassVar[str] = "withdraw"


@dataclass(frozen=True, slots=True)
class PassFloor(Action):
    """Ask-around mode: done for now, the floor goes to the next player."""

    type: ClassVar[str] = "pass_floor"


@dataclass(frozen=True, slots=True)
class GoingOnce(Action):
    """The Boss calls "Going once, going twice…": a last chance for everyone else."""

    type: ClassVar[str] = "going_once"


@dataclass(frozen=True, slots=True)
class FailDeal(Action):
    type: ClassVar[str] = "fail_deal"


# -- reaction windows ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Let the play in the open window stand (or let the deal close)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class PlayStop(Action):
    """Cancel the Travel, Boss or Recruitment play in the open window."""

    type: ClassVar[str] = "play_stop"


# -- preferences and the host's clock -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetAskPreference(Action):
    """Ask me in windows only when they touch my placards, my cards or my agreements."""

    only_when_touched: bool
    type: ClassVar[str] = "set_ask_preference"
    meta: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class TimeUp(Action):
    """The host's negotiation clock ran out: from now on only close or fail (seat = HOST)."""

    type: ClassVar[str] = "time_up"
    meta: ClassVar[bool] = True


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        PlaceMarker, OpenDeal, Roll, Draw, Discard, Recruit, LayClan, PlayTravel, PlayBoss,
        Offer, Propose, Accept, AcceptFormer, AcceptProposal, Withdraw, PassFloor, GoingOnce,
        FailDeal, Pass, PlayStop, SetAskPreference, TimeUp,
    )
}  # fmt: skip


@cache
def interned(cls: type[Action], *args) -> Action:
    """The one shared instance of an action (actions are immutable values): legal-action
    lists are rebuilt after every move, and building frozen dataclasses dominated that.
    (`functools.cache` looks the arguments up in C, at half the cost of a dict in Python.)"""
    return cls(*args)


class ActionFormatError(ValueError):
    """Data that does not describe an action (wrong type, missing or ill-typed field)."""


def _int(value, name: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ActionFormatError(f"field {name!r} must be a whole number {lo}..{hi}, not {value!r}")
    return value


def action_from_data(data) -> Action:
    """Rebuild an action from plain data; raises ActionFormatError naming the bad field."""
    if not isinstance(data, dict):
        raise ActionFormatError("an action must be a map")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionFormatError(f"unknown action type {kind!r}")
    names = [f.name for f in fields(cls)]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise ActionFormatError(f"{kind}: unexpected fields {sorted(map(str, extra))}")
    values = {}
    for name in names:
        if name not in data:
            raise ActionFormatError(f"{kind}: missing field {name!r}")
        raw = data[name]
        try:
            if name == "seat":
                values[name] = _int(raw, name, HOST, 5)
            elif name in ("space",):
                values[name] = _int(raw, name, 0, 15)
            elif name in ("to", "of", "player"):
                values[name] = _int(raw, name, 0, 5)
            elif name == "amount":
                values[name] = _int(raw, name, 0, 10_000)
            elif name == "card":
                values[name] = _by_key(_CARD_BY_KEY, name, raw)
            elif name == "clan":
                values[name] = _by_key(_CLAN_BY_KEY, name, raw)
            elif name == "target":
                values[name] = Source.from_data(raw)
            elif name == "sources":
                if not isinstance(raw, (list, tuple)) or len(raw) > 16:
                    raise ActionFormatError(f"{kind}: 'sources' must be a short list")
                srcs = tuple(sorted({Source.from_data(s) for s in raw}))
                if len(srcs) != len(raw):
                    raise ActionFormatError(f"{kind}: a source is listed twice")
                values[name] = srcs
            elif name == "only_when_touched":
                if not isinstance(raw, bool):
                    _bad(name, raw)
                values[name] = raw
            else:  # pragma: no cover - every field is handled above
                raise ActionFormatError(f"{kind}: unhandled field {name!r}")
        except (KeyError, ValueError) as exc:
            if isinstance(exc, ActionFormatError):
                raise
            raise ActionFormatError(f"{kind}: bad {name!r}: {exc}") from None
    return cls(**values)


def _bad(name, raw):
    raise ActionFormatError(f"field {name!r} has the wrong type: {raw!r}")


#: Card and clan names exactly as the engine writes them (lower case: docs/PROTOCOL.md §8.1);
#: another spelling is not an action, so no reader has to guess what it meant.
_CARD_BY_KEY = {c.key: c for c in Card}
_CLAN_BY_KEY = {c.key: c for c in Clan}


def _by_key(table: dict, name: str, raw):
    if not isinstance(raw, str):
        _bad(name, raw)
    found = table.get(raw)
    if found is None:
        raise ActionFormatError(f"field {name!r}: unknown {name} {raw[:40]!r} (lower-case names)")
    return found


@dataclass(frozen=True, slots=True)
class TermsChoice:
    """Every offer (or proposal) of any subset of `pool` for any amount `lo`..`hi` ($M).

    Offers carry free terms, so listing each subset and amount would multiply the legal
    actions by hundreds; this is just as exact, and it is what the UI's offer panel needs
    (tick sources, dial an amount).
    """

    action: Offer | Propose  # the template: no sources, amount `lo`
    pool: tuple[Source, ...]  # sorted
    lo: int
    hi: int

    def covers(self, action: Action) -> bool:
        a = self.action
        if type(action) is not type(a) or action.seat != a.seat:
            return False
        if not self.lo <= action.amount <= self.hi:
            return False
        if isinstance(a, Propose) and action.to != a.to:
            return False
        pool = self.pool
        return all(s in pool for s in action.sources)

    def expand(self):
        for k in range(len(self.pool) + 1):
            for sources in combinations(self.pool, k):
                for amount in range(self.lo, self.hi + 1):
                    yield _with_terms(self.action, sources, amount)

    def __len__(self) -> int:
        return (1 << len(self.pool)) * (self.hi - self.lo + 1)

    def make(self, sources, amount: int) -> Offer | Propose:
        return _with_terms(self.action, tuple(sorted(sources)), amount)

    def to_data(self) -> dict:
        return {
            "action": self.action.to_data(),
            "pool": [s.to_data() for s in self.pool],
            "lo": self.lo,
            "hi": self.hi,
        }


def _with_terms(action: Offer | Propose, sources: tuple, amount: int) -> Offer | Propose:
    if isinstance(action, Offer):
        return Offer(action.seat, sources, amount)
    return Propose(action.seat, action.to, sources, amount)


class LegalActions:
    """What one seat may do now: concrete actions plus offer ranges, complete and exact.

    Iterating yields every concrete action; `in` tests membership without expanding.
    """

    __slots__ = ("fixed", "terms", "_fixed_set", "_moves")

    def __init__(self, fixed: list[Action] | None = None, terms: list[TermsChoice] | None = None):
        self.fixed: list[Action] = [] if fixed is None else fixed
        self.terms: list[TermsChoice] = [] if terms is None else terms
        self._fixed_set: set | None = None
        self._moves: LegalActions | None = None

    def __contains__(self, action: object) -> bool:
        if isinstance(action, (Offer, Propose)):
            srcs = action.sources
            if len(set(srcs)) != len(srcs):
                return False
            return any(t.covers(action) for t in self.terms)
        for a in self.fixed:
            if a is action:
                return True
        if self._fixed_set is None:
            self._fixed_set = set(self.fixed)
        return action in self._fixed_set

    def __iter__(self):
        yield from self.fixed
        for t in self.terms:
            yield from t.expand()

    def __len__(self) -> int:
        return len(self.fixed) + sum(len(t) for t in self.terms)

    def __bool__(self) -> bool:
        return bool(self.fixed or self.terms)

    @classmethod
    def with_meta(cls, meta: Action, moves: LegalActions) -> LegalActions:
        """The `meta` action first, then `moves` (which holds none), whose list is then
        what `moves()` returns without filtering (set here, not through `__init__`: this
        runs for every list the engine builds)."""
        out = cls.__new__(cls)
        fixed = [meta]
        fixed += moves.fixed
        out.fixed = fixed
        out.terms = moves.terms
        out._fixed_set = None
        out._moves = moves
        return out

    def moves(self) -> LegalActions:
        """Without meta actions (preferences, the host's clock): what bots and prompts use.
        Built once per legal-action list (treat both as read-only)."""
        if self._moves is None:
            self._moves = LegalActions([a for a in self.fixed if not a.meta], self.terms)
        return self._moves

    def of_type(self, *types: type[Action]) -> list[Action]:
        return [a for a in self if isinstance(a, types)]

    def to_data(self) -> dict:
        return {
            "actions": [a.to_data() for a in self.fixed],
            "terms": [t.to_data() for t in self.terms],
        }


def legal_from_data(data) -> LegalActions:
    """Rebuild `LegalActions.to_data()` (e.g. on a LAN client); raises ActionFormatError."""
    if not isinstance(data, dict):
        raise ActionFormatError("legal actions must be a map")
    fixed = [action_from_data(a) for a in data.get("actions", [])]
    terms = []
    for t in data.get("terms", []):
        if not isinstance(t, dict):
            raise ActionFormatError("a terms choice must be a map")
        template = action_from_data(t.get("action"))
        if not isinstance(template, (Offer, Propose)):
            raise ActionFormatError("a terms choice is an offer or a proposal")
        pool = tuple(sorted(Source.from_data(s) for s in t.get("pool", [])))
        lo, hi = t.get("lo"), t.get("hi")
        _int(lo, "lo", 0, 10_000)
        _int(hi, "hi", lo, 10_000)
        terms.append(TermsChoice(template, pool, lo, hi))
    return LegalActions(fixed, terms)
