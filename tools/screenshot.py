"""`python -m tools.screenshot --scene table --lang th --seed 3 --out shot.png [--size WxH]`:
render a scene without a display (SDL's dummy video driver) and save it as PNG.

The table scene is a scripted mid-negotiation in real-time mode, played through the engine
from an explicit setup: a travel marker, two offers, one agreement and a reaction window
with its countdown running. The results scene comes from a whole bot game of that seed.

The LAN scenes are stills too, with no network: the lobby lists three sample tables from a
stand-in browser, and `display` (the public table display) and `lan_table` (a player's LAN
table) show the scripted negotiation through a `NetSession` fed one fixed moment by a
stand-in client: a dropped player in the grace period, a bot standing in for another, the
host's countdowns. `render(app, "display")` makes docs/screenshots/display_en.png.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SCENES = (
    "title",
    "title_saved",
    "saved_games",
    "saved_delete",
    "table",
    "results",
    "rules",
    "rules_pictures",
    "settings",
    "newgame",
    "handoff",
    "replay",
    "tutorial",
    "tutorial_roll",
    "hint",
    "fair_price",
    "quiet_round",
)
# Crowded tables (the layout test walks them too): six players; seven, twelve (copies
# grouped) and fifteen cards in hand;
# over the hand limit with Recruitment for five clans; the offer editor with four sources;
# the pause menu and its "leave the game?" question; a speech bubble on every plate (six
# players saying the longest phrases; five offering; five paid); the Boss's ledger on space 7 (1 of
# C/D, 1 of S/L, 1 of W/G) before and after his proposal to Dara for S, and warning that a
# proposal to Bruno for L covers S/L a second time; an investor asked at "Going once"
# (ask-around: how to jump in, beside "Let the deal close"); Mei the Boss again by her own
# "I'm the Boss!" (ask-around), her bar of four: Going once, Accept former agreements,
# Declare the deal failed, Pass the floor.
CROWDED_SCENES = (
    "table_6p",
    "hand_7",
    "hand_12",
    "hand_15",
    "recruit_5",
    "editor_4_sources",
    "offers_crowded",
    "pause",
    "leave",
    "ledger_before",
    "ledger_after",
    "ledger_redundant",
    "bubbles_talk",
    "bubbles_offer",
    "bubbles_pay",
    "going_once",
    "boss_former",
)
LAN_SCENES = ("lobby", "room", "display", "lan_table")
EXTRA_SCENES = ("log_expanded",)  # for the docs' pictures only (the table, its history open)


def _setup_env() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def table_session(seed: int = 3, players: int = 5, names=None):
    """The scripted mid-negotiation (real time) used by the screenshot and the benchmark."""
    from game.rules import (
        Accept,
        Card,
        LayClan,
        Offer,
        OpenDeal,
        Pass,
        PlayBoss,
        PlayTravel,
        laid,
        placard,
    )
    from game.rules.board import Clan


    names = list(names or ["Mei", "Ann", "Bo", "Cy", "Dee", "Eli"])[:players]
    R, B, Y, M, O, G = list(Clan)  # noqa: E741 - the clans read best as letters
    owners = [-1] * 6
    for seat, clan in enumerate((R, B, Y, M, O, G)[:players]):
        owners[clan] = seat
    C = Card
    hands = [
        [
            C.CLAN_ORANGE,
            C.TRAVEL_GREY,
            C.STOP,
            C.RECRUIT,
            C.RECRUIT,
            C.RECRUIT,
            C.CLAN_GREEN,
            C.TRAVEL_BLUE,
            C.BOSS,
        ],
        [C.TRAVEL_MAGENTA, C.CLAN_RED, C.STOP, C.RECRUIT, C.BOSS, C.CLAN_YELLOW],
        [C.BOSS, C.CLAN_BLUE, C.RECRUIT, C.TRAVEL_GREEN, C.STOP, C.RECRUIT, C.CLAN_MAGENTA],
        [C.RECRUIT, C.RECRUIT, C.TRAVEL_RED, C.CLAN_RED, C.STOP],
        [C.CLAN_GREEN, C.RECRUIT, C.TRAVEL_YELLOW, C.BOSS, C.CLAN_ORANGE, C.TRAVEL_ORANGE],
        [C.RECRUIT, C.STOP, C.CLAN_BLUE, C.BOSS],
    ][:players]
    s = scripted_session(hands, owners, players, seed, names=names)
    do = s.apply_scripted

    def all_pass():
        st = s.game.state
        while st.window is not None:
            do(Pass(st.window.waiting[0]))

    do(OpenDeal(0))  # Mei: space 1 needs C S W + 2 of D G L; she brings C
    do(Offer(1, (placard(B),), 4))  # Ann offers S for $4M ...
    do(Accept(0, 1))  # ... and Mei accepts: the agreement
    do(Offer(2, (placard(Y),), 6))  # Bo offers W for $6M: pending
    do(LayClan(4, G))  # Dee lays a green Clan card ...
    do(Offer(4, (laid(0),), 3))  # ... and offers it for $3M: pending
    do(PlayTravel(1, C.TRAVEL_MAGENTA, placard(M)))  # Ann sends Cy's D travelling
    all_pass()
    do(PlayBoss(2))  # Bo: "I'm the Boss!" -- the window is open, the clock runs
    s.frozen = True
    s.table_clock.jump(1.6)  # 1.6 s into the 5 s window (frozen: nobody acts)
    return s


def scripted_session(
    hands, placards, players: int, seed: int = 3, money=None, names=None, mode=None, marker=0
):
    """A hot-seat position from an explicit setup (seat 0 the only human, the bots frozen;
    real time unless `mode` says otherwise): hands listed per seat, the rest of the 98
    cards shuffled into the deck."""
    import random

    from game.rules import Card, Settings, Setup, WindowMode
    from game.rules.cards import DECK_COUNTS
    from game.table.bot_schedule import Timing
    from game.ui.sessions.session import LocalSession, SeatSpec

    used = [0] * 16
    for h in hands:
        for c in h:
            used[c] += 1
    deck = [k for k in Card for _ in range(DECK_COUNTS[k] - used[k])]
    random.Random(seed).shuffle(deck)
    setup = Setup(
        placards=tuple(placards),
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(deck),
        first_player=0,
        marker=marker,
        tiles=tuple(range(6, 16)),
        covered={3: 1, 5: 2, 9: 3, 13: 4, 14: 5},
        money=money or (14, 9, 21, 6, 17, 11)[:players],
    )
    names = names or ["Mei", "Ann", "Bo", "Cy", "Dee", "Eli"][:players]
    seats = [SeatSpec(n, "human" if i == 0 else "random") for i, n in enumerate(names)]
    settings = Settings(players=players, window_mode=mode or WindowMode.REAL_TIME)
    s = LocalSession(seats, seed, settings, setup, timing=Timing(window=5.0))
    s.frozen = True
    return s


def _full_hand():
    from game.rules import Card as C

    return [
        C.CLAN_RED, C.CLAN_BLUE, C.CLAN_YELLOW, C.CLAN_MAGENTA, C.CLAN_ORANGE, C.CLAN_GREEN,
        C.TRAVEL_RED, C.TRAVEL_BLUE, C.TRAVEL_GREY, C.BOSS, C.RECRUIT, C.RECRUIT, C.RECRUIT,
        C.STOP, C.STOP,
    ]  # fmt: skip


def _hand_of(n: int):
    """Mei's hand in the hand_7 and hand_12 stills: Clan card S beside Travel (any clan),
    and copies that the fan groups with a count."""
    from game.rules import Card as C

    if n == 7:
        return [C.CLAN_RED, C.CLAN_BLUE, C.TRAVEL_GREY, C.BOSS, C.RECRUIT, C.RECRUIT, C.STOP]
    return [
        C.CLAN_RED, C.CLAN_RED, C.CLAN_BLUE, C.CLAN_YELLOW, C.CLAN_GREEN, C.TRAVEL_BLUE,
        C.TRAVEL_GREY, C.TRAVEL_GREY, C.BOSS, C.RECRUIT, C.RECRUIT, C.STOP,
    ]  # fmt: skip


def crowded_session(kind: str, seed: int = 3):
    """The session behind one of CROWDED_SCENES."""
    from game.rules import Card as C
    from game.rules import Draw, LayClan, OpenDeal, Roll
    from game.rules.board import Clan

    if kind == "table_6p":  # with the names a new game suggests, the longest usual ones
        return table_session(seed, players=6, names=[f"Player {i}" for i in range(1, 7)])
    if kind in ("hand_7", "hand_12"):  # Mei holds seven or twelve at the start of her turn
        hands = [_hand_of(int(kind[5:])), [C.STOP, C.BOSS], [C.RECRUIT, C.CLAN_RED], [C.BOSS]]
        return scripted_session(hands, (0, 1, 2, 3, -1, -1), 4, seed)
    if kind == "hand_15":  # Mei holds fifteen cards at the start of her turn
        hands = [_full_hand(), [C.STOP, C.BOSS], [C.RECRUIT, C.CLAN_RED], [C.BOSS]]
        return scripted_session(hands, (0, 1, 2, 3, -1, -1), 4, seed)
    if kind == "recruit_5":  # over the limit with three Recruitment cards: five clans to take
        hands = [_full_hand()[:12], [C.STOP], [C.BOSS], [C.CLAN_RED], [C.STOP], [C.BOSS]]
        s = scripted_session(hands, (0, 1, 2, 3, 4, 5), 6, seed)
        s.apply_scripted(Roll(0))
        s.apply_scripted(Draw(0))
        return s
    if kind == "boss_former":
        return _boss_former(seed)
    if kind == "editor_4_sources":  # Mei can offer two placards and two laid Clan cards
        R, B, Y, M, O, G = list(Clan)  # noqa: E741 - the clans read best as letters
        hands = [
            [C.CLAN_ORANGE, C.CLAN_GREEN, C.STOP, C.RECRUIT],
            [C.BOSS, C.STOP, C.CLAN_BLUE],
            [C.TRAVEL_RED, C.RECRUIT, C.CLAN_YELLOW],
        ]
        s = scripted_session(hands, (0, 0, 1, 1, 2, 2), 3, seed)
        s.game.state.turn = 1  # Ann's turn: she opens the deal on space 1 (C S W + 2 of D G L)
        s.apply_scripted(OpenDeal(1))
        s.apply_scripted(LayClan(0, O))
        s.apply_scripted(LayClan(0, G))
        return s
    if kind == "offers_crowded":  # a four-source offer and a fee proposal in the rows
        from game.rules import Offer, Propose, legal_actions

        s = crowded_session("editor_4_sources", seed)
        choice = next(c for c in legal_actions(s.game.state, 0).terms if len(c.pool) == 4)
        s.apply_scripted(Offer(0, tuple(choice.pool), choice.lo + 1))
        s.apply_scripted(Propose(1, 2, (), 1))  # Ann pays Bo a fee to let the deal through
        return s
    if kind.startswith("ledger_"):
        return ledger_session(agreed=kind != "ledger_before", seed=seed)
    if kind == "going_once":  # ask-around: Ann, the Boss, calls "Going once"; Mei is asked
        from game.rules import GoingOnce, WindowMode

        hands = [[C.BOSS, C.CLAN_RED, C.STOP], [C.CLAN_MAGENTA, C.CLAN_ORANGE, C.STOP]]
        s = scripted_session(hands, (1, 1, 1, 0, 0, 0), 2, seed, mode=WindowMode.ASK_AROUND)
        s.game.state.turn = 1  # Ann opens the deal on space 1 (C S W + 2 of D G L)
        s.apply_scripted(OpenDeal(1))
        s.apply_scripted(LayClan(1, Clan.MAGENTA))
        s.apply_scripted(LayClan(1, Clan.ORANGE))
        s.apply_scripted(GoingOnce(1))
        return s
    raise ValueError(kind)


def ledger_session(agreed: bool, seed: int = 3):
    """Mei (the Boss, holding C and W) opens the deal on space 7; Dara holds S and D,
    Bruno G and L. `agreed`: Dara has accepted Mei's proposal of $5M for S."""
    from game.rules import AcceptProposal, OpenDeal, Propose, placard
    from game.rules import Card as C
    from game.rules.board import Clan

    hands = [
        [C.CLAN_ORANGE, C.STOP, C.BOSS, C.TRAVEL_BLUE],
        [C.STOP, C.RECRUIT, C.CLAN_RED],
        [C.BOSS, C.TRAVEL_GREY, C.STOP],
    ]
    s = scripted_session(hands, (0, 1, 0, 1, 2, 2), 3, seed, names=["Mei", "Dara", "Bruno"])
    s.game.state.marker = 6
    s.apply_scripted(OpenDeal(0))
    if agreed:
        s.apply_scripted(Propose(0, 1, (placard(Clan.BLUE),), 5))
        s.apply_scripted(AcceptProposal(1))
    return s


