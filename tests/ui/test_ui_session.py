"""LocalSession: what the table may see (redacted views and events), who decides next,
bots acting only after a human-like delay and never while the table animates, the real-time
clocks, and refusals. No display needed."""

import re
from pathlib import Path

import pytest

from game.rules import (
    Offer,
    OpenDeal,
    Pass,
    PlayBoss,
    Roll,
    Settings,
    WindowMode,
    placard,
)
from game.table.bot_schedule import Timing
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.sessions.session_api import Session
from tools.screenshot import table_session


def seats(*kinds):
    names = ["Mei", "Ann", "Bo", "Cy", "Dee", "Eli"]
    return [SeatSpec(names[i], k) for i, k in enumerate(kinds)]


def test_local_session_is_a_session():
    s = LocalSession(seats("human", "random", "random"), seed=1)
    assert isinstance(s, Session)
    assert s.seats_local == (0,) and s.viewer == 0
    assert s.seat_info(0).kind == "human" and s.seat_info(0).local
    assert s.seat_info(1).kind == "bot" and s.seat_info(1).bot_kind == "random"


def test_every_session_derives_from_the_declared_base():
    from game.ui.sessions.net_session import NetSession
    from game.ui.sessions.replay_session import ReplaySession
    from game.ui.tutorial.session import TutorialSession

    for cls in (LocalSession, NetSession, ReplaySession, TutorialSession):
        assert issubclass(cls, Session), cls
    # what the UI reads has a declared default (a session that has nothing to say)
    assert (Session.live, Session.lesson, Session.owns_host, Session.serial) == (
        False, False, False, None,
    )
    assert Session.hints_allowed and Session.hints_off_reason == "hint.off"


#: a session's member probed instead of read: getattr/hasattr on a session-like name
SESSION_PROBE = re.compile(r"\b(?:getattr|hasattr)\(\s*(?:[\w.]*\.)?(?:session|s)\s*,")
UI = Path(__file__).resolve().parents[2] / "game" / "ui"


def session_probes(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if SESSION_PROBE.search(line)]


def test_the_ui_reads_the_session_without_probing():
    assert session_probes('x = getattr(self.table.session, "live", False)')
    assert session_probes("if hasattr(s, 'notice'):")
    assert not session_probes('getattr(self.app, "lan", None)')
    found = {
        str(path.relative_to(UI)): probes
        for path in sorted(UI.rglob("*.py"))
        if (probes := session_probes(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_views_and_events_are_redacted_for_the_viewer():
    s = LocalSession(seats("human", "random", "random", "random"), seed=3)
    [opening] = s.poll()
    dealt = [e for e in opening.events if e["type"] == "hand_dealt"]
    assert len(dealt) == 4
    assert dealt[0]["cards"] is not None and all(e["cards"] is None for e in dealt[1:])
    v = s.view(s.viewer)
    assert "hand" in v and sum(v["hand"].values()) == 5
    assert all("money" not in p for p in v["players"][1:])  # hidden money
    assert "hand" not in s.view(None)
    assert s.legal(1).fixed == []  # a bot's seat is not this screen's to play


def test_bots_wait_a_human_like_delay_and_never_while_the_table_animates():
    s = LocalSession(seats("random", "random", "random"), seed=4, timing=Timing(bot_pace=1.0))
    assert s.viewer is None and s.decision_seat() is None
    s.hold = True
    for _ in range(100):
        s.update(0.1)
    assert s.version == 0  # holding: nothing happens
    s.hold = False
    s.update(0.01)  # plans the first move
    s.update(0.01)
    assert s.version == 0  # still "thinking"
    t = 0.0
    while s.version == 0:
        s.update(0.05)
        t += 0.05
        assert t < 3.0
    assert t >= 0.3  # DELAYS: at least a third of a second


def test_decision_seat_follows_the_ask_around_queue():
    s = LocalSession(seats("human", "human", "human"), seed=2)
    assert s.viewer is None  # several humans: nobody looks until the first hand-off
    first = s.decision_seat()
    assert first == s.waiting_for()[0]
    s.viewer = first
    action = next(a for a in s.legal(first).moves())
    s.send(action)
    assert s.version == 1 and s.decision_seat() == s.waiting_for()[0]


def test_a_move_for_another_seat_is_refused():
    s = LocalSession(seats("human", "random", "random"), seed=2)
    s.poll()
    s.send(Roll(1))  # seat 1 is a bot: this screen may not play it
    [batch] = s.poll()
    assert batch.error and s.version == 0


def test_illegal_move_comes_back_as_an_error_batch():
    s = LocalSession(seats("human", "random", "random"), seed=9)
    s.poll()
    s.send(Offer(0, (placard(0),), 3))  # no deal is open
    [batch] = s.poll()
    assert batch.error and "[" in batch.error and batch.events == []


def test_phrases_reach_the_table_as_events():
    s = LocalSession(seats("human", "random", "random"), seed=9)
    s.poll()
    s.say(0, "phrase.too_expensive")
    [batch] = s.poll()
    assert batch.events == [{"type": "phrase", "seat": 0, "key": "phrase.too_expensive"}]


def test_real_time_window_closes_when_its_countdown_ends():
    s = table_session(seed=3)  # Bo's "I'm the Boss!" window, 1.6 s into 5 s
    st = s.state
    assert st.window is not None and st.window.kind.value == "boss"
    [cd] = [c for c in s.countdowns() if c.kind == "window"]
    assert cd.total == 5.0 and cd.remaining == pytest.approx(3.4)
    s.frozen = False
    s.bots.clear()  # only the clock acts: nobody answers
    s.update(3.0)
    assert st.window is not None
    s.update(0.5)  # time is up: everyone still asked passes, the play stands
    assert st.window is None and st.negotiation.boss == 2


def real_time_deal(kinds, timing: Timing, bots: dict) -> LocalSession:
    """A 3-player real-time session (seed 6) with `bots` in the bots' seats, in which the
    first player has just opened a deal."""
    s = LocalSession(
        seats(*kinds),
        seed=6,
        settings=Settings(players=3, window_mode=WindowMode.REAL_TIME),
        timing=timing,
    )
    s.bots = bots
    st = s.state
    from game.rules import PlaceMarker

    if st.phase.value == "place_marker":
        s.apply_scripted(PlaceMarker(st.turn, 0))
    s.apply_scripted(OpenDeal(st.turn))
    return s


def test_real_time_negotiation_clock_runs_out():
    s = real_time_deal(("human", "random", "random"), Timing(negotiation=10), {})
    st = s.state
    assert not st.negotiation.time_up
    for _ in range(9):
        s.update(1.0)
    assert not st.negotiation.time_up
    s.update(1.5)
    assert st.negotiation.time_up


def test_real_time_needs_one_screen_per_human():
    settings = Settings(players=3, window_mode=WindowMode.REAL_TIME)
    with pytest.raises(ValueError):
        LocalSession(seats("human", "human", "random"), seed=1, settings=settings)


def test_scripted_table_has_what_the_screenshot_promises():
    s = table_session(seed=3)
    v = s.view(0)
    neg = v["negotiation"]
    assert neg["travel"]  # a travel marker
    assert len([p for p in neg["pending"].values() if not p["by_boss"]]) >= 2  # two offers
    assert len(neg["agreements"]) == 1  # one agreement (Bo's Boss card is not through yet)
    assert v["window"]["kind"] == "boss" and s.countdowns()  # a countdown
    assert Pass(0) in s.legal(0) and PlayBoss(0) not in s.legal(0)
