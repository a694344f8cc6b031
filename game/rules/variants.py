"""Table settings and the optional variants of docs/RULES.md §8."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Variant(str, Enum):
    V1 = "V1"  # Boss cards don't change turn order
    V2 = "V2"  # a turn starting with >= 10 cards must attempt a deal
    V3 = "V3"  # only the Boss and players who played an influence card may be paid
    V4 = "V4"  # draw 4/3/2/1 cards for 0/1/2/3+ placards
    V5 = "V5"  # no deal may be opened with fewer than 3 cards in hand
    V6 = "V6"  # from the 10th deal tile on, the hand limit is 10


class WindowMode(str, Enum):
    ASK_AROUND = "ask_around"  # hot-seat: players asked one by one, the floor goes round
    REAL_TIME = "real_time"  # LAN: everyone may act; the host's clock closes windows


class SettingsError(ValueError):
    """Settings that no table can play with; the message names the field."""


def parse_variants(text: str | None) -> frozenset[Variant]:
    """"V1,v3" -> {V1, V3} (the command line's --variant); SettingsError names a bad one."""
    out = set()
    for part in (text or "").split(","):
        part = part.strip().upper()
        if part:
            try:
                out.add(Variant(part))
            except ValueError:
                raise SettingsError(f"unknown variant {part!r} (V1..V6)") from None
    return frozenset(out)


@dataclass(frozen=True)
class Settings:
    players: int = 4
    variants: frozenset[Variant] = field(default_factory=frozenset)
    short_game: bool = False
    hidden_money: bool = True
    window_mode: WindowMode = WindowMode.ASK_AROUND
    negotiation_limit: int = 60  # negotiation actions per deal; then only close or fail
    random_first_player: bool = False
    hand_limit: int = 12
    board_file: str | None = None  # JSON board replacing docs/RULES.md §9's (see board.load_board)
    # Per-seat "ask me only when it touches my placards, my cards or my agreements".
    ask_only_when_touched: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 6:
            raise SettingsError(f"players must be 2-6, not {self.players!r}")
        object.__setattr__(self, "variants", frozenset(Variant(v) for v in self.variants))
        object.__setattr__(self, "window_mode", WindowMode(self.window_mode))
        if not isinstance(self.negotiation_limit, int) or self.negotiation_limit < 1:
            raise SettingsError("negotiation_limit must be a positive whole number")
        if not isinstance(self.hand_limit, int) or self.hand_limit < 5:
            raise SettingsError("hand_limit must be at least 5")
        ask = tuple(bool(x) for x in self.ask_only_when_touched) or (False,) * self.players
        if len(ask) != self.players:
            raise SettingsError("ask_only_when_touched needs one entry per seat")
        object.__setattr__(self, "ask_only_when_touched", ask)

    def has(self, variant: Variant) -> bool:
        return variant in self.variants

    @property
    def two_player(self) -> bool:
        return self.players == 2

    def to_data(self) -> dict:
        """Plain data (a fresh copy: callers may change it)."""
        data = self.__dict__.get("_data")
        if data is None:  # computed once: views include the settings every time
            data = {f: getattr(self, f) for f in self.__dataclass_fields__}
            data["variants"] = sorted(v.value for v in self.variants)
            data["window_mode"] = self.window_mode.value
            data["ask_only_when_touched"] = list(self.ask_only_when_touched)
            object.__setattr__(self, "_data", data)
        d = dict(data)
        d["variants"] = list(d["variants"])
        d["ask_only_when_touched"] = list(d["ask_only_when_touched"])
        return d

    @classmethod
    def from_data(cls, data: dict) -> Settings:
        if not isinstance(data, dict):
            raise SettingsError("settings must be a map")
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise SettingsError(f"unknown settings: {', '.join(sorted(unknown))}")
        try:
            d = dict(data)
            if "variants" in d:
                d["variants"] = frozenset(Variant(v) for v in d["variants"])
            if "ask_only_when_touched" in d:
                d["ask_only_when_touched"] = tuple(d["ask_only_when_touched"])
            return cls(**d)
        except (TypeError, ValueError) as exc:
            if isinstance(exc, SettingsError):
                raise
            raise SettingsError(str(exc)) from None