def _open_proposal(table, to: int, ticks=None) -> None:
    """Open the Boss's proposal editor to `to` (ticked as it opens, or with `ticks`)."""
    from game.rules import Propose

    choice = next(c for c in table.legal.terms if isinstance(c.action, Propose) and c.action.to == to)
    table.panel.open_editor(choice, to, None)
    if ticks is not None:
        table.panel.editor.sources = set(ticks)
    table._refresh()


def quiet_session(seed: int = 3):
    """Ask-around on space 11 (blue, red, orange): Bruno, the Boss, holds blue and red; Ada
    offered her orange placard for $3M and the floor went round twice with nobody but Bruno acting.
    A quiet round: her covering offer lies on the table, and accepting it is no longer open."""
    from game.rules import Card as C
    from game.rules import Offer, OpenDeal, PassFloor, WindowMode, placard
    from game.rules.board import Clan

    hands = [[C.STOP, C.BOSS, C.TRAVEL_GREY], [C.RECRUIT, C.CLAN_BLUE], [C.BOSS, C.STOP]]
    owners = (0, 0, 2, 2, 1, 2)  # Bruno red and blue; Ada orange; Mei the rest
    s = scripted_session(hands, owners, 3, seed, names=["Bruno", "Ada", "Mei"],
                         mode=WindowMode.ASK_AROUND, marker=10)  # fmt: skip
    do = s.apply_scripted
    do(OpenDeal(0))
    do(PassFloor(0))
    do(Offer(1, (placard(Clan.ORANGE),), 3))
    for seat in (1, 2, 0, 1, 2):
        do(PassFloor(seat))
    return s


