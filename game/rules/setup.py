"""Dealing a new game (RULES §2), or starting from an explicit `Setup`."""

from __future__ import annotations

from dataclasses import dataclass

from .board import DEFAULT_BOARD, FIRST_PLAYER_ORDER, Board, load_board
from .cards import Card, full_deck
from .events import (
    Event,
    GameStarted,
    HandDealt,
)
from .state import (
    POOL,
    GameState,
    Phase,
    Rng,
    empty_hand,
)
from .variants import Settings

HAND_SIZE = 5
SHORT_GAME_REMOVED = (3, 6, 9)


@dataclass(frozen=True)
class Setup:
    """An explicit starting position for scenarios and tests (any field left None is dealt
    from the seed as usual). `deck` lists the draw pile from the top."""

    placards: tuple[int, ...] | None = None  # owner seat per clan, -1 = pool
    hands: tuple[tuple[Card, ...], ...] | None = None
    deck: tuple[Card, ...] | None = None
    first_player: int | None = None
    marker: int | None = None  # skip the marker placement: the first player starts here
    tiles: tuple[int, ...] | None = None  # deal tiles still stacked, top first
    covered: dict[int, int] | None = None  # space -> tile already placed
    money: tuple[int, ...] | None = None


class SetupError(ValueError):
    """An explicit setup that breaks the components (cards not 98, unknown clan, ...)."""


def board_for(settings: Settings) -> Board:
    return load_board(settings.board_file) if settings.board_file else DEFAULT_BOARD


def new_game(
    players: list[str] | int,
    seed: int,
    settings: Settings | None = None,
    setup: Setup | None = None,
) -> GameState:
    """A new game dealt from `seed` (RULES §2). `players` is a list of names or a count."""
    names = (
        [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    )
    if settings is None:
        settings = Settings(players=len(names))
    if settings.players != len(names):
        raise SetupError(f"settings are for {settings.players} players, got {len(names)} names")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("the seed must be a whole number")
    setup = setup or Setup()
    n = len(names)
    rng = Rng(seed)
    board = board_for(settings)

    # Placards: 2 players 3 each, 3 players 2 each, 4-6 players 1 each (the rest to the pool).
    if setup.placards is not None:
        placards = list(setup.placards)
        if len(placards) != 6 or any(not (p == POOL or 0 <= p < n) for p in placards):
            raise SetupError("placards: one owner (seat or -1 for the pool) per clan")
    else:
        clans = list(range(6))
        rng.shuffle(clans)
        per_seat = {2: 3, 3: 2}.get(n, 1)
        placards = [POOL] * 6
        for i, clan in enumerate(clans[: per_seat * n]):
            placards[clan] = i // per_seat

    deck = full_deck()
    hands = [empty_hand() for _ in range(n)]
    if setup.hands is not None or setup.deck is not None:
        if setup.hands is None or setup.deck is None or len(setup.hands) != n:
            raise SetupError("an explicit setup gives both every hand and the deck order")
        counts = empty_hand()
        for seat, cards in enumerate(setup.hands):
            for c in cards:
                hands[seat][Card(c)] += 1
                counts[Card(c)] += 1
        for c in setup.deck:
            counts[Card(c)] += 1
        full = empty_hand()
        for c in deck:
            full[c] += 1
        if counts != full:
            raise SetupError("hands and deck together must be exactly the 98 influence cards")
        pile = [Card(c) for c in reversed(setup.deck)]
    else:
        rng.shuffle(deck)
        for _ in range(HAND_SIZE):
            for seat in range(n):
                hands[seat][deck.pop()] += 1
        pile = deck

    if setup.tiles is not None:
        tiles = list(setup.tiles)
    else:
        tiles = [t for t in range(1, 16) if not (settings.short_game and t in SHORT_GAME_REMOVED)]
    covered = dict(setup.covered or {})

    if setup.first_player is not None:
        first = setup.first_player
    elif settings.random_first_player:
        first = rng.below(n)
    else:
        first = next(placards[c] for c in FIRST_PLAYER_ORDER if placards[c] != POOL)
    if not 0 <= first < n:
        raise SetupError("first_player must be a seat")

    state = GameState(
        settings=settings,
        board=board,
        seed=seed,
        rng=rng,
        names=names,
        hands=hands,
        money=list(setup.money) if setup.money is not None else [0] * n,
        placards=placards,
        deck=pile,
        discard=[],
        tiles=tiles,
        covered=covered,
        phase=Phase.PLACE_MARKER,
        turn=(first - 1) % n,  # the player to the first player's right places the marker
        first_player=first,
        ask_only_when_touched=list(settings.ask_only_when_touched),
    )
    if setup.marker is not None:
        if not 0 <= setup.marker < 16 or setup.marker in covered:
            raise SetupError("marker must be on a free space")
        state.marker = setup.marker
        state.phase = Phase.TURN
        state.turn = first
    return state


def opening_events(state: GameState) -> list[Event]:
    """What a table shows when a game starts: the placards and tiles, then each hand being
    dealt (redact with `for_seat` like any event)."""
    out: list[Event] = [
        GameStarted(
            tuple(state.names), state.first_player, tuple(state.placards), tuple(state.tiles)
        )
    ]
    for seat in range(state.players):
        cards = tuple(Card(k) for k, n in enumerate(state.hands[seat]) for _ in range(n))
        out.append(HandDealt(seat, len(cards), cards))
    return out
