"""The phone page's words come from the desktop's four tables (assets/lang): every key its
scripts name in a string exists in each of them, so no phone shows a raw key (a merge that
removed `table.tag.offer` and `table.editor.summary` from the tables left the phone's deal
rows reading "table.tag.offer ... table.editor.summary")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "assets" / "phone" / "js"
LANGS = ("en", "zh_Hant", "zh_Hans", "th")
# a quoted dotted name of lower-case words: a translation key (file names excluded below)
KEY = re.compile(r"""["'`]([a-z][a-z_]*(?:\.[a-z0-9_]+)+)["'`]""")


def page_keys() -> dict[str, str]:
    out = {}
    for js in sorted(PAGE.glob("*.js")):
        for m in KEY.finditer(js.read_text("utf-8")):
            key = m.group(1)
            if not key.endswith((".js", ".json", ".css", ".html", ".png")):
                out.setdefault(key, js.name)
    return out


def test_the_page_names_keys_at_all():
    assert len(page_keys()) > 40  # the regex still finds the page's keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_the_page_names_is_in_the_table(lang):
    table = json.loads((ROOT / "assets" / "lang" / f"{lang}.json").read_text("utf-8"))
    missing = {k: f for k, f in page_keys().items() if k not in table}
    assert not missing, f"{lang}: keys the phone page uses but the table lacks: {missing}"