def render_quiet_round(app, seed: int = 3):
    """The quiet round, with the pointer on Bruno's greyed Accept: its tooltip says why."""
    from game.ui.table.scene import TableScene

    table = _still(app, TableScene(app, quiet_session(seed)))
    _frames(app, 2)
    pygame_mouse(app, table.find("neg.accept.1").rect.center)
    _frames(app, 40)
    return table


def _still(app, table):
    """Push `table` with its opening moves already on it (no animation), three frames on."""
    table.director.quiet = True
    app.push(table)
    _frames(app, 3)
    table.director.quiet = False
    return table


def _boss_former(seed: int):
    """Ask-around: Mei's deal, Ann's S agreed for $4M; Bo takes the deal with "I'm the
    Boss!", Mei takes it back with hers: the agreement fell back, hers to accept again."""
    from game.rules import Accept, Offer, OpenDeal, Pass, PassFloor, PlayBoss, WindowMode, placard
    from game.rules import Card as C
    from game.rules.board import Clan

    hands = [[C.BOSS, C.CLAN_ORANGE, C.STOP], [C.CLAN_RED, C.STOP], [C.BOSS, C.RECRUIT], [C.STOP]]
    s = scripted_session(hands, (0, 1, 2, 3, -1, -1), 4, seed, mode=WindowMode.ASK_AROUND)
    st, do = s.game.state, s.apply_scripted

    def floor_to(seat: int) -> None:
        while st.negotiation.floor != seat:
            do(PassFloor(st.negotiation.floor))

    def all_pass() -> None:
        while st.window is not None:
            do(Pass(st.window.queue[0]))

    do(OpenDeal(0))
    floor_to(1)
    do(Offer(1, (placard(Clan.BLUE),), 4))
    floor_to(0)
    do(Accept(0, 1))
    for seat in (2, 0):
        floor_to(seat)
        do(PlayBoss(seat))
        all_pass()
    floor_to(0)
    return s


