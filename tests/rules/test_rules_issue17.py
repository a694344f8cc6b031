"""Issue 17 (rules part), as decided in docs/RULES.md: V3 participation unpaid (§8.1), the short
game's end die from tile 10 (§8.2), and the Boss's own Clan cards after a quiet round (§6.3).
Every table is set up through `Setup` (tests/scenario.py)."""

import pytest

from game.rules import (
    AcceptProposal,
    FailDeal,
    GoingOnce,
    IllegalAction,
    LayClan,
    Offer,
    PassFloor,
    Propose,
    WindowMode,
)
from game.rules.board import Clan
from tests.scenario import Scenario

ASK = WindowMode.ASK_AROUND
RT = WindowMode.REAL_TIME


def table(hands, mode=RT, variants=("V3",), **kw):
    # Space 3 needs Red and Orange: Ann (seat 0) holds Red, Bo (seat 1) Orange.
    return Scenario(
        ["Ann", "Bo", "Cy", "Di"],
        placards={"red": 0, "orange": 1, "blue": 2, "yellow": 3},
        hands=hands,
        marker=3,
        window_mode=mode,
        variants=set(variants),
        **kw,
    )


def rule_of(fn, *args):
    with pytest.raises(IllegalAction) as err:
        fn(*args)
    return err.value.rule


def offer_choice(t, seat):
    return next(c for c in t.legal(seat).terms if isinstance(c.action, Offer))


def proposal_choice(t, boss, to):
    return next(
        c for c in t.legal(boss).terms if isinstance(c.action, Propose) and c.action.to == to
    )


# -- V3 ------------------------------------------------------------------------------------


def test_v3_a_player_who_played_no_card_takes_part_unpaid():
    t = table([[], [], [], []])
    t.open(0)
    choice = offer_choice(t, 1)
    assert (choice.pool, choice.lo, choice.hi) == ((t.placard("orange"),), 0, 0)
    assert rule_of(t.offer, 1, [t.placard("orange")], 2) == "variant.V3"
    assert not [c for c in t.legal(2).terms if isinstance(c.action, Offer)]  # nothing to offer
    t.offer(1, [t.placard("orange")], 0)
    t.accept(0, 1)
    t.going_once(0)
    t.all_pass()
    assert t.state.money == [6, 0, 0, 0]  # Bo's Orange was used, unpaid


def test_v3_the_boss_may_ask_an_unpaid_player_for_zero_only():
    t = table([[], [], [], []])
    t.open(0)
    choice = proposal_choice(t, 0, 1)
    assert (choice.lo, choice.hi) == (0, 0)
    assert rule_of(t.propose, 0, 1, [t.placard("orange")], 3) == "variant.V3"
    assert not [
        c for c in t.legal(0).terms if isinstance(c.action, Propose) and c.action.to == 2
    ]  # Cy has no source here: an unpaid fee would be nothing
    t.propose(0, 1, [t.placard("orange")], 0)
    assert AcceptProposal(1) in t.legal(1)
    t.accept_proposal(1)
    assert t.neg.agreements[1].amount == 0


def test_v3_any_clan_card_may_be_laid_to_qualify_and_comes_back():
    t = table([[], ["clan_green"], [], []])
    t.open(0)
    assert LayClan(1, Clan.GREEN) in t.legal(1)  # Green has no place on space 3
    t.lay(1, "green")
    choice = offer_choice(t, 1)
    assert choice.pool == (t.placard("orange"),)  # the Green card is no source here
    assert choice.hi == 6
    t.offer(1, [t.placard("orange")], 2)
    t.accept(0, 1)
    t.going_once(0)
    t.all_pass()
    assert t.state.money == [4, 2, 0, 0]
    assert t.hand(1) == {"clan_green": 1}


def test_without_v3_clan_cards_of_other_clans_stay_refused():
    t = table([[], ["clan_green"], [], []], variants=())
    t.open(0)
    assert LayClan(1, Clan.GREEN) not in t.legal(1)
    assert rule_of(t.lay, 1, "green") == "clan.not_on_space"


