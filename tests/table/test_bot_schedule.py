"""The bot scheduler on its own (game/table/bot_schedule.py): the countdowns and their time-ups, when bots
answer and move, a bot Boss's patience, a thinking bot hearing what it missed, the phrase
gate, and the saved knobs' old names. The LAN host and hot-seat run the same code; their
own tests keep only what is theirs (frames, the screen)."""

from __future__ import annotations

import random

import pytest

from game.bots import make_bot
from game.bots.base import Bot, Remark
from game.bots.talk import PHRASE_GAP
from game.rules import (
    HOST,
    Card,
    Clan,
    FailDeal,
    Game,
    GoingOnce,
    OpenDeal,
    Pass,
    Phase,
    PlayTravel,
    Settings,
    TimeUp,
    WindowMode,
    placard,
)
from game.table.bot_schedule import SeatPlayers, Timing, timing_from_data
from game.table.clock import ManualClock
from game.table.master import Master, Transport
from tests.net_helpers import scenario_setup, travel_setup


class Table:
    """A table around a Master in a few lines: it records what was applied when, and lets
    bots play the seats in `bots`."""

    def __init__(self, timing: Timing, setup=None, bots=None, people=True, mode="real_time"):
        settings = Settings(players=3, window_mode=WindowMode(mode))
        self.game = Game(["A", "B", "C"], 5, settings, setup)
        self.clock = ManualClock(start=0.0)
        self.bots: dict[int, Bot] = bots or {}
        self.applied: list[tuple[float, object]] = []
        self.phrases: list[tuple[float, int, str]] = []
        self.pending_thoughts: list = []
        self.defer_thinking = False
        self.master = Master(
            self.game,
            timing,
            self.clock,
            SeatPlayers(
                bots=lambda: self.bots,
                plays=lambda seat: seat in self.bots,
                people=lambda: people,
            ),
            Transport(phrase=lambda seat, key: self.phrases.append((self.clock.now(), seat, key))),
            rng=random.Random(1),
            record=lambda action: self.applied.append((self.clock.now(), action)),
            think=self.think,
        )
        self.master.start()

    @property
    def state(self):
        return self.game.state

    def apply(self, action):
        """A person's move (legal: the tests make only such)."""
        return self.master.apply(action)

    def think(self, call, done) -> None:
        if self.defer_thinking:
            self.pending_thoughts.append((call, done))
        else:
            done(call())


class Silent(Bot):
    """Never does anything unless it must, and then the first legal move."""

    needs_view = False

    def choose(self, view, legal, must_act=True):
        if not must_act:
            return None
        moves = [a for a in legal.fixed if not a.meta]
        return moves[0] if moves else None


class HopefulBoss(Bot):
    """Waits for a card nobody will play unless it must act; then it fails the deal."""

    needs_view = False

    def choose(self, view, legal, must_act=True):
        if must_act:
            return next((a for a in legal.fixed if isinstance(a, FailDeal)), None)
        return None


def open_travel_window(t: Table) -> None:
    t.apply(OpenDeal(0))
    t.apply(PlayTravel(0, Card.TRAVEL_YELLOW, placard(Clan.YELLOW)))
    assert t.state.window is not None


def test_a_window_closes_on_its_countdown_and_everyone_still_asked_passes():
    t = Table(Timing(window=5), setup=travel_setup())
    open_travel_window(t)
    opened = t.clock.now()
    asked = list(t.state.window.waiting)
    t.clock.advance(4.99)
    assert t.state.window is not None
    t.clock.advance(0.02)
    assert t.state.window is None
    assert [a for _, a in t.applied[-len(asked) :]] == [Pass(s) for s in asked]
    assert all(when == opened + 5 for when, _ in t.applied[-len(asked) :])
    assert t.master.stats["window_timeouts"] == len(asked)


