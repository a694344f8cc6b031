"""One key means one thing in each context: the keymaps that drive the keys (game/ui/screen/keys.py,
game/ui/table/keys.py) bind no key twice, every button with a key shows its key cap, the
offer editor's clan letters tick sources (the log's L does not fire under it), and
docs/UI.md's key table says what the keymaps do."""

import re
from pathlib import Path

import pygame
import pytest

from game.rules import Card, Settings, Setup
from game.rules.cards import DECK_COUNTS
from game.table.bot_schedule import Timing
from game.ui.drawing.theme import CLAN_LETTERS
from game.ui.drawing.widgets import Button, keycap
from game.ui.scenes import rules
from game.ui.screen.keys import Binding, KeyClash, Keymap
from game.ui.sessions.session import LocalSession, SeatSpec
from game.ui.table.keys import (
    LESSON_KEYMAPS,
    REPLAY_KEYMAPS,
    TABLE_KEYMAPS,
    Overlay,
)
from game.ui.table.scene import TableScene
from tools import layout_probe as probe
from tools import screenshot
from tools.autoplay import clear_scenes, click_widget, key, make_app

DOC = Path(__file__).resolve().parents[2] / "docs" / "UI.md"
ALL_KEYMAPS = [*TABLE_KEYMAPS.values(), *LESSON_KEYMAPS.values(), *REPLAY_KEYMAPS.values()]


def test_a_key_bound_twice_in_one_context_is_refused():
    with pytest.raises(KeyClash, match="'l' is bound to both 'log.history' and 'editor.clan.L'"):
        Keymap("t", [Binding("log.history", (pygame.K_l,))], [Binding("editor.clan.L", (pygame.K_l,))])


def test_every_context_of_the_table_binds_each_key_once():
    """Built at import (a clash raises there); here: the contexts are all there, and the
    editor's map has the clan letters and nothing of the log's L."""
    contexts = {km.context for km in ALL_KEYMAPS}
    assert {"table/turn", "table/negotiation", "table/window", "table/game_over"} <= contexts
    assert {"table/history/negotiation", "table/editor", "lesson/turn", "replay"} <= contexts
    assert "replay/history" in contexts
    for km in ALL_KEYMAPS:
        keys = [k for k, _ in km.items()]
        assert len(keys) == len(set(keys)), km.context
    for (overlay, _state), km in TABLE_KEYMAPS.items():
        if overlay is Overlay.EDITOR:
            for c in CLAN_LETTERS:
                assert km.command(getattr(pygame, f"K_{c.lower()}")) == f"editor.clan.{c}"
            assert "log.history" not in {cmd for _, cmd in km.items()}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("keys"), speed="fast")
    yield app
    clear_scenes(app)
    app.shutdown()


def _caps_problems(scene) -> list[str]:
    """Buttons whose key cap is not their command's key, or whose cap is not drawn."""
    km = scene.keymap()  # a simple scene's map raises KeyClash on two buttons with one key
    out = []
    surf = pygame.Surface((1920, 1080))
    for w in scene.widgets:
        if not isinstance(w, Button) or not w.visible:
            continue
        want = km.cap_key(w.command)
        if w.hotkey != want:
            out.append(f"{scene.name}: {w.name} shows {w.hotkey}, its key is {want}")
        elif want is not None:
            with probe.probing() as p:
                w.draw(surf, 0.0)
            if keycap(want) not in [t.text for t in p.texts]:
                out.append(f"{scene.name}: {w.name} draws no key cap {keycap(want)!r}")
    return out


@pytest.mark.parametrize("still", [*screenshot.SCENES, *screenshot.CROWDED_SCENES, "history"])
def test_every_button_with_a_key_shows_its_key_cap(app, still):
    clear_scenes(app)
    screenshot.render(app, "table" if still == "history" else still)
    scene = app.stack.top
    if still == "history":  # the whole history open over the board
        key(pygame.K_l)
        app.step(0.02)
        assert scene.log.expanded
    assert _caps_problems(scene) == []
    if isinstance(scene, TableScene):
        shown = {w.command for w in scene.widgets if isinstance(w, Button) and w.visible}
        commands = set(scene.commands())
        for k, command in scene.keymap().items():  # each key's command exists here
            assert command in commands or command in shown or command in KNOWN_BUTTONS, (
                scene.keymap().context,
                pygame.key.name(k),
                command,
            )
    clear_scenes(app)


