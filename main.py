"""I'm the Boss! - the command line's entry point (``imtheboss``, ``python main.py``).

Every command lives in game/cli (``python main.py --help`` lists them).
"""

from __future__ import annotations

import sys

from game.cli import build_parser, main

__all__ = ["build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
