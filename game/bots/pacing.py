"""How bots are paced against people and how long a bot Boss waits: the defaults of
``game.table.bot_schedule.Timing``, for the bot scheduler of the LAN host, hot-seat play and headless bot
clients (``net.client.bot``) alike, so every table gives a person the same chance and no
deal waits out the clock. (Numbers, and ``Patience`` fed with times: no clock here.)"""

from __future__ import annotations

from dataclasses import dataclass

#: Seconds after a reaction window or a deal opens during which no bot answers the window
#: or plays into the deal: a person reading the table has a fair chance to act first.
FAIR_START = 1.0

#: A bot Boss answers a person's offer (takes it, counters, or refuses it aloud) no sooner
#: than this after the offer could be answered (real time: when it was made; ask-around: when
#: the floor left the person) — an instant answer reads as a machine's — and the bot scheduler
#: paces the table so that the answer comes by ANSWER_BY (issue 14: "within 1-3 s").
ANSWER_AFTER = 1.0
ANSWER_BY = 3.0
#: Ask-around: while a person's offer waits for a bot Boss, the bots with the floor (the
#: Boss too, once the answer is due) move after at most this pause rather than their usual
#: one, and after less (never under MIN_PAUSE) when many seats are still to come before the
#: Boss: their pauses share what is left until ANSWER_BY less HURRY_MARGIN (a screen's
#: frames round every pause up a little).
FLOOR_HURRY = 0.25
MIN_PAUSE = 0.05
HURRY_MARGIN = 0.5

#: Real time: a bot Boss that has seen nothing happen for this long must settle (close, or
#: make its last proposal, or fail a deal that waits for a card or an answer nobody gives)
#: instead of waiting out the negotiation clock.
BOT_PATIENCE = 20.0


@dataclass(slots=True)
class Patience:
    """How long a real-time negotiation has stood still, counted from when a bot first saw
    its current state version. The bot scheduler's bot Bosses and the headless LAN bot client
    settle by this one count, so a bot plays a deal alike whoever drives it."""

    version: int = -1
    since: float = 0.0

    def quiet_for(self, version: int, now: float) -> float:
        """Seconds since ``version`` was first seen (0 on first sight: a fresh count)."""
        if version != self.version:
            self.version, self.since = version, now
        return now - self.since

    def spent(self, version: int, now: float, seconds: float) -> bool:
        """Nothing has happened for ``seconds``: the bot Boss must settle now."""
        return self.quiet_for(version, now) >= seconds
