"""The legal-action list is generated from the rules (`rulebook.refusal`, what `is_legal`
asks when no list is built), and it holds exactly what they allow: its candidates miss no
allowed action. Membership in `legal_actions(state, action.seat)` says what the rules say
on every position of random games
(hypothesis draws the seeds, table sizes, variants and window modes), for every seat's listed
moves, every offer range's edges, and random actions of every type with fields drawn wide
enough to be mostly illegal (other seats, the host, cards not held, sources not usable,
amounts past the cap, sources named twice)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    IllegalAction,
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
    apply,
    is_legal,
    legal_actions,
    new_game,
)
from game.rules.board import CLANS
from game.rules.cards import CARDS
from game.rules.rulebook import refusal
from game.rules.state import Source, SourceKind
from game.table.simulate import play

TABLES = st.tuples(
    st.integers(0, 10_000),  # seed
    st.integers(2, 6),  # players
    st.sampled_from([None, *Variant]),
    st.sampled_from(list(WindowMode)),
)


def _random_actions(state, rng: random.Random, count: int) -> list:
    neg = state.negotiation
    n = state.players
    ids = (neg.next_card_id if neg is not None else 0) + 2
    sources = [Source(SourceKind.PLACARD, c) for c in range(6)]
    sources += [Source(SourceKind.CARD, i) for i in range(ids)]
    top = (neg.proceeds if neg is not None else 10) + 3

    def terms():
        picked = sorted(rng.sample(sources, rng.randrange(min(4, len(sources)) + 1)))
        if picked and rng.random() < 0.1:
            picked.append(picked[0])  # a source named twice
        return tuple(picked)

    makers = (
        lambda s: PlaceMarker(s, rng.randrange(16)),
        OpenDeal,
        Roll,
        Draw,
        lambda s: Discard(s, rng.choice(CARDS)),
        lambda s: Recruit(s, rng.choice(CLANS)),
        lambda s: LayClan(s, rng.choice(CLANS)),
        lambda s: PlayTravel(s, rng.choice(CARDS), rng.choice(sources)),
        PlayBoss,
        lambda s: Offer(s, terms(), rng.randrange(top)),
        lambda s: Propose(s, rng.randrange(n + 1), terms(), rng.randrange(top)),
        lambda s: Accept(s, rng.randrange(n)),
        AcceptFormer,
        AcceptProposal,
        lambda s: Withdraw(s, rng.randrange(n)),
        PassFloor,
        GoingOnce,
        FailDeal,
        Pass,
        PlayStop,
        lambda s: SetAskPreference(s, rng.random() < 0.5),
        TimeUp,
    )
    return [rng.choice(makers)(rng.randrange(HOST, n + 1)) for _ in range(count)]


_NO_FIELDS = (
    OpenDeal, Roll, Draw, PlayBoss, AcceptFormer, AcceptProposal, PassFloor, GoingOnce,
    FailDeal, Pass, PlayStop, TimeUp,
)  # fmt: skip


def _candidates(state, rng: random.Random) -> list:
    """Every seat's listed moves and every action without fields, each offer range's
    corners and one step past them, and random actions."""
    out = []
    for seat in range(HOST, state.players + 1):
        legal = legal_actions(state, seat)
        out += legal.fixed
        out += [kind(seat) for kind in _NO_FIELDS]
        for choice in legal.terms:
            pool = choice.pool
            for sources in ((), pool, pool[:1], pool[1:]):
                for amount in (choice.lo, choice.hi, choice.hi + 1):
                    out.append(choice.make(sources, amount))
    return out + _random_actions(state, rng, 40)


def legal_now(state, action) -> bool:
    """What the action's rule answers, no list built."""
    return refusal(state, action) is None


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 2**32))
def test_the_list_holds_what_the_rules_allow_on_random_games(table, action_seed):
    seed, players, variant, mode = table
    rng = random.Random(action_seed)
    rules = Settings(
        players=players, window_mode=mode, variants=[] if variant is None else [variant]
    )
    game = Game([f"P{i}" for i in range(players)], seed, rules)
    checked = {True: 0, False: 0}

    def check(game, _action, _events):
        state = game.state
        twin = state.clone()  # no legal-action list built for this version
        for action in _candidates(state, rng):
            want = action in legal_actions(state, action.seat)
            assert legal_now(twin, action) == want, action
            assert is_legal(twin, action) == want, action
            checked[want] += 1
        listed = [k for k in twin._legal_cache if type(k[0]) is int]
        assert listed == []  # answered without building any seat's list

    play(game, [make_bot("random", s, seed) for s in range(players)], on_step=check)
    assert checked[True] > 100 and checked[False] > 1000


