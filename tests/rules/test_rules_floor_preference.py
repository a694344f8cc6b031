""""Ask me only when it touches me" on the floor (docs/RULES.md §6.4): in ask-around mode a seat
with the preference is offered the floor the first time round, then skipped until something
public touches it anew; quiet rounds still end the negotiation."""

from game.rules import FailDeal, Propose, game_from_data
from tests.scenario import Scenario

BO = 1


def table(prefs=(False, True, False, False), hands=None):
    # Space 3 needs Red and Orange: Ann (0) Red, Bo (1) Orange, Cy (2) Blue, Di (3) Yellow.
    return Scenario(
        ["Ann", "Bo", "Cy", "Di"],
        placards={"red": 0, "orange": 1, "blue": 2, "yellow": 3},
        hands=hands or [[], [], [], []],
        marker=3,
        ask_only_when_touched=prefs,
    )


def skipped(t, seat):
    return sum(1 for e in t.events if e.type == "floor_passed" and e.seat == seat and e.auto)


def first_round_with_an_offer(t):
    """Ann opens; Bo is asked (first time) and passes; Cy makes an offer: not a quiet round."""
    t.open(0)
    t.pass_floor(0)
    assert t.neg.floor == BO  # asked the first time round
    t.pass_floor(BO)
    t.offer(2, [], 1)
    t.pass_floor(2)
    t.pass_floor(3)
    assert t.neg.floor == 0 and not t.neg.quiet


def test_a_preference_seat_is_skipped_after_its_first_pass_and_asked_after_a_proposal():
    t = table()
    first_round_with_an_offer(t)
    t.pass_floor(0)
    assert t.neg.floor == 2 and skipped(t, BO) == 1  # the floor went past Bo by itself
    t.pass_floor(2)
    t.pass_floor(3)
    t.propose(0, BO, [t.placard("orange")], 2)  # a proposal to Bo touches him
    t.pass_floor(0)
    assert t.neg.floor == BO and skipped(t, BO) == 1
    t.accept_proposal(BO)
    t.pass_floor(BO)
    assert t.neg.floor == 2


def test_without_the_preference_the_seat_is_asked_every_round():
    t = table(prefs=(False, False, False, False))
    first_round_with_an_offer(t)
    t.pass_floor(0)
    assert t.neg.floor == BO and skipped(t, BO) == 0


def test_the_skip_does_not_depend_on_the_cards_held():
    floors = []
    for hand in ([], ["stop", "clan_orange", "boss"]):
        t = table(hands=[[], hand, [], []])
        first_round_with_an_offer(t)
        t.pass_floor(0)
        floors.append((t.neg.floor, skipped(t, BO)))
    assert floors == [(2, 1), (2, 1)]


def test_a_travel_on_the_seats_clan_touches_it_anew():
    t = table(hands=[[], [], ["travel_orange"], []])
    first_round_with_an_offer(t)
    t.pass_floor(0)
    t.travel(2, "travel_orange", t.placard("orange"))  # Bo's placard sent travelling
    t.all_pass()
    assert t.neg.floor == 2
    t.pass_floor(2)
    t.pass_floor(3)
    t.pass_floor(0)
    assert t.neg.floor == BO


def test_a_new_boss_touches_everyone():
    t = table(hands=[[], [], ["boss"], []])
    first_round_with_an_offer(t)
    t.pass_floor(0)
    t.boss(2)
    t.all_pass()
    assert t.neg.boss == 2 and t.neg.floor == 2
    t.pass_floor(2)
    t.pass_floor(3)
    t.pass_floor(0)
    assert t.neg.floor == BO


def test_quiet_rounds_still_end_the_negotiation_when_every_seat_is_skipped():
    t = table(prefs=(True, True, True, True))
    t.open(0)
    t.pass_floor(0)
    t.floor_round()  # the first time round everyone is asked
    assert t.neg.quiet and skipped(t, BO) == 0
    assert {type(a) for a in t.legal(0).moves()} == {FailDeal, Propose}
    t.propose(0, 2, [], 1)  # the last proposal, to Cy: he is touched, the others are not
    t.pass_floor(0)
    assert t.neg.floor == 2 and skipped(t, BO) == 1
    t.pass_floor(2)  # Cy lets it go; Di is skipped
    assert t.neg.floor == 0 and t.neg.quiet and skipped(t, 3) == 1
    assert {type(a) for a in t.legal(0).moves()} == {FailDeal}
    t.fail(0)
    assert t.neg is None and t.state.turn == 1


def test_skips_replay_to_the_same_state():
    t = table()
    first_round_with_an_offer(t)
    t.pass_floor(0)
    data = t.game.to_data()
    again = game_from_data(data)
    assert again.state.hash() == t.state.hash()
    assert again.state.negotiation.floor_passed == {BO, 2, 3}
