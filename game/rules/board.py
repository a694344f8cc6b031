"""Investors (clans), the 16 deal spaces and the 15 deal tiles.

All board data lives here as plain data (docs/RULES.md §9 prints it) so that a corrected
board is a one-file change; `load_board` accepts the same shape as JSON for players with
another printing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations
from pathlib import Path


class Clan(IntEnum):
    """The six investor clans, in the order of docs/RULES.md §9."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    MAGENTA = 3
    ORANGE = 4
    GREEN = 5

    @property
    def family(self) -> str:
        return FAMILY_NAMES[self]

    @property
    def letter(self) -> str:
        return FAMILY_NAMES[self][0]

    @property
    def key(self) -> str:
        """Lower-case name used in save files, views and translation keys."""
        return CLAN_KEYS[self]


CLANS: tuple[Clan, ...] = tuple(Clan)
CLAN_KEYS: tuple[str, ...] = tuple(c.name.lower() for c in Clan)
# MASK_CLANS[mask]: the clans of a clan set (bit c = clan c) in ascending order, so a loop
# over a space's clans (`clan_masks`) visits only those instead of testing all six.
MASK_CLANS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(6) if m >> c & 1) for m in range(64)
)
FAMILY_NAMES = {
    Clan.RED: "Cashman",
    Clan.BLUE: "Sacks",
    Clan.YELLOW: "Wadeworth",
    Clan.MAGENTA: "Dougherty",
    Clan.ORANGE: "Goldman",
    Clan.GREEN: "Liebgeld",
}
# First player: the holder of the alphabetically first family name (docs/RULES.md §2, §9).
FIRST_PLAYER_ORDER: tuple[Clan, ...] = tuple(sorted(CLANS, key=lambda c: FAMILY_NAMES[c]))

_CLAN_BY_KEY = {c.key: c for c in CLANS} | {"pink": Clan.MAGENTA}


