"""Negotiation (RULES §4, §5, §7): sources, agreements, every card kind, closing, failing."""

import pytest

from game.rules import (
    POOL,
    AcceptFormer,
    Card,
    Clan,
    FailDeal,
    GoingOnce,
    IllegalAction,
    LayClan,
    Offer,
    Pass,
    Phase,
    PlayBoss,
    PlayStop,
    PlayTravel,
    Propose,
    WindowMode,
    apply,
    laid,
)
from tests.scenario import Scenario

RT = WindowMode.REAL_TIME


def table(hands=None, placards=None, marker=3, mode=RT, **kw):
    """Four players; space 3 needs Red + Orange (3 dividends, $2M: $6M)."""
    placards = placards or {"red": 0, "orange": 1, "blue": 2, "yellow": 3}
    hands = hands or [[], [], [], []]
    return Scenario(
        ["Ann", "Bo", "Cy", "Di"],
        placards=placards,
        hands=hands,
        marker=marker,
        window_mode=mode,
        **kw,
    )


def rule_of(fn, *args):
    with pytest.raises(IllegalAction) as err:
        fn(*args)
    return err.value.rule


def test_nothing_before_lets_make_a_deal():
    t = table(hands=[["clan_orange"], ["travel_grey"], [], []])
    assert rule_of(t.lay, 0, "orange") == "negotiation.none"
    assert rule_of(t.travel, 1, "travel_grey", t.placard("red")) == "negotiation.none"


def test_boss_covers_with_own_placard_and_clan_card_then_others_get_a_last_chance():
    t = table(hands=[["clan_orange"], [], [], []])
    st = t.state
    t.open(0)
    assert st.negotiation.proceeds == 6
    assert GoingOnce(0) not in t.legal(0)  # Red alone does not cover
    t.lay(0, "orange")
    assert GoingOnce(0) in t.legal(0)
    t.going_once(0)
    # Even a Boss who covers alone gives the others a last chance (RULES §4).
    assert st.window.kind.value == "going_once" and sorted(st.window.waiting) == [1, 2, 3]
    t.all_pass()
    assert st.money == [6, 0, 0, 0]
    assert st.covered[3] == 1 and st.deals_closed == 1 and st.marker == 4
    assert Card.CLAN_ORANGE in st.discard  # involved Clan card discarded
    assert st.turn == 1 and st.phase is Phase.TURN


def test_offer_counter_accept_and_payment_and_clan_card_back_to_hand():
    t = table(
        hands=[[], ["clan_red"], [], []], placards={"red": 3, "orange": 1, "blue": 2, "yellow": 0}
    )
    st = t.state
    t.open(0)
    t.lay(1, "red")  # Bo lays a Red Clan card; Di has the Red placard
    red_card = t.card(1, "red")
    t.offer(1, [t.placard("orange"), red_card], 4)
    t.offer(3, [t.placard("red")], 3)
    t.propose(0, 1, [t.placard("orange")], 2)  # counter: only Orange, for $2M
    assert st.negotiation.pending[1].by_boss
    t.accept_proposal(1)
    t.accept(0, 3)
    assert st.negotiation.agreements[1].amount == 2 and st.negotiation.agreements[3].amount == 3
    t.going_once(0)
    t.all_pass()
    assert st.money == [1, 2, 0, 3]
    # Bo's Red card was not involved (Di's Red placard was agreed and is a placard): back to hand.
    assert st.hands[1][Card.CLAN_RED] == 1
    paid = [(e.payer, e.payee, e.amount, e.reason) for e in t.events if e.type == "paid"]
    assert paid == [(-1, 0, 6, "dividends"), (0, 1, 2, "agreement"), (0, 3, 3, "agreement")]


def test_agreements_never_exceed_the_proceeds():
    t = table()
    t.open(0)
    legal = t.legal(1)
    offer_range = next(c for c in legal.terms if isinstance(c.action, Offer))
    assert (offer_range.lo, offer_range.hi) == (0, 6)
    assert rule_of(t.offer, 1, [t.placard("orange")], 7) == "agreement.total_exceeds_proceeds"
    t.offer(1, [t.placard("orange")], 5)
    t.offer(2, [], 2)  # a fee request from a player with no source
    t.accept(0, 1)
    assert rule_of(t.accept, 0, 2) == "agreement.total_exceeds_proceeds"
    assert rule_of(t.offer, 2, [], 2) == "agreement.total_exceeds_proceeds"
    assert rule_of(t.propose, 0, 2, [], 2) == "agreement.total_exceeds_proceeds"
    t.propose(0, 2, [], 1)  # a fee for letting the deal through
    t.accept_proposal(2)
    t.going_once(0)
    t.all_pass()
    assert t.state.money == [0, 5, 1, 0]