def render_crowded(app, kind: str, seed: int = 3):
    """Build one of CROWDED_SCENES on app's stack (settled); returns the table scene."""
    from game.ui.table.scene import TableScene

    if kind.startswith("bubbles_"):
        return _render_bubbles(app, kind, seed)
    base = "table_6p" if kind in ("pause", "leave") else kind
    s = crowded_session(base, seed)
    table = _still(app, TableScene(app, s))
    _frames(app, 2)
    if kind == "recruit_5":
        table.hand.selected = table.hand.cards.index("recruit")
        table._refresh()
    elif kind == "editor_4_sources":
        table.panel.open_editor(table.legal.terms[0], 1, None)
        table._refresh()
    elif kind == "ledger_before":  # S for $5M to Dara, dialled: the ledger after it
        _open_proposal(table, 1)
        table.panel.editor.amount = 5
        table._refresh()
    elif kind == "ledger_redundant":  # L to Bruno, ticked by hand: S/L is covered already
        from game.rules import placard
        from game.rules.board import Clan

        _open_proposal(table, 2, {placard(Clan.GREEN)})
        table.panel.editor.amount = 2
        table._refresh()
    elif kind in ("pause", "leave"):
        from game.ui.scenes.menu import PauseScene

        pause = PauseScene(app, table)
        app.push(pause)
        if kind == "leave":
            pause.leave()
    pygame_mouse(app, (20, 20))
    _frames(app, 4)
    return table


BUBBLE_PHRASES = (
    "phrase.deal_closed",
    "phrase.lets_make_a_deal",
    "phrase.going_once",
    "phrase.too_expensive",
    "phrase.im_the_boss",
    "phrase.deal_failed",
)


