"""Issue 32: every row of the negotiation panel reads as a sentence saying whose terms it
shows, its Accept says what accepting pays and to whom, there is one button for each thing
one may do, the move meter says what happens at its limit, the editor's summary and fair
price are about the player addressed, and terms that add nothing say so in plain words."""

from __future__ import annotations

import pytest

from game.rules import WindowMode, legal_actions
from game.rules import view as wire_view
from game.rules.seat_view import SeatView
from game.ui import i18n
from game.ui.drawing.theme import LOGICAL_SIZE
from tests.scenario import Scenario
from tools import layout_probe as probe
from tools.autoplay import make_app
from tools.layout_probe import BoxKind

NAMES = ["Chen", "Dara", "Bruno"]
CHEN, DARA, BRUNO = 0, 1, 2


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("rows"), speed="fast")
    app.set_language("en")
    yield app
    app.shutdown()


def space_7(hands=(["stop"], ["stop", "clan_red"], ["stop"]), names=NAMES) -> Scenario:
    """Space 7 (1 of C/D, 1 of S/L, 1 of W/G), in real time: Chen, the Boss, holds C and W;
    Dara S and D; Bruno L."""
    t = Scenario(
        names,
        placards={"red": 0, "yellow": 0, "blue": 1, "magenta": 1, "green": 2},
        hands=[list(h) for h in hands],
        marker=6,
        window_mode=WindowMode.REAL_TIME,
    )
    t.open(CHEN)
    return t


def view(state, seat) -> SeatView:
    """The seat's view as the table reads it: typed, from its wire map."""
    return SeatView.from_data(wire_view(state, seat))


class _Table:
    """What the panel's parts ask of their table: a send, the session's viewer and view."""

    def __init__(self, t: Scenario, seat: int) -> None:
        self.t, self.viewer, self.session = t, seat, self
        self.sent: list = []
        self.names = NAMES

    def send(self, action) -> None:
        self.sent.append(action)

    def view(self, seat):
        return wire_view(self.t.state, seat)

    @property
    def seen(self) -> SeatView:
        return view(self.t.state, self.viewer)


def drawn_texts(v: SeatView, seat: int, buttons_left=None) -> list[str]:
    """Every text the deal's static picture draws for `seat`."""
    from game.ui.table.panels.deal import render_deal
    from game.ui.table.panels.geometry import laid_rects

    canvas = probe.ProbeCanvas(LOGICAL_SIZE)
    with probe.probing(canvas) as p:
        render_deal(canvas, v, seat, laid_rects(v), 0, 0, True, buttons_left)
    return [b.label for b in p.boxes if b.kind is BoxKind.TEXT]


def row_widgets(t: Scenario, seat: int):
    from game.ui.table.panels.editor import TermsEditor
    from game.ui.table.panels.negotiation import NegotiationPanel

    table = _Table(t, seat)
    panel = NegotiationPanel(table, TermsEditor(table, lambda: None))
    widgets = panel.widgets(view(t.state, seat), legal_actions(t.state, seat), seat)
    return panel, {w.name: w for w in widgets}


def label(w) -> str:
    from game.ui.drawing.widgets import _label

    return _label(w.label)


# -- whose terms a row shows ---------------------------------------------------------------


def test_a_row_says_whose_terms_it_shows_to_each_side(app):
    from game.ui.table.panels.rows import agreement_sentence, pending_sentence

    t = space_7()
    t.offer(DARA, [t.placard("blue")], 4)
    t.propose(CHEN, BRUNO, [t.placard("green")], 3)

    def says(viewer, seat):
        v = view(t.state, viewer)
        return pending_sentence(v, viewer, seat).text(v)

    assert says(CHEN, DARA) == "Dara asks $4M for S Sacks"
    assert says(DARA, DARA) == "You offer Chen S Sacks for $4M"
    assert says(BRUNO, DARA) == "Dara asks Chen $4M for S Sacks"
    assert says(CHEN, BRUNO) == "You propose $3M to Bruno for L Liebgeld"
    assert says(BRUNO, BRUNO) == "Chen proposes $3M for your L Liebgeld"
    assert says(DARA, BRUNO) == "Chen proposes $3M to Bruno for L Liebgeld"
    assert says(None, BRUNO) == "Chen proposes $3M to Bruno for L Liebgeld"  # a replay
    t.accept(CHEN, DARA)
    v = view(t.state, CHEN)
    assert agreement_sentence(v, DARA).text(v) == "S Sacks for $4M"
    t.withdraw(CHEN, BRUNO)
    t.offer(BRUNO, [], 2)  # a fee: nothing to give
    assert says(CHEN, BRUNO) == "Bruno asks a fee of $2M"
    assert says(BRUNO, BRUNO) == "You ask Chen a fee of $2M"


