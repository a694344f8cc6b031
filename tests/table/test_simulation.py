"""Random bot games over every player count, variant and window mode, with the engine's
invariants checked after every action, and the views audited for hidden information."""

import json
import random

import pytest

from game.rules import Settings, Variant, WindowMode, legal_actions, view
from game.rules.determinize import hidden_twin, state_from_view
from game.rules.events import CardsDrawn
from game.rules.invariants import MoneyAudit
from game.rules.seat_view import SeatView
from game.table.simulate import simulate_game

CONFIGS = [
    (players, mode, variants)
    for players in (2, 3, 4, 5, 6)
    for mode in (WindowMode.ASK_AROUND, WindowMode.REAL_TIME)
    for variants in ((), tuple(Variant))
]


class Audit:
    def __init__(self, rng, every=7):
        self.rng = rng
        self.every = every
        self.steps = 0
        self.ledger = None

    def __call__(self, game, action, events):
        st = game.state
        if self.ledger is None:
            self.ledger = MoneyAudit(game.state)  # money and tiles start at zero in these games
        self.ledger.check(st, events)
        for e in events:
            if isinstance(e, CardsDrawn):
                for s in range(st.players):
                    seen = e.for_seat(s)
                    assert (seen.cards is not None) == (s == e.seat)
        self.steps += 1
        if self.steps % self.every:
            return
        seat = self.rng.randrange(st.players)
        v = view(st, seat)
        json.dumps(v)  # plain data only
        assert "deck" not in v and "rng" not in v
        twin = hidden_twin(st, seat, self.rng)
        assert view(twin, seat) == v, "a view changed when only hidden information changed"
        assert view(twin, None) == view(st, None)
        # what a seat may do never depends on hidden information either
        assert legal_actions(twin, seat).to_data() == legal_actions(st, seat).to_data()
        # and the view alone is enough to rebuild a state with the same view and moves
        rebuilt = state_from_view(SeatView.from_data(v), self.rng)
        assert view(rebuilt, seat) == v
        assert legal_actions(rebuilt, seat).to_data() == legal_actions(st, seat).to_data()


@pytest.mark.parametrize(("players", "mode", "variants"), CONFIGS)
def test_random_games_keep_invariants(players, mode, variants):
    rng = random.Random(players * 100 + len(variants))
    for game_no in range(2):
        seed = rng.randrange(1 << 30)
        settings = Settings(
            players=players,
            variants=frozenset(variants),
            window_mode=mode,
            short_game=game_no == 1,
            ask_only_when_touched=tuple(rng.random() < 0.4 for _ in range(players)),
        )
        audit = Audit(rng)
        game, result = simulate_game(players, seed, ["random"] * players, settings, on_step=audit)
        st = game.state
        assert st.phase.value == "game_over"
        assert result.winners and all(st.money[w] == max(st.money) for w in result.winners)
        assert st.deals_closed >= (7 if game_no else 10)  # the end die starts at tile 10


def test_games_are_deterministic():
    settings = Settings(players=4, variants=frozenset({Variant.V3}))
    a, ra = simulate_game(4, 1234, ["random"] * 4, settings)
    b, rb = simulate_game(4, 1234, ["random"] * 4, settings)
    assert a.state.hash() == b.state.hash()
    assert [x.to_data() for x in a.log] == [x.to_data() for x in b.log]
    c, _ = simulate_game(4, 1235, ["random"] * 4, settings)
    assert c.state.hash() != a.state.hash()


def test_lazy_view_equals_the_full_view_whatever_is_read_first():
    """A lazy view (and its negotiation summary, built field by field) read in any order must
    equal `view`; packed, compared or iterated it builds every field; read after the game has
    moved on, it raises instead of showing a stale or mixed state."""
    import msgpack

    from game.bots import make_bot
    from game.rules import Game
    from game.table.seat_view import seat_view
    from game.table.simulate import play

    rng = random.Random(5)
    seen_negotiations = 0
    stale: list = []

    def check(game, _action, _events):
        nonlocal seen_negotiations
        st = game.state
        for lazy_view in stale:
            with pytest.raises(RuntimeError):
                lazy_view["phase"]
        stale.clear()
        seat = rng.randrange(st.players)
        full = view(st, seat)
        lazy = seat_view(st, seat)
        neg = lazy["negotiation"]
        if neg is not None:
            seen_negotiations += 1
            assert bool(neg)
            # read a few fields first, then the whole map
            for key in rng.sample(sorted(full["negotiation"]), 3):
                assert neg[key] == full["negotiation"][key]
        if rng.random() < 0.5:
            assert lazy == full
        else:
            assert msgpack.unpackb(msgpack.packb(lazy), strict_map_key=False) == full
        stale.append(seat_view(st, seat))

    game = Game(["A", "B", "C", "D"], 11, Settings(players=4))
    play(game, [make_bot("random", s, 11) for s in range(4)], on_step=check)
    assert seen_negotiations > 50


def test_the_engine_benchmark_reports_its_figures_and_the_no_rules_yardstick(capsys):
    from bench import engine as bench_engine

    assert bench_engine.main(["--games", "2", "--json", "--shape-actions", "2000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["mean_actions_per_game"] > 50
    # With no bot scheduler the very same games are played (so the time difference is its cost).
    assert out["engine_only_mean_actions_per_game"] == out["mean_actions_per_game"]
    assert out["engine_only_games_per_second"] > 0
    assert isinstance(out["scheduler_us_per_action"], float)
    for figure in ("apply_us", "legal_actions_us", "is_legal_us"):
        assert 0 < out[figure]["p50"] <= out[figure]["p99"]
    # The yardstick's games per second are its cost per action over a real game's length.
    shape_us = out["shape_only_us_per_action"]
    expected = 1e6 / (shape_us * out["mean_actions_per_game"])
    assert shape_us > 0
    assert out["shape_only_games_per_second"] == pytest.approx(expected, rel=0.02)


def test_a_quick_bot_is_handed_its_seats_view_and_no_game_state():
    """What the bot scheduler hands a bot that needs no view: a map whose attributes hold no
    GameState (only a reading function bound to the seat), equal to the seat's view."""
    from game.bots import make_bot
    from game.bots.base import Bot
    from game.rules import Game, GameState
    from game.table.simulate import play

    checked = []

    class Looker(Bot):
        needs_view = False

        def __init__(self, seat: int) -> None:
            super().__init__(seat)
            self.inner = make_bot("random", seat, 3)

        def choose(self, v, legal, must_act=True):
            if len(checked) < 20:
                slots = [n for c in type(v).__mro__ for n in getattr(c, "__slots__", ())]
                held = [getattr(v, name) for name in slots]
                assert not any(isinstance(x, GameState) for x in held)
                assert not hasattr(v, "__dict__")
                assert v == view(game.state, self.seat)
                checked.append(self.seat)
            return self.inner.choose(v, legal, must_act)

    game = Game(["A", "B", "C"], 3, Settings(players=3))
    play(game, [Looker(s) for s in range(3)])
    assert len(checked) == 20
