"""The heuristic and search bots: legal, honest, deterministic, and sensible in the
situations the rules make interesting. (Strength is measured by `bench/bots.py`.)"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from game.bots import make_bot
from game.bots.heuristic import PERSONALITIES, HeuristicBot, Policy, personality, plan_deal
from game.bots.obs import Memory, Obs, pile_estimate
from game.bots.search import SearchBot, parse_params, score, utility
from game.rules import (
    Accept,
    AcceptProposal,
    Card,
    Discard,
    FailDeal,
    GoingOnce,
    Offer,
    OpenDeal,
    Pass,
    PassFloor,
    PlayBoss,
    PlayStop,
    Propose,
    Recruit,
    Roll,
    Settings,
    WindowMode,
    hidden_twin,
    legal_actions,
    legal_from_data,
    view,
    waiting_for,
)
from game.rules.seat_view import SeatView
from game.rules.view import events_for
from game.table.simulate import simulate_game
from tests.scenario import Scenario

FAST_SEARCH = "search:steps=120+ms=0"  # deterministic: no wall-clock cap


def _choose(bot, st, seat, must=True):
    return bot.choose(view(st, seat), legal_actions(st, seat).moves(), must)


# -- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "mode", "specs"),
    [
        (3, WindowMode.ASK_AROUND, ["heuristic", "heuristic:greedy", "random"]),
        (4, WindowMode.ASK_AROUND, ["heuristic", "heuristic:tight", "heuristic:chaotic", "random"]),
        (4, WindowMode.REAL_TIME, ["heuristic", "heuristic:greedy", "random", "heuristic"]),
        (6, WindowMode.REAL_TIME, ["heuristic:tight", "random"] * 3),
        (2, WindowMode.ASK_AROUND, ["heuristic", "heuristic:greedy"]),
        (5, WindowMode.ASK_AROUND, ["heuristic"] * 5),
    ],
)
def test_heuristic_games_end_legally(players, mode, specs):
    # `apply` raises IllegalAction on anything illegal: finishing is the legality check.
    for seed in range(3):
        game, result = simulate_game(
            players, seed, specs, Settings(players=players, window_mode=mode)
        )
        assert game.state.phase.value == "game_over"
        assert result.deals_closed >= 7


@pytest.mark.parametrize("mode", [WindowMode.ASK_AROUND, WindowMode.REAL_TIME])
def test_search_game_ends_legally(mode):
    specs = [FAST_SEARCH, "heuristic", "random"]
    game, _ = simulate_game(3, 11, specs, Settings(players=3, window_mode=mode))
    assert game.state.phase.value == "game_over"


def test_games_are_deterministic_with_bots():
    specs = [FAST_SEARCH, "heuristic:chaotic", "heuristic", "random"]
    a, _ = simulate_game(4, 5, specs)
    b, _ = simulate_game(4, 5, specs)
    assert [x.to_data() for x in a.log] == [x.to_data() for x in b.log]
    c, _ = simulate_game(4, 6, specs)
    assert [x.to_data() for x in c.log] != [x.to_data() for x in a.log]


def test_heuristic_beats_random_more_often_than_parity():
    # A cheap smoke check of strength (the real figures come from bench/bots.py).
    wins = 0.0
    for seed in range(12):
        k = seed % 4
        specs = ["random"] * 4
        specs[k] = "heuristic"
        _, r = simulate_game(4, 300 + seed, specs)
        wins += 1 / len(r.winners) if k in r.winners else 0
    assert wins / 12 > 0.5


# -- honesty ----------------------------------------------------------------------------------


def _states_along_a_game(players=4, seed=21, every=9, specs=None):
    states = []

    def grab(game, action, events):
        if len(game.log) % every == 0:
            states.append(game.state.clone())

    simulate_game(players, seed, specs or ["heuristic"] * players, on_step=grab)
    return states


@pytest.mark.parametrize("spec", ["heuristic", "heuristic:chaotic", FAST_SEARCH])
def test_hidden_cards_do_not_change_a_choice(spec):
    rng = random.Random(3)
    states = _states_along_a_game(every=5)
    checked = 0
    for st in states[:: 2 if spec.startswith("search") else 1]:
        for seat in range(st.players):
            legal = legal_actions(st, seat).moves()
            if not legal:
                continue
            twin = hidden_twin(st, seat, rng)
            assert twin.hands != st.hands or twin.deck != st.deck
            v1, v2 = view(st, seat), view(twin, seat)
            assert v1 == v2
            a1 = make_bot(spec, seat, 9).choose(v1, legal, True)
            a2 = make_bot(spec, seat, 9).choose(v2, legal_actions(twin, seat).moves(), True)
            assert a1 == a2
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("spec", ["heuristic:greedy", FAST_SEARCH])
def test_bots_decide_from_plain_data_only(spec):
    # The view and the legal actions go through JSON and the wire format: nothing the bot
    # reads can reach back into the state.
    states = _states_along_a_game(every=23)
    for st in states:
        seat = (waiting_for(st) or [0])[0]
        legal = legal_actions(st, seat).moves()
        if not legal:
            continue
        plain_view = json.loads(json.dumps(view(st, seat)))
        plain_legal = legal_from_data(json.loads(json.dumps(legal.to_data())))
        a1 = make_bot(spec, seat, 4).choose(view(st, seat), legal, True)
        a2 = make_bot(spec, seat, 4).choose(plain_view, plain_legal, True)
        assert a1 == a2


def test_observation_from_a_state_is_the_seats_view_and_the_states_money():
    # The search bot's rollouts read sampled states; they must see what a view shows.
    for st in _states_along_a_game(players=3, seed=8, every=3):
        for seat in range(st.players):
            a = Obs.from_view(view(st, seat), list(st.money))
            b = Obs.from_state(st, seat)
            assert b.view == a.view == SeatView.of(st, seat)
            assert b.money == a.money == st.money
            assert (b.hand, b.placards, b.hand_counts) == (a.hand, a.placards, a.hand_counts)
            assert b.unseen() == a.unseen()


def test_memory_tracks_hidden_money_from_public_payments():
    memories = [Memory(s) for s in range(4)]
    seen = []

    def listen(game, action, events):
        for s, m in enumerate(memories):
            m.observe(events_for(events, s))
        if len(game.log) % 17 == 0:
            st = game.state
            for s in range(4):
                seen.append((memories[s].money_for(SeatView.of(st, s)), list(st.money)))

    from game.rules import Game
    from game.table.simulate import play

    game = Game(["A", "B", "C", "D"], 12, Settings(players=4))
    for s, m in enumerate(memories):
        from game.rules import opening_events

        m.observe(events_for(opening_events(game.state), s))
    bots = [make_bot("heuristic", s, 1) for s in range(4)]
    play(game, bots, on_step=listen)
    assert seen and all(est == true for est, true in seen)
    assert any(max(true) > 0 for _, true in seen)


def test_memory_without_history_falls_back_to_the_piles():
    st = _states_along_a_game(every=40)[-1]
    v = SeatView.of(st, 0)
    est = Memory(0).money_for(v)  # joined mid-game: heard no payments
    assert est[0] == st.money[0]
    for s in range(1, 4):
        assert abs(est[s] - st.money[s]) <= 3
        assert est[s] == pile_estimate(v.players[s].money_pile)


# -- personalities and parameters --------------------------------------------------------------


def test_personalities_by_name_and_with_changes():
    assert personality(None) is PERSONALITIES["balanced"]
    assert personality("greedy") is PERSONALITIES["greedy"]
    p = personality("greedy+fee=0+floor=0.9")
    assert p.fee == 0 and p.floor == 0.9 and p.ask_sole == PERSONALITIES["greedy"].ask_sole
    assert make_bot("heuristic:tight", 0, 1).personality.name == "tight"
    with pytest.raises(ValueError):
        personality("reckless")
    with pytest.raises(ValueError):
        personality("fee=lots")
    with pytest.raises(ValueError):
        personality("colour=3")
    assert parse_params("steps=50+ms=20")["steps"] == 50
    assert parse_params(None)["ms"] == 220.0  # a table never waits long by default
    assert parse_params(None)["talk"] and not parse_params("talk=0")["talk"]
    assert parse_params("ms=0")["ms"] is None  # ... unless asked to be deterministic
    with pytest.raises(ValueError):
        make_bot("search:depth=3", 0, 1)


# -- situations ---------------------------------------------------------------------------------

# Four players: Ann (0) Red+pool, Bo (1) Blue, Cy (2) Yellow, Di (3) Orange; Magenta and
# Green in the pool. Space 3 needs Red and Orange (3 dividends); space 10 Blue, Red, Orange.
PLACARDS = {"red": 0, "blue": 1, "yellow": 2, "orange": 3}


FILLER = ["recruit", "recruit", "travel_grey"]  # hands not given: a few cards, no triple


def _scenario(hands, marker=3, **kw):
    hands = [list(h) for h in hands] + [list(FILLER) for _ in range(4 - len(hands))]
    return Scenario(["Ann", "Bo", "Cy", "Di"], placards=PLACARDS, hands=hands, marker=marker, **kw)


def _bot(seat, spec="heuristic"):
    return make_bot(spec, seat, 1)


def test_boss_calls_going_once_as_soon_as_covered():
    t = _scenario([["clan_orange"]])
    t.open(0)
    a = _choose(_bot(0), t.state, 0)
    assert a.type == "lay_clan"  # its own Clan card covers Orange for free
    t.do(a)
    assert _choose(_bot(0), t.state, 0) == GoingOnce(0)


def test_active_player_deals_when_it_covers_alone_and_rolls_when_it_cannot():
    # Late in the game ($5M a dividend) a deal it covers alone beats three more cards.
    t = _scenario([["clan_orange", "recruit"]], tiles=[13, 14, 15])
    assert _choose(_bot(0), t.state, 0) == OpenDeal(0)
    # Early on, the same small deal is worth less than building a hand.
    t = _scenario([["clan_orange", "recruit"]])
    assert _choose(_bot(0), t.state, 0) == Roll(0)
    # space 14 needs Magenta, which lies in the pool: only a Clan card nobody is known to
    # hold could fill it
    t2 = _scenario([["recruit", "recruit"]], marker=14)
    assert _choose(_bot(0), t2.state, 0) == Roll(0)


def test_investor_asks_more_as_sole_source_than_as_one_of_several():
    # Space 15: Yellow + 1 of {Magenta, Green} + 1 of {Red, Blue}. Bo (Blue) competes with
    # Ann's Red for the second group; Cy's Yellow is required and only Cy has it.
    t = _scenario([["clan_magenta"]], marker=15, first_player=3)
    t.open(3)  # Di is Boss: needs Yellow (Cy, sole), Magenta/Green, Red/Blue (Ann or Bo)
    t.pass_floor(3)
    t.pass_floor(0)
    bo = _choose(_bot(1), t.state, 1)
    t.pass_floor(1)
    cy = _choose(_bot(2), t.state, 2)
    assert isinstance(bo, Offer) and isinstance(cy, Offer)
    assert cy.amount > bo.amount


def test_investor_concedes_as_the_limit_runs_out():
    t = _scenario([["clan_orange"]], marker=10, first_player=3)
    t.open(3)  # Di: needs Blue (Bo) and Red (Ann)
    t.pass_floor(3)
    early = _choose(_bot(0), t.state, 0)
    t.state.negotiation.actions = 40  # most of the 60-action limit spent
    t.state._legal_cache.clear()
    late = _choose(_bot(0), t.state, 0)
    assert isinstance(early, Offer) and isinstance(late, Offer)
    assert late.amount < early.amount


def test_boss_accepts_a_fair_offer_and_counters_a_greedy_one():
    for amount, fair in ((2, True), (8, False)):
        t = _scenario(
            [[]], marker=3, tiles=list(range(6, 16)), first_player=3
        )  # price 3: proceeds 9
        t.open(3)  # Di (Orange) needs Red from Ann
        t.pass_floor(3)
        t.offer(0, [t.placard("red")], amount)
        t.floor_round()
        a = _choose(_bot(3), t.state, 3)
        if fair:
            assert a == Accept(3, 0)
        else:
            assert isinstance(a, Propose) and a.to == 0 and 0 < a.amount < amount


def test_investor_accepts_a_counter_above_its_floor_and_not_below():
    outcomes = []
    for amount in (6, 2):
        t = _scenario([[]], marker=3, tiles=list(range(6, 16)), first_player=3)
        t.open(3)
        t.propose(3, 0, [t.placard("red")], amount)
        t.pass_floor(3)
        outcomes.append(_choose(_bot(0), t.state, 0))
    assert outcomes[0] == AcceptProposal(0)
    assert isinstance(outcomes[1], Offer) and outcomes[1].amount > 2


def test_boss_fails_a_deal_nobody_can_cover():
    # Space 14 needs Magenta and Orange. Magenta lies in the pool, so only a Magenta Clan
    # card can fill it: while one may be out there the Boss waits; once a quiet round has
    # passed, or every Magenta card is in the discard pile, it fails the deal.
    t = _scenario([[]], marker=14)
    t.open(0)
    assert _choose(_bot(0), t.state, 0) != FailDeal(0)
    t.state.negotiation.quiet = True
    t.state._legal_cache.clear()
    assert _choose(_bot(0), t.state, 0) == FailDeal(0)

    t = _scenario([[]], marker=14)
    st = t.state
    for _ in range(4):
        st.deck.remove(Card.CLAN_MAGENTA)
        st.discard.append(Card.CLAN_MAGENTA)
    t.open(0)
    assert _choose(_bot(0), t.state, 0) == FailDeal(0)


def test_boss_plays_stop_against_a_boss_card_on_its_rich_deal():
    t = _scenario([["clan_orange", "stop"], ["boss"]], marker=3, tiles=list(range(13, 16)))
    t.open(0)
    t.lay(0, "orange")
    t.pass_floor(0)
    t.boss(1)  # Bo takes over a $15M deal Ann covers alone
    assert t.state.window is not None
    # ask-around: Cy and Di are asked first
    t.pass_(2)
    t.pass_(3)
    assert _choose(_bot(0), t.state, 0) == PlayStop(0)


def test_a_player_without_a_stake_lets_a_boss_card_pass():
    t = _scenario([["clan_orange"], ["boss"], ["stop"]], marker=3)
    t.open(0)
    t.lay(0, "orange")
    t.pass_floor(0)
    t.boss(1)
    assert _choose(_bot(2), t.state, 2) == Pass(2)  # cheap deal, not its business


def test_boss_card_steals_a_rich_deal_it_can_cover():
    # Space 3 (Red, Orange) at $5M: $15M. Bo holds Red and Orange Clan cards and a Boss card.
    t = _scenario(
        [[], ["boss", "clan_red", "clan_orange"]],
        marker=3,
        tiles=list(range(13, 16)),
        first_player=2,
    )
    t.open(2)  # Cy (Yellow) opens: needs both Red and Orange from others
    t.pass_floor(2)
    t.pass_floor(3)
    t.pass_floor(0)
    a = _choose(_bot(1), t.state, 1)
    assert a == PlayBoss(1) or a.type == "lay_clan"


def test_discard_keeps_boss_and_stop_cards():
    hand = ["boss", "stop", "stop", "clan_red", "recruit", "recruit", "recruit", "recruit"]
    hand += ["recruit", "recruit", "recruit", "travel_blue"]
    t = _scenario([hand], marker=3, deck_top=["recruit", "recruit", "travel_green"])
    t.roll(0)
    t.draw(0)
    assert t.state.phase.value == "discard"
    a = _choose(_bot(0), t.state, 0)
    assert isinstance(a, (Discard, Recruit))
    if isinstance(a, Discard):
        assert a.card.key not in ("boss", "stop")


def test_recruitment_triple_takes_the_pool_placard_worth_most():
    t = _scenario([["recruit", "recruit", "recruit"]], marker=3, first_player=3)
    t.open(3)
    t.pass_floor(3)
    pol = Policy(personality(None), random.Random(1))
    o = Obs.from_view(view(t.state, 0))
    values = {c: pol.placard_value(o, c) for c in (3, 5)}  # Magenta, Green in the pool
    a = _choose(_bot(0), t.state, 0)
    if isinstance(a, Recruit):
        assert int(a.clan) == max(values, key=values.get)


def test_leader_is_asked_more_late_in_the_game():
    asks = []
    for money in ([0, 0, 0, 0], [0, 0, 0, 60]):
        t = _scenario(
            [[]], marker=3, tiles=[12, 13, 14, 15], money=money, hidden_money=False, first_player=3
        )
        t.open(3)  # Di (Orange) needs Red from Ann
        t.pass_floor(3)
        asks.append(_choose(_bot(0), t.state, 0).amount)
    assert asks[1] > asks[0]


def test_plan_finds_the_cheapest_cover():
    t = _scenario([["clan_blue"]], marker=15)
    t.open(0)  # Ann: Yellow (Cy) + Magenta/Green (pool: only Clan cards) + Red (own)
    o = Obs.from_view(view(t.state, 0))
    neg = o.neg
    plan = plan_deal(o, neg.space, 0, neg.proceeds, neg.committed_mask, neg.pending, neg.laid)
    assert plan.feasible
    assert 2 in plan.seats  # Cy's Yellow is required
    assert not plan.lay  # Red covers the Red/Blue group: no need to spend the Blue card


# -- real time and the search ------------------------------------------------------------------


def test_real_time_bots_may_let_the_moment_pass():
    t = _scenario(
        [["clan_orange"], [], []], marker=10, window_mode=WindowMode.REAL_TIME, first_player=3
    )
    t.open(3)
    # Cy has nothing this deal uses: nothing to do, nobody waits for Cy
    assert _choose(_bot(2), t.state, 2, must=False) is None
    assert _choose(_bot(2, FAST_SEARCH), t.state, 2, must=False) is None
    # Ann holds the Red the Boss needs: she makes an offer unprompted
    assert isinstance(_choose(_bot(0), t.state, 0, must=False), Offer)


def test_real_time_boss_out_of_patience_makes_one_last_proposal_then_fails():
    # Price 3: proceeds 9. Di (Orange) is Boss and needs Ann's Red; Ann stays silent.
    t = _scenario(
        [[]], marker=3, tiles=list(range(6, 16)), first_player=3,
        window_mode=WindowMode.REAL_TIME,
    )
    t.open(3)
    red = t.placard("red")
    t.propose(3, 0, [red], 1)
    boss = _bot(3)
    # Before its patience runs out the Boss waits for an answer.
    assert _choose(boss, t.state, 3, must=False) is None
    # Out of patience: its last word, at its reserve, to the one seat it needs...
    last = _choose(boss, t.state, 3, must=True)
    assert isinstance(last, Propose) and last.to == 0 and last.sources == (red,)
    assert 1 < last.amount < 9
    t.do(last)
    # ... and once that stands unanswered too, the deal fails.
    assert _choose(boss, t.state, 3, must=True) == FailDeal(3)


def test_search_with_one_sensible_move_does_not_search():
    t = _scenario([["clan_orange"]], marker=3)
    t.open(0)
    t.lay(0, "orange")
    bot = SearchBot(0, 1, "steps=100+ms=0")
    a = _choose(bot, t.state, 0)
    assert a == GoingOnce(0) or bot.last_stats is not None


def test_search_finds_the_better_move_when_the_heuristic_errs():
    # Put the failing move first (as if it were the heuristic's choice): the rollouts show
    # that closing the covered $12M deal is better by far, and the search switches.
    t = _scenario([["clan_orange"]], marker=3, tiles=list(range(10, 16)))
    t.open(0)
    t.lay(0, "orange")
    bot = SearchBot(0, 1, "steps=300+ms=0")
    v = SeatView.of(t.state, 0)
    legal = legal_actions(t.state, 0).moves()
    cands = bot.policy.candidates(Obs.of(v), legal)
    assert cands[0] == GoingOnce(0) and FailDeal(0) in cands
    worse_first = [FailDeal(0)] + [a for a in cands if a != FailDeal(0)]
    assert bot._search(v, worse_first, bot.memory.money_for(v)) == GoingOnce(0)
    stats = {type(a).__name__: m for a, m, _n in bot.last_stats}
    assert stats["GoingOnce"] > stats["FailDeal"] + 0.1


def test_utility_ranks_money():
    st = _states_along_a_game(every=50)[-1].clone()
    st.money = [10, 20, 30, 40]
    us = [utility(st, s) for s in range(4)]
    assert us == sorted(us)
    st.money = [40, 30, 20, 10]
    assert utility(st, 0) > utility(st, 3)
    # weighted toward first place: any place but the first is worth less than by rank alone
    scores = score(st)
    top = scores.index(max(scores))
    for s in range(4):
        if s != top:
            assert utility(st, s, win_weight=0.5) < utility(st, s)
    assert parse_params("win=0.5")["win"] == 0.5


def test_heuristic_bot_needs_events_and_the_random_bot_does_not():
    assert HeuristicBot.wants_events and SearchBot.wants_events
    assert not make_bot("random", 0, 1).wants_events


def _decisions_along_a_game(every: int):
    """(state, seat, legal moves, the seat's observation, a fresh heuristic policy) for every
    seat with a move at the states `_states_along_a_game` stops at."""
    for st in _states_along_a_game(every=every):
        for seat in range(st.players):
            legal = legal_actions(st, seat).moves()
            if legal:
                o = Obs.from_view(view(st, seat))
                yield st, seat, legal, o, Policy(personality(None), random.Random(1))


def test_candidates_start_with_the_heuristic_choice_and_are_legal():
    for st, seat, legal, o, pol in _decisions_along_a_game(every=5):
        cands = pol.candidates(o, legal)
        again = Policy(personality(None), random.Random(1)).decide(
            Obs.from_view(view(st, seat)), legal
        )
        assert cands[0] == again
        assert len(set(cands)) == len(cands) <= 5
        for a in cands:
            assert a in legal_actions(st, seat)


def test_search_price_candidates_are_legal_and_keep_the_heuristic_choice_first():
    from game.bots.search import MAX_CANDIDATES, more_prices

    for st, seat, legal, o, pol in _decisions_along_a_game(every=3):
        base = pol.candidates(o, legal)
        cands = more_prices(pol, o, legal, base)
        assert cands[0] == base[0]
        assert len(set(cands)) == len(cands) <= MAX_CANDIDATES
        for a in cands:
            assert a in legal_actions(st, seat)


def test_search_compares_higher_asks_and_lower_counters():
    from game.bots.search import more_prices

    t = _scenario([[]], marker=3, tiles=list(range(6, 16)), first_player=3)
    t.open(3)  # Di (Orange) needs Red from Ann
    t.pass_floor(3)
    o = Obs.from_view(view(t.state, 0))
    legal = legal_actions(t.state, 0).moves()
    pol = Policy(personality(None), random.Random(1))
    cands = more_prices(pol, o, legal, pol.candidates(o, legal))
    asks = [a.amount for a in cands if isinstance(a, Offer)]
    assert isinstance(cands[0], Offer) and max(asks) > round(cands[0].amount * 1.4)
    t.offer(0, [t.placard("red")], 8)
    t.floor_round()
    o = Obs.from_view(view(t.state, 3))
    legal = legal_actions(t.state, 3).moves()
    cands = more_prices(pol, o, legal, pol.candidates(o, legal))
    props = sorted(a.amount for a in cands if isinstance(a, Propose))
    assert isinstance(cands[0], Propose) and props[0] < cands[0].amount


def test_pass_floor_is_the_idle_move_in_ask_around():
    t = _scenario([[], []], marker=3, first_player=3)
    t.open(3)
    t.pass_floor(3)
    t.pass_floor(0)
    # Bo has no card and nothing space 3 (Red, Orange) uses: he passes the floor
    assert _choose(_bot(1), t.state, 1) == PassFloor(1)


def test_memory_starts_counting_when_it_joins_before_the_first_payment():
    # A driver that never sent the opening events: before any deal closes all money is 0,
    # so the memory can still follow every payment exactly.
    from game.rules import Game
    from game.table.simulate import play

    memory = Memory(2)
    checks = []

    def listen(game, action, events):
        st = game.state
        if not memory.from_start and memory.money is None:
            memory.money_for(SeatView.of(st, 2))  # a decision before this action: starts counting
        memory.observe(events_for(events, 2))
        checks.append(memory.money_for(SeatView.of(st, 2)) == st.money)

    game = Game(["A", "B", "C", "D"], 4, Settings(players=4))
    play(game, [make_bot("heuristic", s, 1) for s in range(4)], on_step=listen)
    assert all(checks) and max(game.state.money) > 0


def test_the_driver_feeds_events_to_bots_that_want_them():
    from game.bots.base import Bot
    from game.rules import Game
    from game.table.simulate import play

    class Listener(Bot):
        wants_events = True

        def __init__(self, seat, seed=0):
            super().__init__(seat, seed)
            self.inner = make_bot("random", seat, seed)
            self.types = []

        def observe(self, events):
            self.types.extend(e["type"] for e in events)

        def choose(self, view, legal, must_act=True):
            return self.inner.choose(view, legal, must_act)

    bots = [Listener(0, 1)] + [make_bot("random", s, 1) for s in (1, 2)]
    play(Game(["A", "B", "C"], 3, Settings(players=3)), bots)
    assert bots[0].types[0] == "game_started" and "game_over" in bots[0].types
    assert "hand_dealt" in bots[0].types and "paid" in bots[0].types


def test_search_leaves_routine_boss_moves_to_the_heuristic():
    from game.bots.search import worth_searching

    t = _scenario([["clan_orange"]], marker=3)
    t.open(0)
    o = Obs.from_view(view(t.state, 0))
    assert not worth_searching(o, PassFloor(0))
    assert not worth_searching(o, GoingOnce(0))
    assert worth_searching(o, Accept(0, 1))
    t.pass_floor(0)
    o = Obs.from_view(view(t.state, 1))
    assert worth_searching(o, PassFloor(1))  # an investor's pass may hide a better offer
    assert parse_params("cards=1.5")["cards"] == 1.5


def test_v2_table_of_hoarders_does_not_loop_forever():
    """Regression (legality sweep, seed 2073): with V2 every bot held 10+ cards it was saving,
    so nobody could draw, every deal failed and the game never ended (200,000 actions).
    Bots over the V2 line now shed Recruitment, Travel and Boss cards once deals have failed
    twice around the table, and the game ends."""
    from game.rules import Game, Phase, Variant
    from game.table.simulate import play

    settings = Settings(
        players=3,
        window_mode=WindowMode.ASK_AROUND,
        variants=frozenset({Variant.V1, Variant.V2, Variant.V3}),
        hidden_money=True,
        ask_only_when_touched=(True, False, False),
    )
    game = Game(["P0", "P1", "P2"], 2073, settings)
    bots = [make_bot(s, i, 2073) for i, s in enumerate(["heuristic:tight", "heuristic", "heuristic:tight"])]
    play(game, bots, max_actions=20_000)  # raises SimulationError when the game does not end
    assert game.state.phase is Phase.GAME_OVER
    assert game.state.deals_failed < 200


def test_search_wall_clock_cap_stops_before_the_step_budget():
    """The default cap keeps a table from waiting: with 1 ms and a huge step budget the
    search stops after its first round or two; without a cap it uses the whole budget."""
    t = _scenario([["clan_orange"]], marker=3, tiles=list(range(10, 16)))
    t.open(0)
    t.lay(0, "orange")
    v = SeatView.of(t.state, 0)
    legal = legal_actions(t.state, 0).moves()

    def rollouts(spec):
        bot = SearchBot(0, 1, spec)
        cands = bot.policy.candidates(Obs.of(v), legal)
        worse_first = [FailDeal(0)] + [a for a in cands if a != FailDeal(0)]
        bot._search(v, worse_first, bot.memory.money_for(v))
        return max(n for _a, _m, n in bot.last_stats)

    assert rollouts("steps=100000+ms=1") <= 3
    assert rollouts("steps=600+ms=0") > 3


def test_deal_runs_count_every_bot_turn_without_a_deal_once():
    """bench/deal_runs.py's runs: one per deal (and one for a game's unfinished last stretch),
    together exactly the bot turns that opened no deal."""
    from bench.deal_runs import PERSON, _Counter
    from game.rules import Draw, OpenDeal
    from game.table.simulate import simulate_game

    counter = _Counter(4)
    turns = []

    def on_step(game, action, events):
        counter(game, action, events)
        if isinstance(action, OpenDeal | Draw):
            turns.append((action.seat != PERSON, isinstance(action, OpenDeal)))

    simulate_game(4, 7, ["heuristic"] + ["heuristic:friendly"] * 3, on_step=on_step)
    runs = counter.finish()
    deals = sum(1 for _, deal in turns if deal)
    dry = sum(1 for bot, deal in turns if bot and not deal)
    assert runs.bot_turns == sum(1 for bot, _ in turns if bot) and deals > 3
    assert sum(runs.any) == dry and len(runs.any) in (deals, deals + 1)
    assert sum(runs.investor) >= dry and len(runs.investor) <= deals + 1
    assert runs.opening and sum(runs.opening) <= dry


def test_friendly_bots_spare_a_persons_first_turns_and_only_a_person():
    """Issue 32: Friendly bots took a newcomer's placards and stopped his Boss card in his
    first two turns. Told which seats people play (Bot.meet), they take nothing from them in
    those turns; without the gentle opening the same seeds lose a placard or a play."""
    from bench.newcomer_losses import opening_losses

    seeds = (0, 6, 17, 19)  # seats 0's losses before: placards and stopped Boss cards
    rough = "heuristic:friendly+gentle=0+spare_last=0"
    before = [opening_losses(rough, 3, s, "heuristic:chaotic") for s in seeds]
    assert all(b.placards or b.stopped for b in before)
    assert sum(b.boss_stopped for b in before) >= 2
    after = [opening_losses("heuristic:friendly", 3, s, "heuristic:chaotic") for s in seeds]
    assert all(a.placards == a.stopped == a.travelled == 0 for a in after)


def test_a_gentle_style_spares_people_only():
    from game.rules import Game

    bot = HeuristicBot(1, 0, "friendly")
    o = Obs.from_view(view(Game(["A", "B", "C"], 5, Settings(players=3)).state, 1))
    policy = bot.policy
    assert not policy.spares(o, 0)  # nobody said seat 0 is a person: a bot like any
    bot.meet([0])
    assert policy.spares(o, 0) and not policy.spares(o, 2) and not policy.spares(o, 1)
    # a round's worth of deals closed at three seats: the opening is over
    o = Obs.of(dataclasses.replace(o.view, deals_closed=3))
    assert not policy.spares(o, 0)
