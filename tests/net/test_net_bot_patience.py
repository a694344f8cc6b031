"""A headless bot client's Boss settles a real-time deal nobody moves after its patience,
as the bot scheduler's bot Bosses do (issue 24: a deal sat until the 180 s clock ended it).

The bot client runs on a ManualClock and is fed the seat's messages directly: no socket, no
sleeps, every time exact."""

from __future__ import annotations

import random
from collections import Counter

from bench.lan_bots import DealLog, LanGame
from game.bots import make_bot
from game.bots.pacing import BOT_PATIENCE
from game.rules import HOST, FailDeal, Offer, Propose, TimeUp, WindowMode, view
from game.rules.view import events_for
from game.table.bot_schedule import BotScheduler, SeatPlayers, Timing
from game.table.clock import ManualClock
from game.table.countdowns import Countdowns
from net.client.bot import BotPlayer
from net.client.session import Update
from tests.scenario import Scenario

BOSS = 3
# Ann (0) holds Red, Di (3) Orange; space 3 needs Red and Orange (proceeds $9M).
PLACARDS = {"red": 0, "blue": 1, "yellow": 2, "orange": 3}
FILLER = ["recruit", "recruit", "travel_grey"]


def proposal_below_the_offer() -> Scenario:
    """Di, the Boss, answered Ann's $4M offer for Red with a $3M proposal; Ann says no
    more (a person thinking it over, or a bot that has said its last word)."""
    t = Scenario(
        ["Ann", "Bo", "Cy", "Di"], placards=PLACARDS, hands=[[]] + [FILLER] * 3, marker=3,
        tiles=list(range(6, 16)), first_player=BOSS, window_mode=WindowMode.REAL_TIME,
    )  # fmt: skip
    t.open(BOSS)
    red = t.placard("red")
    t.do(Offer(0, (red,), 4))
    t.do(Propose(BOSS, 0, (red,), 3))
    return t


def bot_client_at_the_boss(t: Scenario, clock: ManualClock) -> tuple[BotPlayer, list]:
    """A heuristic bot client at Di's seat that has just been told the table's state."""
    bp = BotPlayer("127.0.0.1", 9, kind="heuristic", seed=1, clock=clock)
    sent: list = []
    bp.session.send_action = lambda action, version: sent.append(action)
    bp.bot = make_bot("heuristic", BOSS, 1)
    version = len(t.game.log)
    bp._on_message(Update(version, view(t.state, BOSS), events_for(t.events, BOSS), None,
                          frozenset(), None))  # fmt: skip
    return bp, sent


def test_a_bot_client_boss_settles_a_deal_nobody_moves_after_its_patience():
    t = proposal_below_the_offer()
    clock = ManualClock(start=0.0)
    bp, sent = bot_client_at_the_boss(t, clock)
    clock.advance(BOT_PATIENCE - 0.5)
    assert sent == []  # offered the moment all along: its proposal waits for Ann's answer
    clock.advance(1.0)
    # out of patience: its last word (a proposal at its reserve to Ann), or it fails the deal
    assert len(sent) == 1, sent
    last = sent[0]
    assert last == FailDeal(BOSS) or (
        isinstance(last, Propose) and last.to == 0 and 3 < last.amount < 9
    )
    bp._cancel()


def test_the_bot_client_boss_settles_as_the_referees_bot_boss_does():
    """The same state, driven by the bot scheduler (hot-seat, simulations, the host's own bots):
    the same answer after the same patience."""
    t = proposal_below_the_offer()
    clock = ManualClock(start=0.0)
    applied: list = []
    bots = {BOSS: make_bot("heuristic", BOSS, 1)}
    bots[BOSS].observe(events_for(t.events, BOSS))
    submit = lambda a: applied.append(a) or True  # noqa: E731 - the move, not applied
    timing = Timing(negotiation=0)
    countdowns = Countdowns(lambda: t.state, timing, clock, submit, stats=Counter(),
                            on_stage=lambda: None, on_window_closed=lambda wid: None)
    scheduler = BotScheduler(
        lambda: t.state, timing, clock,
        SeatPlayers(bots=lambda: bots, plays=lambda seat: seat == BOSS), countdowns, submit,
        rng=random.Random(1),
    )  # fmt: skip
    scheduler.schedule()
    clock.advance(BOT_PATIENCE + 2 * Timing().bot_tick)
    assert len(applied) == 1

    clock = ManualClock(start=0.0)
    bp, sent = bot_client_at_the_boss(t, clock)
    clock.advance(BOT_PATIENCE + 2 * Timing().bot_tick)
    assert sent[:1] == applied  # (then sent again: no host here ever answers it)
    bp._cancel()


def test_the_lan_bench_counts_a_deal_the_clock_ended():
    """``python -m bench.bots --lan`` reads the host's applied events: a deal ended by the
    negotiation clock is a time-up, one its Boss failed first is not."""
    t = proposal_below_the_offer()
    game = LanGame(seed=1)
    log = DealLog(game)
    log(t.events)  # the deal opened, Ann's offer, Di's proposal
    log(t.do(FailDeal(BOSS)))
    t = proposal_below_the_offer()
    log(t.events)
    log(t.do(TimeUp(HOST)))
    log(t.do(FailDeal(BOSS)))
    assert [(d.outcome, d.time_up) for d in game.deals] == [("failed", False), ("failed", True)]
    assert game.time_ups == 1 and game.to_data()["time_ups"] == 1
