"""Setup (RULES §2) and the turn (§3): placards, hands, first player, marker, roll, draw,
the hand limit with Recruitment before discarding, reshuffle."""

import pytest

from game.rules import (
    POOL,
    Card,
    Clan,
    Draw,
    IllegalAction,
    OpenDeal,
    Phase,
    PlaceMarker,
    Recruit,
    Roll,
    Settings,
    apply,
    legal_actions,
    new_game,
)
from game.rules.board import FIRST_PLAYER_ORDER
from game.rules.engine import SetupError
from tests.scenario import Scenario


@pytest.mark.parametrize(
    ("players", "each", "pool"), [(2, 3, 0), (3, 2, 0), (4, 1, 2), (5, 1, 1), (6, 1, 0)]
)
def test_placards_hands_and_pool(players, each, pool):
    for seed in range(5):
        st = new_game(players, seed)
        for s in range(players):
            assert st.placards.count(s) == each
            assert st.hand_size(s) == 5
        assert st.placards.count(POOL) == pool
        assert len(st.deck) == 98 - 5 * players
        assert st.tiles == list(range(1, 16))
        assert st.money == [0] * players


def test_first_player_is_the_alphabetically_first_family_and_right_neighbour_places_marker():
    seen_pool_cashman = False
    for seed in range(40):
        st = new_game(4, seed)
        holder = next(st.placards[c] for c in FIRST_PLAYER_ORDER if st.placards[c] != POOL)
        assert st.first_player == holder
        if st.placards[Clan.RED] == POOL:
            seen_pool_cashman = True  # Cashman in the pool does not count
            assert st.first_player != POOL
        assert st.phase is Phase.PLACE_MARKER
        assert st.turn == (holder - 1) % 4
        legal = legal_actions(st, st.turn)
        assert len(legal.of_type(PlaceMarker)) == 16
        assert not legal_actions(st, holder).moves()
    assert seen_pool_cashman
    st = new_game(4, 3)
    apply(st, PlaceMarker(st.turn, 9))
    assert st.marker == 9 and st.phase is Phase.TURN and st.turn == st.first_player


def test_random_first_player_setting_and_short_game():
    firsts = {
        new_game(5, s, Settings(players=5, random_first_player=True)).first_player
        for s in range(30)
    }
    assert len(firsts) > 2
    st = new_game(3, 1, Settings(players=3, short_game=True))
    assert st.tiles == [1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 14, 15]


def test_setup_errors_are_clear():
    with pytest.raises(SetupError, match="settings are for 4 players"):
        new_game(3, 1, Settings(players=4))
    with pytest.raises(ValueError, match="players must be 2-6"):
        Settings(players=7)


def _three_seat_table():
    # Seat 0 first; spaces 1 and 2 are covered and must be skipped, not counted.
    return Scenario(
        ["A", "B", "C"],
        placards={"red": 0, "blue": 1, "yellow": 2},
        hands=[[], [], []],
        marker=0,
        covered={1: 1, 2: 2},
        tiles=list(range(3, 16)),
    )


def test_roll_moves_over_free_spaces_only_and_then_deal_or_draw():
    t = _three_seat_table()
    st = t.state
    assert {type(a) for a in t.legal(0).moves()} == {OpenDeal, Roll}
    ev = t.roll(0)
    roll = ev[0].value
    free = [s for s in range(16) if s not in st.covered]
    assert st.marker == free[(free.index(0) + roll) % len(free)]
    moved = next(e for e in ev if e.type == "marker_moved")
    assert moved.path[0] == 1 and moved.path[-1] == st.marker
    assert st.phase is Phase.MOVED
    assert {type(a) for a in t.legal(0).moves()} == {OpenDeal, Draw}
    with pytest.raises(IllegalAction) as err:
        t.roll(0)
    assert err.value.rule == "turn.phase"
    t.draw(0)
    assert st.hand_size(0) == 3 and st.turn == 1 and st.phase is Phase.TURN


def test_draw_needs_a_roll_and_only_the_turn_player_acts():
    t = _three_seat_table()
    before = t.state.hash()
    with pytest.raises(IllegalAction) as err:
        t.draw(0)
    assert err.value.rule == "turn.draw_after_roll"
    with pytest.raises(IllegalAction) as err:
        apply(t.state, Roll(1))
    assert err.value.rule == "turn.not_yours"
    assert t.state.hash() == before  # illegal actions leave the state untouched


def test_hand_limit_discard_one_by_one_after_optional_recruitment_with_stop_window():
    hand0 = ["recruit"] * 3 + ["clan_red"] * 4 + ["boss"] * 5  # 12 cards
    t = Scenario(
        ["A", "B", "C", "D"],
        placards={"red": 0, "blue": 1, "yellow": 2, "green": 3},
        hands=[hand0, ["stop"], [], []],
        deck_top=["stop", "stop", "travel_grey"],
        marker=0,
    )
    st = t.state
    t.roll(0)
    t.draw(0)
    assert st.phase is Phase.DISCARD and st.hand_size(0) == 15
    assert next(e for e in t.events if e.type == "hand_limit_reached").excess == 3
    legal = t.legal(0)
    # pool first: Magenta and Orange lie in the pool, so only they can be recruited
    assert {a.clan for a in legal.of_type(Recruit)} == {
        Clan.MAGENTA,
        Clan.ORANGE,
    }
    t.recruit(0, "orange")
    assert st.window is not None and st.window.kind.value == "recruit"
    t.stop(1)  # seat 1 stops it: the three Recruitment cards and the Stop are discarded
    assert st.placards[Clan.ORANGE] == POOL
    assert st.hand_size(0) == 12 and st.phase is Phase.TURN and st.turn == 1
    assert st.discard.count(Card.RECRUIT) == 3 and Card.STOP in st.discard


def test_hand_limit_discard_choice():
    t = Scenario(
        ["A", "B", "C"],
        placards={"red": 0, "blue": 1, "yellow": 2},
        hands=[["boss"] * 10 + ["recruit"], [], []],
        deck_top=["stop", "stop", "clan_red"],
        marker=0,
    )
    st = t.state
    t.roll(0)
    t.draw(0)
    assert st.phase is Phase.DISCARD
    t.discard(0, "stop")
    assert st.phase is Phase.DISCARD
    with pytest.raises(IllegalAction) as err:
        t.discard(0, "travel_grey")
    assert err.value.rule == "card.not_in_hand"
    t.discard(0, "boss")
    assert st.hand_size(0) == 12 and st.turn == 1
    assert st.discard == [Card.STOP, Card.BOSS]


def test_reshuffle_when_the_draw_pile_is_empty():
    t = Scenario(
        ["A", "B", "C"], placards={"red": 0, "blue": 1, "yellow": 2}, hands=[[], [], []], marker=0
    )
    st = t.state
    # move all but one card of the draw pile to the discard pile
    st.discard, st.deck = st.deck[:-1], st.deck[-1:]
    st._legal_cache.clear()
    t.roll(0)
    ev = t.draw(0)
    reshuffled = [e for e in ev if e.type == "deck_reshuffled"]
    assert len(reshuffled) == 1 and reshuffled[0].count == 97
    assert st.hand_size(0) == 3 and len(st.deck) == 95 and not st.discard