def _render_bubbles(app, kind: str, seed: int):
    """The scripted table with a bubble risen over every plate, held still: six players
    saying the longest phrases, or five players' offers, or five payments (a Boss's
    gross and what he pays out)."""
    from game.ui.i18n import tr
    from game.ui.table.scene import TableScene
    from game.ui.table.sprites import Bubble, phrase_bubble

    players = 6 if kind == "bubbles_talk" else 5
    names = [f"Player {i}" for i in range(1, 7)] if players == 6 else None
    table = _still(app, TableScene(app, table_session(seed, players=players, names=names)))
    _frames(app, 2)
    table.director.bubbles.clear()
    for seat in range(players):
        if kind == "bubbles_talk":
            table.director.bubbles.append(phrase_bubble(seat, BUBBLE_PHRASES[seat], t=0.5, life=1e9))
            continue
        if kind == "bubbles_offer":
            text = tr("money.amount", n=10 + seat)
        elif seat == 0:
            pay = (tr("money.amount", n=18), tr("money.amount", n=10))
            text = tr("bubble.boss_gain", gross=pay[0], paid=pay[1])
        else:
            text = "+" + tr("money.amount", n=seat + 2)
        table.director.bubbles.append(Bubble(seat, text, t=0.5, life=1e9))
    pygame_mouse(app, (20, 20))
    _frames(app, 4)
    return table


def render_fair_price(app, seed: int = 3):
    """Mei composes her offer to Ann (the Boss) while Bo offers his G placard: the editor's
    fair-price line says what Ann can likely pay Mei and what Bo asks."""
    from game.rules import Offer, Source, SourceKind
    from game.rules.board import Clan
    from game.ui.table.scene import TableScene

    s = crowded_session("editor_4_sources", seed)
    s.apply_scripted(Offer(2, (Source(SourceKind.PLACARD, int(Clan.ORANGE)),), 5))
    table = _still(app, TableScene(app, s))
    _frames(app, 2)
    choice = next(c for c in table.legal.terms if isinstance(c.action, Offer))
    table.panel.open_editor(choice, 1, None)
    table._refresh()
    pygame_mouse(app, (20, 20))
    _frames(app, 4)
    return table


def _frames(app, n: int, dt: float = 1 / 30) -> None:
    for _ in range(n):
        app.step(dt, draw=False)


def run(args) -> int:
    _setup_env()
    size = None
    if getattr(args, "size", None):
        from game.ui.screen.app import parse_size

        size = parse_size(args.size)
    text = getattr(args, "text", None) or "normal"
    save(args.scene, args.lang, args.seed, Path(args.out), size, text)
    return 0


def save(scene: str, lang: str, seed: int, path: Path, size=None, text: str = "normal") -> None:
    """Render `scene` and save it at `size` (the 1920x1080 canvas scaled as the window
    scales it, laid out at that screen's readable minimum) with `text` size."""
    import pygame

    from game.ui.config import Config
    from game.ui.drawing.theme import LOGICAL_SIZE, THEME, min_text_px
    from game.ui.screen.app import App
    from game.ui.screen.window import fit_rect
    from game.ui.table import layout as table_layout

    cfg = Config(language=lang, fullscreen=False, text_size=text)
    app = App(cfg, sound=False, persist=False)
    app.present = False
    scale = fit_rect(size).w / LOGICAL_SIZE[0] if size else 1.0
    table_layout.use(table_layout.for_scale(scale))  # the compact table at 1280x720
    THEME.configure(min_px=min_text_px(scale))
    render(app, scene, seed)
    out = app.screen
    if size and size != out.get_size():
        out = pygame.transform.smoothscale(out, size)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(out, str(path))
    print(f"{path}: {scene} ({lang}, seed {seed}, {text} text) {out.get_width()}x{out.get_height()}")
    app.shutdown()


