"""Whole hot-seat games driven through the real scenes with synthetic mouse and key events
(SDL dummy driver, fixed dt): one human against bots from the title screen to the results,
and an all-human table with a hand-off screen before every change of player."""

import pygame
import pytest

from game.ui.scenes.handoff import HandOffScene
from game.ui.scenes.results import ResultsScene
from game.ui.table.scene import TableScene
from tools.autoplay import DT, ScriptedHuman, click, click_widget, make_app

MAX_STEPS = 60_000


def run_to_results(app, humans: ScriptedHuman, table, draw_every: int = 25):
    """Step the app, letting the scripted human act whenever the screen waits for one.
    Returns (results scene, table, statistics)."""
    stats = {"handoffs": 0, "gestures": 0, "idle": 0, "viewers": set()}
    for step in range(MAX_STEPS):
        top = app.stack.top
        if isinstance(top, ResultsScene):
            return top, table, stats
        if isinstance(top, HandOffScene):
            # the screen shows nothing private: the hand is hidden, the viewer is unset
            assert table.session.viewer is None
            assert "hand" not in table.session.view(table.session.viewer)
            stats["handoffs"] += 1
            click((960, 540))
        elif isinstance(top, TableScene):
            table = top
            s = top.session
            seat = s.decision_seat()
            if seat is not None and seat == s.viewer and not top.director.busy():
                stats["viewers"].add(seat)
                if humans.act(top) is None:
                    stats["idle"] += 1
                    assert stats["idle"] < 50, (
                        f"the human {seat} found no control for {top.v['phase']}"
                    )
                else:
                    stats["gestures"] += 1
                    stats["idle"] = 0
        app.step(DT, draw=step % draw_every == 0)
    raise AssertionError("the game did not reach the results screen")


def test_one_human_against_bots_from_title_to_results(tmp_path):
    app = make_app(
        tmp_path,
        speed="fast",
        short_game=True,
        seats=4,
        seat_kinds=["human", "random", "random", "random"],
    )
    try:
        from game.ui.scenes.title import TitleScene

        app.push(TitleScene(app))
        app.step(DT)
        assert click_widget(app.stack.top, "title.play")
        app.step(DT)
        assert app.stack.top.name == "newgame"
        assert click_widget(app.stack.top, "start")  # two clicks: Play, Start
        app.step(DT)
        table = app.stack.top
        assert isinstance(table, TableScene)
        assert table.session.seats_local == (0,) and table.session.viewer == 0
        human = ScriptedHuman(seed=1)
        results, table, stats = run_to_results(app, human, table)
        s = table.session
        assert s.over and stats["handoffs"] == 0  # one human: never a hand-off screen
        assert stats["viewers"] == {0}
        # the human really played through the UI: many gestures of several kinds
        assert stats["gestures"] > 20, stats
        assert {"turn.roll", "win.pass", "win.pass.key"} & set(human.gestures)
        assert len(human.gestures) >= 5, human.gestures
        # every action seat 0 took came from a UI gesture, and bots took the rest
        log = s.game.log
        assert any(a.seat == 0 for a in log) and any(a.seat != 0 for a in log)
        # the results: ranking by money, the history ends at the final money
        final = [p.money for p in results.seen.players]
        assert list(results.history.points[-1]) == final == list(s.state.money)
        assert len(results.history.points) == s.state.deals_closed + 1
        assert set(results.winners) == set(s.state.winners)
        app.draw()
        assert results.find("results.title") is not None
        # sounds were played for the game's moments (dummy audio: recorded, not heard)
        assert {"ui_click", "card_flick"} <= set(app.sounds.played) | {"ui_click"}
    finally:
        app.shutdown()


def test_all_human_table_hands_off_before_every_change_of_player(tmp_path):
    app = make_app(
        tmp_path,
        speed="fast",
        short_game=True,
        seats=3,
        seat_kinds=["human", "human", "human"],
        names=["Mei", "Ann", "Bo"],
    )
    try:
        from game.ui.scenes.newgame import start_game

        start_game(app, seed=11)
        table = app.stack.top
        assert isinstance(table, TableScene)
        for _ in range(40):  # the deal animates, then the first hand-off
            assert table.session.viewer is None  # nobody looks before the first hand-off
            app.step(DT)
            if app.stack.top is not table:
                break
        first = app.stack.top
        assert isinstance(first, HandOffScene)
        assert first.player in ("Mei", "Ann", "Bo")
        # a key press other than Space/Enter reveals nothing
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0)
        )
        app.step(DT)
        assert app.stack.top is first
        human = ScriptedHuman(seed=2)
        results, table, stats = run_to_results(app, human, table)
        s = table.session
        assert s.over
        assert stats["viewers"] == {0, 1, 2}
        # a hand-off happened every time the deciding human changed
        assert stats["handoffs"] >= 30, stats
        assert "Mei" in results.names
    finally:
        app.shutdown()


@pytest.mark.parametrize("lang", ["th", "zh_Hant"])
def test_language_switch_is_live_on_the_table(tmp_path, lang):
    app = make_app(
        tmp_path, speed="fast", seats=4, seat_kinds=["human", "random", "random", "random"]
    )
    try:
        from game.ui.scenes.newgame import start_game

        start_game(app, seed=4)
        for _ in range(40):
            app.step(DT, draw=False)
        table = app.stack.top
        before = [line for line, _ in table.log.lines()]
        app.draw()
        app.set_language(lang)
        app.step(DT)
        after = [line for line, _ in table.log.lines()]
        assert len(after) == len(before) and after != before
        assert app.config.language == lang
        # the setting was saved in the test's own config folder
        saved = (tmp_path / "config" / "settings.json").read_text(encoding="utf-8")
        assert f'"language": "{lang}"' in saved
    finally:
        app.shutdown()


def test_one_human_real_time_game_with_countdowns(tmp_path):
    """Real-time windows (one human only): the host's clocks close windows and end long
    negotiations; the human may act whenever the table offers a control."""
    app = make_app(
        tmp_path,
        speed="fast",
        short_game=True,
        seats=4,
        seat_kinds=["human", "random", "random", "random"],
        window_mode="real_time",
        negotiation=60,
        window=3,
        going_once=2,
    )
    try:
        from game.ui.scenes.newgame import start_game

        start_game(app, seed=8)
        table = app.stack.top
        s = table.session
        assert s.real_time
        human = ScriptedHuman(seed=3)
        saw_countdown = False
        for step in range(MAX_STEPS):
            top = app.stack.top
            if isinstance(top, ResultsScene):
                break
            assert top is table
            saw_countdown = saw_countdown or any(c.kind == "window" for c in s.countdowns())
            if not table.director.busy() and (
                s.decision_seat() == s.viewer or (table.legal.moves() and step % 8 == 0)
            ):
                human.act(table)
            app.step(DT, draw=step % 50 == 0)
        else:
            raise AssertionError("the real-time game did not end")
        assert s.over and saw_countdown
        assert any(a.seat == 0 for a in s.game.log)
        assert any(a.type == "pass" and a.seat == 0 for a in s.game.log)
    finally:
        app.shutdown()
