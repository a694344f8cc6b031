"""The long worked example of deal 13 in the Chinese rulebook (seeds/001, section 6), end to
end: who ends as Boss, who is paid what, which cards return to hands, turn order afterwards.

Seats (clockwise): 0 正訓 (Blue, Magenta), 1 在英 (Red), 2 信英 (Yellow, Green), 3 善珠 (Orange).
Twelve deals are done; deal 13 is on space 0 (Red, Blue, Yellow + 2 of Magenta/Orange/Green,
6 dividends at $5M = $30M). The example plays "at any time", i.e. real-time mode.
"""

from game.rules import Phase, WindowMode
from game.rules.state import Rng
from tests.scenario import Scenario

J, Z, S, U = 0, 1, 2, 3
# The end-of-game die after tile 13 shows 5 in the book: pick a seed whose first roll is 5.
SEED = next(s for s in range(100) if Rng(s).die() == 5)


def make() -> Scenario:
    return Scenario(
        ["正訓", "在英", "信英", "善珠"],
        placards={"blue": J, "magenta": J, "red": Z, "yellow": S, "green": S, "orange": U},
        hands=[
            ["clan_green", "clan_yellow", "stop", "boss", "recruit", "recruit", "recruit"],
            ["boss", "boss", "clan_orange", "clan_magenta"],
            ["travel_blue", "recruit"],
            ["travel_blue", "clan_blue"],
        ],
        marker=0,
        first_player=J,
        tiles=[13, 14, 15],
        covered={s: t for t, s in enumerate(range(4, 16), start=1)},
        seed=SEED,
        window_mode=WindowMode.REAL_TIME,
    )


def test_deal_13_worked_example():
    t = make()
    st = t.state
    assert st.turn == J and st.phase is Phase.TURN

    # 正訓 opens; his Blue and Magenta agree automatically; he lays Green and Yellow.
    t.open(J)
    assert t.neg.proceeds == 30 and t.neg.boss == J
    t.lay(J, "green")
    t.lay(J, "yellow")
    # "$5M for Red" - "at least $8M" - accepted.
    t.propose(J, Z, [t.placard("red")], 5)
    t.offer(Z, [t.placard("red")], 8)
    t.accept(J, Z)
    assert st.negotiation.agreements[Z].amount == 8

    # 信英 sends Blue travelling; 正訓 stops it. Both cards are discarded.
    t.travel(S, "travel_blue", t.placard("blue"))
    t.stop(J)
    assert 1 not in t.neg.travel  # Blue is not travelling
    # 善珠 has a Travel card too; nobody stops it.
    t.travel(U, "travel_blue", t.placard("blue"))
    t.all_pass()
    assert 1 in t.neg.travel
    # 善珠 lays her Blue Clan card and asks $9M.
    t.lay(U, "blue")
    t.offer(U, [t.card(U, "blue")], 9)

    # "I'm the Boss!" - 在英; 正訓 answers with his own Boss card; 在英 has a second one.
    t.boss(Z)
    t.all_pass()
    assert t.neg.boss == Z
    assert Z not in t.neg.agreements and Z not in t.neg.pending  # his own Red is his now
    t.boss(J)
    t.all_pass()
    assert t.neg.boss == J
    t.boss(Z)
    t.all_pass()
    assert t.neg.boss == Z

    # 在英 lays Orange and Magenta; Red is his own.
    t.lay(Z, "orange")
    t.lay(Z, "magenta")
    # 善珠 now asks $10M for Blue; 正訓 offers his Yellow card for $10M; 信英 his placard for $8M.
    t.offer(U, [t.card(U, "blue")], 10)
    t.offer(J, [t.card(J, "yellow")], 10)
    t.offer(S, [t.placard("yellow")], 8)
    # 正訓 recruits 信英's Yellow placard; nobody stops it; 信英's offer lapses.
    t.recruit(J, "yellow")
    t.all_pass()
    assert st.placards[2] == J
    assert S not in t.neg.pending
    # "I said before, Yellow is $10M" - with both his Yellow sources.
    t.offer(J, [t.card(J, "yellow"), t.placard("yellow")], 10)
    t.accept(Z, J)
    t.accept(Z, U)
    t.going_once(Z)
    t.all_pass()

    # The bank pays 在英 $30M; he pays $10M to 善珠 and to 正訓 and keeps $10M.
    assert st.money == [10, 10, 0, 10]
    closed = next(e for e in t.events if e.type == "deal_closed")
    assert closed.boss == Z and closed.tile == 13 and closed.space == 0
    # Orange and Magenta (在英's) and Blue (善珠's) cards were involved and are discarded;
    # 正訓's Yellow placard was involved, so his Yellow card returns to his hand with Green.
    returned = {
        e.seat: sorted(c.key for c in e.cards) for e in t.events if e.type == "cards_returned"
    }
    assert returned == {J: ["clan_green", "clan_yellow"]}
    cleared = next(e for e in t.events if e.type == "table_cleared")
    assert sorted(c.key for c in cleared.discarded) == [
        "clan_blue",
        "clan_magenta",
        "clan_orange",
        "travel_blue",  # the Travel card on 正訓's Blue placard
    ]
    assert t.hand(J) == {"clan_green": 1, "clan_yellow": 1}
    assert t.hand(Z) == {} and t.hand(U) == {}
    # The tile goes on the space, the marker to the next free space, the die shows 5.
    assert st.covered[0] == 13 and st.marker == 1
    roll = next(e for e in t.events if e.type == "die_rolled")
    assert roll.value == 5 and roll.purpose == "end"
    # Not over; 信英, left of the last Boss 在英, plays next.
    assert st.phase is Phase.TURN and st.turn == S
