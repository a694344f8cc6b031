"""The replay viewer: stepping through a saved game reaches the same states as replaying its
log directly; a jump lands on a deal's opening; before the game is over only the chosen
seat's hand is shown; finished hot-seat games are kept (the newest 20) and the results
screen opens the viewer on the game just finished; a host's journal tail is replayed too."""

from __future__ import annotations

import json

import pygame
import pytest

from game.rules import Game, apply, new_game
from game.rules.events import DealOpened
from game.ui.sessions import autosave
from game.ui.sessions.replay_session import (
    ALL_HANDS,
    SEAT_CHANGES,
    SEAT_KINDS,
    ReplaySession,
    load_replay,
    seat_kinds_in,
    seat_record_in,
    with_seat_kinds,
)
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.sessions.session_api import SeatInfo
from game.ui.table.replay import ReplayScene
from game.ui.table.scene import TableScene
from tools.autoplay import DT, click, click_widget, key, make_app
from tools.screenshot import finished_bot_game


@pytest.fixture(scope="module")
def game() -> Game:
    return finished_bot_game(5, players=4, bots="random")


def direct_hashes(game: Game) -> list[str]:
    """The state hash after each number of actions, by replaying the log on a fresh game."""
    st = new_game(list(game.names), game.seed, game.settings, game.setup)
    out = [st.hash()]
    for action in game.log:
        apply(st, action)
        out.append(st.hash())
    return out


def test_stepping_forward_and_back_matches_replaying_the_log(game):
    hashes = direct_hashes(game)
    s = ReplaySession(game)
    assert s.length == len(game.log) and s.final_hash == game.state.hash()
    for i in range(1, 40):
        assert s.forward()
        assert s.index == i and s.state.hash() == hashes[i]
    for i in range(38, 10, -1):
        assert s.back()
        assert s.index == i and s.state.hash() == hashes[i]
    for i in (len(game.log), 0, len(game.log) // 2, 7, len(game.log) - 1):
        s.seek(i)
        assert s.state.hash() == hashes[i]
    s.seek(len(game.log))
    assert s.at_end and not s.forward() and s.over


def test_jump_to_a_deal_lands_on_its_opening(game):
    s = ReplaySession(game)
    hashes = direct_hashes(game)
    assert len(s.deals) >= 3
    st = new_game(list(game.names), game.seed, game.settings, game.setup)
    openings = []
    for i, action in enumerate(game.log):
        if any(isinstance(e, DealOpened) for e in apply(st, action)):
            openings.append(i + 1)
    assert s.deals == openings
    for k in (2, 0, len(s.deals) - 1):
        s.jump_to_deal(k)
        assert s.index == openings[k] and s.state.hash() == hashes[openings[k]]
        assert s.state.negotiation is not None and s.deal_at() == k
        assert s.view(None)["negotiation"] is not None


def test_before_game_over_only_the_chosen_seats_hand_is_shown(game):
    s = ReplaySession(game)
    s.jump_to_deal(1)
    assert ALL_HANDS not in s.viewer_choices()
    with pytest.raises(ValueError):
        s.set_choice(ALL_HANDS)
    for seat in range(len(game.names)):
        s.set_choice(seat)
        shown = s.shown_hands()
        assert list(shown) == [seat]
        v = s.view(s.viewer)
        assert v["hand"] == shown[seat]
        assert "hand" not in s.view(None)
        # the events the table logs are that seat's: nobody else's drawn cards
        for e in s.events_so_far():
            if e["type"] in ("cards_drawn", "hand_dealt") and e.get("seat") != seat:
                assert not e.get("cards")
    s.set_choice(None)
    assert s.shown_hands() == {} and "hand" not in s.view(s.viewer)
    s.seek(s.length)
    assert ALL_HANDS in s.viewer_choices()
    s.set_choice(ALL_HANDS)
    assert sorted(s.shown_hands()) == list(range(len(game.names)))
    s.seek(s.length - 1)  # back before the end: the hands are secret again
    assert not s.all_hands and s.shown_hands() == {}


def test_the_scene_steps_with_the_keys_and_draws_the_chosen_view(tmp_path, game):
    app = make_app(tmp_path, speed="fast")
    try:
        s = ReplaySession(game)
        scene = ReplayScene(app, s)
        app.push(scene)
        app.step(DT)
        key(pygame.K_RIGHT)
        app.step(DT)
        assert s.index == 1
        key(pygame.K_DOWN)  # the first deal's opening
        app.step(DT)
        assert s.index == s.deals[0]
        assert any(e["type"] == "deal_opened" for e in scene.log.events)
        key(pygame.K_LEFT)
        app.step(DT)
        assert s.index == s.deals[0] - 1
        # the log was rebuilt up to here, not appended to: the first deal is not open yet
        assert not any(e["type"] == "deal_opened" for e in scene.log.events)
        assert scene.log.events[-1] == s.events_so_far()[-1]
        assert scene.v == s.view(0) and scene.hand.cards  # Mei's hand, from her view
        click(scene.find("replay.hand_of").next.rect.center)
        app.step(DT)
        app.step(DT)
        assert s.viewer == 1 and scene.v["seat"] == 1
        key(pygame.K_SPACE)  # play: the replay moves on by itself
        for _ in range(40):
            app.step(DT)
        assert s.index > s.deals[0] - 1 and scene.playing
        key(pygame.K_SPACE)
        app.step(DT)
        assert not scene.playing
        timeline = scene.find("replay.timeline")
        x = timeline.x_of(s.deals[2])
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, timeline.rect.centery))
        )
        app.step(DT)
        assert s.index == s.deals[2]
        app.draw()
    finally:
        app.shutdown()


