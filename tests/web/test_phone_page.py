"""The phone page in a real browser: headless Chromium (the Debian package) driven by
Playwright with phone emulation. Four phones join a host by its address and room code and play
whole games through the page's buttons; a phone reloaded mid-deal is back in its seat with the
same view; the page's view hash is the host's. Skipped only where no Chromium is installed
(CI installs it: .ci/run)."""

from __future__ import annotations

import hashlib

import msgpack
import pytest

from tests.phone_pages import (
    LARGE,
    PORTRAIT,
    SMALL,
    chromium_path,
    host_process,
    join,
    phone_context,
    play,
    seen_events,
)

pytest.importorskip("playwright")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(chromium_path() is None, reason="no Chromium installed"),
]

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.phone_pages import ARGS  # noqa: E402

# a short game at a brisk pace: a whole game in well under a minute
FAST = ("--short", "--window", "1", "--going-once", "0.4", "--bot-delay", "0.1",
        "--start-after", "300")  # fmt: skip
NAMES = ["Mei", "Ann", "Bo", "Cy"]
GAME_S = 240
# a phone's vibrator, counted: the page buzzes when the game waits for it
BUZZ_JS = "navigator.vibrate = () => { window.__buzzed = (window.__buzzed || 0) + 1; return true; };"


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=ARGS)
        yield b
        b.close()


def phones(browser, url: str, sizes) -> list:
    """Four phones at the table, seated in order, the first one starting the game (a table
    they fill starts by itself)."""
    pages = []
    errors: list[str] = []
    for name, size in zip(NAMES, sizes, strict=True):
        page = phone_context(browser, size).new_page()
        page.add_init_script(BUZZ_JS)
        page.on("pageerror", lambda e: errors.append(str(e)))
        join(page, url, name)
        page.wait_for_function("() => globalThis.imthebossPhone.seat !== null")
        pages.append(page)
    pages[0].wait_for_function(
        "() => globalThis.imthebossPhone.screen === 'game' || document.querySelector('[data-start]')"
    )
    if pages[0].locator("[data-start]").count():
        pages[0].tap("[data-start]")
    for page in pages:
        page.wait_for_selector("main.game")
    pages[0].errors = errors
    return pages


def state(page) -> dict:
    return page.evaluate(
        """() => { const S = globalThis.imthebossPhone;
        return {seat: S.seat, version: S.store.version, view: S.store.view, screen: S.screen,
                token: localStorage.getItem(Object.keys(localStorage).find(k => k.includes('token')))}; }"""
    )


def test_four_phones_play_a_whole_game_with_a_bot_at_the_table_display(browser):
    """`main.py table` (the TV) with four phones and a bot, real-time windows: every phone
    plays through its own buttons to the end die and the results."""
    args = ("--seats", "5", "--bots", "random", "--window-mode", "real_time", *FAST)
    with host_process("table", *args) as url:
        assert "?code=" in url
        pages = phones(browser, url, [PORTRAIT, PORTRAIT, SMALL, SMALL])
        tapped = play(pages, GAME_S, seed=5)
        views = [state(p) for p in pages]
    assert [v["seat"] for v in views] == [0, 1, 2, 3]
    for v in views:
        assert v["view"]["phase"] == "game_over" and v["view"]["winners"]
    for move in ("open_deal", "send", "accept", "going_once", "pass", "discard", "roll", "draw"):
        assert tapped.get(move), (move, tapped)
    seen = seen_events(pages[0])
    assert {"deal_closed", "card_played", "window_opened", "going_once_called"} <= seen
    assert {"hand_limit_reached", "die_rolled.end", "game_over"} <= seen  # the end die
    assert not pages[0].errors


