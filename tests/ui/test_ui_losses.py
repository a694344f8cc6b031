"""Losses said when they happen (issue 32): a newcomer's placards were recruited and his Boss
card stopped in his first deals, and nothing on the table said what had happened or why.
The table now tells the seat that lost, at once, in plain words, and the log keeps it."""

import pytest

from bench.newcomer_losses import _Reader
from game.bots import make_bot
from game.rules import Game, Settings
from game.rules.view import events_for
from game.table.simulate import SimulationError, play
from game.ui import i18n
from game.ui.sessions.session_api import UpdateBatch
from game.ui.table.losses import LOSS_SECONDS, LossWatcher
from game.ui.table.scene import TableScene
from game.ui.table.sentences import Describer, clan_word
from tools import screenshot
from tools.autoplay import make_app

ROUGH = "heuristic:friendly+gentle=0+spare_last=0"  # Friendly without its gentle opening


def whole_game(seed: int) -> tuple[list[dict], _Reader]:
    """Seat 0's events of one whole game (as its screen gets them), and what the bench's
    own reader counted seat 0 losing."""
    reader = _Reader(turns_read=None)
    seen: list[dict] = []

    def on_step(game, action, events):
        reader(game, action, events)
        seen.extend(events_for(events, 0))

    game = Game(["Ann", "Bo", "Cy"], seed, Settings(players=3))
    bots = [make_bot(spec, s, seed) for s, spec in enumerate(["heuristic:chaotic", ROUGH, ROUGH])]
    try:
        play(game, bots, on_step=on_step)
    except SimulationError:  # pragma: no cover - a stuck game is another test's failure
        pytest.skip("the game did not end")
    return seen, reader


@pytest.mark.parametrize("seed", [0, 6, 19])
def test_every_placard_recruited_and_play_stopped_is_told_to_its_owner(seed):
    events, reader = whole_game(seed)
    watcher = LossWatcher()
    losses = [loss for e in events for loss in watcher.observe(e, (0,))]
    what = [loss["what"] for loss in losses]
    assert what.count("placard") == reader.losses.placards
    assert what.count("stopped") == reader.losses.stopped
    assert what.count("travelled") == reader.losses.travelled
    assert reader.losses.placards + reader.losses.stopped > 0  # the seeds lose something
    assert all(loss["seat"] == 0 and loss["by"] != 0 for loss in losses)
    # nobody else's losses are this screen's to tell
    assert not [x for e in events for x in LossWatcher().observe(e, (2,)) if x["seat"] != 2]


def test_the_words_say_who_did_what_and_what_it_means():
    d = Describer(["Ann", "Chen", "Dara"])
    recruited = {"type": "loss", "seat": 0, "what": "placard", "named": False, "by": 1,
                 "clan": "blue"}  # fmt: skip
    text = d(recruited)
    assert "Chen" in text and clan_word("blue") in text
    assert text == i18n.tr("log.loss.placard", by="Chen", clan=clan_word("blue"))
    stopped = {**recruited, "what": "stopped", "card": "boss", "by": 2}
    assert d(stopped) == i18n.tr("log.loss.stopped_boss", by="Dara")
    failed = {"type": "loss", "seat": 0, "what": "failed", "named": True, "by": 1,
              "cards": ["travel_red"], "amount": 4, "returned": ["clan_red"]}  # fmt: skip
    words = d(failed)
    assert words.startswith("Ann: ") and i18n.tr("log.loss.failed", by="Chen") in words
    assert i18n.tr("log.loss.failed_agreement", amount=i18n.tr("money.amount", n=4)) in words


