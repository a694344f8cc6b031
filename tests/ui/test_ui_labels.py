"""Results, replay and log labels that are true: after "Let the bots finish" the results say
a bot finished the player's seat; a replay badges each seat as it was played at that moment
(the lesson's bots as the lesson's, then the bots that finished it) and a save that does not
say shows a neutral plate; a replay is nobody's turn, so no prompt speaks to "you"."""

from __future__ import annotations

import pytest

from game.tutorial import load_script
from game.ui.i18n import tr
from game.ui.scenes.results import ResultsScene
from game.ui.sessions import autosave
from game.ui.sessions.replay_session import ReplaySession
from game.ui.table.log import MAX_LINES
from game.ui.table.replay import ReplayScene
from game.ui.tutorial.progress import save_progress
from game.ui.tutorial.scene import TutorialTable, build_tutorial
from game.ui.tutorial.session import PLAY_OUT_BOT
from tools import layout_probe as probe
from tools.autoplay import DT, click_widget, make_app
from tools.screenshot import finished_bot_game

STEPS = len(load_script().steps)


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, speed="fast")
    yield app
    app.shutdown()


def drawn(app) -> set[str]:
    """Every text the next frame draws (a table's cached plates and panel drawn afresh)."""
    top = app.stack.top
    if hasattr(top, "plates"):
        top.plates._cache.clear()
        top.panel._static_key = None
    with probe.probing() as p:
        app.step(DT)
    return {t.text for t in p.texts}


def played_out_lesson(app) -> tuple[object, ResultsScene]:
    """The lesson done, "Let the bots finish" clicked, the results on screen."""
    save_progress(STEPS)
    session = build_tutorial(app, STEPS)
    table = TutorialTable(app, session, catch_up=True)
    app.push(table)
    app.step(DT)
    assert click_widget(table, "coach.play_out")
    for _ in range(200):
        app.step(DT, draw=False)
        if isinstance(app.stack.top, ResultsScene):
            break
    assert isinstance(app.stack.top, ResultsScene)
    return session, app.stack.top


def test_the_results_of_a_game_the_bots_finished_say_a_bot_stood_in(app):
    """"Player 1 wins!" after the bots played the player's seat to the end: the player's
    row says a bot stood in, with its style, the others' rows the bots' style, and a
    headline naming the player says "(bot standing in)"."""
    session, results = played_out_lesson(app)
    human = session.script.human
    me = results.names[human]
    texts = drawn(app)
    shrewd = tr("bot.kind.heuristic")
    assert any(tr("player.standing_in") in t for t in texts)  # the seat's row says so
    assert tr("results.stand_in_style", kind=shrewd) in texts  # under the player's name
    assert tr("newgame.bot", kind=shrewd) in texts  # the others: the bot that finished
    assert tr("results.winners_one", name=me) not in texts  # "Player 1 wins!"
    results.winners = [human]  # the headline when the player's seat won (or shared it)
    assert tr("results.winners_one", name=tr("results.stand_in_name", name=me)) in drawn(app)
    results.winners = [human, next(s for s in range(len(results.names)) if s != human)]
    assert any(tr("results.stand_in_name", name=me) in t for t in drawn(app))


def test_the_lessons_replay_badges_its_bots_as_they_were(app):
    """The lesson's bots were badged "Random" in its replay: they are the lesson's bots until
    the player hands over, then every seat is the bot that finished the game; the kept save
    says the same."""
    session, results = played_out_lesson(app)
    human = session.script.human
    assert click_widget(results, "results.replay")
    app.step(DT)
    replay = app.stack.top
    assert isinstance(replay, ReplayScene)
    bot = next(s for s in range(len(replay.names)) if s != human)
    texts = drawn(app)  # at the start: the lesson's bots
    assert tr("bot.kind.scripted") in texts and tr("bot.kind.random") not in texts
    handed_over = session.played_out_from
    assert handed_over is not None and 0 < handed_over < len(session.game.log)
    kept = ReplaySession.from_file(autosave.finished_games()[0].path)
    for s in (replay.replay, kept):
        s.seek(handed_over - 1)
        assert s.seat_info(bot).bot_kind == "scripted" and s.seat_info(human).kind == "human"
        s.seek(handed_over)
        assert s.seat_info(bot).bot_kind == PLAY_OUT_BOT and s.seat_info(bot).status is None
        me = s.seat_info(human)
        assert (me.kind, me.bot_kind, me.status) == ("bot", PLAY_OUT_BOT, "standing_in")
    replay._rebuild()
    texts = drawn(app)
    assert tr("player.standing_in") in texts and tr("bot.kind.heuristic") in texts