def test_the_marker_goes_on_free_spaces_only():
    """A scenario with spaces already covered before the marker is placed (random games
    never have one): the covered spaces are refused as the list refuses them."""
    state = new_game(4, 1, setup=Setup(covered={3: 1, 7: 2}))
    seat = state.turn
    for space in range(-1, 17):
        action = PlaceMarker(seat, space)
        assert legal_now(state, action) == (action in legal_actions(state, seat))
    assert not legal_now(state, PlaceMarker(seat, 3))
    assert legal_now(state, PlaceMarker(seat, 4))


def test_the_host_clock_runs_out_once():
    """Real time: `TimeUp` is the host's, once per negotiation (random games settle before
    the clock ever runs out)."""
    rules = Settings(players=3, window_mode=WindowMode.REAL_TIME)
    state = new_game(3, 2, rules, Setup(marker=0))
    apply(state, OpenDeal(state.turn))
    for action in (TimeUp(HOST), TimeUp(0), GoingOnce(HOST)):
        assert legal_now(state, action) == (action in legal_actions(state, action.seat))
    assert legal_now(state, TimeUp(HOST))
    apply(state, TimeUp(HOST))
    assert not legal_now(state, TimeUp(HOST))
    assert TimeUp(HOST) not in legal_actions(state, HOST)


@pytest.mark.parametrize("mode", list(WindowMode))
def test_apply_refuses_what_the_list_refuses_with_the_same_rule(mode):
    """`apply` checks through `is_legal` now: an action no list holds is refused with the
    rule `explain_illegal` names, the state untouched, whether or not the list was built."""
    game = Game(["A", "B", "C", "D"], 3, Settings(players=4, window_mode=mode))
    rng = random.Random(5)
    refused = 0

    def check(game, _action, _events):
        nonlocal refused
        state = game.state
        for action in _random_actions(state, rng, 3):
            if action in legal_actions(state, action.seat):
                continue
            for built in (True, False):
                twin = state.clone()
                if built:
                    legal_actions(twin, action.seat)
                before = twin.hash()
                with pytest.raises(IllegalAction) as caught:
                    apply(twin, action)
                assert twin.hash() == before
                refused += 1
                if built:
                    rule = caught.value.rule
                else:
                    assert caught.value.rule == rule

    play(game, [make_bot("random", s, 3) for s in range(4)], on_step=check)
    assert refused > 100


def test_a_checked_action_is_not_checked_again_by_apply(monkeypatch):
    """The LAN host asks `is_legal`, then `apply` asks again: the rules are asked once for
    that action object at that version (a yes is kept until the state moves on), and an
    equal but other action object is checked on its own."""
    import game.rules.engine as engine

    calls = []
    real = engine.refusal
    monkeypatch.setattr(engine, "refusal", lambda s, a: calls.append(a) or real(s, a))
    state = new_game(4, 1)
    action = PlaceMarker(state.turn, 4)
    assert is_legal(state, PlaceMarker(state.turn, 4))  # equal, not the same object
    assert is_legal(state, action)
    assert len(calls) == 2
    apply(state, action)
    assert len(calls) == 2  # apply took the kept yes
    assert not is_legal(state, action)  # the state moved on: asked again
    assert len(calls) == 3
