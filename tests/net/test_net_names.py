"""Names as a reader sees them (net/names.py, net.discovery.records.clean_name): a name that
shows no glyph is refused whatever its code points, and every line break is one rule."""

from __future__ import annotations

import pytest

from net.discovery.records import clean_name
from net.names import has_visible, player_name

# names an independent client found accepted although they show nothing (issue 33)
BLANK_LOOKING = [
    "\u2800",  # Braille pattern blank
    "\u3000\u2800",  # ideographic space + Braille blank
    "\u1160\u2800",  # Hangul jungseong filler + Braille blank
    "\u0301",  # a lone combining acute accent
    "\u20dd",  # a lone combining enclosing circle
    "\ufffc",  # object replacement character
    "\u3164",  # Hangul filler
    "\u115f\u1160",  # Hangul choseong + jungseong fillers
    "\u0301\u0302 \u20dd",  # marks on nothing, and a space
    "\u200b\u2800\u00a0",  # zero-width space, Braille blank, no-break space
]


@pytest.mark.parametrize("raw", BLANK_LOOKING, ids=[ascii(s) for s in BLANK_LOOKING])
def test_a_name_with_no_visible_glyph_is_refused(raw):
    name, problem = player_name(raw)
    assert problem is not None, (raw, name)
    assert not has_visible(clean_name(raw))


@pytest.mark.parametrize(
    "raw",
    ["Mei", "e\u0301", "\u0e01\u0e34", "茶", "\u2800A", "A\u20dd", "!", "\u2603", "1", "\ufffd"],
)
def test_names_with_something_to_see_are_kept(raw):
    assert player_name(raw)[1] is None, raw


@pytest.mark.parametrize(
    "brk", ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x85", "\u2028", "\u2029", "\t"]
)
def test_every_line_break_becomes_one_space(brk):
    assert clean_name(f"Mei{brk}Ling") == "Mei Ling"
    assert clean_name(f"{brk}Mei{brk}{brk}") == "Mei"
