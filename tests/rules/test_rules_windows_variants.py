"""Reaction windows and the floor in both modes (RULES §6), the end of the game, the
variants V1-V6, the short game and the two-player rules (§8)."""

import pytest

from game.rules import (
    AcceptProposal,
    Clan,
    Draw,
    FailDeal,
    GoingOnce,
    IllegalAction,
    OpenDeal,
    Pass,
    PassFloor,
    Phase,
    Propose,
    Roll,
    SetAskPreference,
    WindowMode,
    legal_actions,
    to_act,
    waiting_for,
)
from game.rules.state import Rng
from tests.scenario import Scenario

ASK = WindowMode.ASK_AROUND
RT = WindowMode.REAL_TIME


def table(hands=None, placards=None, marker=3, mode=ASK, names=("Ann", "Bo", "Cy", "Di"), **kw):
    placards = placards or {"red": 0, "orange": 1, "blue": 2, "yellow": 3}
    hands = hands or [[] for _ in names]
    return Scenario(
        list(names), placards=placards, hands=hands, marker=marker, window_mode=mode, **kw
    )


def rule_of(fn, *args):
    with pytest.raises(IllegalAction) as err:
        fn(*args)
    return err.value.rule


# -- ask-around ---------------------------------------------------------------------------


def test_ask_around_window_asks_everyone_one_by_one_from_the_players_left():
    t = table(hands=[["stop"], [], ["travel_red"], []])
    st = t.state
    t.open(0)
    t.pass_floor(0)
    t.pass_floor(1)
    assert st.negotiation.floor == 2
    t.travel(2, "travel_red", t.placard("red"))
    asked = []
    while st.window is not None:
        seat = waiting_for(st)[0]
        asked.append(seat)
        assert to_act(st) == [seat]  # exactly one seat may act at a time
        t.pass_(seat)
    assert asked == [3, 0, 1]  # Cy played: Di, then Ann, then Bo — each asked, Stop or not
    assert st.negotiation.floor == 2  # the floor comes back to whoever played


def test_ask_only_when_touched_skips_a_player_the_same_way_whatever_they_hold():
    for hand in ([], ["stop"]):
        t = table(
            hands=[[], hand, ["travel_red"], []], ask_only_when_touched=(False, True, False, False)
        )
        st = t.state
        t.open(0)
        t.pass_floor(0)
        t.pass_floor(1)
        t.travel(2, "travel_red", t.placard("red"))  # touches Ann (her placard), not Bo
        asked = []
        while st.window is not None:
            seat = waiting_for(st)[0]
            asked.append(seat)
            t.pass_(seat)
        assert asked == [3, 0]
        assert any(e.type == "passed" and e.seat == 1 and e.auto for e in t.events)


def test_preference_can_be_changed_by_the_player_at_any_time():
    t = table()
    assert SetAskPreference(1, True) in legal_actions(t.state, 1)
    t.do(SetAskPreference(1, True))
    assert t.state.ask_only_when_touched[1]
    assert SetAskPreference(1, False) in legal_actions(t.state, 1)


def test_floor_goes_round_and_a_quiet_round_leaves_fail_or_a_last_proposal():
    t = table()
    st = t.state
    t.open(0)
    assert waiting_for(st) == [0]
    assert not legal_actions(st, 1).moves()  # Bo has no floor yet
    t.pass_floor(0)
    assert st.negotiation.floor == 1
    t.floor_round()
    assert st.negotiation.quiet and "quiet_round" in t.event_types()
    moves = {type(a) for a in t.legal(0).moves()}
    assert moves == {FailDeal, Propose}  # not covered: fail or a last proposal
    t.propose(0, 1, [t.placard("orange")], 2)
    assert {type(a) for a in t.legal(0).moves()} == {FailDeal, PassFloor}
    t.pass_floor(0)
    assert AcceptProposal(1) in t.legal(1)
    t.pass_floor(1)  # Bo lets it go
    t.floor_round()
    assert {type(a) for a in t.legal(0).moves()} == {FailDeal}