def test_the_rows_as_drawn_name_whose_terms_they_are(app):
    """The old rows drew chips, an amount and a tag ("offer", "from the Boss"): nothing
    said whose terms they were, nor marked the viewer's own."""
    t = space_7()
    t.offer(DARA, [t.placard("blue")], 4)
    t.propose(CHEN, BRUNO, [t.placard("green")], 3)
    dara = drawn_texts(view(t.state, DARA), DARA)
    assert any(s.startswith("You offer Chen") for s in dara), dara
    assert any(s.startswith("Chen proposes $3M to Bruno for") for s in dara), dara
    chen = drawn_texts(view(t.state, CHEN), CHEN)
    assert any(s.startswith("Dara asks $4M for") for s in chen), chen
    assert any(s.startswith("You propose $3M to Bruno for") for s in chen), chen
    bruno = drawn_texts(view(t.state, BRUNO), BRUNO)
    assert any(s.startswith("Chen proposes $3M for your") for s in bruno), bruno


# -- what accepting does; one button for each thing -----------------------------------------


def test_accept_says_what_it_pays_and_to_whom(app):
    t = space_7()
    t.offer(DARA, [t.placard("blue")], 4)
    t.propose(CHEN, BRUNO, [t.placard("green")], 3)
    _, boss = row_widgets(t, CHEN)
    accept = boss["neg.accept.1"]
    assert label(accept) == "Accept: pay $4M"
    assert "you pay Dara $4M" in accept.tip
    assert label(boss["neg.withdraw.1"]) == "Decline"  # her offer: the Boss declines it
    assert label(boss["neg.withdraw.2"]) == "Withdraw"  # his own proposal: he withdraws it
    assert label(boss["neg.counter.2"]) == "Change"  # ... or changes it: not "Counter"
    _, bruno = row_widgets(t, BRUNO)
    accept = bruno["neg.accept_proposal"]
    assert label(accept) == "Accept: get $3M"
    assert "Chen pays you $3M" in accept.tip
    assert label(bruno["neg.withdraw.self"]) == "Decline"


def test_an_investor_has_one_button_to_offer_or_counter(app):
    """Two Offer buttons were on screen at once: the own row's and the bottom bar's."""
    t = space_7()
    for pending in (None, "offer", "proposal"):
        if pending == "offer":
            t.offer(DARA, [t.placard("blue")], 4)
        elif pending == "proposal":
            t.withdraw(DARA, DARA)
            t.propose(CHEN, DARA, [t.placard("blue")], 3)
        panel, widgets = row_widgets(t, DARA)
        buttons = list(widgets.values())
        labels = [label(w) for w in buttons]
        assert len(labels) == len(set(labels)), (pending, labels)
        assert "neg.offer" not in widgets, pending  # the bar's is the one
        bar = label(widgets["bar.offer"])
        assert bar == {None: "Make an offer", "offer": "Change your offer",
                       "proposal": "Counter the proposal"}[pending]  # fmt: skip
        widgets["bar.offer"].click()
        assert panel.editor.state is not None and panel.editor.state.seat == CHEN


# -- the move meter explained where it is shown ---------------------------------------------


def test_the_move_meter_says_what_happens_at_the_limit(app):
    t = space_7()
    texts = drawn_texts(view(t.state, DARA), DARA)
    assert "Moves: 0 of 60" in texts, texts
    assert "At 60, the Boss may only close or fail" in texts, texts


# -- the editor speaks of the player addressed ----------------------------------------------


def test_the_editors_summary_names_the_player_addressed(app):
    """It read "fee for $0M", and "L Liebgeld for $2M" whoever the terms were with."""
    from game.ui.table.panels.editor import TermsEditor

    t = space_7()
    table = _Table(t, CHEN)
    editor = TermsEditor(table, lambda: None)
    to_bruno = next(
        c for c in legal_actions(t.state, CHEN).terms if getattr(c.action, "to", None) == BRUNO
    )
    editor.open(to_bruno, BRUNO, None)
    editor.state.amount = 2
    v = view(t.state, CHEN)
    assert editor.summary(v) == "You propose $2M to Bruno for L Liebgeld"
    editor.state.sources = set()
    assert editor.summary(v) == "You propose a fee of $2M to Bruno"
    editor.state.amount = 0
    assert editor.summary(v) == i18n.tr("table.editor.empty")  # not "a fee of $0M"
    offer = next(
        c for c in legal_actions(t.state, DARA).terms if c.action.__class__.__name__ == "Offer"
    )
    editor = TermsEditor(_Table(t, DARA), lambda: None)
    editor.open(offer, CHEN, None)
    editor.state.sources, editor.state.amount = set(), 3
    assert editor.summary(view(t.state, DARA)) == "You ask Chen a fee of $3M"