def test_a_call_has_two_stages_and_a_covered_deal_closes_when_they_end():
    setup = scenario_setup(
        [["recruit"], ["recruit"], ["recruit"]],
        {"red": 0, "orange": 0, "yellow": 1, "blue": 1, "magenta": 2, "green": 2},
        marker=3,
    )
    t = Table(Timing(going_once=3), setup=setup)
    t.apply(OpenDeal(0))
    t.apply(GoingOnce(0))
    w = t.master.countdowns_data()["window"]
    assert w == {"kind": "going_once", "stage": "going_once", "ms": 6000, "total_ms": 6000}
    t.clock.advance(3)
    assert t.master.countdowns_data()["window"]["stage"] == "going_twice"
    t.clock.advance(3)
    assert t.state.deals_closed == 1 and t.state.negotiation is None


def test_the_negotiation_clock_runs_out_into_time_up_and_resumes_with_what_was_left():
    t = Table(Timing(negotiation=10), setup=travel_setup())
    t.apply(OpenDeal(0))
    t.clock.advance(9.99)
    assert not t.state.negotiation.time_up
    t.clock.advance(0.02)
    assert t.state.negotiation.time_up and t.applied[-1] == (t.clock.now() - 0.01, TimeUp(HOST))
    # a restored game runs the clock on from what the save had left, never above full
    t2 = Table(Timing(negotiation=10), setup=travel_setup())
    t2.apply(OpenDeal(0))
    t2.master.resume_negotiation(3.0)
    assert t2.master.countdowns_data()["negotiation"]["ms"] == 3000
    t2.master.resume_negotiation(99.0)
    assert t2.master.countdowns_data()["negotiation"]["ms"] == 10000


def test_the_turn_clock_plays_the_default_action():
    t = Table(Timing(turn=10), mode="ask_around")
    before = t.state.actions_taken
    t.clock.advance(9.9)
    assert t.state.actions_taken == before
    t.clock.advance(0.2)
    assert t.state.actions_taken == before + 1 and t.master.stats["turn_timeouts"] == 1


def test_bots_answer_a_window_at_a_fixed_moment_never_within_the_fair_start():
    for people, expected in ((True, 1.0), (False, 0.2)):
        t = Table(Timing(window=5, bot_answer=0.2), setup=travel_setup(), people=people)
        t.bots = {1: Silent(1), 2: Silent(2)}
        open_travel_window(t)
        opened = t.clock.now()
        t.clock.advance(5)
        answers = [when - opened for when, a in t.applied if isinstance(a, Pass)]
        assert answers and all(abs(w - expected) < 1e-9 for w in answers), (people, answers)


def test_bot_pace_shortens_the_bots_pauses_but_not_the_fair_start():
    timing = Timing(bot_answer=1.6, bot_delay=0.8, bot_pace=4.0)
    assert timing.paced(timing.bot_delay) == 0.2
    assert timing.answer_delay("travel", people=True) == timing.fair_start == 1.0
    assert timing.answer_delay("travel", people=False) == 0.4


def test_a_bot_boss_settles_after_its_patience_not_the_clock():
    # (no person: the first tick, when the bots first see the deal, comes at 0.25 s)
    timing = Timing(negotiation=0, bot_patience=6, bot_tick=0.25)
    t = Table(timing, setup=travel_setup(), people=False)
    t.apply(OpenDeal(0))
    t.bots = {s: HopefulBoss(s) for s in range(3)}
    t.master.schedule()
    t.clock.advance(5.5)
    assert t.state.negotiation is not None and t.state.deals_failed == 0
    t.clock.advance(1.0)
    assert t.state.deals_failed == 1 and t.state.negotiation is None
    when, action = next((w, a) for w, a in t.applied if isinstance(a, FailDeal))
    assert action == FailDeal(0) and 6.25 <= when <= 6.5


class Listener(Silent):
    """Silent, with a memory: records what it hears and whether it was thinking then."""

    needs_view = True
    wants_events = True

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.heard: list[list[dict]] = []

    def observe(self, events):
        self.heard.append(events)


