"""Bytes and time to the phone page's first usable screen, in headless Chromium.

    python -m bench.phone_page [--runs 10] [--lang en]

A host with phones on loopback (`main.py host --headless --phone-port 0`). Each run is a new
phone (an empty cache, touch, 390×844): the bytes are what the browser received for the page
(Chromium's encodedDataLength: headers and bodies, as sent), counted until the screen is
usable, and the time is from the navigation's start (performance.now()) until then.

- newcomer: the address opened until the join screen stands in the phone's language (the
  name field shown): the bytes of the first usable screen (goal <= 300 KB);
- returning: a phone that took a bot's seat in a running game, reloaded (its token in
  localStorage) until its hand is shown again: the time a phone that slept or reloaded needs to be back in its seat
  (the WebSocket frames of the rejoin, welcome, seats and snapshot, counted apart).
"""

from __future__ import annotations

import argparse
import statistics

from playwright.sync_api import sync_playwright

from tests.phone_pages import ARGS, chromium_path, host_process, join, phone_context

LOCALES = {"en": "en-US", "zh_Hant": "zh-TW", "zh_Hans": "zh-CN", "th": "th-TH"}
GOAL_BYTES = 300_000


class Meter:
    """The bytes one page received over HTTP (per resource) and over its WebSocket."""

    def __init__(self, context, page) -> None:
        self.http: dict[str, int] = {}
        self.ws = 0
        self._urls: dict[str, str] = {}
        cdp = context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", self._request)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})

    def _request(self, e) -> None:
        self._urls[e["requestId"]] = e["request"]["url"]

    def _finished(self, e) -> None:
        url = self._urls.get(e["requestId"], "?")
        self.http[url] = self.http.get(url, 0) + int(e["encodedDataLength"])

    def _frame(self, e) -> None:
        self.ws += len(e["response"]["payloadData"]) * 3 // 4  # base64 of a binary frame

    def reset(self) -> None:
        self.http.clear()
        self.ws = 0


def newcomer(browser, url: str, locale: str) -> tuple[float, int, dict[str, int]]:
    context = phone_context(browser, locale=locale)
    page = context.new_page()
    meter = Meter(context, page)
    page.goto(url)
    page.wait_for_selector("#name")
    ms = page.evaluate("() => performance.now()")
    page.wait_for_load_state("networkidle")  # every byte of that screen is in
    got = dict(meter.http)
    context.close()
    return ms, sum(got.values()), got


def returning(browser, url: str, locale: str, name: str, reloads: int) -> list[tuple]:
    """One phone takes a bot's seat, then reloads `reloads` times: (ms, http B, ws B) each."""
    context = phone_context(browser, locale=locale)
    page = context.new_page()
    meter = Meter(context, page)
    join(page, url, name)
    page.wait_for_selector(".hand")
    out = []
    for _ in range(reloads):
        page.wait_for_timeout(300)
        meter.reset()
        page.reload()
        page.wait_for_selector(".hand")
        ms = page.evaluate("() => performance.now()")
        page.wait_for_timeout(200)
        out.append((ms, sum(meter.http.values()), meter.ws))
    context.close()
    return out


def short(url: str) -> str:
    return url.split("/", 3)[-1].split("?")[0] or "(page)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--lang", choices=sorted(LOCALES), default=None, help="one language only")
    args = parser.parse_args()
    langs = [args.lang] if args.lang else list(LOCALES)
    host_args = ("--seats", "4", "--bots", "random", "--start-after", "2", "--bot-delay", "0.2",
                 "--open-bot-seats")  # fmt: skip
    # the game runs with bots; each language's returning phone takes one of their seats
    with sync_playwright() as p, host_process("host", *host_args) as url:
        browser = p.chromium.launch(executable_path=chromium_path(), args=ARGS)
        print(f"first usable screen (join), {args.runs} runs per language, fresh cache:")
        for lang in langs:
            runs = [newcomer(browser, url, LOCALES[lang]) for _ in range(args.runs)]
            times = sorted(r[0] for r in runs)
            sizes = [r[1] for r in runs]
            verdict = "ok" if max(sizes) <= GOAL_BYTES else "OVER"
            print(
                f"  {lang:8} bytes {max(sizes):7,} (goal <= {GOAL_BYTES:,}: {verdict})  "
                f"time p50 {statistics.median(times):6.1f} ms  max {times[-1]:6.1f} ms"
            )
            parts = ", ".join(f"{short(u)} {n:,}" for u, n in sorted(runs[-1][2].items()))
            print(f"           {parts}")
        print("back in the seat after a reload (token kept), a running game:")
        for lang in langs:
            runs = returning(browser, url, LOCALES[lang], f"R{lang}", args.runs)
            times = sorted(r[0] for r in runs)
            print(
                f"  {lang:8} time p50 {statistics.median(times):6.1f} ms  max {times[-1]:6.1f} ms"
                f"  http {max(r[1] for r in runs):,} B  websocket {max(r[2] for r in runs):,} B"
            )
        browser.close()


if __name__ == "__main__":
    main()
