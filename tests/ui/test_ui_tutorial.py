""" "Learn to play": the whole lesson played from the title screen through the real table in
each language (the coach's buttons clicked, every move made with the control the coach
points at, or through the table's send as the offer editor does), every step's trigger
firing in order, the coach finding its widget and never covering it, nothing clipped;
a wrong move explained and not applied; Skip; Leave, Resume and Start over."""

from __future__ import annotations

import pygame
import pytest

from game.bots.scripted import ScriptedBot, ScriptedMove
from game.rules import LayClan, LegalActions, Offer, OpenDeal, PassFloor, Propose, Roll
from game.rules.board import Clan
from game.tutorial import Trigger, load_script
from game.ui import i18n
from game.ui.drawing.theme import THEME
from game.ui.drawing.widgets import Button
from game.ui.scenes.menu import PauseScene
from game.ui.scenes.title import TitleScene
from game.ui.tutorial.choice import TutorialChoiceScene
from game.ui.tutorial.coach import clan_words
from game.ui.tutorial.progress import load_progress, save_progress
from game.ui.tutorial.scene import TutorialTable, build_tutorial
from tools import layout_probe as probe
from tools.autoplay import DT, click, click_widget, key, make_app

from .test_ui_layout import problems

SCRIPT = load_script()
STEP_IDS = [s.id for s in SCRIPT.steps]
MAX_FRAMES = 6000


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, speed="fast")
    yield app
    app.shutdown()


def open_lesson(app) -> TutorialTable:
    app.push(TitleScene(app))
    app.step(DT)
    assert click_widget(app.stack.top, "title.learn")
    app.step(DT)
    table = app.stack.top
    assert isinstance(table, TutorialTable)
    return table


def gesture(app, table) -> str:
    """One input for the step on screen, made as a player would; returns what it did."""
    step = table.session.step
    if step.trigger is not Trigger.ACTION:
        b = table.find("coach.next")
        assert b is not None and b.enabled, step.id
        click(b.rect.center)
        return "next"
    if isinstance(step.action, (Offer, Propose)):  # the offer editor sends through here too
        table.send(step.action)
        return "send"
    target = table.coach.target()
    assert target is not None, f"{step.id}: the coach points at nothing of {step.point}"
    button = next((w for w in table.widgets if isinstance(w, Button) and w.rect == target), None)
    if button is None and target == table.widget_rect("hand"):
        table.send(step.action)  # a discard: any card the player picks
        return "send"
    if button is not None:
        assert button.enabled, f"{step.id}: {button.name} is disabled"
        click(target.center)
        return button.name
    click(visible_point(table, target))  # the card in the hand: its options pop up
    return "card"


def visible_point(table, rect) -> tuple[int, int]:
    """A point of a card in the fan that no other card lies over (cards overlap)."""
    i = next(i for i in range(len(table.hand.cards)) if table.hand.card_rect(i) == rect)
    for y in range(rect.top + 4, rect.bottom, 6):
        for x in range(rect.left + 4, rect.right, 6):
            if table.hand.at((x, y)) == i:
                return (x, y)
    raise AssertionError(f"card {table.hand.cards[i]} is hidden")


def check_coach(app, table, lang: str, report: list) -> None:
    """The coach finds its widget and does not cover it; nothing on screen is clipped and
    no two buttons overlap (the coach's included)."""
    with probe.probing() as p:
        THEME.epoch += 1
        app.draw()
    step = table.session.step.id if table.session.step is not None else "done"
    report += [f"[{step}/{lang}] {m}" for m in problems(app, p, None)]


