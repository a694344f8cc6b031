"""Bots that converge like people and say so: the talk memory (game/bots/talk.py), the
phrases and fail reasons they hand their drivers, and the haggling benchmark's counting."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise
from pathlib import Path

from bench.haggle import TalkRecorder, summarize_talk
from game.bots import make_bot
from game.bots.heuristic import MAX_NEW_BOSSES, TABLE_TALK
from game.bots.talk import PHRASE_GAP, GiveUp, Phrase, PhraseGate
from game.rules import (
    Accept,
    FailDeal,
    Offer,
    Propose,
    Settings,
    WindowMode,
    legal_actions,
    view,
    waiting_for,
)
from game.rules.view import events_for
from game.table.simulate import simulate_game
from tests.scenario import Scenario

LANG = Path(__file__).resolve().parents[2] / "assets" / "lang"
PLACARDS = {"red": 0, "blue": 1, "yellow": 2, "orange": 3}

# Ann will not sell Red below about 9; Di, Boss of a $9M deal, keeps 70% for herself and so
# pays at most 2. Before the talk memory these two said the same two prices to each other
# until the negotiation limit ran out (24 offers and proposals).
STUBBORN_INVESTOR = "heuristic:ask_sole=2.5+floor=1"
THRIFTY_BOSS = "heuristic:boss_margin=0.7"


def _deal(**kw):
    """Di (Orange) opens a $9M deal on space 3 that needs Ann's Red."""
    return Scenario(
        ["Ann", "Bo", "Cy", "Di"],
        placards=PLACARDS,
        hands=[[], ["recruit"], ["recruit"], []],
        marker=3,
        tiles=list(range(6, 16)),
        first_player=3,
        **kw,
    )


def fee_for_nothing() -> Scenario:
    """In `_deal`, Bo asks Di a $4M fee for nothing: Di needs nothing from Bo and Bo holds
    no card that could block her. The floor is back with Di, who must answer."""
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    t.pass_floor(0)
    t.offer(1, [], 4)
    t.floor_round()
    return t


def _talk(t: Scenario, bots, limit: int = 400):
    """Whoever the game waits for moves, until the deal ends: [(action, remark)]."""
    said = []
    while t.state.negotiation is not None and len(said) < limit:
        seat = waiting_for(t.state)[0]
        bot = bots[seat]
        a = bot.choose(view(t.state, seat), legal_actions(t.state, seat).moves(), True)
        events = t.do(a)
        for s, b in enumerate(bots):
            b.observe(events_for(events, s))
        said.append((a, bot.remark()))
    return said


def _stubborn_pair(memory: bool):
    t = _deal()
    bots = [
        make_bot(s, i, 1)
        for i, s in enumerate([STUBBORN_INVESTOR, "heuristic", "heuristic", THRIFTY_BOSS])
    ]
    if not memory:
        for b in bots:
            b.policy.talk = None  # the policy as it was: no memory of its own words
    t.open(3)
    for s, b in enumerate(bots):
        b.observe(events_for(t.events, s))
    return t, _talk(t, bots)


def _terms(a, boss: int):
    to = a.to if isinstance(a, Propose) else boss
    return (a.seat, to, frozenset(a.sources), a.amount)


def test_a_pair_that_cannot_agree_ends_within_a_few_exchanges():
    _t, said = _stubborn_pair(memory=True)
    talk = [a for a, _r in said if isinstance(a, (Offer, Propose))]
    assert 2 <= len(talk) <= 5
    assert max(Counter(_terms(a, 3) for a in talk).values()) == 1  # never the same terms twice
    last, remark = said[-1]
    assert last == FailDeal(3)  # the Boss walks away at once, it does not wait out the limit
    assert remark.reason == GiveUp.TOO_EXPENSIVE.value
    assert remark.phrase in (Phrase.TOO_EXPENSIVE.value, Phrase.NO_WAY.value)
    # each side's first word was already its limit: an opening, never a "last offer"
    finals = [a.seat for a, r in said if r is not None and r.phrase == Phrase.LAST_OFFER.value]
    assert finals == []