# docs/screenshots: file -> (scene, language, screen size or None, text size)
DOC_PICTURES = {
    "title_en.png": ("title", "en", None, "normal"),
    "table_en.png": ("table", "en", None, "normal"),
    "table_th.png": ("table", "th", None, "normal"),
    "table_zh_Hant.png": ("table", "zh_Hant", None, "normal"),
    "table_1280x720_en.png": ("table", "en", (1280, 720), "normal"),
    "table_1280x720_large_en.png": ("table", "en", (1280, 720), "large"),
    "table_2560x1440_en.png": ("table", "en", (2560, 1440), "normal"),
    "log_expanded_en.png": ("log_expanded", "en", None, "normal"),
    "results_en.png": ("results", "en", None, "normal"),
    "rules_pictures_en.png": ("rules_pictures", "en", None, "normal"),
    "rules_zh_Hant.png": ("rules", "zh_Hant", None, "normal"),
    "saved_games_en.png": ("saved_games", "en", None, "normal"),
    "replay_en.png": ("replay", "en", None, "normal"),
    "lobby_en.png": ("lobby", "en", None, "normal"),
    "display_en.png": ("display", "en", None, "normal"),
    "hand_12_en.png": ("hand_12", "en", None, "normal"),
    "hand_12_th.png": ("hand_12", "th", None, "normal"),
    "hand_15_en.png": ("hand_15", "en", None, "normal"),
    "editor_4_sources_en.png": ("editor_4_sources", "en", None, "normal"),
    "ledger_before_en.png": ("ledger_before", "en", None, "normal"),
    "ledger_after_en.png": ("ledger_after", "en", None, "normal"),
    "ledger_redundant_en.png": ("ledger_redundant", "en", None, "normal"),
    "quiet_round_en.png": ("quiet_round", "en", None, "normal"),
    "bubbles_talk_en.png": ("bubbles_talk", "en", None, "normal"),
    "tutorial.png": ("tutorial", "en", None, "normal"),
    "tutorial_roll_en.png": ("tutorial_roll", "en", None, "normal"),
    "hint.png": ("hint", "en", None, "normal"),
    "fair_price.png": ("fair_price", "en", None, "normal"),
}


def render_docs(folder: Path, seed: int = 3) -> None:
    """Every picture of docs/screenshots, made again."""
    for name, (scene, lang, size, text) in DOC_PICTURES.items():
        save(scene, lang, seed, folder / name, size, text)


def sample_kept_games() -> list:
    """Nine unfinished hot-seat games (two pages), for the stills: no file behind them."""
    from game.ui.sessions.autosave import KeptGame

    day = 1767225600.0  # 2026-01-01 00:00 UTC
    players = (["Mei", "Ada", "Bruno"], ["Ana", "Bo", "Chen", "Dara"], ["Ann", "Emil"])
    out = []
    for i in range(9):
        names = players[i % 3]
        defaults = [i == 1] + [False] * (len(names) - 1)  # one "Player 1", in the language shown
        kinds = ["human"] + ["heuristic"] * (len(names) - 1)
        out.append(KeptGame(Path(f"hotseat-{9 - i:06d}.json"), names, defaults, kinds,
                            40 + 17 * i, [11, 1, None][i % 3], day - i * 5400))  # fmt: skip
    return out


def render(app, scene: str, seed: int = 3) -> None:
    """Build `scene` on app's stack and draw one settled frame."""
    if scene == "title":
        from game.ui.scenes.title import TitleScene

        app.push(TitleScene(app))
        _frames(app, 20)
    elif scene == "title_saved":  # with kept games: Continue and Saved games
        from game.ui.scenes.title import TitleScene

        title = app.push(TitleScene(app))
        title.kept = sample_kept_games()
        title.layout()
        _frames(app, 20)
    elif scene in ("saved_games", "saved_delete"):  # the list; its "Delete?" question
        from game.ui.scenes.saved_games import SavedGamesScene

        saved = app.push(SavedGamesScene(app, sample_kept_games()))
        if scene == "saved_delete":
            saved.ask_delete(saved.games[1])
        _frames(app, 10)
    elif scene == "table":
        from game.ui.table.scene import TableScene

        s = table_session(seed)
        table = _still(app, TableScene(app, s))  # the scripted moves are already on it
        pygame_mouse(app, (1230, 520))
        _frames(app, 20)
    elif scene == "hint":  # the scripted table with the coach's hint asked for (key H)
        from game.ui.table.scene import TableScene

        table = _still(app, TableScene(app, table_session(seed)))
        table.hints.toggle()
        table._refresh()
        pygame_mouse(app, (20, 20))
        _frames(app, 20)
    elif scene == "fair_price":
        render_fair_price(app, seed)
    elif scene == "quiet_round":
        render_quiet_round(app, seed)
    elif scene == "results":
        play_out(app, seed)
    elif scene == "replay":
        render_replay(app, seed)
    elif scene in ("rules", "rules_pictures"):  # the text of a deal; the pictures of a space
        from game.ui.scenes.rules import RulesScene

        r = RulesScene(app)
        app.push(r)
        _frames(app, 2)
        r.jump("deal" if scene == "rules" else "space")
        _frames(app, 60)
    elif scene == "settings":
        from game.ui.scenes.settings import SettingsScene

        app.push(SettingsScene(app))
        _frames(app, 2)
    elif scene == "newgame":
        from game.ui.scenes.newgame import NewGameScene

        app.push(NewGameScene(app))
        _frames(app, 2)
    elif scene == "handoff":
        from game.ui.scenes.handoff import HandOffScene

        app.push(HandOffScene(app, 1, "Ann", lambda: None))
        _frames(app, 10)
    elif scene == "lobby":  # the LAN lobby (net/): game/ui/scenes/lobby.py, LobbyScene(app)
        from game.ui.scenes.lobby import LobbyScene

        lobby = LobbyScene(app, browser=SampleBrowser())
        lobby.hosting.code = "KMRT"  # a still: not a random code
        app.push(lobby)
        _frames(app, 10)
    elif scene == "room":
        from game.ui.scenes.room import RoomScene

        app.push(RoomScene(app, still_session(seed, seat=0, started=False)))
        _frames(app, 10)
    elif scene in ("display", "lan_table"):
        from game.ui.sessions.lan import make_table

        session = still_session(seed, seat=None if scene == "display" else 0)
        session.update(0.0)
        table = _still(app, make_table(app, session))
        _frames(app, 20)
    elif scene == "tutorial":  # a lesson step: the coach points at the Stop! button
        from game.ui.tutorial.scene import render_still

        render_still(app, "stop")
        _frames(app, 20)
    elif scene == "tutorial_roll":  # the lesson just after the player's roll: the die in view
        from game.rules import Roll
        from game.ui.tutorial.scene import render_still

        table = render_still(app, "roll")
        table.send(Roll(0))
        _frames(app, 40)
    elif scene in CROWDED_SCENES:
        render_crowded(app, scene, seed)
    elif scene == "log_expanded":
        render(app, "table", seed)
        app.stack.top.log.toggle_expanded()
        app.stack.top.layout()
        _frames(app, 10)
    else:
        raise SystemExit(f"error: unknown scene {scene!r}")
    app.draw()


