"""The host's seats: who holds each one, their tokens and names, grace periods, bots.

A person claims an open seat with the room code and gets a token (only its SHA-256 digest is
kept, here and in the seats file beside the autosave, ``<save>.seats.json``); the token takes
the seat back after a drop, during its grace period or later while a bot plays it. A name
never takes a seat: a newcomer gets a seat nobody holds, and once a game runs the seats bots
have played from its start only if the host opened them to people (``bot_seats_open``).

``SeatTable`` changes seat records and the seats file only; what follows (telling everyone,
scheduling bots) is the host's. Its one call outwards is the ``on_over`` callback it is given
with a grace period.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from game.bots import make_bot
from game.bots.base import Bot
from game.bots.names import bot_name
from game.rules import Game
from game.rules.replay import fresh_start, replay_log
from game.rules.view import events_for
from game.table.bot_schedule import listens
from game.table.clock import Clock, Timer
from net import protocol as P
from net.discovery.records import clean_name
from net.host.journal import atomic_write
from net.names import with_suffix

if TYPE_CHECKING:
    from net.host.connections import Connection

log = logging.getLogger(__name__)

SIDECAR_FORMAT = "imtheboss-lan-seats"


def sidecar_path(save: Path) -> Path:
    """Where the seats' token digests live next to a save: ``<save>.seats.json``."""
    return save.with_name(save.name + ".seats.json")


@dataclass(eq=False)
class SeatState:
    index: int
    bot_kind: str
    name: str | None = None  # the human's name
    token_digest: str | None = None  # None: no human has claimed the seat
    conn: Connection | None = None
    grace: Timer | None = None
    grace_until: float | None = None
    bot: Bot | None = None
    joined: int = 0  # join order (the first seated human may start the game)
    remote_bot: bool = False  # its connection said hello as a bot (never the starter)
    bot_from_start: bool = False  # nobody held it when the game started: a bot's seat
    #: its connection is open but silent (no answer to the host's pings): away, then a
    #: bot stands in, until a byte comes from it
    silent: bool = False

    @property
    def status(self) -> str:
        if self.conn is not None and not self.silent:
            return "human"
        if self.token_digest is None:
            return "open"
        if self.in_grace:
            return "away"
        return "bot"

    @property
    def in_grace(self) -> bool:
        """The seat waits for its player (a grace period runs)."""
        return self.grace is not None and not self.grace.cancelled


@dataclass
class SidecarTable:
    """What a seats file says about the table itself (``None``: not in the file)."""

    code: str | None = None
    name: str | None = None