def _after_table_talk(price: int):
    """Ann offers Red at `price` to Di, Boss of the $9M deal, after the table has already
    said TABLE_TALK terms in this deal (public offers the bots heard): Di's answer."""
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    t.offer(0, [t.placard("red")], price)
    t.floor_round()
    di = make_bot("heuristic", 3, 1)
    heard = [{"type": "offer_made", "seat": 1, "sources": [], "amount": 1}] * TABLE_TALK
    di.observe(heard)
    return di.choose(view(t.state, 3), legal_actions(t.state, 3).moves(), True), di


def test_after_a_long_talk_at_the_table_a_boss_says_no_new_terms():
    # Di's reserve is about 7 of the 9: she counters 8 in a fresh deal, not after a long talk
    fresh = make_bot("heuristic", 3, 1)
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    t.offer(0, [t.placard("red")], 8)
    t.floor_round()
    assert isinstance(fresh.choose(view(t.state, 3), legal_actions(t.state, 3).moves()), Propose)
    refused, di = _after_table_talk(8)
    assert refused == FailDeal(3) and di.remark().reason == GiveUp.TOO_EXPENSIVE.value
    taken, _di = _after_table_talk(4)
    assert taken == Accept(3, 0)  # within its limit it still takes the terms


def test_boss_card_wars_end_long_deals_within_the_table_talk():
    # seeds whose 6-player deals ran to 14-17 offers and proposals (a deal taken over by
    # Boss card after Boss card, every new Boss pricing its sellers afresh)
    for seed in (19, 34):
        rec = TalkRecorder()
        bosses: list[int] = []

        def on_step(game, action, events, rec=rec, bosses=bosses):
            rec(game, action, events)
            for e in events:
                if e.type == "deal_opened":
                    bosses.append(0)
                elif e.type == "boss_changed":
                    bosses[-1] += 1

        simulate_game(6, seed, ["heuristic"] * 6, Settings(players=6), on_step=on_step)
        assert max(d.moves for d in rec.game.deals) <= min(TABLE_TALK, 15)  # issue 14's max
        assert max(bosses) <= MAX_NEW_BOSSES


def test_the_same_pair_without_the_memory_loops_until_the_limit():
    # the control: the scenario above is one that looped
    _t, said = _stubborn_pair(memory=False)
    talk = [a for a, _r in said if isinstance(a, (Offer, Propose))]
    assert len(talk) >= 15
    assert max(Counter(_terms(a, 3) for a in talk).values()) >= 5


def test_a_boss_concedes_towards_the_investor_instead_of_repeating_itself():
    # Reserve well above the first counter: the Boss moves up each time, never repeats
    t = _deal()
    bots = [
        make_bot(s, i, 1)
        for i, s in enumerate(
            ["heuristic:ask_sole=1.6+floor=1", "heuristic", "heuristic", "heuristic"]
        )
    ]
    t.open(3)
    for s, b in enumerate(bots):
        b.observe(events_for(t.events, s))
    said = _talk(t, bots)
    proposals = [a.amount for a, _r in said if isinstance(a, Propose)]
    assert proposals == sorted(set(proposals))  # strictly rising
    assert any(isinstance(a, Accept) for a, _r in said) or said[-1][0] == FailDeal(3)


def test_accepting_says_deal_and_the_remark_names_its_move():
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    t.offer(0, [t.placard("red")], 2)
    t.floor_round()
    boss = make_bot("heuristic", 3, 1)
    a = boss.choose(view(t.state, 3), legal_actions(t.state, 3).moves(), True)
    assert a == Accept(3, 0)
    remark = boss.remark()
    assert remark.action == a and remark.phrase == Phrase.DEAL.value and remark.reason is None


def test_a_move_without_talk_says_nothing():
    t = _deal()
    bot = make_bot("heuristic", 3, 1)
    a = bot.choose(view(t.state, 3), legal_actions(t.state, 3).moves(), True)
    assert a is not None and bot.remark() is None
    assert make_bot("random", 0, 1).remark() is None


