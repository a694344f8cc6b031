"""Phones in a real browser for the tests and the bench: headless Chromium (the Debian package)
driven by Playwright, phone emulation (touch, mobile viewport), and a player that taps the
page's own buttons (PLAYER_JS picks one move per call, in the page, so the pick and the tap see
the same render)."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PORTRAIT = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}


def chromium_path() -> str | None:
    """The browser, or None when this machine has none (the tests skip then)."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


def phone_context(browser, size=PORTRAIT, locale="en-US"):
    """A phone: touch, a mobile viewport, the phone's language."""
    return browser.new_context(
        viewport=size, is_mobile=True, has_touch=True, device_scale_factor=1, locale=locale
    )


def join(page, url: str, name: str) -> None:
    """Open the table's address and take a seat with a name, as a person would."""
    page.goto(url)
    page.fill("#name", name)
    page.tap("[data-join]")


# One move, chosen and tapped inside the page. Windows: let them pass (now and then Stop);
# over the limit: mark cards, then Discard; then the likeliest move: accept, close, roll,
# draw or open a deal; an investor without terms offers its sources; a Boss with nothing to
# answer passes the floor and, after a while, fails the deal.
PLAYER_JS = """
(seed) => {
  const m = (window.__player ||= { stuck: 0, rng: seed });
  const rand = () => { m.rng = (m.rng * 16807) % 2147483647; return m.rng / 2147483647; };
  const live = (sel) => [...document.querySelectorAll(sel)].filter((e) => !e.disabled);
  const one = (sel) => live(sel)[0];
  const tap = (e, what) => { e.click(); return what; };
  if (document.querySelector("[data-over]")) return "over";
  const move = (type) => one(`.moves [data-type=${type}]`);
  const stop = one(".window [data-type=play_stop]");
  if (stop && rand() < 0.3) return tap(stop, "stop");
  const pass = one(".window [data-type=pass]");
  if (pass) return tap(pass, "pass");
  const send = one("[data-send]");
  if (send) return tap(send, "send");
  const confirm = document.querySelector("[data-discard]");
  if (confirm) {
    if (Number(confirm.dataset.staged) < Number(confirm.dataset.excess)) {
      const card = live("button.card").find((c) => Number(c.dataset.left) > 0);
      if (card) return tap(card, "mark");
    }
    if (!confirm.disabled) return tap(confirm, "discard");
  }
  for (const t of ["accept_proposal", "accept", "accept_former", "going_once"]) {
    const b = move(t); if (b) { m.stuck = 0; return tap(b, t); }
  }
  const open = move("open_deal");
  if (open && rand() < 0.45) return tap(open, "open_deal");
  for (const t of ["roll", "draw", "place_marker"]) { const b = move(t); if (b) return tap(b, t); }
  if (open) return tap(open, "open_deal");
  const boss = one(".moves [data-type=play_boss]");
  if (boss && rand() < 0.04) return tap(boss, "play_boss");
  const offer = one("[data-terms=offer]");
  if (offer && !document.querySelector(".terms li.me")) return tap(offer, "offer");
  const floor = move("pass_floor");
  const fail = move("fail_deal");
  if (fail) {
    m.stuck += 1;
    if (m.stuck > 25) { m.stuck = 0; return tap(fail, "fail_deal"); }
  }
  if (floor && (!fail || m.stuck > 3)) return tap(floor, "pass_floor");
  return null;
}
"""


def play(pages, deadline_s: float, seed: int = 1, on_move=None) -> dict[str, int]:
    """Every phone plays through its buttons until each shows the results; returns the count
    of each kind of move tapped. `on_move(page, what)` sees each move (e.g. to reload a phone)."""
    rng = random.Random(seed)
    seeds = {id(p): rng.randrange(1, 2**30) for p in pages}
    tapped: dict[str, int] = {}
    over: set[int] = set()
    end = time.monotonic() + deadline_s
    while len(over) < len(pages):
        if time.monotonic() > end:
            raise AssertionError(f"no game over within {deadline_s} s; moves {tapped}")
        idle = True
        for page in pages:
            what = page.evaluate(PLAYER_JS, seeds[id(page)])
            if what == "over":
                over.add(id(page))
            elif what:
                idle = False
                tapped[what] = tapped.get(what, 0) + 1
                if on_move:
                    on_move(page, what)
        if idle:
            time.sleep(0.05)
    return tapped


def seen_events(page) -> set[str]:
    """The event types a phone has shown."""
    return set(page.evaluate("() => [...globalThis.imthebossPhone.seen]"))
