"""card_play_reason: why a held card has no play now, from the seat's view alone, named by
the engine's own rule ids."""

from game.rules import Card, OpenDeal, PassFloor, Settings, Setup, apply, new_game
from game.rules.cards import DECK_COUNTS
from game.rules.explain import card_play_reason
from game.rules.seat_view import SeatView

# space 4 (index 3) needs C and G; Mei holds placards C and L, Ann W and G, Bo S and D
HANDS = [
    [Card.CLAN_ORANGE, Card.TRAVEL_GREY, Card.BOSS, Card.STOP, Card.RECRUIT, Card.CLAN_BLUE],
    [Card.CLAN_RED, Card.STOP, Card.RECRUIT, Card.RECRUIT, Card.RECRUIT],
    [Card.TRAVEL_ORANGE, Card.CLAN_GREEN, Card.RECRUIT, Card.BOSS, Card.CLAN_YELLOW],
]


def game(placards=(0, 2, 1, 2, 1, 0)):
    used = [0] * 16
    for h in HANDS:
        for c in h:
            used[c] += 1
    deck = [k for k in Card for _ in range(DECK_COUNTS[k] - used[k])]
    setup = Setup(
        placards=placards,
        hands=tuple(tuple(h) for h in HANDS),
        deck=tuple(deck),
        first_player=0,
        marker=3,
    )
    return new_game(3, 1, Settings(players=3), setup)


def test_outside_a_negotiation_cards_wait_for_one():
    st = game()
    v = SeatView.of(st, 0)
    assert card_play_reason(v, "clan_orange") == "negotiation.none"
    assert card_play_reason(v, "boss") == "negotiation.none"
    assert card_play_reason(v, "stop") == "stop.only_after_play"
    assert card_play_reason(v, "recruit") == "recruit.triple"  # one Recruitment card only


def test_in_a_negotiation_each_card_says_its_own_rule():
    st = game()
    apply(st, OpenDeal(0))  # Mei is the Boss on space 4 (C and G); the floor is hers
    v = SeatView.of(st, 0)
    assert card_play_reason(v, "clan_orange") is None  # G: she may lay it
    assert card_play_reason(v, "clan_blue") == "clan.not_on_space"  # S has no slot here
    assert card_play_reason(v, "boss") == "boss.already"
    assert card_play_reason(v, "travel_grey") is None
    # Ann does not have the floor yet
    assert card_play_reason(SeatView.of(st, 1), "clan_red") == "floor.not_yours"
    assert card_play_reason(SeatView.of(st, 1), "recruit") == "floor.not_yours"


def test_recruitment_takes_from_the_pool_first():
    # L (Liebgeld) lies in the pool: Ann's triple may take only it
    st = game(placards=(0, 2, 1, 2, 1, -1))
    apply(st, OpenDeal(0))
    apply(st, PassFloor(0))  # the floor goes to Ann
    v = SeatView.of(st, 1)
    assert card_play_reason(v, "recruit") is None  # a play exists: recruit L
    assert card_play_reason(v, "clan_red") is None
