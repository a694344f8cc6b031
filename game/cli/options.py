"""Arguments several commands read alike: one parser for bot specs and variants, and the
usage error every command turns into one ``error:`` line and exit status 2."""

from __future__ import annotations

import sys

from game.bots import parse_bot_specs
from game.rules import SettingsError, Variant, parse_variants

EXIT_USAGE = 2


class UsageError(ValueError):
    """A command line no command can run with; the message names the flag."""


def error(text: str) -> None:
    print(f"error: {text}", file=sys.stderr)


def bot_specs(text: str | None, seats: int, default: str = "random") -> list[str]:
    """``--bots``: one spec per seat (one spec fills every seat; none: ``default``);
    UsageError names the flag."""
    try:
        return parse_bot_specs(text, seats, default)
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from None


def variants(text: str | None) -> frozenset[Variant]:
    """``--variant V1,V3``; UsageError names the unknown one."""
    try:
        return parse_variants(text)
    except SettingsError as exc:
        raise UsageError(str(exc)) from None
