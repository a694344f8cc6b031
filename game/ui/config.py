"""Client settings, persisted as JSON in the user's config directory.

Where: `game.files.config_dir` ($IMTHEBOSS_CONFIG_DIR if set, else
$XDG_CONFIG_HOME/imtheboss, else ~/.config/imtheboss; a temporary folder under pytest).

Unknown or ill-typed fields in the file are ignored one by one with a warning naming them (a
hand-edited file never stops the game from starting); the file is written atomically. The
clocks have the names and the unit (seconds) of game.table.bot_schedule.Timing's knobs.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from game.files import atomic_write, config_dir

FILE_NAME = "settings.json"
TEXT_SIZES = {"small": 0.88, "normal": 1.0, "large": 1.25}
SPEEDS = {"relaxed": 0.75, "normal": 1.0, "fast": 1.6}
MAX_SEATS = 6

log = logging.getLogger(__name__)


@dataclass
class Config:
    language: str = "en"
    names: list[str] = field(default_factory=list)  # per seat; empty: the language's default
    seat_kinds: list[str] = field(default_factory=lambda: ["human", "bot", "bot", "bot"])
    seats: int = 4
    colour_blind: bool = False
    text_size: str = "normal"
    volume: float = 0.7
    mute: bool = False
    fullscreen: bool = True
    speed: str = "normal"  # animations and bot pace
    hints: bool = True  # the table's Hint button (a LAN host may still forbid hints)
    # table settings and variants (docs/RULES.md §8)
    variants: list[str] = field(default_factory=list)
    short_game: bool = False
    hidden_money: bool = True
    random_first_player: bool = False
    window_mode: str = "ask_around"
    ask_only_when_touched: list[bool] = field(default_factory=list)  # per seat
    # the clocks, named and counted (seconds) as game.table.bot_schedule.Timing's knobs
    # Stop / Boss / Recruitment reaction windows: long enough for a newcomer to read the
    # banner and press Stop (net.host.config.PEOPLE_WINDOW, the LAN host's default too)
    window: int = 10
    going_once: int = 3  # per "going once / going twice" stage
    negotiation: int = 180  # the negotiation clock (0: none)
    turn: int = 0  # the turn clock when hosting a LAN table (0: off)
    negotiation_limit: int = 60  # negotiation actions per deal
    # LAN: the lobby's choices
    lan_name: str = ""  # my name at LAN tables (empty: the first player name, lan.player_name)
    lan_table_name: str = ""  # the name of a table I host (empty: "<name>'s table")
    lan_seats: int = 4
    lan_bot: str = ""  # bot kind for empty seats (empty: game.bots.TABLE_BOT, Friendly)
    lan_display: bool = False  # host as a public table display instead of playing
    lan_hints: bool = True  # a table I host allows hints
    lan_open_bot_seats: bool = False  # newcomers may take its bots' seats once a game runs
    lan_address: str = ""  # the last typed HOST:PORT
    # the last LAN table joined: "Rejoin" after a restart (its seat's reconnect token)
    last_table_address: str = ""
    last_table_token: str = ""
    last_table_name: str = ""
    last_table_player: str = ""  # the name that seat was joined with

    # -- persistence --

    @classmethod
    def load(cls, directory: Path | None = None) -> Config:
        path = (directory or config_dir()) / FILE_NAME
        cfg = cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cfg
        if not isinstance(data, dict):
            return cfg
        defaults = asdict(cfg)
        unknown = sorted(set(data) - set(defaults))
        if unknown:
            log.warning("%s: no setting named %s; ignored", path, ", ".join(map(repr, unknown)))
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            default = defaults[f.name]
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, (int, float)) and not isinstance(default, bool):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
                if ok and isinstance(default, int):
                    value = int(value)
            else:
                ok = isinstance(value, type(default))
            if ok:
                setattr(cfg, f.name, value)
        cfg.sanitize()
        return cfg

    def save(self, directory: Path | None = None) -> Path:
        folder = directory or config_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / FILE_NAME
        text = json.dumps(asdict(self), ensure_ascii=False, indent=2, sort_keys=True)
        atomic_write(path, text, sync=False)  # a lost settings change is no harm
        return path

    def sanitize(self) -> None:
        from .i18n import LANGUAGES

        if self.language not in LANGUAGES:
            self.language = "en"
        if self.text_size not in TEXT_SIZES:
            self.text_size = "normal"
        if self.speed not in SPEEDS:
            self.speed = "normal"
        self.volume = min(1.0, max(0.0, float(self.volume)))
        self.seats = min(MAX_SEATS, max(2, int(self.seats)))
        self.names = [str(n)[:16] for n in self.names][:MAX_SEATS]
        self.seat_kinds = [str(k) for k in self.seat_kinds][:MAX_SEATS]
        self.variants = sorted(
            {v for v in self.variants if v in ("V1", "V2", "V3", "V4", "V5", "V6")}
        )
        if self.window_mode not in ("ask_around", "real_time"):
            self.window_mode = "ask_around"
        self.ask_only_when_touched = [bool(x) for x in self.ask_only_when_touched][:MAX_SEATS]
        self.window = min(30, max(2, int(self.window)))
        self.going_once = min(30, max(2, int(self.going_once)))
        self.negotiation = min(1800, max(0, int(self.negotiation)))
        self.turn = min(600, max(0, int(self.turn)))
        self.negotiation_limit = min(500, max(10, int(self.negotiation_limit)))
        self.lan_name = self.lan_name[:24]
        self.lan_table_name = self.lan_table_name[:40]
        self.lan_seats = min(MAX_SEATS, max(2, int(self.lan_seats)))
        self.lan_bot = self.lan_bot[:40]
        self.lan_address = self.lan_address[:80]
        self.last_table_address = self.last_table_address[:80]
        self.last_table_name = self.last_table_name[:40]
        self.last_table_player = self.last_table_player[:24]
        token = self.last_table_token
        if len(token) != 32 or any(c not in "0123456789abcdef" for c in token):
            self.last_table_token = ""

    @property
    def text_scale(self) -> float:
        return TEXT_SIZES[self.text_size]

    @property
    def speed_factor(self) -> float:
        return SPEEDS[self.speed]