def test_the_bosss_fair_price_is_about_the_player_addressed(app):
    """Proposing to Chen showed "Likely asks: Dara $4M"."""
    from game.bots.fair_price import Ask, FairPrice
    from game.ui.table.panels.fair import fair_text

    fp = FairPrice(True, None, (Ask(DARA, 4, False), Ask(BRUNO, 2, True)))
    assert fair_text(fp, NAMES, DARA) == "Dara likely asks about $4M."
    assert fair_text(fp, NAMES, BRUNO) == "Bruno's offer on the table asks $2M."
    only_dara = FairPrice(True, None, (Ask(DARA, 4, False),))
    assert fair_text(only_dara, NAMES, BRUNO) == "The cheapest cover does not need Bruno."


# -- terms that add nothing: said in plain words before they are sent -----------------------


def test_terms_of_a_clan_the_deal_has_say_so_and_what_they_still_cost(app):
    """Dara lays a C Clan card while Chen holds the C placard: the engine lets her offer it
    (an agreement is paid whether or not its source is used), so the editor's ledger says
    the deal has C already and what accepting would pay all the same. It said "Adds
    nothing: no open place is covered already"."""
    from game.rules.ledger import ledger, preview
    from game.ui.table.panels.ledger import boss_lines, investor_lines

    t = space_7()
    t.lay(DARA, "red")
    card = t.card(DARA, "red")
    offer = next(
        c for c in legal_actions(t.state, DARA).terms if c.action.__class__.__name__ == "Offer"
    )
    assert card in offer.pool  # the engine allows it
    v = view(t.state, DARA)
    pv = preview(v, DARA, (card,), 2)
    lines = [line.label for line in investor_lines(v, DARA, ledger(v), pv, NAMES, (card,))]
    assert "Adds nothing: the deal already has C Cashman" in lines, lines
    assert "Accepted, the Boss still pays you $2M" in lines, lines
    v = view(t.state, CHEN)
    pv = preview(v, DARA, (card,), 2)
    lines = [line.label for line in boss_lines(v, ledger(v), pv, NAMES, (card,))]
    assert "Adds nothing: the deal already has C Cashman" in lines, lines
    assert "Accepted, you still pay Dara $2M" in lines, lines
    assert not any("no open place" in s for s in lines)


@pytest.mark.parametrize("lang", ["en", "zh_Hant", "zh_Hans", "th"])
def test_every_row_sentence_has_its_words_in_every_language(lang):
    """Each template names the people and amounts it needs and nothing else: the rows
    format them all with the same words."""
    from game.ui.table.panels.rows import KEYS

    table = i18n.table(lang)
    for (_kind, _side, fee), key in KEYS.items():
        text = table[key]
        assert "{amount}" in text, key
        assert ("{sources}" in text) is not fee, key
        text.format(name="A", boss="B", sources="S", amount="$1M")


def test_terms_for_a_full_row_name_what_fills_it(app):
    """Dara's S is agreed; a proposal to Bruno for L fills nothing more of 1 of S/L: the
    warning says which clan fills that row already (it said "1 of S/L is covered already",
    and with no row at all "no open place is covered already")."""
    from game.rules.ledger import ledger, preview
    from game.ui.table.panels.ledger import boss_lines

    t = space_7()
    t.propose(CHEN, DARA, [t.placard("blue")], 4)
    t.accept_proposal(DARA)
    v = view(t.state, CHEN)
    l_ = t.placard("green")
    pv = preview(v, BRUNO, (l_,), 2)
    lines = [line.label for line in boss_lines(v, ledger(v), pv, NAMES, (l_,))]
    assert "Adds nothing: S already fills 1 of S/L" in lines, lines
    assert "Accepted, you still pay Bruno $2M" in lines, lines


def test_in_a_window_the_offer_button_is_on_the_row_and_still_alone(app):
    """A "going once" call holds the bar (Let the deal close): an offer still answers it, so
    the investor's one Offer button stands on his row then, and only then."""
    from game.rules import GoingOnce

    t = space_7()
    t.propose(CHEN, DARA, [t.placard("blue")], 4)
    t.accept_proposal(DARA)
    _, before = row_widgets(t, BRUNO)
    assert "bar.offer" in before and "neg.offer" not in before
    t.do(GoingOnce(CHEN))
    assert t.state.window is not None
    _, during = row_widgets(t, BRUNO)
    offers = [name for name in during if name in ("bar.offer", "neg.offer")]
    assert offers == ["neg.offer"] and during["neg.offer"].enabled, offers


def test_a_row_without_buttons_has_the_whole_width(app):
    """Bruno watches Dara's row, which has no buttons for him: her sentence keeps its chips
    and its place under the heading (it was squeezed into the room of three buttons, moved
    under "Agreement" and cut)."""
    names = ["Chen", "Dara Longname-Whitfield", "Bruno"]
    t = space_7(names=names)
    t.offer(DARA, [t.placard("blue"), t.placard("magenta")], 4)
    panel, _ = row_widgets(t, BRUNO)
    assert DARA not in panel.buttons_left
    texts = drawn_texts(view(t.state, BRUNO), BRUNO, panel.buttons_left)
    assert f"{names[DARA]} asks Chen $4M for " in texts, texts