def pygame_mouse(app, pos) -> None:
    import pygame

    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )


def finished_game(seed: int, players: int = 4, bots: str = "random"):
    """A whole bot game (engine only, fast): its final public view, the money history and
    the names, as the results scene needs them."""
    final, history, game = _finished(seed, players, bots)
    return final, history, list(game.names)


def finished_bot_game(seed: int, players: int = 4, bots: str = "random"):
    """A whole bot game of this seed as a rules Game (its log kept), as a save holds it."""
    return _finished(seed, players, bots)[2]


def _finished(seed: int, players: int, bots: str):
    from game.bots import make_bot
    from game.rules import Game, Settings
    from game.rules.seat_view import SeatView
    from game.rules.view import events_for
    from game.table.simulate import play
    from game.ui.table.scene import MoneyHistory

    names = ["Mei", "Ann", "Bo", "Cy", "Dee", "Eli"][:players]
    game = Game(names, seed, Settings(players=players))
    history = MoneyHistory(players)

    def on_step(_game, _action, events):
        for e in events_for(events, None):
            history.feed(e)

    play(game, [make_bot(bots, s, seed) for s in range(players)], on_step=on_step)
    return SeatView.of(game.state, None), history, game


def render_replay(app, seed: int) -> None:
    """The replay viewer over a whole bot game, paused four moves into its fourth deal
    (seed 3: offers and an agreement on the table), showing Mei's hand."""
    from game.ui.sessions.replay_session import ReplaySession, SeatRecord
    from game.ui.table.replay import ReplayScene

    game = finished_bot_game(seed, bots="heuristic")
    session = ReplaySession(game, SeatRecord(("heuristic",) * len(game.names)))
    session.jump_to_deal(min(3, len(session.deals) - 1))
    for _ in range(4):
        session.forward()
    replay = _still(app, ReplayScene(app, session))
    replay.director.finish()
    pygame_mouse(app, (20, 20))
    _frames(app, 4)


def play_out(app, seed: int, players: int = 4) -> None:
    """The results screen of a whole bot game of this seed (its replay on offer)."""
    from game.ui.scenes.results import ResultsScene

    final, history, game = _finished(seed, players, "random")
    names = list(game.names)
    app.push(ResultsScene(app, final, history, names, restart=lambda: None, replay=game))
    _frames(app, 5)


# --------------------------------------------------------------------------- LAN stills


class SampleBrowser:
    """A stand-in for net.discovery.browse.BackgroundBrowser: three tables, no network."""

    def __init__(self) -> None:
        from net.discovery.browse import TableFound, TablePace

        ask, fast = TablePace("ask_around", 10), TablePace("real_time", 5)
        self.events = [
            TableFound(
                "mei._imtheboss._tcp.local.", "Mei's table", "192.168.1.5", 40123, 1, 3, True,
                ("192.168.1.5",), ask,
            ),
            TableFound(
                "fri._imtheboss._tcp.local.", "Friday night", "192.168.1.23", 41877, 1, 1, True,
                ("192.168.1.23",), fast,
            ),
            TableFound(
                "bo._imtheboss._tcp.local.", "Bo's big game", "192.168.1.40", 40007, 1, 0, True
            ),
        ]

    def start(self) -> None:
        pass

    def poll(self) -> list:
        out, self.events = self.events, []
        return out

    def close(self) -> None:
        pass


