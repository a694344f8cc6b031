"""The search bot speaks like the heuristic: the heuristic's talk memory drives its own
choice (candidate 0), and the move it makes says the phrase a heuristic bot would say."""

from __future__ import annotations

import random
from collections import Counter

from game.bots import make_bot
from game.bots.heuristic import Policy, personality
from game.bots.search import SearchBot
from game.bots.talk import GiveUp, Phrase
from game.rules import (
    Accept,
    FailDeal,
    GoingOnce,
    Offer,
    PassFloor,
    Propose,
    legal_actions,
    view,
)
from game.rules.view import events_for
from tests.bots.test_bots_talk import STUBBORN_INVESTOR, THRIFTY_BOSS, _deal, _talk, _terms

# One round of rollouts: an alternative never beats the heuristic's choice by more than the
# noise of a single sample, so the search keeps the heuristic's move (and its words).
KEEPS_THE_HEURISTIC = "search:steps=1+ms=0"


def _search_with(style: str, seat: int) -> SearchBot:
    bot = make_bot(KEEPS_THE_HEURISTIC, seat, 1)
    bot.policy = Policy(personality(style), random.Random(f"own/1/{seat}"))
    bot.policy.talk = bot.talk
    return bot


def test_search_accepting_says_deal_and_the_remark_names_its_move():
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    t.offer(0, [t.placard("red")], 2)
    t.floor_round()
    boss = make_bot(KEEPS_THE_HEURISTIC, 3, 1)
    a = boss.choose(view(t.state, 3), legal_actions(t.state, 3).moves(), True)
    assert a == Accept(3, 0)
    remark = boss.remark()
    assert remark.action == a and remark.phrase == Phrase.DEAL.value and remark.reason is None


def _stubborn_search_pair(memory: bool) -> list:
    """The stubborn pair of test_bots_talk, the investor played by a search bot (with or
    without the talk memory, the Boss likewise): what they said until the deal ended."""
    t = _deal()
    bots = [
        _search_with("ask_sole=2.5+floor=1", 0),
        make_bot("heuristic", 1, 1),
        make_bot("heuristic", 2, 1),
        make_bot(THRIFTY_BOSS, 3, 1),
    ]
    assert make_bot(STUBBORN_INVESTOR, 0, 1).policy.p == bots[0].policy.p
    if not memory:
        bots[0].policy.talk = None
        bots[3].policy.talk = None
    t.open(3)
    for s, b in enumerate(bots):
        b.observe(events_for(t.events, s))
    return _talk(t, bots)


def test_a_search_pair_that_cannot_agree_converges_like_heuristics():
    # the search investor never repeats its terms and the Boss walks away within a few words
    said = _stubborn_search_pair(memory=True)
    offers = [a for a, _r in said if isinstance(a, Offer) and a.seat == 0]
    assert 1 <= len(offers) <= 3
    assert max(Counter(_terms(a, 3) for a in offers).values()) == 1
    assert said[-1][0] == FailDeal(3)
    finals = [a.seat for a, r in said if r is not None and r.phrase == Phrase.LAST_OFFER.value]
    # its last word is said as such, but "Last offer" only after an earlier word to the
    # Boss: here its one offer was already its limit, so it says none
    assert (0 in finals) == (len(offers) > 1)


def test_a_search_without_the_talk_memory_repeats_itself():
    # the control: the same pair, the search's own policy without the memory, loops
    said = _stubborn_search_pair(memory=False)
    offers = [a for a, _r in said if isinstance(a, Offer) and a.seat == 0]
    assert max(Counter(_terms(a, 3) for a in offers).values()) >= 3


def test_a_move_the_search_chose_over_the_heuristic_says_only_what_it_says():
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    bot = make_bot(KEEPS_THE_HEURISTIC, 0, 1)
    first = bot.choose(view(t.state, 0), legal_actions(t.state, 0).moves(), True)
    assert isinstance(first, Offer)
    # another amount than the heuristic's: no heuristic phrase, its own terms remembered
    bot.talk.say(Phrase.LAST_OFFER)
    other = Offer(0, first.sources, first.amount + 3)
    assert bot._speak(other, first) == other
    bot._said_with = other
    assert bot.remark() is None
    assert bot.talk.unsaid == (3, tuple(other.sources), other.amount, False)
    bot.observe(events_for(t.do(other), 0))
    assert bot.talk.amounts(3, other.sources)[0] == [other.amount]
    # a pass instead of an offer says nothing; failing a deal gives the reason
    bot.talk.say(Phrase.LAST_OFFER)
    bot._speak(PassFloor(0), first)
    assert bot.talk.phrase is None and bot.talk.unsaid is None
    boss = make_bot(KEEPS_THE_HEURISTIC, 3, 1)
    boss._speak(FailDeal(3), GoingOnce(3))
    boss._said_with = FailDeal(3)
    remark = boss.remark()
    assert remark.reason == GiveUp.TOO_EXPENSIVE.value
    assert remark.phrase == Phrase.TOO_EXPENSIVE.value
    boss._speak(Propose(3, 0, first.sources, 2), GoingOnce(3))
    assert boss.talk.unsaid == (0, tuple(first.sources), 2, False)


def test_a_search_bot_at_a_hot_seat_table_speaks():
    # The driver shows the search bot's phrases like any bot's (through its remark).
    from game.table.bot_schedule import Timing
    from game.ui.sessions.session import LocalSession, SeatSpec

    specs = ["search:steps=60+ms=0", "heuristic", "heuristic", "heuristic"]
    s = LocalSession(
        [SeatSpec(n, b) for n, b in zip(["Ann", "Bo", "Cy", "Dara"], specs, strict=True)],
        seed=4,
        timing=Timing(bot_pace=50.0),
    )
    said: list[str] = []
    over = False
    for _ in range(40000):  # a whole game at most
        s.wait_for_bots()
        s.update(0.05)
        for batch in s.poll():
            for e in batch.events:
                if e["type"] == "phrase" and e["seat"] == 0:
                    said.append(e["key"])
                over = over or e["type"] == "game_over"
        if over or said:
            break
    assert said and said[0] in {p.value for p in Phrase}