def test_a_failed_deal_tells_those_in_it_what_it_cost_but_not_its_boss():
    watcher = LossWatcher()
    people = (0, 1)
    events = [
        {"type": "deal_opened", "seat": 1, "space": 3, "price": 1, "proceeds": 6},
        {"type": "clan_laid", "seat": 0, "clan": "red", "card_id": 7},
        {"type": "agreement_made", "seat": 0, "boss": 1, "sources": [["card", 7]], "amount": 3},
        {"type": "card_played", "seat": 0, "card": "travel_blue", "count": 1,
         "target": ["placard", 1], "clan": None},
        {"type": "window_closed", "kind": "travel"},
        {"type": "travel_sent", "seat": 0, "card": "travel_blue", "target": ["placard", 1],
         "owner": 2, "discarded": False},
        {"type": "deal_failed", "boss": 1, "space": 3},
        {"type": "cards_returned", "seat": 0, "cards": ["clan_red"]},
        {"type": "table_cleared", "discarded": ["travel_blue"]},
    ]  # fmt: skip
    losses = [x for e in events for x in watcher.observe(e, people)]
    assert [(x["seat"], x["what"]) for x in losses] == [(0, "failed")]  # the Boss chose it
    (loss,) = losses
    assert (loss["by"], loss["amount"], loss["cards"], loss["returned"], loss["named"]) == (
        1, 3, ["travel_blue"], ["clan_red"], True
    )  # fmt: skip


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, speed="fast")
    yield app
    app.shutdown()


def test_the_table_says_it_at_once_to_the_seat_that_lost_and_the_log_keeps_it(app):
    t = TableScene(app, screenshot.table_session())
    app.push(t)
    app.step(1 / 30)
    s = t.session
    me = s.viewer
    assert me is not None and me in s.seats_local
    other = next(i for i in range(t.n) if i != me)
    clan = "green"
    batch = UpdateBatch([{"type": "placard_recruited", "clan": clan, "old_owner": me,
                          "new_owner": other}], t.v["version"])  # fmt: skip
    real_poll = s.poll
    s.poll = lambda: [batch, *real_poll()]
    t.update(1 / 30)
    s.poll = real_poll
    said = i18n.tr("log.loss.placard", by=t.names[other], clan=clan_word(clan))
    assert t.toast is not None and t.toast[0] == said and t.toast[2] == "loss"
    assert t.toast[1] == pytest.approx(LOSS_SECONDS, abs=0.1)
    assert said in [line for line, _ in t.log.lines()]
    app.draw()  # the notice draws (wrapped, over the board's foot)
    i18n.set_language("th")
    try:
        t.log._lines = None
        thai = i18n.tr("log.loss.placard", by=t.names[other], clan=clan_word(clan))
        assert thai in [line for line, _ in t.log.lines()]  # re-worded with the language
    finally:
        i18n.set_language("en")


def finished(seed: int):
    """A whole 4-player random-bot game: its final public view, money history, the game,
    and from the engine's own events the last tile placed and the end die after it (None:
    the last tile ended it)."""
    from game.rules.seat_view import SeatView
    from game.ui.table.scene import MoneyHistory

    game = Game(["Mei", "Ann", "Bo", "Cy"], seed, Settings(players=4))
    history = MoneyHistory(4)
    end = {"tile": None, "die": None}

    def on_step(_game, _action, events):
        for e in events:
            if e.type == "tile_placed":
                end.update(tile=e.tile, die=None)
            elif e.type == "die_rolled" and e.purpose == "end":
                end["die"] = e.value
        for e in events_for(events, None):
            history.feed(e)

    play(game, [make_bot("random", s, seed) for s in range(4)], on_step=on_step)
    return SeatView.of(game.state, None), history, game, end["tile"], end["die"]


@pytest.mark.parametrize("seed", [0, 1, 2, 12])  # 12: the last tile ends it
def test_the_results_say_why_the_game_ended(app, seed):
    """Issue 32: the results did not say why the game ended (the end die was only in the
    log). They say it: the die, its face and the tile's faces, or the last tile."""
    from game.ui.scenes.results import ResultsScene

    final, history, game, tile, die = finished(seed)
    results = ResultsScene(app, final, history, list(game.names))
    said = results.ended_text()
    if die is None:
        assert said == i18n.tr("results.ended_last_tile", tile=tile)
    else:
        faces = ",\u00a0".join(map(str, game.state.board.tile(tile).end_faces))
        assert said == i18n.tr("results.ended_die", tile=tile, n=die, faces=faces)
    app.push(results)
    app.draw()


def test_the_seeds_cover_both_ways_a_game_ends():
    ways = {finished(seed)[4] is None for seed in (0, 12)}
    assert ways == {True, False}