def viewer_turn(session: ReplaySession, phase: str) -> int:
    """The first position where it is the viewer's (seat 0's) move in `phase`."""
    for i in range(session.length):
        session.seek(i)
        v = session.view(0)
        if v["phase"] == phase and v["turn"] == 0:
            return i
    raise AssertionError(f"seat 0 never in {phase}")


def test_a_replay_is_nobodys_turn(app):
    """During playback the panel said "Your turn — Make a deal…" to whoever watched: it
    says whose turn it is instead, asks nobody "stop it or let it pass?", tags nobody
    "You", and the log tells the shown seat's draw as that seat's."""
    game = finished_bot_game(3, bots="heuristic")
    session = ReplaySession(game)
    viewer_turn(session, "turn")
    scene = ReplayScene(app, session)
    app.push(scene)
    scene._rebuild()
    texts = drawn(app)
    mei = scene.names[0]
    assert tr("table.turn_of", name=mei) in texts
    assert tr("wait.turn", name=mei) in texts
    assert not {tr("table.your_turn"), tr("prompt.turn"), tr("player.you")} & texts
    session.seek(session.length)  # the whole log, as Mei saw it
    scene._rebuild()
    lines = [text for text, _ in scene.log.lines()]
    assert not any(line.startswith(tr("log.you_drew", cards="")[:4]) for line in lines)
    seen = [e for e in session.events_so_far() if e["type"] == "cards_drawn" and e.get("cards")]
    assert seen and all(e["seat"] == 0 for e in seen)  # Mei's own draws: the cards shown
    said = scene.log.describe(seen[-1])
    assert said in lines or len(lines) == MAX_LINES
    assert said == tr("log.drew_cards", name=mei, cards=said.split(" ", 2)[2].rstrip("."))
    for i in range(session.length):  # a window that asks the shown seat
        session.seek(i)
        win = session.view(0).get("window")
        if win and 0 in (win.get("asked") or []):
            break
    else:
        raise AssertionError("seat 0 is never asked")
    scene._rebuild()
    texts = drawn(app)
    assert not any(tr("window.your_call") in t or tr("window.your_call_close") in t for t in texts)
    assert any(tr("window.asking_one", name=mei) in t for t in texts)


def test_a_hosts_save_shows_who_held_each_seat(tmp_path):
    """A LAN host's save names no kinds: its seats file does (a claimed seat is a person's,
    the others the host's bots), so its replay badges the bots with their style."""
    import json

    from game.ui.sessions.session_api import SeatInfo
    from net.host.seats import SeatTable

    game = finished_bot_game(4, players=3, bots="random")
    save = tmp_path / "lan-game.json"
    save.write_text(json.dumps(game.to_data()))
    seating = SeatTable(3, ["heuristic:greedy", "random"], bot_seed=1)
    seating.seats[0].token_digest, seating.seats[0].name = "ab" * 32, "Mei"
    seating.write_sidecar(save, "KMRT", "Mei's table")
    replay = ReplaySession.from_file(save)
    assert replay.seat_info(0).kind == "human"
    assert replay.seat_info(1) == SeatInfo("bot", "random", True, False)
    assert replay.seat_info(2).bot_kind == "heuristic:greedy"