@pytest.mark.slow
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_whole_lesson_in_each_language(app, lang):
    app.set_language(lang)
    table = open_lesson(app)
    s = table.session
    done, gestures, report = -1, [], []
    for _ in range(MAX_FRAMES):
        if s.finished:
            break
        if s.ready() and not table.director.busy() and app.stack.top is table:
            if s.step_index != done:  # a new step on screen: check the coach once
                done = s.step_index
                check_coach(app, table, lang, report)
            gestures.append(gesture(app, table))
        app.step(DT, draw=False)
    assert s.fired == STEP_IDS  # every step's trigger fired, in the script's order
    check_coach(app, table, lang, report)  # the last panel: Let the bots finish / Finish
    assert not report, "\n".join(report)
    assert s.wrong is None  # the coach's controls never made a wrong move
    # the real controls were used: the table's buttons and the hand's cards
    assert {"turn.deal", "neg.pass_floor", "neg.going_once", "win.stop", "turn.roll"} <= set(
        gestures
    )
    assert "card" in gestures
    st = s.state
    assert st.money[0] == 12 and st.placards.count(0) == 3  # two deals won, one recruited
    assert load_progress() == len(STEP_IDS)
    assert click_widget(table, "coach.finish")
    app.step(DT)
    assert isinstance(app.stack.top, TitleScene)
    assert load_progress() == 0  # finished: Learn to play starts afresh


def test_a_wrong_move_is_explained_and_not_applied(app):
    table = open_lesson(app)
    s = table.session
    table.send(OpenDeal(0))  # legal, but the coach is still explaining: not applied
    app.step(DT)
    assert s.game.log == [] and s.step.id == "welcome" and s.wrong == "tutorial.wrong_next"
    s.catch_up(SCRIPT.index_of("lay_clan"))
    before = (s.version, list(s.state.hands[0]), s.state.negotiation.laid[:])
    wrong = LayClan(0, Clan.BLUE)  # legal (a Clan card the space uses), not this lesson's
    assert wrong in s.legal(0)
    table.send(wrong)
    app.step(DT)
    assert (s.version, list(s.state.hands[0]), s.state.negotiation.laid) == before
    assert s.step.id == "lay_clan" and s.wrong == s.step.wrong
    assert i18n.tr(s.step.wrong, **clan_words()) in table.coach.lines()
    table.send(Roll(0))  # not legal at all: the engine refuses it, as in any game
    app.step(DT)
    assert s.version == before[0] and s.step.id == "lay_clan"
    table.send(s.step.action)  # the right move is applied and ends the step
    app.step(DT)
    assert s.step.id == "ask_placard" and s.wrong is None
    assert s.state.negotiation.laid[-1].clan == Clan.RED


def test_skip_plays_the_steps_move(app):
    table = open_lesson(app)
    s = table.session
    for expected in ("welcome", "space", "placards", "hand"):
        assert s.step.id == expected and click_widget(table, "coach.skip")
        app.step(DT)
    assert s.step.id == "open_deal"
    assert click_widget(table, "coach.skip")
    app.step(DT)
    assert s.game.log == [OpenDeal(0)] and s.step.id == "lay_clan"
    assert s.fired == STEP_IDS[:5]
    assert load_progress() == 5  # saved at every step


def test_leave_resume_and_start_over(app):
    at = SCRIPT.index_of("accept_proposal")
    fresh = build_tutorial(app, at)  # what the lesson is at that step, rebuilt from scratch
    save_progress(at)
    app.push(TitleScene(app))
    app.step(DT)
    assert click_widget(app.stack.top, "title.learn")
    app.step(DT)
    assert isinstance(app.stack.top, TutorialChoiceScene)  # asked, not thrown away
    assert click_widget(app.stack.top, "tutorial.resume")
    app.step(DT)
    table = app.stack.top
    s = table.session
    assert s.step.id == "accept_proposal" and s.game.log == fresh.game.log
    assert s.view(0) == fresh.view(0)
    assert click_widget(table, "coach.leave")  # back to the title, the progress kept
    app.step(DT)
    assert isinstance(app.stack.top, TitleScene) and load_progress() == at
    assert click_widget(app.stack.top, "title.learn")
    app.step(DT)
    assert click_widget(app.stack.top, "tutorial.start_over")
    app.step(DT)
    s = app.stack.top.session
    assert s.step_index == 0 and s.game.log == [] and load_progress() == 0
    fresh.close()


def test_a_scripted_bot_waits_for_its_step():
    """A scripted move is played once released and legal; until then the bot passes when
    it can, and has no move on its own turn (the table waits for the lesson)."""
    done = [0]
    opening = OpenDeal(1)
    bot = ScriptedBot(1, (ScriptedMove(opening, after=3),), lambda: done[0])
    turn = LegalActions([opening, Roll(1)])
    floor = LegalActions([opening, PassFloor(1)])
    assert bot.next_move(turn) is None and bot.next_move(floor) == PassFloor(1)
    done[0] = 3
    assert bot.choose(None, turn) == opening and bot.moves == []
    assert bot.choose(None, turn) is None  # the script is spent: nothing more on its turn


