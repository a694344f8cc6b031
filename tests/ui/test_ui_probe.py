"""The layout probe (tools/layout_probe.py) watches the drawing from outside: while it
probes, its wrappers stand in for the drawing functions and methods it reads, and when it
ends, on an exception too, every original is back (the game draws unobserved)."""

from __future__ import annotations

import pygame
import pytest

from game.ui.drawing import draw, widgets
from tools import layout_probe as probe


def current() -> dict:
    return {(owner, name): vars(owner)[name] for owner, name, _ in probe.WRAPPED}


def test_probing_wraps_and_puts_every_original_back_even_on_an_error():
    before, surface = current(), pygame.Surface
    canvas = probe.ProbeCanvas((400, 100))
    with pytest.raises(RuntimeError), probe.probing(canvas) as p:
        assert pygame.Surface is probe.ProbeCanvas
        assert all(vars(owner)[name] is not f for (owner, name), f in before.items())
        with probe.probing() as inner:  # a probe inside a probe: the same wrappers
            draw.fit("Inner", 20, 300)
        assert [t.text for t in inner.texts] == ["Inner"] and pygame.Surface is probe.ProbeCanvas
        canvas.blit(draw.fit("Hello", 20, 300), (10, 10))
        widgets.Button((10, 50, 120, 44), "Go", name="go").draw(canvas, 0.0)
        raise RuntimeError("drawing failed")
    assert current() == before and pygame.Surface is surface and probe.ACTIVE is None
    assert [t.text for t in p.texts][:1] == ["Hello"] and [w.name for w in p.widgets] == ["go"]
    assert [b.label for b in p.boxes if b.kind is probe.BoxKind.TEXT] == ["Hello", "Go"]


def test_a_name_cut_short_is_recorded_and_one_that_fits_is_not():
    with probe.probing() as p:
        draw.fit_name("Bartholomew Cornelius Whitmore", 20, 90)
        draw.fit_name("Mei", 20, 90)
    assert len(p.cuts) == 1 and p.cuts[0].text == "Bartholomew Cornelius Whitmore"
    assert p.cuts[0].shown.endswith("…") and [t.text for t in p.texts] == [p.cuts[0].shown, "Mei"]