class SeatTable:
    def __init__(
        self, count: int, bot_kinds: list[str], bot_seed: int, bot_seats_open: bool = False
    ) -> None:
        self.bot_kinds = bot_kinds  # per seat, cycled
        self.bot_seed = bot_seed
        #: the host opened the seats bots play from the start to newcomers (with a notice)
        self.bot_seats_open = bot_seats_open
        self.seats = self._fresh(count)
        self.join_counter = 0

    def _fresh(self, count: int) -> list[SeatState]:
        return [SeatState(i, self.bot_kinds[i % len(self.bot_kinds)]) for i in range(count)]

    def __len__(self) -> int:
        return len(self.seats)

    # ------------------------------------------------------------------ who sits where

    def takes_newcomers(self, seat: SeatState) -> bool:
        """A newcomer with the room code may be seated here: nobody holds it, and it is no
        bot's seat from the start unless the host opened those to people."""
        return seat.status == "open" and (self.bot_seats_open or not seat.bot_from_start)

    def open_seats(self) -> list[SeatState]:
        return [s for s in self.seats if self.takes_newcomers(s)]

    def refusal(self, game_over: bool) -> tuple[str, list[int], list[int], list[dict]]:
        """Why a newcomer gets no seat: words for the log, the seat numbers a newcomer
        could take or bots play, and the seats people hold, by name, ``away`` when kept
        for a person who dropped (the player's screen names them in its own language);
        never another person's seat."""
        held = [
            {"seat": s.index, "name": s.name or "", "away": s.status != "human"}
            for s in self.seats
            if s.token_digest is not None
        ]
        open_ = [s.index for s in self.open_seats()]
        bots = [] if game_over else [
            s.index for s in self.seats if s.status == "open" and s.index not in open_
        ]
        if open_:
            words = "seats open to newcomers (with the room code): " + _numbers(open_)
        elif bots:
            words = (
                f"no seat is open to newcomers: bots play seat(s) {_numbers(bots)} "
                "(the host may open them to people: --open-bot-seats)"
            )
        else:
            words = "no seat is open to newcomers"
        kept = [h for h in held if h["away"]]
        if kept:  # the one refused may be that person without the seat's token
            words += "; kept for a player who dropped (rejoin with that seat's token): " + (
                ", ".join(f"seat {h['seat'] + 1} {h['name']}" for h in kept)
            )
        return words, open_, bots, held

    def free_count(self) -> int:
        return len(self.open_seats())

    def bots_take_open_seats(self) -> list[SeatState]:
        """The game starts (or resumes): every seat nobody holds is a bot's from now on."""
        taken = [s for s in self.seats if s.status == "open"]
        for seat in taken:
            seat.bot_from_start = True
        return taken

    def starter(self) -> SeatState | None:
        """The first seated person still connected. A bot client never holds the start (a
        table of bots starts when it is full, or after ``start_after``)."""
        humans = [s for s in self.seats if s.conn is not None and not s.remote_bot]
        return min(humans, key=lambda s: s.joined) if humans else None

    def all_connected(self) -> bool:
        return all(s.conn is not None for s in self.seats)

    def seats_data(self, now: float, started: bool) -> list[dict]:
        """The ``seats`` message's list."""
        out = []
        for s in self.seats:
            d = {
                "seat": s.index,
                "name": s.name,
                "status": s.status,
                "bot": None,
                "newcomers": self.takes_newcomers(s),
                # how its player is connected: "tcp" (a program), "web" (a phone), None
                "via": None if s.conn is None else s.conn.via,
            }
            if started and s.status in ("open", "bot"):
                d["bot"] = s.bot_kind
            if s.status == "away" and s.grace_until is not None:
                d["grace_ms"] = max(0, int((s.grace_until - now) * 1000))
            out.append(d)
        return out

    def names(self) -> list[str]:
        """The game's names: each person's, and readable bot names nobody uses (Ada, Bruno…)."""
        taken = {s.name for s in self.seats if s.token_digest and s.name}
        names = []
        for s in self.seats:
            if s.token_digest:
                names.append(s.name)
            else:
                names.append(bot_name(s.index, taken))
                taken.add(names[-1])
        return names

    # ------------------------------------------------------------------ hello, rejoin

    def claim(self, conn: Connection, name: str) -> tuple[SeatState, str] | None:
        """The first seat open to newcomers for ``conn`` under ``name`` (made unique:
        "Ann (2)"), and its new token. None: no seat is open to newcomers. A seat someone
        claimed is never given by name: only its token takes it back."""
        free = self.open_seats()
        if not free:
            return None
        seat = free[0]
        taken = {s.name for s in self.seats if s is not seat and s.name}
        base, n = name, 2
        while name in taken:
            suffix = f" ({n})"
            name = with_suffix(base, suffix)
            n += 1
        token = P.new_token()
        seat.token_digest = P.token_digest(token)
        seat.name = name
        seat.conn = conn
        seat.remote_bot = conn.is_bot
        self.join_counter += 1
        seat.joined = self.join_counter
        return seat, token

    def by_token(self, token: str) -> SeatState | None:
        digest = P.token_digest(token)
        return next(
            (
                s
                for s in self.seats
                if s.token_digest is not None and hmac.compare_digest(s.token_digest, digest)
            ),
            None,
        )

    def take_back(self, seat: SeatState, conn: Connection) -> Connection | None:
        """``conn`` holds ``seat`` again (its grace period ends); the connection it replaces."""
        old = seat.conn
        seat.conn = conn
        seat.silent = False
        seat.remote_bot = conn.is_bot
        if seat.grace is not None:
            seat.grace.cancel()
            seat.grace = None
            seat.grace_until = None
        return old

    def free(self, seat: SeatState) -> None:
        """Nobody's seat any more, open to people for the next game (the caller writes the
        seats file)."""
        seat.token_digest = None
        seat.name = None
        seat.conn = None
        seat.silent = False
        seat.bot_from_start = False
        if seat.grace is not None:
            seat.grace.cancel()
        seat.grace = None

    # ------------------------------------------------------------------ grace

    def start_grace(
        self, seat: SeatState, clock: Clock, length: float, on_over: Callable[[SeatState], None]
    ) -> None:
        """The seat waits ``length`` seconds for its token; then ``on_over(seat)``."""
        if seat.grace is not None:
            seat.grace.cancel()
        seat.grace_until = clock.now() + length
        seat.grace = clock.call_at(seat.grace_until, partial(self._grace_over, seat, on_over))

    @staticmethod
    def _grace_over(seat: SeatState, on_over: Callable[[SeatState], None]) -> None:
        seat.grace_until = None
        if seat.conn is None or seat.silent:
            on_over(seat)

    # ------------------------------------------------------------------ bots

    def make_bot(self, seat: SeatState, game: Game | None) -> None:
        """A bot for the seat (one with memory hears the game so far first)."""
        if seat.bot is None:
            bot = make_bot(seat.bot_kind, seat.index, self.bot_seed + seat.index)
            bot.meet(self.people())  # a gentle style spares the people (Friendly)
            if game is not None and listens(bot):
                replay_into(game, bot, seat.index)
            seat.bot = bot

    def people(self) -> list[int]:
        """The seats people claimed (not bot clients), dropped ones too."""
        return [s.index for s in self.seats if s.token_digest is not None and not s.remote_bot]

    def is_bot(self, index: int, started: bool) -> bool:
        s = self.seats[index]
        return started and s.bot is not None and s.status in ("open", "bot")

    def bots(self) -> dict[int, Bot]:
        """Every bot the host runs, by seat (they all hear the game)."""
        return {s.index: s.bot for s in self.seats if s.bot is not None}

    def plays(self, index: int) -> bool:
        """A bot plays this seat of a running game now."""
        return self.is_bot(index, True)

    def people_seated(self) -> bool:
        """A person (not a bot client) is connected at a seat and heard: bots give them a
        fair start."""
        return any(s.conn is not None and not s.remote_bot and not s.silent for s in self.seats)

    # ------------------------------------------------------------------ the seats file

    def write_sidecar(self, save: Path, code: str, name: str) -> None:
        data = {
            "format": SIDECAR_FORMAT,
            "version": 1,
            "code": code,
            "name": name,
            "seats": [
                {
                    "token_sha256": s.token_digest,
                    "name": s.name,
                    "bot": s.bot_kind,
                    "joined": s.joined,
                }
                for s in self.seats
            ],
        }
        try:
            atomic_write(sidecar_path(Path(save)), json.dumps(data, indent=1))
        except OSError as exc:
            log.error("cannot write the seats file: %s", exc)

    def resume(self, save: Path, players: int) -> SidecarTable:
        """A resumed game of ``players`` seats: its seats file's claims (tokens, names, join
        order, bot kinds). Raises ValueError (and OSError...) for a broken seats file."""
        if players != len(self.seats):
            self.seats = self._fresh(players)
        side = sidecar_path(save)
        table = SidecarTable()
        if side.exists():
            try:
                data = json.loads(side.read_text(encoding="utf-8"))
                if data.get("format") != SIDECAR_FORMAT or len(data["seats"]) != len(self.seats):
                    raise ValueError("not a seats file for this game")
                table.code = P.normalize_code(data.get("code"))
                if isinstance(data.get("name"), str):
                    table.name = clean_name(data["name"])[:40] or None
                for seat, d in zip(self.seats, data["seats"], strict=True):
                    digest = d.get("token_sha256")
                    if isinstance(digest, str) and len(digest) == 64:
                        seat.token_digest = digest
                        seat.name = d.get("name") if isinstance(d.get("name"), str) else None
                        seat.joined = int(d.get("joined", 0))
                    if isinstance(d.get("bot"), str):
                        seat.bot_kind = d["bot"]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise SidecarError(f"{side}: {exc}") from None
        else:
            log.warning("%s: no seats file; nobody's claim is known, bots play every seat", side)
        self.bots_take_open_seats()  # the game runs: the seats nobody claimed are bots'
        self.join_counter = max((s.joined for s in self.seats), default=0)
        return table


class SidecarError(ValueError):
    """A seats file that cannot be read back."""


def replay_into(game: Game, bot: Bot, seat: int) -> None:
    """A bot with memory taking over mid-game hears the game so far (its seat's view)."""
    try:
        for _, events in replay_log(fresh_start(game), game.log):
            bot.observe(events_for(events, seat))
    except Exception:
        log.exception("replaying the game into bot %d failed", seat)


def _numbers(seats: list[int]) -> str:
    """Seat numbers as the room shows them (from 1): the words reach a person (a headless
    `join` prints them), who read "bots play seat(s) 2, 3" for the room's seats 3 and 4."""
    return ", ".join(str(seat + 1) for seat in seats)
