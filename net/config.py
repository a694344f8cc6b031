"""What a LAN host is told: its table, its countdowns (``Timing``, from game.referee) and
its limits.

HostConfig(seats=4, bots=["random"], code="ABCD", timing=Timing(negotiation=120))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.referee import Timing  # one Timing for every table (game/referee.py)
from game.rules import Setup, Variant, WindowMode

from .connections import Limits

DEFAULT_TABLE_NAME = "I'm the Boss! table"


class HostError(RuntimeError):
    """The host cannot start (bad resume file, port in use, bad settings)."""


@dataclass
class HostConfig:
    seats: int = 4
    bots: list[str] = field(default_factory=lambda: ["random"])  # per seat, cycled
    code: str | None = None  # 4 letters; None: random
    name: str | None = None  # the table's name in the lobby (None: a default, or the resumed one)
    bind: str = "0.0.0.0"
    port: int = 0
    seed: int | None = None  # None: a secret random seed
    variants: frozenset[Variant] = frozenset()
    short_game: bool = False
    negotiation_limit: int = 60
    hidden_money: bool = True
    #: real time: every window asks everyone at once; ask-around: one player after the
    #: other, each with the window's length to answer (and the floor goes round)
    window_mode: WindowMode = WindowMode.REAL_TIME
    #: players at this table may ask the coach for a hint (sent in `welcome`; clients obey)
    hints: bool = True
    #: newcomers may take the seats bots play from the start of a game (every screen shows a
    #: notice); off: once a game runs, only a seat's token takes a seat
    open_bot_seats: bool = False
    setup: Setup | None = None  # scenarios (tests)
    timing: Timing = field(default_factory=Timing)
    limits: Limits = field(default_factory=Limits)
    autosave: Path | None = None  # None: no autosave
    resume: Path | None = None  # a save to resume (autosaves go back to it)
    #: "batch": each action's journal line reaches the OS before its frames are sent and
    #: the disk right after (a killed host loses nothing; a power cut the last moments);
    #: "always": fdatasync before the frames (also survives a power cut; ~ms per action);
    #: "none": no fsync at all (tests, benchmarks).
    autosave_sync: str = "batch"
    compact_every: int = 256  # journal records between two rewrites of the whole save
    announce: bool = True  # zeroconf (never when bound to loopback)
    announce_addresses: list[str] | None = None


def config_for_tests(**kw) -> HostConfig:
    """A loopback host with instant bots and room for bots' message rates (tests, bench)."""
    timing = kw.pop("timing", None) or Timing(
        bot_answer=0.0, bot_delay=0.0, bot_tick=0.005, fair_start=0.0
    )
    limits = kw.pop("limits", None) or Limits(rate=1000.0, burst=1000.0)
    return HostConfig(bind="127.0.0.1", announce=False, timing=timing, limits=limits, **kw)