def test_offers_only_of_ones_own_usable_sources():
    t = table()
    t.open(0)
    assert rule_of(t.offer, 1, [t.placard("red")], 1) == "agreement.sources"  # Ann's placard
    assert rule_of(t.offer, 2, [t.placard("blue")], 1) == "agreement.sources"  # not on this space
    assert rule_of(t.propose, 0, 0, [], 1) == "agreement.self"


def test_either_side_withdraws_pending_terms_but_an_accepted_agreement_binds():
    t = table()
    st = t.state
    t.open(0)
    t.offer(1, [t.placard("orange")], 3)
    t.withdraw(1, 1)
    assert 1 not in st.negotiation.pending
    t.offer(1, [t.placard("orange")], 3)
    t.withdraw(0, 1)
    assert 1 not in st.negotiation.pending
    t.propose(0, 1, [t.placard("orange")], 2)
    t.accept_proposal(1)
    assert rule_of(t.withdraw, 1, 1) == "agreement.nothing_pending"


def test_travel_on_placard_lasts_the_negotiation_and_its_agreement_lapses():
    t = table(hands=[[], [], ["travel_orange", "travel_red"], []])
    st = t.state
    t.open(0)
    t.offer(1, [t.placard("orange")], 2)
    t.accept(0, 1)
    assert rule_of(t.travel, 2, "travel_red", t.placard("orange")) == "travel.colour"
    t.travel(2, "travel_orange", t.placard("orange"))
    assert st.window.kind.value == "travel"
    assert not t.legal(0).of_type(GoingOnce)  # nothing but answers while a window is open
    t.all_pass()
    assert Clan.ORANGE in st.negotiation.travel
    assert 1 not in st.negotiation.agreements
    lapsed = next(e for e in t.events if e.type == "agreement_lapsed")
    assert lapsed.seat == 1 and lapsed.kept == ()
    assert not any(isinstance(a, Offer) and a.sources for a in t.legal(1))  # Orange is away
    t.fail(0)
    assert Card.TRAVEL_ORANGE in st.discard and st.phase is Phase.TURN and st.turn == 1


def test_travel_on_a_clan_card_discards_both_at_once_and_keeps_the_rest_of_an_agreement():
    t = table(
        hands=[[], ["clan_red"], ["travel_grey"], []],
        placards={"red": 3, "orange": 1, "blue": 2, "yellow": 0},
    )
    st = t.state
    t.open(0)
    t.lay(1, "red")
    card = t.card(1, "red")
    t.offer(1, [t.placard("orange"), card], 5)
    t.accept(0, 1)
    t.travel(2, "travel_grey", card)
    t.all_pass()
    assert st.negotiation.card(card.ref) is None
    assert st.discard[-2:] == [Card.CLAN_RED, Card.TRAVEL_GREY]
    # the agreement lapsed; Orange stays on offer for the same $5M until the Boss re-accepts
    assert 1 not in st.negotiation.agreements
    assert st.negotiation.pending[1].sources == (t.placard("orange"),)
    assert st.negotiation.pending[1].amount == 5


def test_stop_cancels_travel_and_cannot_stop_going_once():
    t = table(hands=[["stop"], [], ["travel_red"], ["stop"]])
    st = t.state
    t.open(0)
    assert rule_of(t.stop, 0) == "stop.only_after_play"
    t.travel(2, "travel_red", t.placard("red"))
    t.stop(0)
    assert not st.negotiation.travel and st.window is None
    assert st.discard[-2:] == [Card.TRAVEL_RED, Card.STOP]
    t.offer(1, [t.placard("orange")], 1)
    t.accept(0, 1)
    t.going_once(0)
    assert PlayStop(3) not in t.legal(3)
    assert rule_of(t.stop, 3) == "stop.only_after_play"
    t.all_pass()
    assert st.deals_closed == 1


def test_boss_card_changes_boss_agreements_fall_back_and_turn_passes_left_of_last_boss():
    t = table(hands=[[], [], ["boss", "clan_red"], ["boss"]])
    st = t.state
    t.open(0)
    t.offer(1, [t.placard("orange")], 2)
    t.accept(0, 1)
    t.boss(2)
    assert st.window.kind.value == "boss"
    t.all_pass()
    neg = st.negotiation
    assert neg.boss == 2 and not neg.agreements
    assert neg.pending[1].was_agreed and neg.pending[1].amount == 2
    # Ann's Red placard no longer counts automatically; Cy lays his own Red card
    t.lay(2, "red")
    assert AcceptFormer(2) in t.legal(2)
    t.accept_former(2)
    assert neg.agreements[1].amount == 2
    assert PlayBoss(2) not in t.legal(2)
    t.boss(3)
    t.all_pass()
    assert st.negotiation.boss == 3
    # Di has no Red and the old agreements wait for her; she fails: next is left of Di
    t.fail(3)
    assert st.turn == 0 and st.hands[2][Card.CLAN_RED] == 1
    assert st.discard.count(Card.BOSS) == 2


