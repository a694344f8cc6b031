"""Every answer to "may this seat do that now?" stays the answer it is: the fingerprint of
`is_legal` and, for a refusal, `explain_illegal`'s rule id and sentence (what the LAN host
sends back: docs/PROTOCOL.md §7.1), asked at every position of a few recorded random games
for a wide seeded draw of actions (every listed move, every action without fields for every
seat and the host, offer ranges' corners and one step past them, and random actions of
every type with fields drawn mostly illegal).

It guards rewrites of how legality is stated (issue 34), which must change no answer. A
change of a rule that really changes answers changes these on purpose: print the new ones
with ``python -m tests.rules.test_rules_answers`` and say why in the commit."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from game.bots import make_bot
from game.rules import (
    HOST,
    Accept,
    AcceptFormer,
    AcceptProposal,
    Discard,
    Draw,
    FailDeal,
    Game,
    GoingOnce,
    LayClan,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlaceMarker,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    Recruit,
    Roll,
    SetAskPreference,
    Settings,
    Setup,
    TimeUp,
    Variant,
    WindowMode,
    Withdraw,
    explain_illegal,
    is_legal,
    legal_actions,
)
from game.rules.board import CLANS
from game.rules.cards import CARDS, full_deck
from game.rules.state import Source, SourceKind
from game.table.simulate import play

V = Variant
DECK = tuple(full_deck())
#: (players, seed, window mode, variants, negotiation limit, ask only when touched, setup)
TABLES = (
    (2, 3, "ask_around", (), 60, False, None),
    (3, 5, "real_time", (V.V1, V.V2), 60, True, None),
    (4, 7, "ask_around", (V.V3, V.V5), 12, True, None),
    (5, 11, "real_time", (V.V4, V.V6), 10, False, None),
    (6, 13, "ask_around", (), 60, False, None),
    (4, 17, "ask_around", tuple(Variant), 8, False, None),
    # spaces covered before the marker is placed, hands of two cards under V5 (a random game
    # has neither)
    (3, 19, "ask_around", (V.V5,), 60, False, Setup(
        hands=(DECK[0:2], DECK[2:4], DECK[4:6]),
        deck=DECK[6:],
        covered={3: 1, 7: 2},
        tiles=tuple(range(3, 16)),
    )),
)

#: sha256 (first 16 hex digits) of every answer asked on each table's game, and their count
EXPECTED = {
    0: ('ca295295a0ccb31f', 13105),
    1: ('3f1748ea4f3a50b0', 46585),
    2: ('f387d56c7f39cb42', 54668),
    3: ('89b0c8c5ce46d4a3', 185910),
    4: ('6f5e4fa6c42791c5', 112038),
    5: ('1a49465e6748f3e8', 76547),
    6: ('26615ee32d0f96c8', 47238),
}

_NO_FIELDS = (
    OpenDeal, Roll, Draw, PlayBoss, AcceptFormer, AcceptProposal, PassFloor, GoingOnce,
    FailDeal, Pass, PlayStop, TimeUp,
)  # fmt: skip


def _random_actions(state, rng: random.Random, count: int) -> list:
    neg = state.negotiation
    n = state.players
    ids = (neg.next_card_id if neg is not None else 0) + 2
    sources = [Source(SourceKind.PLACARD, c) for c in range(6)]
    sources += [Source(SourceKind.CARD, i) for i in range(ids)]
    top = (neg.proceeds if neg is not None else 10) + 3

    def terms():
        return tuple(sorted(rng.sample(sources, rng.randrange(min(4, len(sources)) + 1))))

    makers = (
        lambda s: PlaceMarker(s, rng.randrange(16)),
        lambda s: Discard(s, rng.choice(CARDS)),
        lambda s: Recruit(s, rng.choice(CLANS)),
        lambda s: LayClan(s, rng.choice(CLANS)),
        lambda s: PlayTravel(s, rng.choice(CARDS), rng.choice(sources)),
        lambda s: Offer(s, terms(), rng.randrange(top)),
        lambda s: Propose(s, rng.randrange(n), terms(), rng.randrange(top)),
        lambda s: Accept(s, rng.randrange(n)),
        lambda s: Withdraw(s, rng.randrange(n)),
        lambda s: SetAskPreference(s, rng.random() < 0.5),
    )
    # seats up to 5, as the wire allows: unknown at a smaller table
    return [rng.choice(makers)(rng.randrange(HOST, 6)) for _ in range(count)]


def candidates(state, rng: random.Random) -> list:
    """What is asked at one position (well-typed actions, as `action_from_data` makes them)."""
    out = []
    for seat in range(HOST, state.players):
        legal = legal_actions(state, seat)
        out += legal.fixed
        out += [kind(seat) for kind in _NO_FIELDS]
        if seat == state.turn:
            out += [PlaceMarker(seat, space) for space in range(16)]
        for choice in legal.terms:
            for sources in ((), choice.pool):
                for amount in (choice.lo, choice.hi, choice.hi + 1):
                    out.append(choice.make(sources, amount))
    return out + _random_actions(state, rng, 40)


def answer(state, action) -> str:
    """What the LAN host answers (net/host/action_check.py): legal, or the rule and why."""
    if is_legal(state, action):
        return "ok"
    rule, message = explain_illegal(state, action)
    return f"{rule}|{message}"


def answers(table: int) -> tuple[str, int]:
    players, seed, mode, variants, limit, touched, setup = TABLES[table]
    rules = Settings(
        players=players,
        window_mode=WindowMode(mode),
        variants=variants,
        negotiation_limit=limit,
        ask_only_when_touched=tuple(touched and s % 2 == 0 for s in range(players)),
    )
    game = Game([f"P{i}" for i in range(players)], seed, rules, setup)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    count = 0

    def ask(game, _action=None, _events=None):
        nonlocal count
        state = game.state
        twin = state.clone()  # no legal-action list built for this version: the host's case
        for action in candidates(state, rng):
            line = json.dumps([state.actions_taken, action.to_data(), answer(twin, action)])
            digest.update(line.encode())
            count += 1

    ask(game)
    play(game, [make_bot("random", s, seed) for s in range(players)], on_step=ask)
    return digest.hexdigest()[:16], count


@pytest.mark.parametrize("table", sorted(EXPECTED))
def test_every_answer_is_the_answer_it_was(table):
    assert answers(table) == EXPECTED[table]


if __name__ == "__main__":
    for table in range(len(TABLES)):
        print(f"    {table}: {answers(table)!r},")