def test_v3_a_zero_agreement_stays_binding_and_playing_a_card_opens_a_fee_on_top():
    t = table([[], ["clan_green"], [], []])
    t.open(0)
    t.offer(1, [t.placard("orange")], 0)
    t.accept(0, 1)
    t.lay(1, "green")  # Bo plays a card: from now on he may be paid
    assert t.neg.agreements[1].amount == 0  # the agreement is what it was
    choice = offer_choice(t, 1)
    assert choice.pool == () and choice.hi == 6  # a fee on top of the agreement
    t.offer(1, [], 2)
    t.accept(0, 1)
    assert t.neg.agreements[1].amount == 2
    t.going_once(0)
    t.all_pass()
    assert t.state.money == [4, 2, 0, 0]


def test_v3_a_deposed_boss_who_played_nothing_is_unpaid():
    t = table([[], ["boss"], [], []])
    t.open(0)
    t.boss(1)
    t.all_pass()
    assert t.neg.boss == 1
    choice = offer_choice(t, 0)
    assert choice.pool == (t.placard("red"),) and choice.hi == 0
    assert (proposal_choice(t, 1, 0).lo, proposal_choice(t, 1, 0).hi) == (0, 0)


# -- the short game ---------------------------------------------------------------------------


def short_table(tiles, covered, short_game=True):
    return Scenario(
        ["Ann", "Bo", "Cy"],
        placards={"red": 0, "orange": 0, "blue": 1, "yellow": 1, "magenta": 2, "green": 2},
        hands=[[], [], []],
        marker=3,
        tiles=tiles,
        covered=covered,
        short_game=short_game,
        window_mode=RT,
    )


def close_space_3(t):
    t.open(0)  # Ann covers Red + Orange alone
    t.going_once(0)
    t.all_pass()
    return [e for e in t.events if e.type == "die_rolled" and e.purpose == "end"]


def test_short_game_rolls_the_end_die_from_tile_ten_the_seventh_deal():
    # Six deals made (tiles 1, 2, 4, 5, 7, 8); the 7th deal places tile 10.
    t = short_table([10, 11, 12, 13, 14, 15], {5: 1, 6: 2, 7: 4, 8: 5, 9: 7, 10: 8})
    rolls = close_space_3(t)
    assert t.state.deals_closed == 1 and len(t.state.covered) == 7
    assert len(rolls) == 1  # tile 10's back shows a 1: the die is rolled now
    assert (t.state.phase.value == "game_over") == (rolls[0].value == 1)


def test_short_game_tile_nine_never_rolls_and_tile_fifteen_always_ends():
    t = short_table([9, 10], {5: 1}, short_game=False)
    assert close_space_3(t) == []  # tile 9 carries no faces
    t = short_table([15], {s: s for s in range(4, 15)})
    assert close_space_3(t) == []  # the last tile ends the game without a roll
    assert t.state.phase.value == "game_over"


# -- the Boss's own Clan cards after a quiet round ----------------------------------------


def test_after_a_quiet_round_the_boss_may_lay_his_clan_cards_and_close():
    t = Scenario(
        ["Ann", "Bo", "Cy", "Di"],
        placards={"red": 0, "orange": 1, "blue": 2, "yellow": 3},
        hands=[["clan_orange"], [], [], []],
        marker=3,
        window_mode=ASK,
    )
    t.open(0)
    t.pass_floor(0)
    t.floor_round()
    assert t.neg.quiet
    moves = {type(a) for a in t.legal(0).moves()}
    assert moves == {LayClan, FailDeal, Propose}
    t.lay(0, "orange")
    assert t.neg.quiet  # the Boss laying his own card does not revive the round
    assert {type(a) for a in t.legal(0).moves()} == {GoingOnce, FailDeal, Propose}
    assert PassFloor(0) not in t.legal(0)
    t.going_once(0)
    t.all_pass()
    assert t.state.money == [6, 0, 0, 0]
