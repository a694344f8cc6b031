"""legal_actions is exact: every listed action applies, every other candidate is refused with
a specific rule and leaves the state untouched; actions survive a round trip through data."""

import random

import pytest

from game.rules import (
    HOST,
    ActionFormatError,
    IllegalAction,
    Settings,
    Variant,
    WindowMode,
    action_from_data,
    apply,
    legal_actions,
    legal_from_data,
    new_game,
)
from game.rules import actions as A
from game.rules.board import CLANS
from game.rules.cards import CARDS
from game.rules.state import Phase, Source, SourceKind
from game.table.simulate import simulate_game

GENERIC = {"action.not_now", "agreement.offer"}


def random_candidate(rng: random.Random, state):
    n = state.players
    seat = rng.choice([*range(n), HOST, n])
    other = rng.randrange(6)
    amount = rng.choice([0, 1, 2, 5, 10, 30, 31, 100])
    ids = state.negotiation.next_card_id + 1 if state.negotiation else 2

    def src():
        if rng.random() < 0.6:
            return Source(SourceKind.PLACARD, rng.randrange(6))
        return Source(SourceKind.CARD, rng.randrange(ids))

    srcs = tuple(sorted({src() for _ in range(rng.randrange(3))}))
    kind = rng.choice(list(A.ACTION_TYPES.values()))
    if kind is A.PlaceMarker:
        return A.PlaceMarker(seat, rng.randrange(16))
    if kind is A.Discard:
        return A.Discard(seat, rng.choice(CARDS))
    if kind in (A.Recruit, A.LayClan):
        return kind(seat, rng.choice(CLANS))
    if kind is A.PlayTravel:
        return A.PlayTravel(seat, rng.choice(CARDS), src())
    if kind is A.Offer:
        return A.Offer(seat, srcs, amount)
    if kind is A.Propose:
        return A.Propose(seat, other, srcs, amount)
    if kind is A.Accept:
        return A.Accept(seat, other)
    if kind is A.Withdraw:
        return A.Withdraw(seat, other)
    if kind is A.SetAskPreference:
        return A.SetAskPreference(seat, rng.random() < 0.5)
    return kind(seat)


def check_position(state, rng, tries=60):
    before = state.hash()
    for _ in range(tries):
        cand = random_candidate(rng, state)
        legal = 0 <= cand.seat < state.players or cand.seat == HOST
        legal = legal and cand in legal_actions(state, cand.seat)
        twin = state.clone()
        if legal:
            apply(twin, cand)
        else:
            with pytest.raises(IllegalAction) as err:
                apply(twin, cand)
            assert err.value.rule not in GENERIC, (cand, err.value)
            assert twin.hash() == before
    # and a sample of what is listed really applies
    for seat in range(state.players):
        listed = list(legal_actions(state, seat))
        for a in rng.sample(listed, min(len(listed), 8)):
            apply(state.clone(), a)
            assert action_from_data(a.to_data()) == a
    assert state.hash() == before


@pytest.mark.parametrize(
    "players,mode",
    [(2, WindowMode.REAL_TIME), (4, WindowMode.ASK_AROUND), (5, WindowMode.REAL_TIME)],
)
def test_legal_actions_are_exact(players, mode):
    rng = random.Random(players)
    settings = Settings(
        players=players, window_mode=mode, variants=frozenset({Variant.V3, Variant.V5})
    )
    steps = [0]

    def probe(game, action, events):
        steps[0] += 1
        if steps[0] % 11 == 0 and game.state.phase is not Phase.GAME_OVER:
            check_position(game.state, rng)
            legal = legal_actions(game.state, rng.randrange(players))
            assert legal_from_data(legal.to_data()).to_data() == legal.to_data()

    simulate_game(players, 99, ["random"] * players, settings, on_step=probe)
    assert steps[0] > 100


def test_action_data_is_checked_field_by_field():
    good = A.Offer(1, (Source(SourceKind.PLACARD, 2),), 4).to_data()
    assert action_from_data(good) == A.Offer(1, (Source(SourceKind.PLACARD, 2),), 4)
    bad = [
        None,
        [],
        {"type": "nope", "seat": 0},
        {"type": "offer", "seat": 0, "sources": [], "amount": -1},
        {"type": "offer", "seat": 0, "sources": [], "amount": True},
        {"type": "offer", "seat": 0, "sources": [["placard", 9, 1]], "amount": 1},
        {"type": "offer", "seat": 0, "sources": [["hat", 1]], "amount": 1},
        {"type": "offer", "seat": 0, "sources": [["placard", 1], ["placard", 1]], "amount": 1},
        {"type": "offer", "seat": 0, "amount": 1},
        {"type": "offer", "seat": 0, "sources": [], "amount": 1, "extra": 1},
        {"type": "discard", "seat": 0, "card": "joker"},
        {"type": "lay_clan", "seat": 9, "clan": "red"},
        {"type": "lay_clan", "seat": "0", "clan": "red"},
        {"type": "set_ask_preference", "seat": 0, "only_when_touched": 1},
    ]
    for data in bad:
        with pytest.raises(ActionFormatError):
            action_from_data(data)


def test_illegal_action_names_the_rule():
    st = new_game(4, 5)
    with pytest.raises(IllegalAction) as err:
        apply(st, A.OpenDeal(st.turn))
    assert err.value.rule == "turn.phase" or err.value.rule == "turn.not_yours"
    with pytest.raises(IllegalAction) as err:
        apply(st, A.LayClan(0, CLANS[0]))
    assert err.value.rule == "negotiation.none"
    assert "[negotiation.none]" in str(err.value)
