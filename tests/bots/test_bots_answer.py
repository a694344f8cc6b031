"""A bot Boss answers a person's offer within 1-3 s of table time and never leaves it
unanswered (issue 14), on one screen and on the LAN host, in both window modes.

The person is a script (bench/answers.py) that makes offers of every kind (a fair price,
too expensive, absurd, terms the deal has no use for) to heuristic bot Bosses over whole
short games on the table's manual clock."""

from __future__ import annotations

import asyncio

import pytest

from bench.answers import OFFER_KINDS, Answer, OfferingPerson, TimedLog, run_local
from game.bots.pacing import ANSWER_AFTER, ANSWER_BY
from game.table.bot_schedule import Timing
from tests.net_helpers import run, seat_peers, start_host

EPS = 1e-6


def _check(answers: list[Answer]) -> None:
    assert all(a.delay is not None for a in answers), "an offer was left unanswered"
    clean = [a for a in answers if not a.interrupted]
    assert len(clean) >= 8
    assert {a.kind for a in clean} == set(OFFER_KINDS)
    late = [a for a in clean if not ANSWER_AFTER - EPS <= a.delay <= ANSWER_BY + EPS]
    assert not late, late


def test_a_bot_boss_refuses_aloud_terms_it_will_neither_take_nor_counter():
    # Bo asks Di, Boss of the $9M deal on space 3, a $4M fee for nothing: Di says no
    # (withdraws it)
    from game.bots import make_bot
    from game.bots.talk import Phrase
    from game.rules import Withdraw, legal_actions, view
    from tests.bots.test_bots_talk import fee_for_nothing

    t = fee_for_nothing()
    di = make_bot("heuristic", 3, 1)
    answer = di.choose(view(t.state, 3), legal_actions(t.state, 3).moves(), True)
    assert answer == Withdraw(3, 1)
    assert di.remark().phrase == Phrase.NO_WAY.value and di.remark().action == answer


@pytest.mark.parametrize("mode", ["ask_around", "real_time"])
@pytest.mark.parametrize("players", [3, 6])
def test_a_hot_seat_bot_boss_answers_every_offer_of_a_person_within_1_to_3_s(mode, players):
    answers = [a for seed in (1, 2, 3) for a in run_local(mode, seed, players)]
    _check(answers)


@pytest.mark.parametrize("mode", ["ask_around", "real_time"])
def test_a_lan_host_bot_boss_answers_every_offer_of_a_person_within_1_to_3_s(mode):
    async def scenario(seed: int) -> list[Answer]:
        host, clock = await start_host(
            seats=4,
            bots=["heuristic"],
            timing=Timing(),  # the real pacing, not the tests' instant bots
            short_game=True,
            window_mode=mode,
            seed=seed,
        )
        (peer,) = await seat_peers(host, 1)
        peer.send({"t": "start"})
        await peer.expect("snapshot")
        plays = host.seat_table.plays
        person = OfferingPerson(0, lambda: host.state, host.live.master.submit, plays)
        host.game.log = TimedLog(host.game.log, clock.now, person.recorded)
        for _ in range(40000):
            if host.over:
                break
            person.step(clock.now())
            clock.advance(0.05)
            # a bot thinks in a thread (no table time passes): let it answer first
            while any(host.live.master.thinking(s) for s in range(4)):
                await asyncio.sleep(0.001)
        assert host.over
        await host.close()
        person.finish()
        return person.answers

    answers = [a for seed in (1, 2) for a in run(scenario(seed), timeout=120)]
    _check(answers)
