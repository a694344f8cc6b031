"""A bot's memory of its own side of a deal's talk, so that it converges like a person.

People do not say the same terms twice to the same person: they move towards the other
side, say "last offer" once, then take the other's terms or walk away. `Talk` remembers,
per counterpart and set of sources, the amounts this seat has said in the deal, and which
of them it said in the current *situation* (the public facts of the deal that change what
it is worth: the Boss, the clans committed, cards laid and Travel played, agreements made,
placards, the clock). Within a situation every new word concedes on the last one; a new
situation starts the concessions afresh (and takes back a "last offer"), but never brings
back terms said before: the bot moves a step instead. The policy (heuristic/speech.py) asks
`Talk` before it speaks.

`phrase` is the quick phrase (assets/lang "phrase.*") the bot's last decision says aloud,
and `reason` why it failed a deal (assets/lang "reason.*"), for whoever drives the bot to
show as a speech bubble and in the log; neither changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from game.rules import (
    Accept,
    AcceptFormer,
    AcceptProposal,
    Action,
    FailDeal,
    Offer,
    PassFloor,
    Propose,
    Withdraw,
)

from .base import Remark

_DEAL_ENDS = frozenset({"deal_opened", "deal_closed", "deal_failed"})


class Phrase(str, Enum):
    """The quick phrases a bot says, by translation key."""

    DEAL = "phrase.deal"  # on accepting terms
    LAST_OFFER = "phrase.last_offer"  # terms at my walk-away amount
    TOO_EXPENSIVE = "phrase.too_expensive"  # a Boss refusing a price beyond its limit
    NO_WAY = "phrase.no_way"  # a price far off
    IM_OUT = "phrase.im_out"  # walking away from the talk


class GiveUp(str, Enum):
    """Why a bot Boss failed a deal, by translation key (shown in the log)."""

    TOO_EXPENSIVE = "reason.too_expensive"  # the seats needed ask more than the deal pays
    NO_COVER = "reason.no_cover"  # nobody can bring a clan the space needs
    NO_TAKERS = "reason.no_takers"  # nobody took my last proposal
    OUT_OF_TIME = "reason.out_of_time"  # the clock or the negotiation limit ran out


# What a Boss says aloud when it fails a deal for each reason (the reason itself goes to the
# log where the driver can show it; the phrase reaches every screen, LAN ones included).
GIVE_UP_PHRASE = {
    GiveUp.TOO_EXPENSIVE: Phrase.TOO_EXPENSIVE,
    GiveUp.NO_COVER: Phrase.IM_OUT,
    GiveUp.NO_TAKERS: Phrase.IM_OUT,
    GiveUp.OUT_OF_TIME: Phrase.IM_OUT,
}

# The one knob of bot chatter: a bot says at most one phrase every this many seconds of
# table time (hot seat and LAN host alike); phrases in between are dropped, not delayed.
PHRASE_GAP = 4.0


class PhraseGate:
    """Rate limit for bots' phrases, per seat, on the driver's own clock."""

    def __init__(self, gap: float = PHRASE_GAP) -> None:
        self.gap = gap
        self._last: dict[int, float] = {}

    def allow(self, seat: int, now: float) -> bool:
        last = self._last.get(seat)
        if last is not None and now - last < self.gap:
            return False
        self._last[seat] = now
        return True


# How far off the other side's price must be for "No way" rather than a plain refusal:
# the Boss hears more than this times its limit, an investor less than its inverse.
NO_WAY_FACTOR = 1.6


def situation(o) -> tuple:
    """The public facts of the open deal that change what terms are worth."""
    neg = o.neg
    return (
        neg.boss,
        neg.committed_mask,
        tuple(neg.laid),
        tuple(sorted(neg.travel)),
        tuple(sorted((q, t.amount) for q, t in neg.agreements.items())),
        tuple(o.placards),
        neg.limit_spent,
    )


@dataclass
class Talk:
    """What this seat has said in the open deal (see the module docstring)."""

    seat: int = -1
    said: dict[tuple[int, frozenset], list[int]] = field(default_factory=dict)  # the deal
    current: dict[tuple[int, frozenset], list[int]] = field(default_factory=dict)  # situation
    final: set[int] = field(default_factory=set)  # counterparts told "last offer"
    floor_passed: bool = False  # as Boss (ask-around), I have let the floor go round once
    fee_asked: bool = False  # somebody asked a blocker's fee in this deal
    table_words: int = 0  # offers and proposals anybody made in this deal
    new_bosses: int = 0  # Boss cards that took this deal over
    situation: tuple | None = None
    phrase: Phrase | None = None  # said by the last decision
    reason: GiveUp | None = None  # with a FailDeal: why
    # terms the last decision chose, remembered once the game reports them said (a driver
    # may drop a move the game has moved past): (counterpart, sources, amount, final)
    unsaid: tuple | None = None

    def hush(self) -> None:
        """Before a decision: nothing said yet."""
        self.phrase = None
        self.reason = None
        self.unsaid = None

    def intend(self, counterpart: int, sources, amount: int, final: bool) -> None:
        self.unsaid = (counterpart, tuple(sources), amount, final)

    def say(self, phrase: Phrase) -> None:
        if self.phrase is None or phrase is Phrase.LAST_OFFER:
            self.phrase = phrase

    def goes_with(self, action: Action | None) -> None:
        """What the move itself says, after the decision chose it: "Deal!" on accepting,
        the reason (and its phrase) on failing a deal; any other phrase only with a
        negotiation move."""
        kind = type(action)
        if kind in _ACCEPTS:
            self.say(Phrase.DEAL)
        elif kind is FailDeal:
            self.reason = self.reason or GiveUp.TOO_EXPENSIVE
            self.say(GIVE_UP_PHRASE[self.reason])
        elif kind not in _TALK:
            self.hush()

    def remark(self, action: Action | None) -> Remark | None:
        """The bot's `Remark` for `action`, the move its last decision said this with."""
        if self.phrase is None and self.reason is None:
            return None
        return Remark(
            action,
            self.phrase.value if self.phrase else None,
            self.reason.value if self.reason else None,
        )

    def observe(self, events: list[dict]) -> None:
        for e in events:
            kind = e.get("type")
            if kind in _DEAL_ENDS:
                self.reset()
                continue
            if kind == "offer_made" and not e.get("sources"):
                self.fee_asked = True
            if kind in ("offer_made", "proposed"):
                self.table_words += 1
            elif kind == "boss_changed":
                self.new_bosses += 1
            mine = (kind == "offer_made" and e.get("seat") == self.seat) or (
                kind == "proposed" and e.get("boss") == self.seat
            )
            if mine and self.unsaid is not None:
                counterpart, sources, amount, final = self.unsaid
                if e.get("amount") == amount and e.get("to", counterpart) == counterpart:
                    self.record(counterpart, sources, amount)
                    if final:
                        self.final.add(counterpart)
                self.unsaid = None

    def reset(self) -> None:
        self.said.clear()
        self.current.clear()
        self.final.clear()
        self.situation = None
        self.floor_passed = False
        self.fee_asked = False
        self.table_words = 0
        self.new_bosses = 0

    def enter(self, o) -> None:
        """Called before a negotiation decision: a new situation allows old terms again."""
        now = situation(o)
        if now != self.situation:
            self.current.clear()
            self.final.clear()
            self.situation = now

    def amounts(self, counterpart: int, sources) -> tuple[list[int], list[int]]:
        """The amounts said to `counterpart` for `sources`: in the deal, in this situation."""
        key = (counterpart, frozenset(sources))
        return self.said.get(key, []), self.current.get(key, [])

    def words(self, counterpart: int) -> int:
        """How many terms I have said to `counterpart` in this deal, whatever the sources."""
        return sum(len(v) for (c, _s), v in self.said.items() if c == counterpart)

    def record(self, counterpart: int, sources, amount: int) -> None:
        key = (counterpart, frozenset(sources))
        self.said.setdefault(key, []).append(amount)
        self.current.setdefault(key, []).append(amount)


_ACCEPTS = (Accept, AcceptFormer, AcceptProposal)
_TALK = (Offer, Propose, PassFloor, Withdraw, type(None))  # moves a phrase may go with
