"""Hot-seat autosave: the game is saved after every action (engine save format plus the
seats), "Continue" on the title restores exactly that state, finishing or abandoning the
game removes the save, and an unreadable save never crashes the title."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from game.rules import load
from game.ui.scenes.menu import PauseScene
from game.ui.scenes.newgame import start_game
from game.ui.scenes.title import TitleScene
from game.ui.sessions import autosave, resume
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.table.scene import TableScene
from tools.autoplay import DT, ScriptedHuman, click_widget, key, make_app


def play_until(app, table, actions: int, guard: int = 4000, human=None) -> None:
    """Step the app until the session has applied `actions` actions (`human` plays seat 0
    through the table when it is asked)."""
    s = table.session
    for _ in range(guard):
        if len(s.game.log) >= actions:
            return
        if human is not None and s.decision_seat() == 0 and not table.director.busy():
            human.act(table)
        app.step(DT, draw=False)
    raise AssertionError("the game did not go on")


def test_continue_restores_the_autosaved_game_and_leaving_removes_it(tmp_path):
    kinds = ["human", "random", "random"]
    app = make_app(tmp_path, speed="fast", seats=3, seat_kinds=kinds, names=["Mei", "", ""])
    folder = tmp_path / "config" / "autosave"
    try:
        start_game(app, seed=12)
        table = app.stack.top
        s = table.session
        assert s.autosave is not None
        # the human plays through the table; bots too; saved after every action
        human = ScriptedHuman(seed=4)
        for _ in range(3000):
            if len(s.game.log) >= 25 and s.decision_seat() is None:
                break
            if s.decision_seat() == 0 and not table.director.busy():
                human.act(table)
            app.step(DT, draw=False)
        assert len(s.game.log) >= 25 and any(a.seat == 0 for a in s.game.log)
        assert app.autosaver.flush()
        game_file = s.autosave_path
        assert game_file.parent == folder
        saved = load(game_file)  # the engine's own format
        assert saved.state.hash() == s.state.hash() and len(saved.log) == len(s.game.log)
        seats = json.loads(autosave.seats_path(game_file).read_text(encoding="utf-8"))
        assert [x["kind"] for x in seats["seats"]] == kinds
        assert seats["seats"][0]["name"] == "Mei"
        state_hash, n = s.state.hash(), len(s.game.log)
        assert app.autosaver.writes >= 2
    finally:
        app.shutdown()  # the window goes away without "leave": as after a crash

    app = make_app(tmp_path, load=True, speed="fast")
    try:
        title = app.push(TitleScene(app))
        app.step(DT)
        assert title.saved is not None and title.saved.actions == n
        assert title.saved.names[0] == "Mei"
        assert click_widget(title, "title.continue")
        app.step(DT)
        table = app.stack.top
        assert isinstance(table, TableScene)
        s = table.session
        assert isinstance(s, LocalSession) and s.state.hash() == state_hash
        assert s.specs[1] == SeatSpec(s.specs[1].name, "random", default_name=True)
        assert s.seats_local == (0,)
        # the log and the money history were rebuilt from the replayed events, unanimated
        assert len(table.log.events) > 10 and not table.director.busy()
        # the game goes on and keeps saving
        play_until(app, table, n + 3, human=ScriptedHuman(seed=5))
        app.step(DT, draw=False)
        assert app.autosaver.flush()
        assert s.autosave_path == game_file  # a continued game saves back to its own file
        again = load(game_file).log
        assert len(again) >= n + 3 and again == s.game.log[: len(again)]
        # leaving from the pause menu asks first, then keeps the autosave: Continue again
        key(27)  # Esc
        app.step(DT)
        assert isinstance(app.stack.top, PauseScene)
        assert click_widget(app.stack.top, "menu.leave")
        app.step(DT)
        assert isinstance(app.stack.top, PauseScene)  # "Leave this game?"
        assert click_widget(app.stack.top, "menu.leave_keep")
        app.step(DT)
        assert app.autosaver.flush()
        assert game_file.exists()
        title = app.stack.top
        assert isinstance(title, TitleScene) and title.saved is not None
        assert title.saved.actions == len(s.game.log)
        # only "Abandon this game" removes it: no more Continue
        assert click_widget(title, "title.continue")
        app.step(DT)
        key(27)
        app.step(DT)
        assert click_widget(app.stack.top, "menu.leave")
        app.step(DT)
        assert click_widget(app.stack.top, "menu.abandon")
        app.step(DT)
        assert app.autosaver.flush()
        assert not game_file.exists() and not autosave.seats_path(game_file).exists()
        title = app.stack.top
        assert isinstance(title, TitleScene) and title.saved is None
        assert title.find("title.continue") is None and title.find("title.play") is not None
    finally:
        app.shutdown()


def test_a_finished_game_removes_its_autosave(tmp_path):
    writer = autosave.AutosaveWriter(tmp_path / "saves")
    s = LocalSession([SeatSpec("A", "random"), SeatSpec("B", "random")], seed=3)
    s.attach_autosave(writer)
    game_file = s.autosave_path
    assert writer.flush() and game_file.exists()
    for _ in range(20000):
        if s.over:
            break
        s.update(5.0)  # long frames: bots act at once
    assert s.over
    s.update(0.1)
    assert writer.flush()
    assert not game_file.exists() and not autosave.seats_path(game_file).exists()
    writer.close()


@pytest.mark.parametrize(
    "game_text, seats_ok",
    [
        ("{not json", True),  # a truncated or garbled file
        (None, False),  # the seats file is missing
        ("replayable", True),  # a well-formed save whose actions cannot be replayed
    ],
)
def test_a_corrupt_autosave_never_crashes_the_title(tmp_path, game_text, seats_ok):
    app = make_app(tmp_path)
    folder = tmp_path / "config" / "autosave"
    folder.mkdir(parents=True)
    try:
        good = LocalSession([SeatSpec("A"), SeatSpec("B", "random")], seed=5)
        data = good.game.to_data()
        if game_text == "replayable":
            data["actions"] = [{"type": "draw", "seat": 1}]  # never legal at the start
            game_text = json.dumps(data)
            seats_ok = True
        elif game_text is None:
            game_text = json.dumps(data)
        kept = folder / f"{autosave.GAME_PREFIX}000001.json"
        kept.write_text(game_text, encoding="utf-8")
        if seats_ok:
            seats = {"format": autosave.FORMAT, "version": 1}
            seats["seats"] = [{"name": "A", "kind": "human"}, {"name": "B", "kind": "random"}]
            autosave.seats_path(kept).write_text(json.dumps(seats), encoding="utf-8")
        title = app.push(TitleScene(app))
        app.step(DT)
        if title.find("title.continue") is not None:  # it looked fine until replayed
            assert click_widget(title, "title.continue")
            app.step(DT)
            assert app.stack.top is title
        assert title.notice == autosave_message()
        assert title.find("title.continue") is None
        app.draw()  # the message is drawn; the title works on
        assert not list(folder.glob("*.json"))  # nothing left that looks like a game
        assert [p.name for p in folder.glob("*.corrupt")][:1] == ["hotseat-000001.json.corrupt"]
        assert click_widget(title, "title.play")
        app.step(DT)
        assert app.stack.top.name == "newgame"
    finally:
        app.shutdown()


def autosave_message() -> str:
    from game.ui.i18n import tr

    return tr("title.autosave_corrupt")


def test_continue_runs_the_negotiation_clock_on_from_what_was_left(tmp_path):
    from game.table.bot_schedule import Timing
    from game.ui.sessions.session import CLOCK_SAVE_SECONDS
    from tests.ui.test_ui_session import real_time_deal

    writer = autosave.AutosaveWriter(tmp_path / "saves")
    # nobody else moves (no bots): only the clock runs
    s = real_time_deal(("human", "random", "random"), Timing(negotiation=60.0), {})
    s.attach_autosave(writer)
    assert writer.flush()
    game_file = s.autosave_path
    game_text = game_file.read_text()
    for _ in range(25):  # 25 s of table time with nothing happening
        s.update(1.0)
    assert writer.flush()
    # the clock was saved without rewriting the game file
    assert game_file.read_text() == game_text
    saved = json.loads(autosave.seats_path(game_file).read_text())["clocks"]["negotiation"]
    assert 35.0 <= saved <= 35.0 + CLOCK_SAVE_SECONDS

    restored = resume.restore(game_file)
    left = {c.kind: c.remaining for c in restored.countdowns()}
    assert left["negotiation"] == pytest.approx(saved)
    writer.close()


def test_the_tables_timing_is_saved_as_timing(tmp_path):
    """The seats file keeps the clocks' settings under ``timing`` (``timers`` is the wire's
    word for running countdowns)."""
    from game.table.bot_schedule import Timing

    writer = autosave.AutosaveWriter(tmp_path / "saves")
    timing = Timing(window=7.0, negotiation=60.0)
    s = LocalSession([SeatSpec("A", "human"), SeatSpec("B", "random")], seed=3, timing=timing)
    s.attach_autosave(writer)
    assert writer.flush()
    writer.close()
    game_file, seats_file = s.autosave_path, autosave.seats_path(s.autosave_path)
    seats = json.loads(seats_file.read_text())
    assert seats["timing"] == asdict(timing) and "timers" not in seats
    assert resume.restore(game_file).timing == timing


def test_an_autosave_with_nonsense_clocks_is_refused_with_the_reason(tmp_path):
    writer = autosave.AutosaveWriter(tmp_path / "saves")
    s = LocalSession([SeatSpec("A", "human"), SeatSpec("B", "random")], seed=3)
    s.attach_autosave(writer)
    assert writer.flush()
    writer.close()
    game_file, seats_file = s.autosave_path, autosave.seats_path(s.autosave_path)
    seats = json.loads(seats_file.read_text())
    for clocks, reason in (([], "clocks must be a map"), ({"turn": 3}, "unknown clock"),
                           ({"negotiation": -1}, "seconds left")):
        seats["clocks"] = clocks
        seats_file.write_text(json.dumps(seats))
        with pytest.raises(autosave.AutosaveError, match=reason):
            resume.restore(game_file)
    # a save from before clocks were recorded restores with its clocks from full
    del seats["clocks"]
    seats_file.write_text(json.dumps(seats))
    assert resume.restore(game_file) is not None
