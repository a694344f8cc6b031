"""Phones in a real browser for the tests and the bench: headless Chromium (the Debian package)
driven by Playwright, phone emulation (touch, mobile viewport), and a player that taps the
page's own buttons (PLAYER_JS picks one move per call, in the page, so the pick and the tap see
the same render)."""

from __future__ import annotations

import contextlib
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",  # a container's small /dev/shm would crash the renderer
]
PORTRAIT = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
LARGE = {"width": 430, "height": 932}  # the largest phone the page is made for


def chromium_path() -> str | None:
    """The browser, or None when this machine has none (the tests skip then)."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    return shutil.which("chromium")


@contextlib.contextmanager
def host_process(kind: str, *args: str, display: bool = False) -> Iterator[str]:
    """`main.py table` (the TV, under SDL's dummy driver unless `display`: then in a real
    window on $DISPLAY) or `main.py host --headless` on loopback with the phone server on a
    free port; yields the phones' address it prints."""
    cmd = [sys.executable, "main.py", kind, "--bind", "127.0.0.1", "--port", "0"]
    cmd += ["--phone-port", "0", "--no-announce", "--autosave", "none", *args]
    if kind == "host":
        cmd.append("--headless")
    with tempfile.TemporaryDirectory() as config:
        env = {**os.environ, "SDL_AUDIODRIVER": "dummy"}
        if not display:
            env["SDL_VIDEODRIVER"] = "dummy"
        env["IMTHEBOSS_CONFIG_DIR"] = config
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
        try:
            yield _phones_line(lines, proc)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def _phones_line(lines: queue.Queue, proc, wait_s: float = 30.0) -> str:
    end = time.monotonic() + wait_s
    seen = []
    while time.monotonic() < end:
        try:
            line = lines.get(timeout=0.2)
        except queue.Empty:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if line.startswith("phones: "):
            return line.split()[1]
    raise AssertionError(f"the host printed no phones' address: {seen}")


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
# draw or open a deal (a phone draws until it has been over the hand limit once); Clan cards
# the deal needs are laid, Recruitment triples played now and then; an investor without terms
# offers its sources; a Boss with nothing to answer passes the floor and, after
# a while, fails the deal. Each phone also asks one fee and, as Boss, proposes terms once.
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
    if (!confirm.disabled) { m.discarded = true; return tap(confirm, "discard"); }
  }
  for (const t of ["accept_proposal", "accept", "accept_former", "going_once"]) {
    const b = move(t); if (b) { m.stuck = 0; return tap(b, t); }
  }
  const open = move("open_deal");
  // draw until this hand has gone over the limit once (the discards are part of the game)
  if (open && m.discarded && rand() < 0.45) return tap(open, "open_deal");
  for (const t of ["roll", "draw", "place_marker"]) { const b = move(t); if (b) return tap(b, t); }
  if (open) return tap(open, "open_deal");
  const lay = move("lay_clan");
  if (lay) return tap(lay, "lay_clan");
  const recruit = move("recruit");
  if (recruit && rand() < 0.5) return tap(recruit, "recruit");
  const boss = one(".moves [data-type=play_boss]");
  if (boss && rand() < 0.04) return tap(boss, "play_boss");
  const offer = one("[data-terms=offer]:not([data-pool='0'])"); // sources, not a fee
  const mine = document.querySelector(".terms li.me");
  if (offer && !mine) return tap(offer, "offer");
  const fee = one("[data-terms=offer][data-pool='0']");
  if (fee && !mine && !m.fee) { m.fee = true; return tap(fee, "fee"); } // once: a fee to let it through
  const propose = live("[data-terms=propose]:not([data-pool='0'])");
  if (propose.length && !m.proposed) { m.proposed = true; return tap(propose[0], "propose"); }
  const floor = move("pass_floor");
  const fail = move("fail_deal");
  if (fail) {
    m.stuck += 1;
    if (m.stuck > 12) { m.stuck = 0; return tap(fail, "fail_deal"); }
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
    """The event types a phone has shown (a die roll with its purpose: `die_rolled.end`)."""
    return set(page.evaluate("() => [...globalThis.imthebossPhone.seen]"))
