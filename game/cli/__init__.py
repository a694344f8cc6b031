"""The command line: ``imtheboss play | simulate | replay | host | join | table``.

It sits above every other layer (it starts the pygame UI, the LAN host and clients, and
headless simulations) and imports them plainly; nothing below imports it. ``main.py`` is
only its entry point.

    parser.py    the arguments of every command
    options.py   what several commands parse alike: bot specs, variants, usage errors
    offline.py   play, simulate, replay
    lan.py       host, table, join
"""

from .parser import build_parser, main

__all__ = ["build_parser", "main"]
