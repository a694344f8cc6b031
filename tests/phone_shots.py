"""The phone page's pictures for the docs, rendered by headless Chromium:

    python -m tests.phone_shots            # docs/screenshots/phone_<lang>_<size>.png
    python -m tests.phone_shots --tv       # also docs/screenshots/phones_tv.png (needs $DISPLAY)

Four phones, one per language (the phone's own: en-US, zh-TW, zh-CN, th-TH), sit at a
four-seat ask-around table and play through their buttons until a deal is under way with an
agreement and a pending offer; the game then waits for the floor, so every phone is pictured
in the same moment, at 390×844 and at 360×640 (the whole page, as it scrolls). With --tv the
table display runs in a real window (`main.py table`) on $DISPLAY and its picture is put
beside one phone's: the README's "Play with phones"."""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.phone_pages import (
    ARGS,
    PLAYER_JS,
    PORTRAIT,
    ROOT,
    SMALL,
    chromium_path,
    host_process,
    join,
    phone_context,
)

OUT = ROOT / "docs" / "screenshots"
LOCALES = {"en": "en-US", "zh_Hant": "zh-TW", "zh_Hans": "zh-CN", "th": "th-TH"}
NAMES = {"en": "Mei", "zh_Hant": "阿明", "zh_Hans": "小红", "th": "สมชาย"}
# the TV draws names with the table's font subsets, which hold the tables' own characters
# only: the README's picture seats Latin and Thai names
TV_NAMES = {"en": "Mei", "zh_Hant": "Ming", "zh_Hans": "Hong", "th": "สมชาย"}
SIZES = {"390x844": PORTRAIT, "360x640": SMALL}
HOST_ARGS = ("--seats", "4", "--window-mode", "ask_around", "--seed", "7", "--short",
             "--window", "2", "--going-once", "0.5", "--start-after", "300")  # fmt: skip
# a deal under way: an agreement made, an offer waiting, no window open
MID_DEAL = """() => { const v = globalThis.imthebossPhone.store.view;
  return v && v.negotiation && !v.window && Object.keys(v.negotiation.agreements).length > 0
    && Object.keys(v.negotiation.pending).length > 0; }"""


def seat_phones(browser, url: str, names: dict = NAMES) -> dict:
    pages = {}
    for lang, locale in LOCALES.items():
        page = phone_context(browser, PORTRAIT, locale).new_page()
        join(page, url, names[lang])
        page.wait_for_function("() => globalThis.imthebossPhone.seat !== null")
        pages[lang] = page
    for page in pages.values():
        page.wait_for_selector("main.game")
    return pages


def play_to_mid_deal(pages: dict, deadline_s: float = 120) -> None:
    """Tap moves phone after phone until one of them sees a deal under way."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        for page in pages.values():
            if any(p.evaluate(MID_DEAL) for p in pages.values()):
                time.sleep(0.5)  # every phone takes the last update in
                return
            page.evaluate(PLAYER_JS, 3)
        time.sleep(0.05)
    raise SystemExit("no deal with an agreement and an offer came up")


def phone_shots(pages: dict) -> list[Path]:
    out = []
    for size_name, size in SIZES.items():
        for lang, page in pages.items():
            page.set_viewport_size(size)
            page.wait_for_timeout(150)
            path = OUT / f"phone_{lang}_{size_name}.png"
            page.screenshot(path=str(path), full_page=True)
            out.append(path)
    return out


def tv_shot(browser) -> Path:
    """The table display in a real window on $DISPLAY, and one phone beside it."""
    tv, phone = Path("/tmp/phones_tv_table.png"), Path("/tmp/phones_tv_phone.png")
    with host_process("table", *HOST_ARGS, "--code", "BOSS", display=True) as url:
        pages = seat_phones(browser, url, TV_NAMES)
        play_to_mid_deal(pages)
        time.sleep(1.5)  # the TV draws the last moves
        subprocess.run(["import", "-window", "root", str(tv)], check=True)
        pages["en"].set_viewport_size(PORTRAIT)
        pages["en"].screenshot(path=str(phone))
    path = OUT / "phones_tv.png"
    subprocess.run(
        ["convert", str(tv), "(", str(phone), "-resize", "x768", ")", "-background", "#0a2c20",
         "-gravity", "center", "+append", "-resize", "1600x", str(path)],
        check=True,
    )  # fmt: skip
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tv", action="store_true", help="also the TV and a phone ($DISPLAY)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=ARGS)
        with host_process("host", *HOST_ARGS) as url:
            pages = seat_phones(browser, url)
            play_to_mid_deal(pages)
            for path in phone_shots(pages):
                print(path.relative_to(ROOT))
        if args.tv:
            if not os.environ.get("DISPLAY"):
                raise SystemExit("--tv needs a display ($DISPLAY)")
            print(tv_shot(browser).relative_to(ROOT))
        browser.close()


if __name__ == "__main__":
    main()