def test_variant_v1_keeps_the_turn_order():
    t = table(hands=[[], [], ["boss"], []], variants={"V1"})
    t.open(0)
    t.boss(2)
    t.all_pass()
    t.fail(2)
    assert t.state.turn == 1


def test_recruitment_takes_from_the_pool_first_and_a_recruited_boss_placard_changes_hands():
    t = table(
        hands=[[], ["recruit"] * 6, [], []],
        placards={"red": 0, "orange": 1, "blue": 2, "yellow": 3},
    )
    st = t.state
    assert st.placards[Clan.MAGENTA] == POOL and st.placards[Clan.GREEN] == POOL
    t.open(0)
    assert rule_of(t.recruit, 1, "red") == "recruit.pool_first"
    t.recruit(1, "magenta")
    t.all_pass()
    t.recruit(1, "green")
    t.all_pass()
    assert POOL not in st.placards
    with pytest.raises(IllegalAction) as err:
        t.recruit(1, "red")
    assert err.value.rule == "recruit.triple"


def test_recruiting_the_boss_placard_and_boss_recruiting():
    t = table(
        hands=[["recruit"] * 3, ["recruit"] * 3, [], []],
        placards={"red": 0, "orange": 1, "blue": 2, "yellow": 3, "magenta": 2, "green": 3},
    )
    st = t.state
    t.open(0)
    t.recruit(1, "red")  # Bo takes the Boss's Red: no longer committed for Ann
    t.all_pass()
    assert st.placards[Clan.RED] == 1
    assert GoingOnce(0) not in t.legal(0)
    t.offer(1, [t.placard("red"), t.placard("orange")], 3)
    t.recruit(0, "orange")  # the Boss takes Orange back into the deal: committed at once
    t.all_pass()
    assert st.negotiation.pending[1].sources == (t.placard("red"),)
    t.accept(0, 1)
    t.going_once(0)
    t.all_pass()
    assert st.money == [3, 3, 0, 0]


def test_clan_counts_once_and_choice_groups_need_different_clans():
    # Space 1: 2 of {Orange, Blue, Yellow} + 1 of {Magenta, Green}.
    t = table(
        hands=[["clan_orange", "clan_orange", "clan_green"], [], [], []],
        placards={"red": 1, "orange": 1, "blue": 2, "yellow": 3},
        marker=1,
    )
    t.open(0)
    t.lay(0, "orange")
    t.lay(0, "orange")
    t.lay(0, "green")
    assert GoingOnce(0) not in t.legal(0)  # two Orange sources fill one slot only
    t.offer(2, [t.placard("blue")], 1)
    t.accept(0, 2)
    assert GoingOnce(0) in t.legal(0)
    t.going_once(0)
    t.all_pass()
    closed = next(e for e in t.events if e.type == "deal_closed")
    assert sorted(closed.clans) == [Clan.BLUE, Clan.ORANGE, Clan.GREEN]
    # one Orange card was involved, the other returns to the hand
    assert t.state.hands[0][Card.CLAN_ORANGE] == 1


def test_failed_deal_returns_laid_cards_and_discards_the_rest():
    t = table(hands=[["clan_orange"], ["clan_red", "travel_orange"], [], []])
    st = t.state
    t.open(0)
    t.lay(0, "orange")
    t.lay(1, "red")
    t.travel(1, "travel_orange", laid(0))
    t.all_pass()
    assert FailDeal(0) in t.legal(0)
    assert rule_of(t.fail, 1) == "boss.only"
    t.fail(0)
    assert st.hands[1][Card.CLAN_RED] == 1 and st.hands[0][Card.CLAN_ORANGE] == 0
    assert st.phase is Phase.TURN and st.turn == 1 and 3 not in st.covered
    assert st.deals_failed == 1


def test_going_once_is_cancelled_by_an_offer_or_card_and_negotiation_goes_on():
    t = table(hands=[["clan_orange"], [], ["travel_red"], []])
    st = t.state
    t.open(0)
    t.lay(0, "orange")
    t.going_once(0)
    t.offer(2, [], 1)  # any offer cancels the call
    assert st.window is None and "call_cancelled" in t.event_types()
    t.going_once(0)
    t.travel(2, "travel_red", t.placard("red"))  # so does a card
    assert st.window.kind.value == "travel"
    t.all_pass()
    assert GoingOnce(0) not in t.legal(0)


