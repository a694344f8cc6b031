"""Losses said when they happen (issue 32): a newcomer's placards were recruited and his Boss
card stopped in his first deals, and by his second turn he owned nothing, with nothing on
the table saying what had happened or why.

`LossWatcher` follows the (redacted) events a table is fed and, when something of a person
on this screen is taken, makes a `loss` event: a placard recruited by another seat, a play
(Boss, Travel or Recruitment card) stopped by another seat's Stop card, a laid Clan card
sent away by another seat's Travel card, and what a deal another Boss failed costs (the
agreement void, the cards played in it gone; the laid Clan cards come back). The table
shows it at once, addressed to that seat, and logs it; sentences.py words it from the event
alone, so a language switch re-words the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .events import LOSS

LOSS_SECONDS = 9.0  # how long the notice stays: two sentences, read at a newcomer's pace

#: the windows (by kind) whose play a Stop card cancels; the loss names the kind
STOPPABLE = frozenset({"boss", "travel", "recruit"})


@dataclass
class _Stake:
    """One person's part in the open deal: what a failed deal takes from them."""

    played: list[str] = field(default_factory=list)  # cards played that stood (Travel, Boss)
    agreed: int | None = None  # their agreement's amount, if any
    returned: list[str] = field(default_factory=list)  # laid Clan cards given back


class LossWatcher:
    """Makes `loss` events for the people on this screen (`people`, seat numbers)."""

    def __init__(self) -> None:
        self.people: tuple[int, ...] = ()
        self._player: int | None = None  # who made the open window's play
        self._stakes: dict[int, _Stake] = {}
        self._failed_by: int | None = None  # the Boss who failed the deal being cleared
        self._laid: dict[int, str] = {}  # laid Clan card id -> its clan

    def observe(self, e: dict, people: tuple[int, ...] = ()) -> list[dict]:
        """The loss events `e` makes for the people on this screen (usually none)."""
        self.people = tuple(people)
        handler = _HANDLERS.get(e["type"])
        return handler(self, e) if handler is not None else []

    # -- one handler per event that can take something -------------------------------------

    def _loss(self, seat: int, what: str, **fields) -> dict:
        named = len(self.people) > 1  # several people share the screen: say to whom
        return {"type": LOSS, "seat": seat, "what": what, "named": named, **fields}

    def _mine(self, seat) -> bool:
        return seat is not None and seat in self.people

    def _card_played(self, e: dict) -> list[dict]:
        self._player = e["seat"]
        return []

    def _window_closed(self, e: dict) -> list[dict]:
        self._player = None
        return []

    def _stopped(self, e: dict) -> list[dict]:
        seat, self._player = self._player, None
        if seat is None or e["kind"] not in STOPPABLE:
            return []
        if not self._mine(seat) or e["seat"] == seat:
            return []
        return [self._loss(seat, "stopped", by=e["seat"], card=e["kind"])]

    def _recruited(self, e: dict) -> list[dict]:
        old, new = e["old_owner"], e["new_owner"]
        if old is None or old < 0 or not self._mine(old) or old == new:
            return []
        return [self._loss(old, "placard", by=new, clan=e["clan"])]

    def _travel_sent(self, e: dict) -> list[dict]:
        if self._mine(e["seat"]):
            self._stake(e["seat"]).played.append(e["card"])
        owner = e.get("owner")
        if not e.get("discarded") or not self._mine(owner) or owner == e["seat"]:
            return []
        kind, ref = e["target"]
        clan = ref if kind == "placard" else self._laid.get(ref)
        return [self._loss(owner, "travelled", by=e["seat"], clan=clan)]

    def _boss_changed(self, e: dict) -> list[dict]:
        if self._mine(e["new"]):
            self._stake(e["new"]).played.append("boss")
        return []

    def _agreement(self, e: dict) -> list[dict]:
        if self._mine(e["seat"]):
            self._stake(e["seat"]).agreed = e["amount"]
        return []

    def _withdrawn(self, e: dict) -> list[dict]:
        if self._mine(e["player"]):
            self._stake(e["player"]).agreed = None
        return []

    def _deal_opened(self, e: dict) -> list[dict]:
        self._stakes, self._laid = {}, {}
        self._failed_by = None
        return []

    def _deal_failed(self, e: dict) -> list[dict]:
        self._failed_by = e["boss"]
        return []

    def _cards_returned(self, e: dict) -> list[dict]:
        if self._mine(e["seat"]):
            self._stake(e["seat"]).returned = list(e["cards"])
        return []

    def _table_cleared(self, e: dict) -> list[dict]:
        """A deal's end: after a failed one, each person in it (but its Boss, who chose
        to fail it) hears what it cost them."""
        boss, stakes = self._failed_by, self._stakes
        self._failed_by, self._stakes = None, {}
        if boss is None:
            return []
        out = []
        for seat in sorted(stakes):
            s = stakes[seat]
            if seat == boss or not (s.played or s.agreed or s.returned):
                continue
            out.append(self._loss(seat, "failed", by=boss, cards=s.played, amount=s.agreed,
                                  returned=s.returned))  # fmt: skip
        return out

    def _clan_laid(self, e: dict) -> list[dict]:
        self._laid[e["card_id"]] = e["clan"]
        if self._mine(e["seat"]):
            self._stake(e["seat"])  # in the deal, even if nothing else happens to them
        return []

    def _stake(self, seat: int) -> _Stake:
        return self._stakes.setdefault(seat, _Stake())


_HANDLERS = {
    "card_played": LossWatcher._card_played,
    "window_closed": LossWatcher._window_closed,
    "stopped": LossWatcher._stopped,
    "placard_recruited": LossWatcher._recruited,
    "travel_sent": LossWatcher._travel_sent,
    "boss_changed": LossWatcher._boss_changed,
    "agreement_made": LossWatcher._agreement,
    "withdrawn": LossWatcher._withdrawn,
    "deal_opened": LossWatcher._deal_opened,
    "deal_failed": LossWatcher._deal_failed,
    "cards_returned": LossWatcher._cards_returned,
    "table_cleared": LossWatcher._table_cleared,
    "clan_laid": LossWatcher._clan_laid,
}