def test_every_phrase_and_reason_has_a_translation():
    keys = [p.value for p in Phrase] + [r.value for r in GiveUp] + ["log.gives_up"]
    for lang in ("en", "zh_Hant", "zh_Hans", "th"):
        table = json.loads((LANG / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [k for k in keys if not table.get(k)]
        assert not missing, (lang, missing)


def test_phrase_gate_allows_one_phrase_per_bot_every_few_seconds():
    gate = PhraseGate()
    assert gate.allow(0, 10.0)
    assert not gate.allow(0, 10.0 + PHRASE_GAP / 2)
    assert gate.allow(1, 10.0 + PHRASE_GAP / 2)  # another bot has its own allowance
    assert gate.allow(0, 10.0 + PHRASE_GAP)


def test_haggle_recorder_counts_every_deal_and_its_talk():
    rec = TalkRecorder()
    settings = Settings(players=4, window_mode=WindowMode.REAL_TIME)
    _game, result = simulate_game(4, 5, ["heuristic"] * 4, settings, on_step=rec)
    deals = rec.game.deals
    assert len(deals) == result.deals_closed + result.deals_failed
    assert sum(d.closed for d in deals) == result.deals_closed
    assert rec.game.first_deal_turn is not None and rec.game.turns >= rec.game.first_deal_turn
    summary = summarize_talk([rec.game])
    assert summary["moves_max"] == max(d.moves for d in deals)
    assert summary["repeat_share"] == 0.0 and summary["limit_hits"] == 0


# -- the drivers: hot seat and LAN host -------------------------------------------------


def test_hot_seat_bots_speak_rate_limited_and_the_log_says_why_a_deal_failed():
    from game.table.bot_schedule import Timing
    from game.ui.i18n import tr
    from game.ui.sessions.session import LocalSession, SeatSpec
    from game.ui.table.log import Describer

    names = ["Ann", "Bo", "Cy", "Dara"]
    s = LocalSession(
        [SeatSpec(n, "heuristic") for n in names], seed=4, timing=Timing(bot_pace=50.0)
    )
    phrases: dict[int, list[float]] = {}
    gave_up = []
    failed = 0
    over = False
    for _ in range(40000):  # a whole game at most
        s.wait_for_bots()  # a bot thinks in a worker thread: let it answer first
        s.update(0.05)
        for batch in s.poll():
            for e in batch.events:
                if e["type"] == "phrase":
                    phrases.setdefault(e["seat"], []).append(s.clock)
                elif e["type"] == "gave_up":
                    gave_up.append(e)
                elif e["type"] == "deal_failed":
                    failed += 1
                elif e["type"] == "game_over":
                    over = True
        if over or (failed and sum(map(len, phrases.values())) >= 8):
            break
    assert sum(map(len, phrases.values())) >= 8
    for times in phrases.values():
        assert all(b - a >= PHRASE_GAP for a, b in pairwise(times))
    assert len(gave_up) == failed >= 1  # every failed deal of a bot Boss says why
    line = Describer(names)(gave_up[0])
    reason = tr(gave_up[0]["reason"])
    assert line == tr("log.gives_up", name=names[gave_up[0]["seat"]], reason=reason)
    assert reason != gave_up[0]["reason"]  # translated, not the bare key


def test_lan_host_bots_speak_to_everybody_rate_limited():
    import time

    from game.table.bot_schedule import Timing
    from net.host.server import Host
    from tests.net_helpers import Peer, config_for_tests, run

    async def scenario():
        timing = Timing(
            bot_answer=0, bot_delay=0, bot_tick=0.005, start_after=0.3, bot_patience=0.5
        )
        host = Host(config_for_tests(seats=4, bots=["heuristic"], timing=timing, seed=3))
        await host.start()
        spec = await Peer.connect(host.port)
        spec.send({"t": "hello", "v": 2, "role": "spectator"})
        await spec.expect("welcome")
        heard: dict[int, list[float]] = {}
        while not host.finished.is_set() and sum(map(len, heard.values())) < 6:
            try:
                msg = await spec.recv(timeout=5.0)
            except AssertionError:  # quiet or closed: fine once the game is over
                if host.finished.is_set() or spec.eof:
                    break
                raise
            if msg["t"] == "said":
                assert f"phrase.{msg['phrase']}" in {p.value for p in Phrase}
                heard.setdefault(msg["seat"], []).append(time.monotonic())
        await host.close()
        return heard

    heard = run(scenario(), timeout=110)
    assert sum(map(len, heard.values())) >= 3
    for times in heard.values():  # the host's gap, give or take the loopback's jitter
        assert all(b - a >= PHRASE_GAP - 0.5 for a, b in pairwise(times))


def test_terms_count_as_said_only_once_the_game_reports_them():
    # A driver may drop a move the game has moved past: the bot must not remember it.
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    ann = make_bot("heuristic", 0, 1)
    first = ann.choose(view(t.state, 0), legal_actions(t.state, 0).moves(), True)
    assert isinstance(first, Offer)
    again = ann.choose(view(t.state, 0), legal_actions(t.state, 0).moves(), True)
    assert again == first  # not applied: not said, nothing to avoid repeating
    ann.observe(events_for(t.do(first), 0))
    assert ann.talk.amounts(3, first.sources)[0] == [first.amount]


# -- a lively game ----------------------------------------------------------------------


def test_at_the_hand_limit_a_reasonable_deal_beats_draw_and_discard():
    # Ann (Red) holds the Orange card space 3 needs: she covers the $6M deal alone.
    full = ["clan_orange"] + ["recruit"] * 11  # 12 cards, most of them spare
    room = ["clan_orange", "recruit", "recruit"]
    choices = {}
    for name, hand in (("full", full), ("room", room)):
        t = Scenario(
            ["Ann", "Bo", "Cy", "Di"],
            placards=PLACARDS,
            hands=[hand, ["recruit"], ["recruit"], ["recruit"]],
            marker=3,
            tiles=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        )
        t.state.deals_closed = 5  # the table is warm: drawing weighs in full
        t.state._legal_cache.clear()
        bot = make_bot("heuristic", 0, 1)
        choices[name] = bot.choose(view(t.state, 0), legal_actions(t.state, 0).moves(), True)
    assert choices["full"].type == "open_deal"
    assert choices["room"].type == "roll"  # with room in hand, it still builds its hand


def test_default_bots_open_the_first_deal_early():
    turns = []
    for seed in range(1, 10):
        rec = TalkRecorder()
        simulate_game(4, seed, ["heuristic"] * 4, Settings(players=4), on_step=rec)
        turns.append(rec.game.first_deal_turn)
    turns.sort()
    assert turns[len(turns) // 2] <= 8  # the median game: in the first two rounds


def test_last_offer_is_never_the_first_word_to_a_counterpart():
    # floor=1: Ann's first ask is already her limit; it is an opening, not a "last offer"
    t = _deal()
    t.open(3)
    t.pass_floor(3)
    ann = make_bot("heuristic:floor=1", 0, 1)
    first = ann.choose(view(t.state, 0), legal_actions(t.state, 0).moves(), True)
    assert isinstance(first, Offer)
    remark = ann.remark()
    assert remark is None or remark.phrase != Phrase.LAST_OFFER.value
    ann.observe(events_for(t.do(first), 0))
    assert 3 not in ann.talk.final


def test_last_offer_is_a_final_counter_after_an_earlier_word():
    # Di (keeps half) proposes 3, Ann asks 8 ("No way"), Di comes up to her limit: that
    # second proposal, and only it, is her "last offer"; then nobody takes it and she fails
    t = _deal()
    bots = [
        make_bot(s, i, 1)
        for i, s in enumerate(
            [
                "heuristic:ask_sole=2.5+floor=0.7",
                "heuristic",
                "heuristic",
                "heuristic:boss_margin=0.5",
            ]
        )
    ]
    t.open(3)
    for s, b in enumerate(bots):
        b.observe(events_for(t.events, s))
    said = [(a, r) for a, r in _talk(t, bots) if isinstance(a, (Offer, Propose, FailDeal))]
    proposals = [(a.amount, r and r.phrase) for a, r in said if isinstance(a, Propose)]
    assert len(proposals) == 2 and proposals[0][0] < proposals[1][0]
    assert proposals[0][1] != Phrase.LAST_OFFER.value
    assert proposals[1][1] == Phrase.LAST_OFFER.value
    assert said[-1][0] == FailDeal(3)
