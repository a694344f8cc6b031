"""The bot interface and the registry of bot kinds selectable by name ("random",
"heuristic:greedy", ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from game.rules import Action, LegalActions


@dataclass(frozen=True)
class Remark:
    """What a bot says with its move `action`: a quick phrase ("phrase.deal") for a speech
    bubble, and with a FailDeal the reason ("reason.too_expensive") for the log. Either may
    be None. Drivers read it after applying `action` (and drop it if they applied another
    move); it has no effect on the game."""

    action: Action | None
    phrase: str | None = None
    reason: str | None = None


class Bot:
    """A seat's decision maker. It sees only the seat's view and its legal actions.

    `must_act` is False when the game is not waiting for this seat (real-time negotiation:
    anyone may act, nobody has to); then `choose` may return None to let the moment pass.
    """

    kind = "bot"
    needs_view = True  # False: the driver may skip building the view (the random bot)
    wants_events = False  # True: drivers must call `observe` after every action (memory)

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.seed = seed

    def choose(
        self, view: dict | None, legal: LegalActions, must_act: bool = True
    ) -> Action | None:
        raise NotImplementedError  # pragma: no cover - abstract

    def observe(self, events: list[dict]) -> None:
        """Events as this seat sees them (plain data); bots that keep memory override it."""

    def remark(self) -> Remark | None:
        """What the last `choose` says aloud (None: nothing); talkative bots override it."""
        return None

    def meet(self, people: Iterable[int]) -> None:
        """The seats people play: public at any table (the seats show who is a bot), never
        anything hidden. A style may play gently with them (heuristic:friendly); drivers
        tell every bot when it sits down. Default: ignored."""


BOT_KINDS: dict[str, Callable[..., Bot]] = {}


def register(name: str):
    def deco(cls):
        BOT_KINDS[name] = cls
        cls.kind = name
        return cls

    return deco


def spec_parts(param: str) -> Iterator[tuple[str, str | None]]:
    """The parts of a bot's parameters: "greedy+fee=0" -> ("greedy", None), ("fee", "0").
    Parts are joined with "+" (a comma separates the bots of `--bots`; "," and ";" are
    accepted too where no list is being split)."""
    for part in param.replace(";", "+").replace(",", "+").split("+"):
        part = part.strip()
        if part:
            key, eq, value = part.partition("=")
            yield key, (value if eq else None)


class UnknownBot(ValueError):
    """A bot spec whose kind is not registered; the message lists the known kinds."""


def is_bot_spec(spec: str) -> bool:
    """Whether "kind" or "kind:personality" names a registered kind."""
    return spec.partition(":")[0] in BOT_KINDS


def check_bot_spec(spec: str) -> str:
    """The spec, or UnknownBot: the one "unknown bot" check (command line, host, clients)."""
    if not is_bot_spec(spec):
        raise UnknownBot(f"unknown bot {spec!r} (known: {', '.join(sorted(BOT_KINDS))})")
    return spec


#: The bot a table seats until the player picks another (the New game screen, the lobby,
#: ``main.py host``): Friendly opens deals often and asks about a fair share, a lively first
#: game (bench/deal_runs.py); the player's own choice is kept in the settings.
TABLE_BOT = "heuristic:friendly"


def parse_bot_specs(text: str | None, seats: int, default: str = "random") -> list[str]:
    """Comma-separated specs, one for every seat or one per seat: `seats` checked specs.
    ValueError (UnknownBot for a kind) says what is wrong."""
    specs = [check_bot_spec(s.strip()) for s in (text or default).split(",") if s.strip()]
    specs = specs or [check_bot_spec(default)]
    if len(specs) == 1:
        return specs * seats
    if len(specs) != seats:
        raise ValueError(f"{len(specs)} bots named for {seats} seats (give 1 or {seats})")
    return specs


def make_bot(spec: str, seat: int, seed: int = 0) -> Bot:
    """Build a bot from "kind" or "kind:personality"."""
    kind, _, param = check_bot_spec(spec).partition(":")
    factory = BOT_KINDS[kind]
    return factory(seat, seed, param) if param else factory(seat, seed)