def test_negotiation_limit_leaves_only_close_or_fail_and_cards_in_windows():
    t = table(hands=[["clan_orange"], ["travel_orange"], [], []], negotiation_limit=3)
    st = t.state
    t.open(0)
    t.offer(1, [], 1)
    t.withdraw(1, 1)
    t.lay(0, "orange")  # the third negotiation move spends the limit
    assert "negotiation_limit_reached" in t.event_types()
    assert {type(a) for a in t.legal(0).moves()} == {GoingOnce, FailDeal}
    assert not t.legal(1).moves()
    assert rule_of(t.offer, 1, [], 1) == "negotiation.limit"
    t.going_once(0)
    moves = {type(a) for a in t.legal(1).moves()}
    assert moves == {Pass, PlayTravel}  # no offers, but cards may still be played
    t.travel(1, "travel_orange", laid(0))
    t.all_pass()
    assert {type(a) for a in t.legal(0).moves()} == {FailDeal}
    t.fail(0)
    assert st.deals_failed == 1


def test_host_clock_time_up():
    from game.rules import HOST, TimeUp

    t = table(hands=[["clan_orange"], [], [], []])
    t.open(0)
    t.do(TimeUp(HOST))
    assert {type(a) for a in t.legal(0).moves()} == {FailDeal}
    assert not t.legal(1).moves()
    assert rule_of(apply, t.state, TimeUp(HOST)) == "negotiation.none"


def test_lay_only_clans_the_space_uses_and_boss_cannot_play_boss():
    t = table(hands=[["clan_blue", "boss"], [], [], []])
    t.open(0)
    assert LayClan(0, Clan.BLUE) not in t.legal(0)
    assert rule_of(t.lay, 0, "blue") == "clan.not_on_space"
    assert rule_of(t.boss, 0) == "boss.already"


def test_propose_to_every_other_player_with_their_sources():
    t = table()
    t.open(0)
    props = {c.action.to: c.pool for c in t.legal(0).terms if isinstance(c.action, Propose)}
    assert props == {1: (t.placard("orange"),), 2: (), 3: ()}


def _involved_by_enumeration(state):
    """The rule of `involved` written the slow, obvious way: try every clan subset."""
    from itertools import product

    from game.rules import negotiation as nego

    neg = state.negotiation
    best = {}
    for entry in nego.committed(state):
        clan, src, rank, _owner = entry
        order = (rank, 0 if src.kind.value == "placard" else 1, src.ref)
        if clan not in best or order < best[clan][0]:
            best[clan] = (order, entry)
    clans = sorted(best)
    need = state.board.spaces[neg.space].investors
    cover = state.board.cover[neg.space]
    best_key = best_chosen = None
    for picks in product((0, 1), repeat=len(clans)):
        chosen_clans = [c for c, p in zip(clans, picks, strict=True) if p]
        mask = sum(1 << c for c in chosen_clans)
        if len(chosen_clans) != need or not cover[mask]:
            continue
        chosen = [best[c][1] for c in chosen_clans]
        key = (
            sum(1 for e in chosen if e[2] == nego.RANK_OPPONENT_PLACARD),
            sum(1 for e in chosen if e[2] >= nego.RANK_AGREED_PLACARD),
            sum(1 for e in chosen if e[1].kind.value == "card"),
            chosen_clans,
        )
        if best_key is None or key < best_key:
            best_key, best_chosen = key, chosen
    return best_chosen


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_involved_sources_match_an_exhaustive_search(players):
    """The engine picks the involved sources from the board's precomputed minimal covers;
    over every negotiation moment of a few random games it must pick what trying every clan
    subset picks (two-player games include the opponent's placards used without consent)."""
    from game.bots import make_bot
    from game.rules import Game, Settings
    from game.rules import negotiation as nego
    from game.table.simulate import play

    checked = covered = 0

    def check(game, _action, _events):
        nonlocal checked, covered
        st = game.state
        if st.negotiation is None:
            return
        got = nego._involved(st)
        want = _involved_by_enumeration(st)
        assert (got is None) == (want is None)
        if got is not None:
            assert got[0] == want
            covered += 1
        checked += 1

    for seed in range(3):
        game = Game([f"P{i}" for i in range(players)], seed, Settings(players=players))
        play(game, [make_bot("random", s, seed) for s in range(players)], on_step=check)
    assert checked > 100 and covered > 10
