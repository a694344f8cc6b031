"""The command line reads bot specs and variants with one parser each, and every command
reports a bad one the same way: one ``error:`` line, exit status 2."""

from __future__ import annotations

import pytest

from game.bots import UnknownBot, check_bot_spec, is_bot_spec, parse_bot_specs
from game.cli import main
from game.rules import SettingsError, Variant, parse_variants


def test_one_spec_fills_every_seat_and_a_list_names_each():
    assert parse_bot_specs("heuristic", 3) == ["heuristic"] * 3
    assert parse_bot_specs(None, 2) == ["random", "random"]
    assert parse_bot_specs(" random , heuristic:bold ", 2) == ["random", "heuristic:bold"]


def test_unknown_kinds_and_wrong_counts_are_refused():
    with pytest.raises(UnknownBot, match=r"unknown bot 'nobody' \(known: .*heuristic"):
        parse_bot_specs("random,nobody", 2)
    with pytest.raises(ValueError, match="3 bots named for 4 seats"):
        parse_bot_specs("random,random,random", 4)
    assert is_bot_spec("search:fast") and not is_bot_spec("searching")
    assert check_bot_spec("random") == "random"


def test_variants_parse_in_any_case_and_unknown_ones_are_named():
    assert parse_variants("v1, V3,") == frozenset({Variant.V1, Variant.V3})
    assert parse_variants(None) == frozenset()
    with pytest.raises(SettingsError, match="unknown variant 'V9'"):
        parse_variants("V1,V9")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["simulate", "--players", "3", "--bots", "random,random"], "2 bots named for 3 seats"),
        (["simulate", "--variant", "V7"], "unknown variant 'V7'"),
        (["host", "--headless", "--autosave", "none", "--bots", "nobody"], "unknown bot"),
        (["host", "--headless", "--autosave", "none", "--variant", "V7"], "unknown variant"),
        (["join", "127.0.0.1:9", "--headless", "--bot", "nobody"], "unknown bot 'nobody'"),
    ],
)
def test_every_command_reports_a_bad_spec_alike(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err, err
