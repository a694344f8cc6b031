"""The hot paths that speed work rewrote (docs/ENGINE.md §Speed) agree with a plain statement
of what they compute, on the states of random games: seeds, table sizes, variants and window
modes drawn by hypothesis. The simulation fingerprints pin a few whole games; these pin each
rewritten function on thousands of positions."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.bots import make_bot, random_bot
from game.bots.random_bot import HOPELESS_OPEN_WEIGHT, KIND_WEIGHTS, weighted_kind
from game.rules import (
    Game,
    LegalActions,
    PlayTravel,
    Settings,
    Variant,
    WindowMode,
    legal_actions,
    legal_list,
    view,
)
from game.rules import negotiation as nego
from game.rules.cards import Card, travel_card
from game.rules.state import POOL, Source, SourceKind
from game.table.seat_view import seat_view
from game.table.simulate import play

TABLES = st.tuples(
    st.integers(0, 10_000),  # seed
    st.integers(2, 6),  # players
    st.sampled_from([None, *Variant]),
    st.sampled_from(list(WindowMode)),
)


def _random_game(seed, players, variant, mode, on_step) -> None:
    rules = Settings(
        players=players, window_mode=mode, variants=[] if variant is None else [variant]
    )
    game = Game([f"P{i}" for i in range(players)], seed, rules)
    play(game, [make_bot("random", s, seed) for s in range(players)], on_step=on_step)


def _plain_card_plays(state, seat) -> list:
    """RULES §5.2 read plainly: a Travel card of the target's clan or a grey one, on each
    placard in play and not travelling, then on each laid card, of a clan the space uses."""
    neg = state.negotiation
    hand = state.hands[seat]
    wanted = state.board.clan_masks[neg.space]
    targets = [
        (clan, Source(SourceKind.PLACARD, clan))
        for clan in range(6)
        if wanted >> clan & 1 and state.placards[clan] != POOL and clan not in neg.travel
    ]
    targets += [(c.clan, Source(SourceKind.CARD, c.id)) for c in neg.laid if wanted >> c.clan & 1]
    out = []
    for clan, target in targets:
        for card in (travel_card(clan), Card.TRAVEL_GREY):
            if hand[card]:
                out.append(PlayTravel(seat, card, target))
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES)
def test_the_committed_clans_and_travel_plays_match_their_plain_statement(table):
    checked = 0

    def check(game, _action, _events):
        nonlocal checked
        state = game.state
        if state.negotiation is None:
            return
        ranked = nego.committed(state)
        mask = 0
        for clan, _src, _rank, _owner in ranked:
            mask |= 1 << clan
        assert nego.committed_mask(state) == mask
        assert nego.is_covered(state) == state.board.cover[state.negotiation.space][mask]
        assert view(state, None)["negotiation"]["committed"] == sorted({e[0] for e in ranked})
        for seat in range(state.players):
            plays = LegalActions()
            legal_list._card_plays(state, seat, plays.fixed)
            travel = [a for a in plays.fixed if isinstance(a, PlayTravel)]
            assert travel == _plain_card_plays(state, seat)
        checked += 1

    _random_game(*table, on_step=check)
    assert checked  # a game ends by closing deals: it has negotiations


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(KIND_WEIGHTS)), min_size=1, max_size=10, unique=True),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_the_bots_weighted_kind_is_rng_choices_draw_for_draw(kinds, seed, hopeless):
    """`weighted_kind` must draw exactly what `rng.choices(kinds, weights)[0]` draws and leave
    the generator in the same state: the fingerprints of every random game depend on it."""
    groups = {k: [k] for k in kinds}
    weights = [KIND_WEIGHTS[k] for k in kinds]
    view_stub = None
    if hopeless and "open" in groups:
        weights[kinds.index("open")] = HOPELESS_OPEN_WEIGHT
        view_stub = object()  # any view: _could_cover is replaced below
    a, b = random.Random(seed), random.Random(seed)
    could_cover = random_bot._could_cover
    random_bot._could_cover = lambda _view: False
    try:
        for _ in range(5):
            assert weighted_kind(a, groups, view_stub) == b.choices(kinds, weights)[0]
    finally:
        random_bot._could_cover = could_cover
    assert a.getstate() == b.getstate()


def _plain_choice(bot, view_, legal, must_act=True):
    """The random bot's choice as first written (sets of clans, `rng.choices`, every view
    field read through the view): the reference its faster code must match draw for draw."""
    rng = bot.rng
    if not must_act and rng.random() < random_bot.IDLE_CHANCE:
        return None
    groups: dict = {}
    for a in legal.fixed:
        if not a.meta:
            groups.setdefault(random_bot._KIND_OF.get(type(a), "turn"), []).append(a)
    if legal.terms:
        groups["offer"] = legal.terms
    if not groups:
        return None
    needed = None
    neg = view_["negotiation"] if view_ is not None else None
    if neg is not None and ("lay" in groups or "offer" in groups):
        wanted = random_bot.board_of(view_).clan_masks[neg["space"]]
        needed = {c for c in range(6) if wanted >> c & 1} - set(neg["committed"])

    def clan_of(src):
        if src.kind is SourceKind.PLACARD:
            return src.ref
        return next(
            (random_bot.clan_from_key(c["clan"]) for c in neg["laid"] if c["id"] == src.ref), None
        )

    if needed is not None:
        for kind in ("lay", "offer"):
            if kind not in groups:
                continue
            if kind == "lay":
                useful = [a for a in groups[kind] if a.clan in needed]
            else:
                mine = neg["pending"].get(str(bot.seat))
                if mine is not None and not mine["by_boss"]:
                    useful = []
                else:
                    useful = [t for t in groups[kind] if any(clan_of(s) in needed for s in t.pool)]
            if useful:
                groups[kind] = useful
            else:
                del groups[kind]
    kinds = list(groups)
    weights = [KIND_WEIGHTS[k] for k in kinds]
    if "open" in groups and view_ is not None and not random_bot._could_cover(view_):
        weights[kinds.index("open")] = HOPELESS_OPEN_WEIGHT
    if not kinds:
        return None
    kind = rng.choices(kinds, weights)[0]
    if kind != "offer":
        return rng.choice(groups[kind])
    choice = rng.choice(groups["offer"])
    pool = choice.pool
    if needed is not None:
        pool = [s for s in pool if clan_of(s) in needed] or pool
    sources = pool if rng.random() < 0.8 else [s for s in pool if rng.random() < 0.5]
    top = choice.lo + (choice.hi - choice.lo) // 3
    return choice.make(sources, rng.randint(choice.lo, max(choice.lo, top)))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 1000))
def test_the_random_bot_chooses_as_its_plain_statement_on_every_seat(table, bot_seed):
    """At every position of a random game, each seat's random bot (a copy with the same
    generator state) chooses what the plain version chooses, from a seat's lazy view and from the
    full view, and its generator ends in the same state."""
    compared = 0

    def check(game, _action, _events):
        nonlocal compared
        state = game.state
        for seat in range(state.players):
            legal = legal_actions(state, seat).moves()
            if not legal:
                continue
            for must, make_view in ((True, seat_view), (False, view)):
                fast, plain = (make_bot("random", seat, bot_seed) for _ in range(2))
                fast.rng.seed(bot_seed + len(game.log))
                plain.rng.setstate(fast.rng.getstate())
                got = fast.choose(make_view(state, seat), legal, must)
                want = _plain_choice(plain, make_view(state, seat), legal, must)
                assert got == want
                assert fast.rng.getstate() == plain.rng.getstate()
                compared += 1

    _random_game(*table, on_step=check)
    assert compared