def test_after_the_lesson_the_bots_finish_the_game(app):
    """Let the bots finish: every seat is played to the game's end, then the results."""
    from game.ui.scenes.results import ResultsScene

    save_progress(len(STEP_IDS))
    session = build_tutorial(app, len(STEP_IDS))
    table = TutorialTable(app, session, catch_up=True)
    app.push(table)
    app.step(DT)
    lesson = len(session.game.log)
    assert session.finished and click_widget(table, "coach.play_out")
    for _ in range(200):
        app.step(DT, draw=False)
        if isinstance(app.stack.top, ResultsScene):
            break
    assert session.over and isinstance(app.stack.top, ResultsScene)
    assert any(a.seat == 0 for a in session.game.log[lesson:])  # a bot played your seat too
    assert load_progress() == 0


def test_the_script_is_whole(tmp_path):
    """Unique step ids, every text in every language, every action step with its
    explanation; a malformed script is refused with the step named."""
    import json

    from game.tutorial import SCRIPT_PATH, ScriptError

    assert len(set(STEP_IDS)) == len(STEP_IDS)
    for lang in i18n.LANGUAGES:
        table = i18n.table(lang)
        for step in SCRIPT.steps:
            assert step.text in table and (step.wrong is None or step.wrong in table), step.id
    assert all(s.wrong for s in SCRIPT.steps if s.trigger is Trigger.ACTION)
    data = json.loads(SCRIPT_PATH.read_text(encoding="utf-8"))
    broken = next(s for s in data["steps"] if s.get("id") == "lay_clan")
    del broken["do"]
    path = tmp_path / "script.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ScriptError, match="lay_clan"):
        load_script(path)


def test_the_pause_menu_leaves_a_lesson_without_offering_to_abandon_a_game(app):
    """Esc > Leave in the lesson says the step is kept and offers no "Abandon" (there is no
    game to throw away); leaving goes to the title with the progress where it was."""
    table = open_lesson(app)
    assert click_widget(table, "coach.next")
    app.step(DT)
    done = table.session.step_index
    assert done >= 1 and load_progress() == done
    key(pygame.K_ESCAPE)
    app.step(DT)
    menu = app.stack.top
    assert isinstance(menu, PauseScene)
    assert click_widget(menu, "menu.leave")
    app.step(DT)
    assert menu.find("menu.abandon") is None
    assert menu.find("menu.leave_keep").label() == i18n.tr("menu.leave")
    app.draw()
    assert click_widget(menu, "menu.leave_keep")
    app.step(DT)
    assert isinstance(app.stack.top, TitleScene) and load_progress() == done


def test_the_lesson_shows_no_hint_button_and_says_why_on_h(app):
    """The coach shows each move; a heuristic hint could point at another, so the lesson's
    table has no Hint button and H says why (not "the host has turned hints off")."""
    table = open_lesson(app)
    assert table.find("hint") is None
    key(pygame.K_h)
    app.step(DT)
    assert table.hints.hint is None
    assert table.toast is not None and table.toast[0] == i18n.tr("hint.off_lesson")


def test_the_steps_move_ends_the_step_inside_the_masters_submit():
    """The lesson hears its own move through the Master's publish: the step is done before
    the Master plans the bots, so no second planning follows the submit, and the bots'
    moves the next steps release are played."""
    from game.ui.tutorial.session import TutorialSession

    s = TutorialSession(SCRIPT, "Mei")
    replans = []
    schedule = s.master.schedule
    s.master.schedule = lambda: (replans.append(s.step_index), schedule())
    while s.step is not None and s.step.trigger is not Trigger.ACTION:
        assert s.next()
    assert replans == list(range(1, s.step_index + 1))  # an explanation releases moves
    replans.clear()
    step, actions = s.step, len(s.game.log)
    s.send(step.action)
    assert s.game.log[actions:] == [step.action] and s.step is not step
    assert s.fired[-1] == step.id and replans == []
    s.catch_up(len(SCRIPT.steps))  # the rest of the lesson, the bots' moves included
    assert s.finished
    s.close()