def test_a_player_acting_revives_the_round():
    t = table()
    st = t.state
    t.open(0)
    t.pass_floor(0)
    t.offer(1, [t.placard("orange")], 3)
    t.pass_floor(1)
    t.floor_round()
    assert not st.negotiation.quiet
    t.accept(0, 1)
    assert GoingOnce(0) in t.legal(0)
    t.going_once(0)
    assert waiting_for(st) == [1]
    t.all_pass()
    assert st.money == [3, 3, 0, 0]


def test_going_once_answered_by_accepting_in_ask_around():
    t = table()
    st = t.state
    t.open(0)
    t.pass_floor(0)
    t.offer(1, [t.placard("orange")], 3)
    t.pass_floor(1)
    t.floor_round()
    t.accept(0, 1)
    t.propose(0, 2, [], 1)
    t.going_once(0)
    t.pass_(1)
    assert waiting_for(st) == [2]
    t.accept_proposal(2)  # Cy takes the fee: the call is cancelled, Cy holds the floor
    assert st.window is None and st.negotiation.floor == 2
    t.pass_floor(2)
    t.pass_floor(3)
    t.going_once(0)
    t.all_pass()
    assert st.money == [2, 3, 1, 0]


# -- real time ------------------------------------------------------------------------------


def test_real_time_everyone_may_act_and_windows_wait_for_all():
    t = table(hands=[["stop"], ["stop"], ["travel_red"], []], mode=RT)
    st = t.state
    t.open(0)
    assert set(to_act(st)) == {0, 1, 2, 3}
    assert waiting_for(st) == []
    t.travel(2, "travel_red", t.placard("red"))
    assert sorted(waiting_for(st)) == [0, 1, 3]
    t.pass_(3)
    t.pass_(0)
    assert waiting_for(st) == [1]
    t.stop(1)
    assert st.window is None and not st.negotiation.travel


# -- the end of the game ---------------------------------------------------------------------


def _late_game(tile, seed):
    # all but spaces 3 and 4 covered; the next tile is `tile`
    covered = {s: i + 1 for i, s in enumerate(s for s in range(16) if s not in (3, 4))}
    return table(
        hands=[["clan_orange"], [], [], []], tiles=[tile, 15], covered=covered, seed=seed, mode=RT
    )


@pytest.mark.parametrize("tile", [10, 11, 12, 13, 14])
def test_end_die_from_tile_ten(tile):
    faces = {10: {1}, 11: {1, 2}, 12: {1, 2, 3}, 13: {1, 2, 3, 4}, 14: {1, 2, 3, 4, 5}}[tile]
    outcomes = set()
    seeds = [
        next(s for s in range(200) if (Rng(s).die() in faces) == want) for want in (True, False)
    ]
    for seed in seeds:
        die = Rng(seed).die()
        t = _late_game(tile, seed)
        t.open(0)
        t.lay(0, "orange")
        t.going_once(0)
        t.all_pass()
        roll = next(e for e in t.events if e.type == "die_rolled")
        assert roll.value == die and roll.purpose == "end"
        over = t.state.phase is Phase.GAME_OVER
        assert over == (die in faces)
        outcomes.add(over)
    assert outcomes == {True, False}


def test_tile_fifteen_always_ends_and_ties_share_the_win():
    covered = {s: i + 1 for i, s in enumerate(s for s in range(16) if s not in (3, 4))}
    t = table(
        hands=[["clan_orange"], [], [], []],
        tiles=[15],
        covered=covered,
        money=[0, 15, 0, 0],
        mode=RT,
    )
    t.open(0)
    t.lay(0, "orange")
    t.going_once(0)
    t.all_pass()
    st = t.state
    # tile 15: $5M x 3 dividends
    assert st.phase is Phase.GAME_OVER and st.winners == [0, 1] and st.money == [15, 15, 0, 0]
    assert not any(e.type == "die_rolled" for e in t.events)
    assert all(not legal_actions(st, s) for s in range(4))
    assert rule_of(t.roll, 2) == "game.over"


def test_tiles_one_to_nine_never_roll():
    t = table(hands=[["clan_orange"], [], [], []], mode=RT)
    t.open(0)
    t.lay(0, "orange")
    t.going_once(0)
    t.all_pass()
    assert not any(e.type == "die_rolled" for e in t.events)


# -- variants -------------------------------------------------------------------------------


