"""Every control that is off says why: the reason comes from the rules (the engine's rule
id, game.rules.explain) and is shown in the tooltip instead of what the control would do;
the quiet round is named on the panel while it lasts."""

from __future__ import annotations

import pytest

from game.rules import Accept
from game.rules.explain import action_reason
from game.rules.seat_view import SeatView
from game.ui import i18n
from game.ui.drawing.theme import THEME
from game.ui.table import status
from tests.net.test_protocol_doc import engine_rule_ids
from tools import layout_probe as probe
from tools import screenshot
from tools.autoplay import clear_scenes, make_app

STATES = (*screenshot.SCENES, *screenshot.LAN_SCENES, *screenshot.CROWDED_SCENES)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("reasons"), speed="fast")
    yield app
    clear_scenes(app)
    app.shutdown()


def build(app, state: str) -> None:
    clear_scenes(app)
    if state in screenshot.CROWDED_SCENES:
        screenshot.render_crowded(app, state)
    else:
        screenshot.render(app, state)


def test_every_disabled_control_in_every_state_says_why(app):
    missing, seen = [], 0
    for state in STATES:
        build(app, state)
        with probe.probing() as p:
            THEME.epoch += 1
            app.draw()
        for w in p.widgets:
            if not w.enabled:
                seen += 1
                if not w.reason:
                    missing.append(f"[{state}] {w.name or '?'} {w.rect} is off and says no reason")
    assert seen >= 20  # the stills do grey out controls: the check has something to see
    assert not missing, "\n".join(missing)


def test_the_quiet_round_accept_tooltip_names_the_rule_not_the_move(app):
    clear_scenes(app)
    table = screenshot.render_quiet_round(app)
    accept = table.find("neg.accept.1")
    assert not accept.enabled
    with probe.probing() as p:
        app.draw()
    tips = [t.text for t in p.tooltips]
    assert tips == [i18n.tr("why_off.floor.quiet_round")], tips
    assert i18n.tr("tip.accept_offer_pays", name="Ada", amount="$3M") not in tips


def test_the_reason_is_the_engines_rule():
    s = screenshot.quiet_session()
    v = SeatView.of(s.game.state, 0)
    assert action_reason(v, Accept(0, 1)) == "floor.quiet_round"
    with pytest.raises(ValueError):
        action_reason(v, Accept(1, 0))  # a view explains its own seat's moves only


@pytest.mark.parametrize(
    ("moves", "own", "other"),
    [
        ((), "table.status.quiet", "table.status.quiet_wait"),
        (("propose",), "table.status.quiet_last", "table.status.quiet_last_wait"),
        (("propose", "round"), "table.status.quiet_again", "table.status.quiet_again_wait"),
    ],
)
def test_the_quiet_round_is_named_while_it_lasts(moves, own, other):
    from game.rules import PassFloor, Propose, placard
    from game.rules.board import Clan

    s = screenshot.quiet_session()
    st = s.game.state
    names = ["Bruno", "Ada", "Mei"]
    if "propose" in moves:
        s.apply_scripted(Propose(0, 1, (placard(Clan.ORANGE),), 1))
    if "round" in moves:
        for seat in (0, 1, 2):
            s.apply_scripted(PassFloor(seat))
    assert st.negotiation.quiet
    for seat in range(3):
        text = status.negotiation_status(SeatView.of(st, seat), seat, names)
        want = i18n.tr(own) if seat == 0 else i18n.tr(other, name="Bruno")
        assert text == want
    # a move by anyone else ends it, and the panel stops naming it
    if "round" not in moves:
        if "propose" in moves:
            s.apply_scripted(PassFloor(0))
        from game.rules import Offer

        if "propose" not in moves:  # the floor is Bruno's: he hands it on, Ada moves
            s.apply_scripted(Propose(0, 1, (placard(Clan.ORANGE),), 1))
            s.apply_scripted(PassFloor(0))
        s.apply_scripted(Offer(1, (placard(Clan.ORANGE),), 2))
        assert not st.negotiation.quiet
        assert status.quiet_status(SeatView.of(st, 1), 1, names) is None


def test_every_rule_the_engine_names_has_a_reason_in_every_language():
    rules = engine_rule_ids()
    assert {"floor.quiet_round", "floor.quiet_again", "floor.last_proposal_made"} <= rules
    for lang in i18n.LANGUAGES:
        table = i18n.table(lang)
        for rule in rules:
            assert f"why_off.{rule}" in table, (lang, rule)
