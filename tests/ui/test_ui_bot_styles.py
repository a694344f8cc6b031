"""Bot personalities on screen: the pickers offer every style (a friendly one for beginners
among them), each style has a name in every language and makes a real bot, and a bot's plate
shows its style."""

import json
from pathlib import Path

import pytest

from game.bots import make_bot
from game.bots.heuristic import PERSONALITIES, personality
from game.ui.scenes.newgame import NewGameScene, default_bot, kind_label
from game.ui.sessions.bot_styles import bot_specs, style_name
from game.ui.sessions.session import LocalSession, SeatSpec
from tools import layout_probe as probe
from tools.autoplay import make_app

LANG = Path(__file__).resolve().parents[2] / "assets" / "lang"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("styles"))
    app.set_language("en")
    yield app
    app.shutdown()


def test_the_pickers_offer_every_personality_with_a_name_in_every_language():
    specs = bot_specs()
    assert specs[0] == default_bot() == "heuristic:friendly"  # a lively first game
    assert "heuristic:friendly" in specs and specs[-1] == "random"
    assert {s.partition(":")[2] for s in specs if s.startswith("heuristic:")} == (
        set(PERSONALITIES) - {"balanced"}
    )
    tables = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in LANG.glob("*.json")}
    for spec in specs:
        kind, _, param = spec.partition(":")
        key = f"bot.personality.{param}" if param else f"bot.kind.{kind}"
        for lang, table in tables.items():
            assert table.get(key), (lang, key)
        make_bot(spec, 1, seed=3)  # every offered spec makes a bot


def test_the_friendly_bot_asks_and_offers_fair_prices():
    friendly, standard = personality("friendly"), personality(None)
    assert friendly.ask_sole < standard.ask_sole and friendly.ask_shared < standard.ask_shared
    assert friendly.boss_first > standard.boss_first  # a fairer first proposal as Boss
    assert friendly.fee == 0 and friendly.leader_markup == 0


def test_new_game_lists_the_styles_and_the_plate_shows_a_bots_style(app):
    scene = NewGameScene(app)
    app.push(scene)
    try:
        app.step(0.02)
        stepper = next(w for w in scene.widgets if getattr(w, "name", "") == "kind.1")
        assert [kind_label(k) for k in stepper.options][1:3] == ["Bot · Friendly", "Bot · Shrewd"]
        assert stepper.tip is not None
    finally:
        app.pop()
    from game.ui.table.scene import TableScene

    seats = [SeatSpec("Mei", "human"), SeatSpec("Ann", "heuristic:friendly"), SeatSpec("Bo", "random")]
    table = TableScene(app, LocalSession(seats, 5))
    app.push(table)
    try:
        with probe.probing() as p:
            app.step(0.02)
        drawn = {t.text for t in p.texts}
        assert style_name("heuristic:friendly") == "Friendly"
        assert {"Friendly", "Random"} <= drawn, drawn
    finally:
        app.pop()


def test_a_fresh_config_seats_friendly_bots_until_the_player_picks_another(tmp_path):
    """Hot seat, the lobby's host and `main.py host` seat Friendly bots by default; a style
    the player picks on the New game screen is saved and seated from then on."""
    import main
    from game.cli.lan import config_from_args
    from game.ui.config import Config
    from game.ui.scenes.newgame import build_session
    from game.ui.sessions import lan

    fresh = Config()
    assert [s.kind for s in build_session(fresh, seed=1).specs[1:]] == ["heuristic:friendly"] * 3
    assert lan.host_config(fresh).bots == ["heuristic:friendly"] * fresh.lan_seats
    args = main.build_parser().parse_args(["host", "--autosave", "none"])
    assert config_from_args(args).bots == ["heuristic:friendly"] * 4

    app = make_app(tmp_path)
    try:
        scene = app.push(NewGameScene(app))
        app.step(0.02)
        stepper = next(w for w in scene.widgets if getattr(w, "name", "") == "kind.2")
        assert stepper.get() == "heuristic:friendly"
        stepper.set("heuristic")  # the player picks Shrewd for seat 3
        app.step(0.02)
    finally:
        app.shutdown()
    again = Config.load(tmp_path / "config")
    kinds = [s.kind for s in build_session(again, seed=1).specs[1:]]
    assert kinds == ["heuristic:friendly", "heuristic", "heuristic:friendly"]