def test_a_thinking_bot_hears_what_it_missed_only_after_it_has_answered():
    t = Table(Timing(window=5, bot_answer=0.2), setup=travel_setup(), people=False)
    t.apply(OpenDeal(0))
    listener = Listener(1)
    t.bots = {1: listener}
    t.defer_thinking = True
    t.apply(PlayTravel(0, Card.TRAVEL_YELLOW, placard(Clan.YELLOW)))
    heard = len(listener.heard)
    t.clock.advance(0.2)  # seat 1 is asked: it starts thinking (on a "worker")
    assert t.master.thinking(1) and len(t.pending_thoughts) == 1
    t.apply(Pass(2))  # meanwhile the game moves on (seat 2 answers)
    assert len(listener.heard) == heard  # not while it thinks
    call, done = t.pending_thoughts.pop()
    done(call())
    assert not t.master.thinking(1)
    # the missed events first (seat 2's pass), then those of its own answer
    kinds = [[e["type"] for e in seen] for seen in listener.heard[heard:]]
    assert kinds[0] == ["passed"] and listener.heard[heard][0]["seat"] == 2
    assert kinds[1][0] == "passed" and listener.heard[heard + 1][0]["seat"] == 1


class Chatty(Silent):
    """Says a phrase with every move."""

    def choose(self, view, legal, must_act=True):
        action = super().choose(view, legal, must_act)
        self._said = action
        return action

    def remark(self):
        return Remark(self._said, "phrase.deal", None)


def test_the_phrase_gate_lets_one_phrase_per_bot_through_every_few_seconds():
    t = Table(Timing(bot_delay=0.5, bot_tick=0.5), mode="ask_around", people=False)
    t.bots = {s: Chatty(s) for s in range(3)}
    t.master.schedule()
    t.clock.advance(30)
    assert len(t.applied) > 20 and t.phrases
    for seat in range(3):
        times = [w for w, s, _ in t.phrases if s == seat]
        assert all(b - a >= PHRASE_GAP for a, b in zip(times, times[1:], strict=False))
    assert all(key == "phrase.deal" for _, _, key in t.phrases)


def test_saved_knobs_load_and_an_unknown_one_is_named_in_a_warning(caplog):
    with caplog.at_level("WARNING", logger="game.table.bot_schedule"):
        new = timing_from_data(
            {"window": 4, "going_once": 3, "start_after": None, "stop_seconds": 9, "bot_pace": 2}
        )
    assert (new.window, new.bot_pace, new.start_after) == (4.0, 2.0, None)
    assert new.window_length("going_once") == 6.0
    assert "no knob 'stop_seconds'" in caplog.text


def test_a_frame_tick_fires_what_is_due_at_the_frames_end():
    clock = ManualClock(start=0.0)
    seen = []
    clock.call_at(0.01, lambda: seen.append(clock.now()))
    clock.call_at(0.03, lambda: seen.append(clock.now()))
    assert clock.tick(0.02) == 1 and seen == [0.02]  # not 0.01: the screen shows it at 0.02
    clock.jump(0.5)  # a still picture: nothing fires
    assert seen == [0.02] and clock.now() == 0.52
    assert clock.advance(0.0) == 1 and seen == [0.02, 0.52]


def test_a_bot_move_due_at_once_keeps_its_place_behind_what_the_clock_already_holds():
    """In a simulation a waited-for bot's move due at once runs without a timer (the bot
    callback that made it due runs it next); anything the clock holds for the same moment
    still goes first, as it would have with a timer."""
    from game.bots import make_bot
    from game.table.simulate import play

    game = Game(["A", "B", "C", "D"], 7, Settings(players=4))
    clock = ManualClock(start=0.0)
    fired: list[tuple[int, int]] = []  # (log length when armed, log length when fired)

    def on_step(g, action, events):
        n = len(g.log)
        if n in (25, 60):  # a timer for this very moment, armed mid-game
            clock.call_at(clock.now(), lambda: fired.append((n, len(g.log))))

    play(game, [make_bot("random", s, 7) for s in range(4)], on_step=on_step, clock=clock)
    assert fired == [(25, 25), (60, 60)]  # each ran before the next bot's move


