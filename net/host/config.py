"""What a LAN host is told (``HostConfig``: its table, its countdowns and its limits), and
the one place a ``HostConfig`` is built from a person's choices (``build_host_config``): the
command line's ``host``/``table`` flags (game/cli) and the lobby's settings (game/ui/sessions/lan.py)
both come here, so a choice is checked, and means the same, whichever way a table is hosted.

    HostConfig(seats=4, bots=["random"], code="ABCD", timing=Timing(negotiation=120))

Every keyword of ``build_host_config`` is named like its command-line flag (``going_once`` is
``--going-once``), and the clocks' like their ``Timing`` knob, in seconds; a
``HostChoiceError`` names the keyword, so the command line can name the flag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from game.bots import UnknownBot, check_bot_spec
from game.rules import Setup, Variant, WindowMode
from game.table.bot_schedule import (
    Timing,  # one Timing for every table (game/table/bot_schedule.py)
)
from net import protocol as P
from net.client.messages import MAX_WINDOW
from net.host.connections import Limits

DEFAULT_TABLE_NAME = "I'm the Boss! table"

#: the port phones open the table's page on (``--phone-port``); a taken one falls back to
#: any free port, which the host prints and its QR code shows
DEFAULT_PHONE_PORT = 8700


class HostError(RuntimeError):
    """The host cannot start (bad resume file, port in use, bad settings)."""


#: A window that runs out is closed this long after the end every screen shows, for every
#: window and every seat alike: an answer a player made in time on a screen, on a link that
#: is slow for a moment (busy wifi: 0.2-1.1 s late measured; a TCP stall after a lost
#: packet: up to 1.5 s), is still in time. It never depends on who holds a Stop card.
LATE_MARGIN = 1.5


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
    #: seconds a window that runs out stays open past its shown end (``LATE_MARGIN``)
    late_margin: float = LATE_MARGIN
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
    #: the phone page and its WebSocket (net.web): None: not served; 0: any free port;
    #: a port: that one, or any free port when it is taken
    phone_port: int | None = None
    phone_dir: Path | None = None  # the page's folder (None: assets/phone; tests give theirs)


#: A table people sit at asks around, each player with this long to answer a window: the
#: longest Stop banner takes a slow reader 7.3 s to read and press Stop (Chinese, Travel on
#: a laid Clan card; `python -m bench.banner_reading`), so 10 s leaves a third to spare.
#: (HostConfig's own defaults, real time and Timing's 5 s, serve the tests and benches.)
PEOPLE_WINDOW_MODE = WindowMode.ASK_AROUND
PEOPLE_WINDOW = 10.0
#: ``main.py table`` serving phones: the TV shows the public table and every hand is on its
#: own phone, so every phone can show a Stop window at once with its countdown, as everyone
#: at a real table may call "Stop!" at once. Ask-around, one player after another, makes a
#: window last up to (players - 1) x 10 s; real time ends it when everyone asked has passed,
#: and 10 s (PEOPLE_WINDOW) still leave time to read the longest banner.
PHONE_TABLE_WINDOW_MODE = WindowMode.REAL_TIME


class HostChoiceError(ValueError):
    """A choice no table can be hosted with: ``option`` (a keyword) ``requirement``."""

    def __init__(self, option: str, requirement: str) -> None:
        super().__init__(f"{option} {requirement}")
        self.option = option
        self.requirement = requirement


def _seconds(option: str, value: float | None) -> float | None:
    if value is not None and value < 0:
        raise HostChoiceError(option, "must be >= 0")
    return None if value is None else float(value)


def _timing(
    *,
    window: float | None,
    going_once: float | None,
    negotiation: float | None,
    turn: float | None,
    grace: float | None,
    bot_delay: float | None,
    start_after: float | None,
) -> Timing:
    """Timing's defaults, with every given number of seconds in its place."""
    timing = Timing()
    for knob, value in (
        ("window", window),
        ("going_once", going_once),
        ("negotiation", negotiation),
        ("turn", turn),
        ("grace", grace),
    ):
        seconds = _seconds(knob, value)
        if seconds is not None:
            setattr(timing, knob, seconds)
    if not 0 < timing.window <= MAX_WINDOW:
        raise HostChoiceError("window", f"must be > 0 and <= {MAX_WINDOW}")
    if timing.going_once <= 0:
        raise HostChoiceError("going_once", "must be > 0")
    delay = _seconds("bot_delay", bot_delay)
    if delay is not None:  # one number for every bot pause: answering, moving, re-offering
        timing.bot_delay = timing.bot_answer = delay
        timing.bot_tick = max(0.005, delay)
    timing.start_after = _seconds("start_after", start_after)
    return timing


def build_host_config(
    *,
    seats: int,
    bots: Sequence[str],
    code: str | None = None,
    name: str | None = None,
    bind: str = "0.0.0.0",
    port: int = 0,
    seed: int | None = None,
    variants: frozenset[Variant] = frozenset(),
    short_game: bool = False,
    hidden_money: bool = True,
    negotiation_limit: int = 60,
    window_mode: WindowMode | str = PEOPLE_WINDOW_MODE,
    window: float | None = None,
    going_once: float | None = None,
    negotiation: float | None = None,
    turn: float | None = None,
    grace: float | None = None,
    bot_delay: float | None = None,
    start_after: float | None = None,
    autosave: Path | None = None,
    resume: Path | None = None,
    announce: bool = True,
    hints: bool = True,
    open_bot_seats: bool = False,
    phone_port: int | None = DEFAULT_PHONE_PORT,
) -> HostConfig:
    """A checked HostConfig (seconds left None keep Timing's defaults, but the window's is
    PEOPLE_WINDOW); HostChoiceError names the first bad choice."""
    if not 2 <= seats <= 6:
        raise HostChoiceError("seats", "must be 2..6")
    if code is not None and P.normalize_code(code) is None:
        raise HostChoiceError("code", f"must be {P.CODE_LENGTH} letters A-Z")
    if not 0 <= port <= 65535:
        raise HostChoiceError("port", "must be 0..65535")
    if phone_port is not None and not 0 <= phone_port <= 65535:
        raise HostChoiceError("phone_port", "must be 0..65535")
    if negotiation_limit < 1:
        raise HostChoiceError("negotiation_limit", "must be >= 1")
    if len(bots) not in (1, seats):
        raise HostChoiceError("bots", f"names {len(bots)} bots for {seats} seats (give 1 or {seats})")
    try:
        bot_specs = [check_bot_spec(spec) for spec in bots]
        bot_specs = bot_specs * seats if len(bot_specs) == 1 else bot_specs  # one per seat
    except UnknownBot as exc:
        raise HostChoiceError("bots", f"names an {exc}") from None
    try:
        mode = WindowMode(window_mode)
    except ValueError:
        raise HostChoiceError("window_mode", "must be real_time or ask_around") from None
    timing = _timing(
        window=PEOPLE_WINDOW if window is None else window,
        going_once=going_once,
        negotiation=negotiation,
        turn=turn,
        grace=grace,
        bot_delay=bot_delay,
        start_after=start_after,
    )
    return HostConfig(
        seats=seats,
        bots=bot_specs,
        code=code,
        name=name,
        bind=bind or "0.0.0.0",
        port=port,
        seed=seed,
        variants=frozenset(variants),
        short_game=short_game,
        hidden_money=hidden_money,
        negotiation_limit=negotiation_limit,
        window_mode=mode,
        timing=timing,
        autosave=autosave,
        resume=resume,
        announce=announce,
        hints=hints,
        open_bot_seats=open_bot_seats,
        phone_port=phone_port,
    )