def test_ask_around_game_and_a_phone_reloaded_mid_deal_is_back_in_its_seat(browser):
    """Four phones, no bot, ask-around: the floor and the windows go round. Once a phone has
    sent an offer, it says a quick phrase (every phone hears it) and is reloaded: it is back in the same seat at once (its token), with the
    same view (the game waits for the floor, so nothing moves meanwhile); then the game goes
    on to its end."""
    args = ("--seats", "4", "--window-mode", "ask_around", "--grace", "30", *FAST)
    reloaded = {}
    opened: dict[int, str] = {}  # page -> the editor it opened last (offer, fee, propose)

    def reload_once(page, what):
        if what != "send":
            opened[id(page)] = what
        if reloaded or what != "send" or opened.get(id(page)) != "offer":
            return
        page.wait_for_function("() => globalThis.imthebossPhone.busy === null")
        before = state(page)
        if before["view"]["phase"] != "negotiation" or before["view"]["window"] is not None:
            return
        page.click('button[data-phrase="deal"]')  # a quick phrase: every phone hears it
        for other in everyone:
            other.wait_for_function("() => globalThis.imthebossPhone.heard > 0")
        page.reload()
        page.wait_for_function(
            "v => globalThis.imthebossPhone.store.version >= v", arg=before["version"]
        )
        reloaded["before"], reloaded["after"] = before, state(page)

    with host_process("host", *args) as url:
        everyone = pages = phones(browser, url, [SMALL, PORTRAIT, SMALL, PORTRAIT])
        tapped = play(pages, GAME_S, seed=11, on_move=reload_once)
    before, after = reloaded["before"], reloaded["after"]
    assert after["screen"] == "game"
    assert after["seat"] == before["seat"] and after["token"] == before["token"]
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]  # the hand, the money, the deal: all of it
    assert before["view"]["negotiation"]["pending"].get(str(before["seat"]))
    for move in ("pass_floor", "discard", "propose", "accept_proposal", "offer", "accept"):
        assert tapped.get(move), (move, tapped)
    assert all(p.evaluate("() => window.__buzzed || 0") > 0 for p in pages)


def test_the_page_hashes_the_view_as_the_host_does(browser):
    """§6: the hash is over the host's bytes. The page keeps them, so a map whose keys a
    JavaScript object would reorder ("10" before "7") still hashes as the host's, after a
    snapshot and after a delta (a page that re-encoded its decoded values would not)."""
    from tests.web_helpers import phone_host_thread

    def digest(view):
        return hashlib.sha256(
            msgpack.packb({k: view[k] for k in sorted(view) if k != "board"})
        ).hexdigest()[:16]

    vector = {"version": 2, "seat": 1, "board": {"spaces": []},
              "players": [{"name": "Mei 茶", "money": 5}], "window": None}  # fmt: skip
    assert digest(vector) == "4a4630eb069c4a97"  # the document's test vector
    view = {**vector, "covered": {"10": 5, "7": 3}}
    delta = {"version": 3, "covered": {"12": 1, "10": 5, "7": 3}}
    snap = {"t": "snapshot", "version": 2, "hash": digest(view), "view": view}
    after = {**view, **delta}
    upd = {"t": "update", "version": 3, "base": 2, "hash": digest(after), "delta": delta}
    with phone_host_thread(seats=2) as ht:
        page = phone_context(browser).new_page()
        page.goto(ht.phone_url)
        page.wait_for_selector("#name")
        got = page.evaluate(
            """async ([vec, snap, upd]) => {
              const w = await import("/js/wire.js");
              const bytes = (xs) => Uint8Array.from(xs);
              const raw = new Map();
              const b = bytes(vec);
              for (const [k, s, e] of w.mapEntries(b, 0)) raw.set(k, b.slice(s, e));
              const store = new w.ViewStore();
              const sb = bytes(snap), ub = bytes(upd);
              const okSnap = store.snapshot(sb, w.decode(sb));
              const okUpd = store.update(ub, w.decode(ub));
              return [w.viewHash(raw), okSnap, okUpd, Object.keys(store.view.covered)];
            }""",
            [list(msgpack.packb(vector)), list(msgpack.packb(snap)), list(msgpack.packb(upd))],
        )
    assert got[0] == "4a4630eb069c4a97"
    assert got[1] is True and got[2] is True
    assert got[3] == ["7", "10", "12"]  # the object did reorder them: only the bytes count


