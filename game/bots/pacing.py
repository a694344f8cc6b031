"""How bots are paced against people, shared by the LAN host (net/host.py ``Timing``) and
hot-seat play (game/ui/session.py ``Timers``), so both tables give a person the same chance.
(A number only: no clock here; each table runs its own.)"""

from __future__ import annotations

#: Seconds after a reaction window or a deal opens during which no bot answers the window
#: or plays into the deal: a person reading the table has a fair chance to act first.
FAIR_START = 1.0