# buttons that some states of a table show (the stills above show most of them)
KNOWN_BUTTONS = {
    "turn.deal", "turn.roll", "turn.draw", "win.pass", "win.stop", "neg.going_once",
    "neg.fail", "neg.accept_former", "neg.pass_floor", "bar.offer", "results", "hint",
    "discard.confirm", "host_away.wait", "host_away.leave",
    "log.history", "log.close", "log.latest", "hand.play", "coach.next", "replay.play",
    "replay.back", "replay.forward", "editor.minus", "editor.plus", "editor.dividend",
    "editor.send", "editor.cancel", *(f"editor.clan.{c}" for c in CLAN_LETTERS),
}  # fmt: skip


def _position():
    """Mei (human) first on space 6, which needs W and L; Ann holds the L placard."""
    hands = [
        [Card.CLAN_ORANGE, Card.TRAVEL_GREY, Card.BOSS, Card.STOP, Card.RECRUIT],
        [Card.CLAN_RED, Card.STOP, Card.RECRUIT, Card.RECRUIT, Card.CLAN_BLUE],
        [Card.TRAVEL_ORANGE, Card.CLAN_MAGENTA, Card.RECRUIT, Card.BOSS, Card.CLAN_YELLOW],
    ]
    used = [0] * 16
    for h in hands:
        for c in h:
            used[c] += 1
    setup = Setup(
        placards=(0, 2, 2, 0, 1, 1),  # owner per clan: Mei C D, Ann G L, Bo S W
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(k for k in Card for _ in range(DECK_COUNTS[k] - used[k])),
        first_player=0,
        marker=5,
    )
    seats = [SeatSpec(n, k) for n, k in zip(("Mei", "Ann", "Bo"), ("human", "random", "random"), strict=True)]
    return LocalSession(seats, 1, Settings(players=3), setup, timing=Timing(bot_pace=20))


def _press(app, k) -> None:
    key(k)
    app.step(0.02)


def test_the_editors_letters_tick_sources_and_the_logs_l_waits(app):
    clear_scenes(app)
    t = TableScene(app, _position())
    app.push(t)
    app.step(0.05)
    assert click_widget(t, "turn.deal")
    app.step(0.05)
    assert t.v["phase"] == "negotiation" and t.v["negotiation"]["boss"] == 0
    assert click_widget(t, "neg.counter.1")  # propose to Ann: her L placard is offered
    app.step(0.02)
    ed = t.panel.editor
    assert ed is not None
    ell = next(s for s in ed.choice.pool if CLAN_LETTERS[t.seen.source_clan(s)] == "L")
    ticked = ell in ed.sources  # the editor starts from the likely terms
    _press(app, pygame.K_l)
    assert (ell in t.panel.editor.sources) is not ticked and not t.log.expanded  # no history
    app.draw()
    _press(app, pygame.K_l)
    assert (ell in t.panel.editor.sources) is ticked and not t.log.expanded
    _press(app, pygame.K_ESCAPE)  # Esc: the editor closes, nothing is sent
    assert t.panel.editor is None and t.v["negotiation"]["pending"].get("1") is None
    assert click_widget(t, "neg.counter.1")
    app.step(0.02)
    if ell not in t.panel.editor.sources:
        _press(app, pygame.K_l)
    _press(app, pygame.K_l)  # untick the L placard, then send: the proposal goes without it
    _press(app, pygame.K_RETURN)
    assert t.panel.editor is None
    sent = t.session.state.negotiation.pending[1]
    assert sent.by_boss and ell not in sent.sources
    _press(app, pygame.K_l)  # on the table L is the history again
    assert t.log.expanded
    _press(app, pygame.K_ESCAPE)
    assert not t.log.expanded and app.stack.top is t
    clear_scenes(app)


# -- docs/UI.md ---------------------------------------------------------------------------