def clan_from_key(key: str) -> Clan:
    try:
        return _CLAN_BY_KEY[key.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown clan {key!r}") from None


@dataclass(frozen=True, slots=True)
class ChoiceGroup:
    """`count` different clans from `clans` are needed in addition to the required ones."""

    clans: tuple[Clan, ...]
    count: int


@dataclass(frozen=True, slots=True)
class Space:
    index: int
    required: tuple[Clan, ...]
    groups: tuple[ChoiceGroup, ...]
    dividends: int

    @property
    def investors(self) -> int:
        return len(self.required) + sum(g.count for g in self.groups)

    @property
    def clans(self) -> frozenset[Clan]:
        """Every clan that can fill a slot of this space."""
        out = set(self.required)
        for g in self.groups:
            out.update(g.clans)
        return frozenset(out)


@dataclass(frozen=True, slots=True)
class Tile:
    number: int
    price: int  # $M per dividend
    end_faces: tuple[int, ...]  # die faces printed on the back that end the game


@dataclass(frozen=True)
class Board:
    spaces: tuple[Space, ...]
    tiles: tuple[Tile, ...]
    name: str = "Gryphon (docs/RULES.md §9)"

    def __post_init__(self) -> None:
        # cover[space][mask] tells whether the clan set `mask` (bit c = clan c) satisfies it.
        cover = tuple(tuple(_covers(s, m) for m in range(64)) for s in self.spaces)
        object.__setattr__(self, "cover", cover)
        object.__setattr__(self, "clan_masks", tuple(_mask(s.clans) for s in self.spaces))
        # min_covers[space]: every clan set of exactly `investors` clans that covers it, as
        # (mask, clans in ascending order), in ascending order of those clans.
        min_covers = tuple(
            tuple(
                sorted(
                    (
                        (m, tuple(c for c in range(6) if m >> c & 1))
                        for m in range(64)
                        if m.bit_count() == s.investors and cover[i][m]
                    ),
                    key=lambda e: e[1],
                )
            )
            for i, s in enumerate(self.spaces)
        )
        object.__setattr__(self, "min_covers", min_covers)

    def tile(self, number: int) -> Tile:
        return self.tiles[number - 1]

    def to_data(self) -> dict:
        """Plain data (cached: treat it as read-only)."""
        cached = self.__dict__.get("_data")
        if cached is None:
            cached = self._make_data()
            object.__setattr__(self, "_data", cached)
        return cached

    def _make_data(self) -> dict:
        return {
            "name": self.name,
            "spaces": [
                {
                    "required": [c.key for c in s.required],
                    "groups": [
                        {"clans": [c.key for c in g.clans], "count": g.count} for g in s.groups
                    ],
                    "dividends": s.dividends,
                }
                for s in self.spaces
            ],
            "tiles": [{"price": t.price, "end_faces": list(t.end_faces)} for t in self.tiles],
        }


def _mask(clans) -> int:
    m = 0
    for c in clans:
        m |= 1 << int(c)
    return m


def _covers(space: Space, mask: int) -> bool:
    """Required clans present, and the groups can take *different* clans (each clan once)."""
    rows = fill_rows(space, mask)
    return all(len(got) == k for got, (_clans, k) in zip(rows, space_rows(space), strict=True))


def space_rows(space: Space) -> tuple[tuple[tuple[Clan, ...], int], ...]:
    """A space's requirement rows as (clans, how many): the required clans (all of them,
    when there are any), then each choice group."""
    head = ((space.required, len(space.required)),) if space.required else ()
    return head + tuple((g.clans, g.count) for g in space.groups)


def fill_rows(space: Space, mask: int) -> tuple[tuple[Clan, ...], ...]:
    """Which clans of the set `mask` fill which row of `space_rows` (each clan once): the
    required ones present, and the assignment to the choice groups that fills the most
    places (ties to the earlier picks). The space is covered when every row is full; the
    table, the ledger and the board's cover table all read coverage from here."""
    req = _mask(space.required)
    head = (tuple(c for c in space.required if mask >> c & 1),) if space.required else ()
    free = frozenset(c for c in CLANS if mask >> c & 1 and not req >> c & 1)
    full = sum(g.count for g in space.groups)
    best: list[tuple[tuple[Clan, ...], ...]] = [()]
    best_n = [-1]

    def search(i: int, left: frozenset[Clan], acc: tuple[tuple[Clan, ...], ...], n: int) -> bool:
        if i == len(space.groups):
            if n > best_n[0]:
                best[0], best_n[0] = acc, n
            return n == full
        g = space.groups[i]
        options = [c for c in g.clans if c in left]
        for m in range(min(g.count, len(options)), -1, -1):
            for pick in combinations(options, m):
                if search(i + 1, left - set(pick), (*acc, pick), n + m):
                    return True
        return False

    search(0, free, (), 0)
    return head + best[0]


def _space(i, required, groups, dividends) -> Space:
    return Space(
        i,
        tuple(required),
        tuple(ChoiceGroup(tuple(cl), k) for cl, k in groups),
        dividends,
    )


R, B, Y, M, O, G = CLANS  # noqa: E741 - the board table reads best in letters
_ALL = (R, B, Y, M, O, G)

DEFAULT_SPACES = (
    _space(0, (R, B, Y), [((M, O, G), 2)], 6),
    _space(1, (), [((O, B, Y), 2), ((M, G), 1)], 4),
    _space(2, (), [((R, M, O, G, Y), 4)], 5),
    _space(3, (R, O), [], 3),
    _space(4, (), [(_ALL, 5)], 6),
    _space(5, (G, Y), [], 3),
    _space(6, (), [((R, M), 1), ((B, G), 1), ((Y, O), 1)], 4),
    _space(7, (M, G), [((B, Y), 1)], 4),
    _space(8, (M, O, G), [((R, B, Y), 2)], 6),
    _space(9, (), [((R, M, G), 2), ((O, B, Y), 2)], 5),
    _space(10, (B, R, O), [], 4),
    _space(11, (), [(_ALL, 4)], 5),
    _space(12, (R, Y), [((M, O, G, B), 3)], 6),
    _space(13, (), [((R, M, O, Y), 3)], 4),
    _space(14, (M, O), [], 3),
    _space(15, (Y,), [((M, G), 1), ((R, B), 1)], 4),
)

_PRICES = (2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5)
_END_FACES = {10: (1,), 11: (1, 2), 12: (1, 2, 3), 13: (1, 2, 3, 4), 14: (1, 2, 3, 4, 5)}
_END_FACES[15] = (1, 2, 3, 4, 5, 6)
DEFAULT_TILES = tuple(Tile(n, _PRICES[n - 1], _END_FACES.get(n, ())) for n in range(1, 16))

DEFAULT_BOARD = Board(DEFAULT_SPACES, DEFAULT_TILES)


class BoardFileError(ValueError):
    """A board file that cannot be a board; the message says where and why."""


def board_from_data(data: dict, source: str = "board") -> Board:
    """Build a board from plain data (the shape of `Board.to_data`), checking every field."""
    try:
        spaces_data = data["spaces"]
        if not isinstance(spaces_data, list) or len(spaces_data) != 16:
            raise BoardFileError(f"{source}: 'spaces' must list 16 spaces")
        spaces = []
        for i, sd in enumerate(spaces_data):
            required = tuple(clan_from_key(k) for k in sd.get("required", []))
            groups = []
            for gd in sd.get("groups", []):
                clans = tuple(clan_from_key(k) for k in gd["clans"])
                count = int(gd["count"])
                if not 1 <= count <= len(clans) or len(set(clans)) != len(clans):
                    raise BoardFileError(f"{source}: space {i}: bad choice group {gd!r}")
                groups.append(ChoiceGroup(clans, count))
            dividends = int(sd["dividends"])
            if dividends < 1:
                raise BoardFileError(f"{source}: space {i}: dividends must be >= 1")
            sp = Space(i, required, tuple(groups), dividends)
            if not _covers(sp, 63):
                raise BoardFileError(f"{source}: space {i} can never be covered by six clans")
            spaces.append(sp)
        tiles_data = data.get("tiles")
        if tiles_data is None:
            tiles = DEFAULT_TILES
        else:
            if not isinstance(tiles_data, list) or len(tiles_data) != 15:
                raise BoardFileError(f"{source}: 'tiles' must list 15 tiles")
            tiles = tuple(
                Tile(n + 1, int(td["price"]), tuple(int(f) for f in td.get("end_faces", [])))
                for n, td in enumerate(tiles_data)
            )
            if any(t.price < 1 or any(not 1 <= f <= 6 for f in t.end_faces) for t in tiles):
                raise BoardFileError(f"{source}: tile prices must be >= 1 and faces 1-6")
        return Board(tuple(spaces), tiles, str(data.get("name", source)))
    except BoardFileError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BoardFileError(f"{source}: {exc}") from None


def load_board(path: str | Path) -> Board:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BoardFileError(f"{path}: {exc}") from None
    return board_from_data(data, str(path))
