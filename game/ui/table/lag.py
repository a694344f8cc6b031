"""How far the screen lags the state: per state version, when it arrived at the table and
when its animations had played (`bench/lag.py` prints the figures), and how long a hand
slot stayed empty (a card gone with the rest not yet closed up, or a card still flying in).

The times are the scene's clock (the dt its frames were given: real time in a window).
A batch is *shown* once the director's timeline has passed its last cue's landing (the
cursor it left: every card, coin, tile and banner of it in place); it is *settled* once
everything it staged has finished (fades and the banners' time on screen included).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Shown:
    """One state version at the table: when it arrived, was shown and had settled."""

    version: int
    arrived: float
    shown_mark: float  # the director's timeline when it is shown ...
    settled_mark: float  # ... and when it has settled
    shown: float | None = None
    settled: float | None = None

    @property
    def lag(self) -> float | None:
        return None if self.shown is None else self.shown - self.arrived

    @property
    def settle_lag(self) -> float | None:
        return None if self.settled is None else self.settled - self.arrived


class LagMeter:
    """The table's record of its lag (kept small: the bench reads it, the game ignores it)."""

    KEEP = 5000  # versions kept (a whole game has about 1500 batches)

    def __init__(self) -> None:
        self.records: list[Shown] = []
        self._pending: list[Shown] = []
        self.gaps: list[float] = []  # how long each empty hand slot lasted, seconds
        self._gap_since: float | None = None

    def arrived(self, version: int, now: float, shown_mark: float, settled_mark: float) -> None:
        rec = Shown(version, now, shown_mark, settled_mark)
        if len(self.records) >= self.KEEP:
            del self.records[: self.KEEP // 2]
        self.records.append(rec)
        self._pending.append(rec)

    def tick(self, now: float, timeline: float, idle: bool) -> None:
        """The director's timeline has reached `timeline`; `idle`: nothing of it is left."""
        left = []
        for rec in self._pending:
            if rec.shown is None and (idle or timeline >= rec.shown_mark - 1e-9):
                rec.shown = now
            if rec.settled is None and (idle or timeline >= rec.settled_mark - 1e-9):
                rec.settled = now
            if rec.settled is None:
                left.append(rec)
        self._pending = left

    def hand_gap(self, now: float, empty: bool) -> None:
        """Whether a slot of the hand is empty now (HandFan.empty_slot)."""
        if empty and self._gap_since is None:
            self._gap_since = now
        elif not empty and self._gap_since is not None:
            self.gaps.append(now - self._gap_since)
            self._gap_since = None

    def open_gap(self, now: float) -> float | None:
        """How long the slot empty now has been empty (None: none is)."""
        return None if self._gap_since is None else now - self._gap_since
