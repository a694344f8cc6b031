"""SeatView: the typed reading of a seat's view gives back the very wire map (the same
msgpack bytes, so the same view hash), and its questions answer as the state's helpers do."""

from __future__ import annotations

import dataclasses
import hashlib
import random

import msgpack
import pytest

from game.rules import Settings, Variant, WindowMode, view
from game.rules import negotiation as nego
from game.rules.seat_view import SeatView
from game.rules.state import POOL, Source, SourceKind
from game.table.simulate import simulate_game
from net.view_sync import view_hash

pack = msgpack.Packer(use_bin_type=True, autoreset=True).pack

GAMES = [
    (3, 1, WindowMode.REAL_TIME, (), False),
    (6, 2, WindowMode.ASK_AROUND, tuple(Variant), True),
    (4, 3, WindowMode.REAL_TIME, tuple(Variant), True),
    (2, 4, WindowMode.ASK_AROUND, (), False),
    (5, 5, WindowMode.ASK_AROUND, (), True),
]


@pytest.fixture(scope="module")
def seen():
    """(state, {seat: view}) at about one step in eight of seeded bot games."""
    out = []
    rng = random.Random(34)

    def keep(game, action, events):
        if rng.random() < 0.12:
            st = game.state.clone()
            out.append((st, {seat: view(st, seat) for seat in (None, *range(st.players))}))

    for players, seed, mode, variants, hidden in GAMES:
        settings = Settings(
            players=players, window_mode=mode, variants=frozenset(variants), hidden_money=hidden
        )
        simulate_game(players, seed, ["random"] * players, settings, on_step=keep)
    return out


def test_the_views_of_seeded_games_cover_deals_windows_and_hidden_money(seen):
    views = [v for _st, vs in seen for v in vs.values()]
    assert len(views) > 300
    assert sum(v["negotiation"] is not None for v in views) > 100
    assert sum(v["window"] is not None for v in views) > 10
    assert any(v["negotiation"] and v["negotiation"]["agreements"] for v in views)
    assert any(v["negotiation"] and v["negotiation"]["travel"] for v in views)
    assert any("money" not in p for v in views for p in v["players"])
    assert any(v["phase"] == "game_over" for v in views)


# The msgpack of every view in `seen`, hashed, as the views were built before SeatView (the
# wire built from its tables must not move by a byte; a deliberate change of the wire
# changes this figure and docs/PROTOCOL.md with it).
WIRE_DIGEST = "df5ec1339862f1b1"


def test_the_wire_has_not_moved_by_a_byte(seen):
    h = hashlib.sha256()
    for _st, views in seen:
        for v in views.values():
            h.update(pack(v))
    assert h.hexdigest()[:16] == WIRE_DIGEST


def test_to_data_gives_back_the_wire_map_byte_for_byte(seen):
    for _st, views in seen:
        for v in views.values():
            typed = SeatView.from_data(v)
            back = typed.to_data()
            assert back == v
            assert list(back) == list(v)  # the keys in the wire's order
            assert pack(back) == pack(v)
            assert view_hash(back) == view_hash(v)
            assert SeatView.from_data(back) == typed


def test_a_view_read_from_the_wire_is_the_view_of_the_state(seen):
    for st, views in seen:
        for seat, v in views.items():
            typed = SeatView.of(st, seat)
            assert SeatView.from_data(msgpack.unpackb(pack(v), raw=False)) == typed
            assert pack(typed.to_data()) == pack(v)


def test_a_seat_view_cannot_be_changed(seen):
    st = next(st for st, _views in seen if st.negotiation is not None)
    typed = SeatView.of(st, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed.turn = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed.players[0].money = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed.negotiation.boss = 2


def test_sources_and_owners_answer_as_the_state_helpers_do(seen):
    asked = 0
    for st, views in seen:
        typed = SeatView.from_data(views[None])
        assert list(typed.placard_owners) == list(st.placards)
        for clan in range(6):
            owner = typed.placard_owner(clan)
            assert owner == (None if st.placards[clan] == POOL else st.placards[clan])
        neg = st.negotiation
        sources = [Source(SourceKind.PLACARD, c) for c in range(6)]
        if neg is not None:
            sources += [Source(SourceKind.CARD, c.id) for c in neg.laid]
            sources.append(Source(SourceKind.CARD, neg.next_card_id))  # not on the table
        for src in sources:
            clan = nego.source_clan(st, src)
            assert typed.source_clan(src) == (None if clan is None else int(clan))
            assert typed.source_owner(src) == nego.source_owner(st, src)
            asked += 1
        if neg is not None:
            for seat in range(st.players):
                want = neg.agreements.get(seat) or neg.pending.get(seat)
                assert typed.terms(seat) == want
    assert asked > 1000


def test_hands_and_hidden_money_are_typed_as_the_seat_sees_them(seen):
    for st, views in seen:
        for seat, v in views.items():
            typed = SeatView.from_data(v)
            if seat is None:
                assert typed.hand is None and typed.hand_cards() == {}
            else:
                assert list(typed.hand) == list(st.hands[seat])
            for p in typed.players:
                assert p.money in (None, st.money[p.seat])
                assert (p.money is None) == ("money" not in v["players"][p.seat])


def test_a_view_of_a_state_builds_its_fields_on_first_read_and_not_after_the_state_moved():
    from game.rules import Game, apply, legal_actions

    game = Game(["A", "B", "C"], 5, Settings(players=3))
    st = game.state.clone()
    typed = SeatView.of(st, 0)
    assert "players" not in vars(typed)  # not built until read
    assert typed.players == SeatView.from_data(view(st, 0)).players
    later = SeatView.of(st, 0)
    seat = st.turn
    apply(st, legal_actions(st, seat).moves().fixed[0])
    assert typed.players  # read before the move: kept
    with pytest.raises(RuntimeError):
        _ = later.players
