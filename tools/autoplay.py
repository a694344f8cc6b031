"""Driving the UI without a person (tests, the benchmark): an app on SDL's dummy driver
with a throwaway config folder, synthetic mouse and key events, and a scripted human who
plays through the table's own controls (never through the engine)."""

from __future__ import annotations

import os
import random

import pygame

from game.rules import Discard, Phase, PlaceMarker
from game.ui.config import Config
from game.ui.screen.app import App
from game.ui.table import layout as L
from game.ui.table.discard import cards_to_discard

DT = 0.25


def make_app(tmp_path, load: bool = False, **cfg) -> App:
    """An app for headless driving; its settings live under tmp_path. `load`: start from
    the settings saved there (an app started again), else from the defaults."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["IMTHEBOSS_CONFIG_DIR"] = str(tmp_path / "config")
    if load:
        config = Config.load()
        config.fullscreen = False
        for k, v in cfg.items():
            setattr(config, k, v)
    else:
        config = Config(fullscreen=False, **cfg)
    app = App(config, sound=True, persist=True)
    app.present = False
    return app


def clear_scenes(app: App) -> None:
    """Close every scene on the stack (top first), so the next test starts on an empty app."""
    for scene in reversed(app.stack.scenes):
        app.stack.scenes.remove(scene)
        scene.exit()


def click(pos, button: int = 1) -> None:
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(k: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def click_widget(scene, name: str) -> bool:
    """Click the centre of the named widget; False if it is missing or disabled."""
    w = scene.find(name)
    if w is None or not w.visible or not getattr(w, "enabled", True):
        return False
    click(w.rect.center)
    return True


def enabled(scene, prefix: str) -> list:
    return [
        w
        for w in scene.widgets
        if w.name.startswith(prefix) and getattr(w, "enabled", True) and w.visible
    ]


class ScriptedHuman:
    """Plays a human seat through the table's own buttons, cards and spaces.

    Each call makes at most one UI gesture (a click or a key) and returns a description of
    it, or None when there was nothing this human could do on the screen."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.gestures: dict[str, int] = {}

    def note(self, what: str) -> str:
        self.gestures[what] = self.gestures.get(what, 0) + 1
        return what

    def act(self, table) -> str | None:
        rng = self.rng
        v = table.seen
        legal = table.legal
        ed = table.panel.editor
        if ed is not None:
            # fill the editor: tick every source, maybe add a dividend, send
            for i, src in enumerate(ed.choice.pool):
                if src not in ed.sources:
                    click_widget(table, f"editor.src.{i}")
                    return self.note("editor.src")
            if (
                ed.amount == ed.choice.lo
                and rng.random() < 0.7
                and click_widget(table, "editor.dividend")
            ):
                return self.note("editor.dividend")
            if rng.random() < 0.2:
                key(pygame.K_ESCAPE)
                return self.note("editor.escape")
            if click_widget(table, "editor.send"):
                return self.note("editor.send")
            key(pygame.K_ESCAPE)
            return self.note("editor.escape")
        if table.card_buttons:
            opts = [b for b in table.card_buttons if b.enabled]
            if opts:
                b = rng.choice(opts)
                click(b.rect.center)
                return self.note("card.option")
            targets = table.travel_targets()
            if targets and rng.random() < 0.8:
                (kind, ref), _a = rng.choice(sorted(targets.items()))
                r = (
                    table.plates.placard_rects.get(ref)
                    if kind == "placard"
                    else table.panel.card_rects.get(ref)
                )
                if r is not None:
                    click(r.center)
                    return self.note("travel.target")
            key(pygame.K_ESCAPE)
            return self.note("card.deselect")
        phase = v.phase
        win = v.window
        if win is not None:
            if rng.random() < 0.15 and click_widget(table, "win.stop"):
                return self.note("win.stop")
            if rng.random() < 0.5:
                key(pygame.K_SPACE)  # the Pass shortcut
                return self.note("win.pass.key")
            if click_widget(table, "win.pass"):
                return self.note("win.pass")
            # going once: jump in with something else? fall through to negotiation moves
        places = [a for a in legal.fixed if isinstance(a, PlaceMarker)]
        if places:
            a = rng.choice(places)
            click(L.SPACES[a.space].center)
            return self.note("place_marker")
        if phase is Phase.DISCARD:
            discards = [a for a in legal.fixed if isinstance(a, Discard)]
            need = cards_to_discard(v, table.session.viewer)
            if len(table.discard.marked) >= need and click_widget(table, "discard.confirm"):
                return self.note("discard.confirm")
            if enabled(table, "recruit.") and rng.random() < 0.3:
                click(rng.choice(enabled(table, "recruit.")).rect.center)
                return self.note("recruit")
            if discards:
                keys = {a.card.key for a in discards}
                marked = table.discard.marked
                idx = [i for i, k in enumerate(table.hand.cards) if k in keys and i not in marked]
                i = rng.choice(idx)
                click(table.hand.card_rect(i).center)  # select; the option button follows
                return self.note("hand.select")
        if phase in ("turn", "moved"):
            if rng.random() < 0.25 and click_widget(table, "turn.deal"):
                return self.note("turn.deal")
            if phase is Phase.TURN:
                key(pygame.K_r)
                return self.note("turn.roll")
            if click_widget(table, "turn.draw"):
                return self.note("turn.draw")
        if phase is Phase.NEGOTIATION:
            neg = v.negotiation
            me = v.seat
            playable = [i for i, k in enumerate(table.hand.cards) if k in table.hand.playable]
            if playable and rng.random() < 0.12:
                click(table.hand.card_rect(rng.choice(playable)).center)
                return self.note("hand.select")
            if me == neg.boss:
                if click_widget(table, "neg.going_once"):
                    return self.note("going_once")
                accepts = enabled(table, "neg.accept.")
                if accepts and rng.random() < 0.6:
                    click(rng.choice(accepts).rect.center)
                    return self.note("accept")
                if rng.random() < 0.15:
                    counters = enabled(table, "neg.counter.")
                    if counters:
                        click(rng.choice(counters).rect.center)
                        return self.note("counter")
                if click_widget(table, "neg.accept_former"):
                    return self.note("accept_former")
                if rng.random() < 0.5 and click_widget(table, "neg.fail"):
                    return self.note("fail")
                if click_widget(table, "neg.pass_floor"):
                    return self.note("pass_floor")
                if click_widget(table, "neg.fail"):
                    return self.note("fail")
            else:
                if click_widget(table, "neg.accept_proposal") and rng.random() < 0.7:
                    return self.note("accept_proposal")
                if rng.random() < 0.3 and click_widget(table, "bar.offer"):
                    return self.note("offer")
                if rng.random() < 0.1 and click_widget(table, "phrase.too_expensive"):
                    return self.note("phrase")
                if rng.random() < 0.5:
                    key(pygame.K_p)  # the pass-the-floor shortcut
                    return self.note("pass_floor.key")
                if click_widget(table, "neg.pass_floor"):
                    return self.note("pass_floor")
            if win is not None and click_widget(table, "win.pass"):
                return self.note("win.pass")
        return None