class StillClient:
    """A stand-in for net.client.session.Client holding one fixed moment of a LAN table (stills
    and tests of the drawing): it hands out Joined, Seats and a Snapshot once, taken into its
    `state` as the real client does."""

    def __init__(self, v, seat, seats, countdowns, name="Mei's table", events=()) -> None:
        from net.client.session import Joined, Snapshot, TableInfo, TablePace
        from net.client.state import ClientState

        role = "spectator" if seat is None else "player"
        self.address = ("192.168.1.5", 40123)
        self.state = ClientState(role=role)
        pace = TablePace(v["settings"]["window_mode"], 10)
        table = TableInfo(name, len(v["players"]), True, seats.started, pace=pace)
        token = None if seat is None else "0" * 32
        self._messages = [Joined(seat, token, role, table), seats]
        if seats.started:
            self._messages.append(Snapshot(v["version"], v, list(events), countdowns))
        else:
            self.state.countdowns = countdowns

    role = property(lambda self: self.state.role)
    legal = property(lambda self: self.state.legal)
    countdowns = property(lambda self: self.state.countdowns)
    connected = property(lambda self: True)
    finished = property(lambda self: False)

    def poll(self) -> list:
        out, self._messages = self._messages, []
        for msg in out:
            self.state.absorb(msg)
        return out

    def send_action(self, action, version=None) -> int:
        return 0

    def say(self, phrase: str) -> None:
        pass

    def start_game(self) -> None:
        pass

    def leave(self) -> None:
        pass

    def close(self) -> None:
        pass


def still_session(seed: int = 3, seat: int | None = 0, started: bool = True, players: int = 5):
    """The scripted negotiation as a LAN table: Bo dropped (a bot takes over in 23 s), a
    bot stands in for Cy, Dee's seat is a bot's (Eli, a sixth, at a desktop); the host's
    countdowns are running."""
    import time

    from game.rules import view
    from game.ui.sessions.net_session import NetSession
    from net.client.session import HostCountdown, HostCountdowns, HostSeat, Seats

    local = table_session(seed, players)
    v = view(local.game.state, seat)
    local.viewer = seat  # the scripted moves' events, as this connection hears them
    events = [e for batch in local.poll() for e in batch.events]
    names = [p["name"] for p in v["players"]]
    if started:
        status = [("human", None, None), ("human", None, None), ("away", None, 23.4)]
        status += [("bot", "heuristic", None), ("open", "random", None)]
    else:
        status = [("human", None, None), ("human", None, None), ("human", None, None)]
        status += [("open", None, None), ("open", None, None)]
    status = (status + [("human", None, None)])[:players]
    seats = Seats(
        tuple(
            HostSeat(
                i, names[i] if st != "open" else None, st, bot, grace,
                via=None if st != "human" else "web" if i == 1 else "tcp",  # Bo on a phone
            )  # fmt: skip
            for i, (st, bot, grace) in enumerate(status)
        ),
        started,
        False,
        0,
        None,
        2 if seat is None else 1,
    )
    now = time.monotonic()
    countdowns = HostCountdowns(
        window=HostCountdown(now + 3.4, 5.0, "boss", None),
        negotiation=HostCountdown(now + 151.0, 180.0),
    )
    client = StillClient(v, seat, seats, countdowns, events=events)
    session = NetSession(
        client, code="KMRT", address="192.168.1.5:40123",
        phone_url="http://192.168.1.5:8700/?code=KMRT",
    )  # fmt: skip
    session.now = lambda: now  # the countdowns as they stand when the picture is made
    return session


def main(argv: list[str] | None = None) -> int:
    """`python -m tools.screenshot --scene display ...`: any still, the LAN ones too
    (room, display, lan_table), or `--docs FOLDER` for every picture of the docs."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m tools.screenshot")
    p.add_argument("--scene", default="table",
                   choices=[*SCENES, *CROWDED_SCENES, *LAN_SCENES, *EXTRA_SCENES])  # fmt: skip
    p.add_argument("--lang", default="en", choices=["en", "zh_Hant", "zh_Hans", "th"])
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--out", default="shot.png")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--text", default="normal", choices=["small", "normal", "large"])
    p.add_argument("--docs", help="render every picture of docs/screenshots into this folder")
    args = p.parse_args(argv)
    if args.docs:
        _setup_env()
        render_docs(Path(args.docs), args.seed)
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