def test_the_manual_clock_names_its_next_deadline():
    clock = ManualClock(start=0.0)
    assert clock.next_deadline() == float("inf")
    first = clock.call_at(2.0, lambda: None)
    clock.call_at(3.0, lambda: None)
    assert clock.next_deadline() == 2.0
    first.cancel()
    assert clock.next_deadline() == 3.0


def test_a_simulation_stops_with_its_own_error_not_a_quiet_table():
    """A failure inside a simulated game (here the safety net on the number of actions, and
    an on_step check) stops the run with that error: the strict clock does not log it and
    go on, which left "nobody can move" as the only clue."""
    from game.bots import make_bot
    from game.table.simulate import SimulationError, play

    game = Game(["A", "B", "C", "D"], 7, Settings(players=4))
    with pytest.raises(SimulationError, match="no end after 40 actions"):
        play(game, [make_bot("random", s, 7) for s in range(4)], max_actions=40)

    def check(g, action, events):
        if len(g.log) == 30:
            raise AssertionError("invariant broken at action 30")

    game = Game(["A", "B", "C", "D"], 7, Settings(players=4))
    with pytest.raises(AssertionError, match="action 30"):
        play(game, [make_bot("random", s, 7) for s in range(4)], on_step=check)
    assert len(game.log) == 30  # stopped there, not played on


def test_a_lenient_manual_clock_logs_a_failing_callback_and_runs_the_next():
    clock = ManualClock(start=0.0)
    ran = []
    clock.call_at(1.0, lambda: 1 / 0)
    clock.call_at(2.0, lambda: ran.append(clock.now()))
    assert clock.advance(5.0) == 2 and ran == [2.0]
    strict = ManualClock(start=0.0, strict=True)
    strict.call_at(1.0, lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        strict.advance(5.0)


def test_the_table_hears_the_end_from_the_master_once():
    """Game over is told through the Transport (no table looks for it): once, just after
    the last action's publish; a resumed game that had ended hears it as it starts."""
    told: list = []
    game = Game(["A", "B", "C"], 5, Settings(players=3, short_game=True))
    clock = ManualClock(start=0.0)
    bots = {s: make_bot("random", s, 5) for s in range(3)}
    seating = SeatPlayers(bots=lambda: bots, plays=bots.__contains__)
    transport = Transport(
        publish=lambda state, events, origin, countdowns: told.append("publish"),
        over=lambda: told.append(("over", len(game.log))),
    )
    master = Master(game, Timing(), clock, seating, transport, rng=random.Random(1))
    master.start()
    for _ in range(20000):
        if game.state.phase is Phase.GAME_OVER:
            break
        clock.advance(5.0)
    assert game.state.phase is Phase.GAME_OVER
    assert told.count("publish") == len(game.log)
    assert [t for t in told if t != "publish"] == [("over", len(game.log))]
    assert told[-2:] == ["publish", ("over", len(game.log))]
    told.clear()
    Master(game, Timing(), ManualClock(), seating, transport, rng=random.Random(1)).start()
    assert told == [("over", len(game.log))]


def test_every_action_goes_through_one_submit_recorded_before_it_is_published():
    """Bots' moves and time-ups re-enter through Master.submit: each applied action is
    recorded (storage) before the table hears of it (publish), exactly once."""
    from game.bots import make_bot

    seen: list = []
    game = Game(["A", "B", "C"], 5, Settings(players=3, window_mode=WindowMode.REAL_TIME))
    clock = ManualClock(start=0.0)
    bots = {s: make_bot("random", s, 5) for s in range(3)}
    master = Master(
        game,
        Timing(negotiation=20.0),
        clock,
        SeatPlayers(bots=lambda: bots, plays=bots.__contains__),
        Transport(publish=lambda state, events, origin, countdowns: seen.append(("publish", len(game.log)))),
        rng=random.Random(1),
        record=lambda action: seen.append(("record", len(game.log))),
    )
    master.start()
    clock.advance(120.0)
    assert len(game.log) > 20
    steps = ("record", "publish")
    assert seen == [(step, n) for n in range(1, len(game.log) + 1) for step in steps]