DOC_KEYS = {
    "Esc": pygame.K_ESCAPE, "Space": pygame.K_SPACE, "Enter": pygame.K_RETURN,
    "Tab": pygame.K_TAB, "End": pygame.K_END, "Home": pygame.K_HOME,
    "Page Up": pygame.K_PAGEUP, "Page Down": pygame.K_PAGEDOWN, "←": pygame.K_LEFT,
    "→": pygame.K_RIGHT, "↑": pygame.K_UP, "↓": pygame.K_DOWN, "1": pygame.K_1,
    **{c: getattr(pygame, f"K_{c.lower()}") for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
}  # fmt: skip


def _doc_keys() -> dict[str, set[int]]:
    """docs/UI.md's key table: the keys it names in each place."""
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("| where | key | action |") :].split("\n\n", 1)[0]
    out: dict[str, set[int]] = {}
    for row in table.splitlines()[2:]:
        where, keys, _action = (c.strip() for c in row.strip("|").split("|"))
        if where == "anywhere":  # the window's own keys (game/ui/screen/app.py), no keymap
            continue
        names = re.findall(r"Page Up|Page Down|[A-Z][a-z]+|[A-Z1←→↑↓]", keys)
        out.setdefault(where, set()).update(DOC_KEYS[n] for n in names)
    return out


def _bound(maps) -> set[int]:
    return {k for km in maps for k, _ in km.items() if k != pygame.K_KP_ENTER}


def test_the_key_table_of_docs_ui_says_what_the_keymaps_do():
    doc = _doc_keys()
    table = [km for (o, _), km in TABLE_KEYMAPS.items() if o is Overlay.NONE]
    history = [km for (o, _), km in TABLE_KEYMAPS.items() if o is Overlay.HISTORY]
    editor = [km for (o, _), km in TABLE_KEYMAPS.items() if o is Overlay.EDITOR]
    assert doc["table"] == _bound(table)
    # the history: the keys that mean something else than on the table (the panel's stay)
    changed = {
        k
        for (o, state), km in TABLE_KEYMAPS.items()
        if o is Overlay.HISTORY
        for k, command in km.items()
        if TABLE_KEYMAPS[Overlay.NONE, state].command(k) != command
    }
    assert doc["history"] == changed
    assert not {pygame.K_LEFT, pygame.K_RIGHT, pygame.K_TAB} & _bound(history)  # no hand
    assert doc["editor"] == _bound(editor)
    away = [km for (o, _), km in TABLE_KEYMAPS.items() if o is Overlay.HOST_AWAY]
    assert doc["host away"] == _bound(away)
    assert doc["lesson"] == _bound(LESSON_KEYMAPS.values()) - _bound(TABLE_KEYMAPS.values())
    assert doc["replay"] == _bound(REPLAY_KEYMAPS.values())
    assert doc["rules"] == set(rules.KEYS) | {pygame.K_ESCAPE}


# -- the phrase row -----------------------------------------------------------------------

PHRASE_NAMES = ("phrase.too_expensive", "phrase.deal", "phrase.no_way", "phrase.last_offer")


def _toggle_lines(t) -> list[str]:
    """What the ask-preference switch draws as its label, line by line."""
    w = t.find("pref.toggle")
    with probe.probing() as p:
        w.draw(pygame.Surface((1920, 1080)), 0.0)
    return [r.text for r in p.texts]


@pytest.mark.parametrize("size", ["normal", "large"])
@pytest.mark.parametrize("lang", ["en", "zh_Hant", "zh_Hans", "th"])
def test_phrases_only_in_a_negotiation_and_the_switch_then_on_one_line(app, lang, size):
    clear_scenes(app)
    app.config.text_size = size
    app.set_language(lang)
    try:
        t = TableScene(app, _position())
        app.push(t)
        app.step(0.05)
        assert t.v["phase"] == "turn" and t.v["negotiation"] is None
        assert not [n for n in PHRASE_NAMES if t.find(n) is not None]  # nothing to say yet
        label = t.find("pref.toggle").label()
        assert _toggle_lines(t) == [label]  # the whole row: one line
        assert click_widget(t, "turn.deal")
        app.step(0.05)
        assert t.v["negotiation"] is not None
        # all four at Normal; at Large the last give way to the switch's label, whole
        shown = [n for n in PHRASE_NAMES if t.find(n) is not None and t.find(n).visible]
        assert shown == list(PHRASE_NAMES[: len(shown)])
        assert len(shown) >= (4 if size == "normal" else 2), shown
        assert t.find("pref.toggle").label_fits()
    finally:
        clear_scenes(app)
        app.config.text_size = "normal"
        app.set_language("en")
