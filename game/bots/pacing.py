"""How bots are paced against people: the default of ``game.referee.Timing.fair_start``,
the referee of the LAN host, hot-seat play and headless bot clients alike, so every table
gives a person the same chance. (A number only: no clock here.)"""

from __future__ import annotations

#: Seconds after a reaction window or a deal opens during which no bot answers the window
#: or plays into the deal: a person reading the table has a fair chance to act first.
FAIR_START = 1.0

#: A bot Boss answers a person's offer (takes it, counters, or refuses it aloud) no sooner
#: than this after the offer could be answered (real time: when it was made; ask-around: when
#: the floor left the person) — an instant answer reads as a machine's — and the referee
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
