"""Kept games, plural: every unfinished hot-seat game keeps its own files until it is finished,
abandoned or deleted; starting another never overwrites one. Continue opens the latest, the
saved-games list shows and opens each (Delete asks first), a default player name follows the language of the day, the host's autosave lives
under the config folder, and the replay list says when, who, who won and with what."""

from __future__ import annotations

import json

from game.rules import load
from game.ui.i18n import tr, tr_names
from game.ui.scenes.menu import PauseScene
from game.ui.scenes.title import TitleScene
from game.ui.sessions import autosave
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.table.scene import TableScene
from tools.autoplay import DT, click_widget, key, make_app

KINDS = ["human", "random", "random"]


def until_the_human_is_asked(app, table, guard: int = 2000) -> None:
    for _ in range(guard):
        if table.session.decision_seat() == 0 and not table.director.busy():
            return
        app.step(DT, draw=False)
    raise AssertionError("the human seat was never asked")


def leave_keeping_it(app) -> TitleScene:
    key(27)  # Esc
    app.step(DT)
    assert isinstance(app.stack.top, PauseScene)
    assert click_widget(app.stack.top, "menu.leave")
    app.step(DT)
    assert click_widget(app.stack.top, "menu.leave_keep")
    app.step(DT)
    title = app.stack.top
    assert isinstance(title, TitleScene)
    return title


def start_from_the_title(app, title) -> TableScene:
    assert click_widget(title, "title.play")
    app.step(DT)
    assert click_widget(app.stack.top, "start")
    app.step(DT)
    table = app.stack.top
    assert isinstance(table, TableScene)
    until_the_human_is_asked(app, table)
    return table


def test_starting_a_new_game_keeps_the_one_left_and_the_list_opens_either(tmp_path):
    from game.ui.scenes.saved_games import SavedGamesScene

    app = make_app(tmp_path, speed="fast", seats=3, seat_kinds=KINDS, names=["Mei", "", ""])
    try:
        title = app.push(TitleScene(app))
        app.step(DT)
        first = start_from_the_title(app, title)
        first_file, first_hash = first.session.autosave_path, first.session.state.hash()
        title = leave_keeping_it(app)
        assert [g.path for g in title.kept] == [first_file]
        # Play -> Start: a second game, in a file of its own; the first is untouched
        app.config.seats = 2
        second = start_from_the_title(app, title)
        second_file = second.session.autosave_path
        assert second_file != first_file
        second_hash = second.session.state.hash()
        title = leave_keeping_it(app)
        assert load(first_file).state.hash() == first_hash
        assert [g.path for g in title.kept] == [second_file, first_file]  # the latest first
        assert title.saved.path == second_file  # what Continue opens
        assert title.find("title.saved_games") is not None
        # the list shows both; Continue on the older row opens the older game
        assert click_widget(title, "title.saved_games")
        app.step(DT)
        saved = app.stack.top
        assert isinstance(saved, SavedGamesScene)
        assert [len(g.names) for g in saved.games] == [2, 3]
        assert saved.games[1].names[0] == "Mei"
        assert saved.games[1].tiles_left == len(first.session.state.tiles)
        app.draw()
        assert click_widget(saved, "saved.continue.1")
        app.step(DT)
        table = app.stack.top
        assert isinstance(table, TableScene) and table.session.state.hash() == first_hash
        assert table.session.autosave_path == first_file
        title = leave_keeping_it(app)
        # Delete asks first; Cancel keeps the game, Delete removes that one only
        assert click_widget(title, "title.saved_games")
        app.step(DT)
        saved = app.stack.top
        gone = saved.games[1].path
        assert click_widget(saved, "saved.delete.1")
        app.step(DT)
        assert saved.confirming is not None and saved.find("saved.continue.0") is None
        app.draw()
        assert click_widget(saved, "saved.cancel_delete")
        app.step(DT)
        assert len(saved.games) == 2 and gone.exists()
        assert click_widget(saved, "saved.delete.1")
        app.step(DT)
        assert click_widget(saved, "saved.confirm_delete")
        app.step(DT)
        assert not gone.exists() and not autosave.seats_path(gone).exists()
        assert [g.path for g in saved.games] == [p for p in (first_file, second_file) if p != gone]
        assert load(saved.games[0].path).state.hash() in (first_hash, second_hash)
    finally:
        app.shutdown()


