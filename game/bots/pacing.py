"""How bots are paced against people: the default of ``game.referee.Timing.fair_start``,
the referee of the LAN host, hot-seat play and headless bot clients alike, so every table
gives a person the same chance. (A number only: no clock here.)"""

from __future__ import annotations

#: Seconds after a reaction window or a deal opens during which no bot answers the window
#: or plays into the deal: a person reading the table has a fair chance to act first.
FAIR_START = 1.0