def test_finished_hot_seat_games_are_kept_newest_twenty(tmp_path, game):
    folder = tmp_path / "finished"
    for i in range(23):
        data = game.to_data()
        data["seed"] = i
        autosave.keep_finished(data, folder)
    kept = autosave.finished_games(folder)
    assert len(kept) == autosave.KEEP_FINISHED == 20
    seeds = [json.loads(k.path.read_text())["seed"] for k in kept]
    assert seeds == list(range(22, 2, -1))  # newest first, the three oldest gone
    assert kept[0].names == list(game.names) and kept[0].actions == len(game.log)


def test_the_results_of_a_hot_seat_game_keep_it_and_open_the_viewer(tmp_path, game):
    app = make_app(tmp_path, speed="fast")
    try:
        seats = [SeatSpec(n, "random") for n in game.names]
        session = LocalSession(seats, game.seed, game.settings, game.setup)
        for action in game.log:
            session.apply_scripted(action)
        table = TableScene(app, session)
        app.push(table)
        app.step(DT)
        table.show_results()
        results = app.stack.top
        assert results.name == "results"
        kept = autosave.finished_games()
        assert len(kept) == 1 and kept[0].actions == len(game.log)
        assert load_replay(kept[0].path).state.hash() == game.state.hash()
        assert ReplaySession.from_file(kept[0].path).seat_info(1) == SeatInfo("bot", "random")
        app.draw()
        assert click_widget(results, "results.replay")
        app.step(DT)
        viewer = app.stack.top
        assert isinstance(viewer, ReplayScene)
        assert viewer.replay.final_hash == game.state.hash() and viewer.replay.index == 0
        assert viewer.replay.seat_info(0).kind == "bot"  # the plates say who played
        key(pygame.K_ESCAPE)
        app.step(DT)
        assert app.stack.top is results
    finally:
        app.shutdown()


def test_a_hosts_journal_tail_is_replayed(tmp_path, game):
    from net.host.journal import game_id, journal_path, record_line

    save = tmp_path / "lan.json"
    head = Game(list(game.names), game.seed, game.settings, game.setup)
    for action in game.log[:30]:
        head.apply(action)
    head.save(save)
    lines = [
        record_line({"journal": "imtheboss-journal", "v": 1, "game": game_id(head), "base": 30})
    ]
    for i in range(30, 60):
        lines.append(record_line({"i": i, "a": game.log[i].to_data()}))
    journal_path(save).write_bytes(b"".join(lines) + b'{"i":60,"a":{"ty')  # a torn last line
    loaded = load_replay(save)
    assert len(loaded.log) == 60
    assert loaded.state.hash() == direct_hashes(game)[60]


def test_the_title_lists_kept_games_and_opens_one(tmp_path, game):
    from game.ui.scenes.replays import ReplayListScene
    from game.ui.scenes.title import TitleScene

    app = make_app(tmp_path, speed="fast")
    try:
        autosave.keep_finished(game.to_data())
        app.push(TitleScene(app))
        app.step(DT)
        assert click_widget(app.stack.top, "title.replays")
        app.step(DT)
        picker = app.stack.top
        assert isinstance(picker, ReplayListScene) and len(picker.entries) == 1
        picker.path_text = str(tmp_path / "missing.json")
        picker.open(tmp_path / "missing.json")
        assert picker.notice and app.stack.top is picker
        app.draw()
        assert click_widget(picker, "replays.entry.0")
        app.step(DT)
        assert isinstance(app.stack.top, ReplayScene)
    finally:
        app.shutdown()


def test_a_save_says_who_played_each_seat_and_nonsense_is_ignored(tmp_path, game):
    kinds = ["human", "heuristic:greedy", "random", "search"]
    data = with_seat_kinds(game.to_data(), kinds)
    assert seat_kinds_in(data) == kinds
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    replay = ReplaySession.from_file(path)
    assert [replay.seat_info(s).kind for s in range(4)] == ["human", "bot", "bot", "bot"]
    assert replay.seat_info(1).bot_kind == "heuristic:greedy"
    for bad in (kinds[:3], ["human", "nobody", "random", "search"], "human", [1, 2, 3, 4]):
        assert seat_kinds_in({**data, SEAT_KINDS: bad}) is None
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(game.to_data()))  # a save that does not say: a plain plate
    assert ReplaySession.from_file(plain).seat_info(1) == SeatInfo("unknown", None, True, False)
    for changes in (None, "nonsense", [[0, 9, "random"]]):  # kinds without their changes
        assert seat_record_in({**data, SEAT_CHANGES: changes}) is None