def test_v2_ten_cards_must_attempt_a_deal():
    t = table(hands=[["recruit"] * 10, [], [], []], variants={"V2"})
    t.roll(0)
    assert {type(a) for a in t.legal(0).moves()} == {OpenDeal}
    assert rule_of(t.draw, 0) == "variant.V2"


def test_v3_only_players_who_played_a_card_may_be_paid():
    t = table(hands=[[], ["stop"], ["clan_red"], []], variants={"V3"}, mode=RT)
    t.open(0)
    assert [c.hi for c in t.legal(1).terms] == [0]  # Bo may lend his Orange, unpaid
    assert rule_of(t.offer, 1, [t.placard("orange")], 2) == "variant.V3"
    t.lay(2, "red")  # laying a Clan card is playing an influence card
    assert t.legal(2).terms
    t.offer(2, [t.card(2, "red")], 1)
    t.accept(0, 2)


def test_v4_draw_count_depends_on_placards():
    t = table(placards={"red": 0, "orange": 0, "blue": 0, "yellow": 1}, variants={"V4"})
    t.roll(0)
    t.draw(0)
    assert t.state.hand_size(0) == 1  # 3 placards: 1 card
    t.roll(1)
    t.draw(1)
    assert t.state.hand_size(1) == 3  # 1 placard: 3 cards
    t.roll(2)
    t.draw(2)
    assert t.state.hand_size(2) == 4  # none: 4 cards


def test_v5_no_deal_with_fewer_than_three_cards():
    t = table(hands=[["boss", "boss"], [], [], []], variants={"V5"})
    assert OpenDeal(0) not in t.legal(0)
    assert rule_of(t.open, 0) == "variant.V5"
    t.roll(0)
    assert {type(a) for a in t.legal(0).moves()} == {Draw}


def test_v6_hand_limit_ten_from_tile_ten():
    t = table(hands=[["recruit"] * 9, [], [], []], variants={"V6"}, tiles=[10, 11, 12])
    t.roll(0)
    t.draw(0)
    assert t.state.phase is Phase.DISCARD
    assert next(e for e in t.events if e.type == "hand_limit_reached").limit == 10


# -- two players ----------------------------------------------------------------------------


def two(hands, placards=None, **kw):
    placards = placards or {"red": 0, "blue": 0, "yellow": 0, "orange": 1, "magenta": 1, "green": 1}
    return Scenario(["Ann", "Bo"], placards=placards, hands=hands, marker=3, window_mode=RT, **kw)


def test_two_player_boss_uses_opponent_placard_without_consent_and_pays_the_rate():
    t = two([[], []])
    st = t.state
    t.open(0)  # space 3: Red (Ann) + Orange (Bo's placard, used without consent)
    assert GoingOnce(0) in t.legal(0)
    assert FailDeal(0) not in t.legal(0)  # a covered deal must be closed
    assert rule_of(t.fail, 0) == "two_player.must_close"
    t.going_once(0)
    t.all_pass()
    # $6M proceeds / 2 investors = $3M for Bo's Orange
    assert st.money == [3, 3]
    assert [(e.payee, e.amount, e.reason) for e in t.events if e.type == "paid"][-1] == (
        1,
        3,
        "two_player",
    )


def test_two_player_travel_on_own_placard_blocks():
    t = two([[], ["travel_orange"]])
    st = t.state
    t.open(0)
    t.travel(1, "travel_orange", t.placard("orange"))
    t.all_pass()
    assert GoingOnce(0) not in t.legal(0) and FailDeal(0) in t.legal(0)
    t.fail(0)
    assert st.turn == 1


def test_two_player_placards_are_not_negotiated():
    t = two([[], ["clan_red"]])
    t.open(0)
    offer = next(c for c in t.legal(1).terms)
    assert offer.pool == ()  # only laid Clan cards can be offered
    assert Roll not in {type(a) for a in t.legal(1)}


def test_two_player_short_game_and_setup():
    from game.rules import Settings, new_game

    st = new_game(2, 5, Settings(players=2, short_game=True))
    assert sorted(st.placards) == [0, 0, 0, 1, 1, 1]
    assert 3 not in st.tiles and len(st.tiles) == 12
    assert Clan(0) in list(Clan)
    assert not [a for a in legal_actions(st, st.first_player).moves() if isinstance(a, Pass)]