# every text at least 16 CSS px, every button at least 44 × 44, nothing wider than the phone,
# no key shown instead of its words
LAYOUT_JS = """() => {
  const bad = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (own && size < 16) bad.push(`text ${size}px: ${el.textContent.slice(0, 30)}`);
  }
  for (const b of document.querySelectorAll("button")) {
    const r = b.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) bad.push(`button ${r.width}x${r.height}: ${b.textContent}`);
  }
  if (document.documentElement.scrollWidth > innerWidth) bad.push(`wider: ${document.documentElement.scrollWidth}`);
  const keys = document.body.innerText.match(/\\b(phone|table|log|net|action|window)\\.[a-z_.]+/g);
  if (keys) bad.push(`keys: ${keys}`);
  return bad;
}"""


def test_every_language_at_both_sizes_reads_and_taps(browser):
    """The join screen, the room and the game in the four languages (the phone's own, from its
    locale) at 360×640, 390×844 and 430×932: text >= 16 px, buttons >= 44 px, no sideways scrolling,
    every word from the tables."""
    from tests.web_helpers import phone_host_thread

    locales = {"en": "en-US", "zh_Hant": "zh-TW", "zh_Hans": "zh-CN", "th": "th-TH"}
    with phone_host_thread(seats=5, bots=["random"]) as ht:
        pages = {}
        for lang, locale in locales.items():
            page = phone_context(browser, SMALL, locale).new_page()
            page.goto(ht.phone_url)
            page.wait_for_selector("#name")
            assert page.evaluate("() => document.documentElement.lang") == lang.replace("_", "-")
            assert page.evaluate(LAYOUT_JS) == [], (lang, "join")
            page.fill("#name", f"P{lang}")
            page.tap("[data-join]")
            page.wait_for_selector(".seats li")
            assert page.evaluate(LAYOUT_JS) == [], (lang, "room")
            pages[lang] = page
        pages["en"].tap("[data-start]")
        for lang, page in pages.items():
            page.wait_for_selector(".hand")
            for size in (SMALL, PORTRAIT, LARGE):
                page.set_viewport_size(size)
                assert page.evaluate(LAYOUT_JS) == [], (lang, size)


def test_a_dropped_link_and_a_dead_one_found_on_wake_up_come_back_to_the_seat(browser):
    """A socket the phone saw close (a wifi drop) reconnects by itself with the token; a socket
    that went silent without closing (a phone that slept) is found dead when the page is shown
    again (visibilitychange: a ping unanswered for 2 s) and replaced. Both times the seat and
    its view come back."""
    from tests.web_helpers import phone_host_thread

    with phone_host_thread(seats=2, bots=["random"]) as ht:
        page = phone_context(browser).new_page()
        join(page, ht.phone_url, "Mei")
        page.wait_for_selector("[data-start]")
        page.tap("[data-start]")
        page.wait_for_function("() => globalThis.imthebossPhone.legal !== null")
        before = state(page)  # the game waits for this phone: nothing moves meanwhile
        socket = "globalThis.imthebossPhone.link.ws"
        page.evaluate(f"() => {{ window.__first = {socket}; {socket}.close(); }}")
        back = "globalThis.imthebossPhone.online && globalThis.imthebossPhone.store.version"
        page.wait_for_function(
            f"v => {socket} !== window.__first && {back} === v", arg=before["version"]
        )
        dropped = state(page)
        page.evaluate(f"() => {{ window.__deaf = {socket}; {socket}.onmessage = null; }}")
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_function(f"() => {socket} && {socket} !== window.__deaf", timeout=5000)
        page.wait_for_function("() => globalThis.imthebossPhone.online")
        page.wait_for_timeout(300)
        woken = state(page)
    for after in (dropped, woken):
        assert after["seat"] == before["seat"] and after["token"] == before["token"]
        assert after["view"] == before["view"]