def test_saves_of_two_games_queued_together_both_land(tmp_path):
    """The writer keeps the newest request per game, never one game's over another's."""
    writer = autosave.AutosaveWriter(tmp_path / "autosave")
    a = LocalSession([SeatSpec("A"), SeatSpec("B", "random")], seed=3)
    b = LocalSession([SeatSpec("C"), SeatSpec("D", "random")], seed=4)
    a.attach_autosave(writer)
    b.attach_autosave(writer)  # queued at once, before the first is written
    assert writer.flush()
    assert a.autosave_path != b.autosave_path
    assert load(a.autosave_path).names == ["A", "B"]
    assert load(b.autosave_path).names == ["C", "D"]
    writer.close()


def test_a_default_name_follows_the_language_and_a_typed_one_stays(tmp_path):
    app = make_app(tmp_path, speed="fast", language="th", seats=3,
                   seat_kinds=KINDS, names=["", "Mei", ""])  # fmt: skip
    try:
        title = app.push(TitleScene(app))
        app.step(DT)
        table = start_from_the_title(app, title)
        assert table.names[:2] == ["ผู้เล่น 1", "Mei"]
        title = leave_keeping_it(app)
        app.set_language("zh_Hant")
        app.step(DT)
        title = app.stack.top
        assert title.saved.names[:2] == ["玩家1", "Mei"]
        assert click_widget(title, "title.continue")
        app.step(DT)
        table = app.stack.top
        assert isinstance(table, TableScene)
        assert table.names[:2] == ["玩家1", "Mei"]
        assert [p["name"] for p in table.session.view(None)["players"]][:2] == ["玩家1", "Mei"]
    finally:
        app.shutdown()


def test_the_host_autosave_lives_in_the_config_folder_and_is_listed(tmp_path, monkeypatch):
    import main
    from game.cli.lan import config_from_args
    from game.ui.config import Config
    from game.ui.scenes.replays import entries
    from game.ui.sessions import lan as lan_ui

    monkeypatch.setenv("IMTHEBOSS_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    flags = config_from_args(main.build_parser().parse_args(["host", "--seats", "2"]))
    lobby = lan_ui.host_config(Config(lan_seats=2))
    for save in (flags.autosave, lobby.autosave):
        assert save.parent == tmp_path / "cfg" / "autosave" and save.name.startswith("lan-")
    # a hosted game's save (and the seats file beside it) as the host leaves them
    game = LocalSession([SeatSpec("Ana"), SeatSpec("Bo")], seed=2).game
    flags.autosave.parent.mkdir(parents=True)
    flags.autosave.write_text(json.dumps(game.to_data()), encoding="utf-8")
    seats_file = flags.autosave.with_name(flags.autosave.name + ".seats.json")
    seats_file.write_text("{}", encoding="utf-8")
    listed = [e.path for e in entries()]
    assert flags.autosave in listed and seats_file not in listed


def finished_game() -> LocalSession:
    s = LocalSession([SeatSpec("Ana", "random"), SeatSpec("Bo", "random")], seed=3)
    for _ in range(20000):
        if s.over:
            return s
        s.update(5.0)
    raise AssertionError("the game did not end")


def test_the_replay_list_says_when_who_who_won_and_the_score(tmp_path):
    from game.ui.scenes.common import when
    from game.ui.scenes.replays import entries

    app = make_app(tmp_path)  # the config folder under tmp_path
    try:
        s = finished_game()
        path = autosave.keep_finished(s.game.to_data())
        [entry] = entries()
        assert entry.path == path
        assert when(path.stat().st_mtime) in entry.label and "Ana and Bo" in entry.label
        money = tr("money.amount", n=s.state.money[s.state.winners[0]])
        winners = [s.state.names[w] for w in s.state.winners]
        assert tr_names("replays.winners", winners, money=money) in entry.label
    finally:
        app.shutdown()


def test_the_replay_list_is_in_date_order_newest_first_whatever_folder_holds_a_game(
    tmp_path, monkeypatch
):
    import os

    from game.ui.config import config_dir
    from game.ui.scenes.replays import entries

    app = make_app(tmp_path)
    try:
        game = finished_game().game.to_data()
        kept_old = autosave.keep_finished(game)
        kept_new = autosave.keep_finished(game)
        saves = config_dir() / "saves"
        saves.mkdir(parents=True, exist_ok=True)
        a_save, b_save = saves / "a.json", saves / "b.json"
        for path in (a_save, b_save):
            path.write_text(json.dumps(game), encoding="utf-8")
        # oldest to newest: b.json, the first kept game, a.json, the second kept game
        for age, path in enumerate((kept_new, a_save, kept_old, b_save)):
            os.utime(path, (1_700_000_000 - age * 3600,) * 2)
        assert [e.path for e in entries()] == [kept_new, a_save, kept_old, b_save]
    finally:
        app.shutdown()
