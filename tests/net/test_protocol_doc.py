"""docs/PROTOCOL.md §8 against the engine: every view key and every event field with its
wire type is documented, and nothing documented is gone. A third-party client is written
from that page alone."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
import re
import types
import typing
from pathlib import Path

import pytest

from game.bots import make_bot
from game.rules import (
    Game,
    Settings,
    WindowMode,
    deal_rules,
    engine,
    legality,
    rulebook,
    view,
)
from game.rules import events as E
from game.rules.board import CLAN_KEYS, Clan
from game.rules.cards import CARD_KEYS, Card
from game.rules.state import Source
from tests.net_helpers import random_move

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text("utf-8")

#: Maps keyed by data (spaces, seats, clans, cards), not by field names: "a{}" paths.
KEYED = {
    "covered",
    "hand",
    "discard_pile",
    "negotiation.travel",
    "negotiation.agreements",
    "negotiation.pending",
}


def _section(title: str) -> str:
    start = DOC.index(title)
    nxt = DOC.find("\n### ", start + 1)
    nxt2 = DOC.find("\n## ", start + 1)
    ends = [e for e in (nxt, nxt2) if e != -1]
    return DOC[start : min(ends)]


def _rows(section: str) -> dict[str, list[str]]:
    """First cell (without backticks) -> the other cells, for every table row."""
    out = {}
    for line in section.splitlines():
        m = re.fullmatch(r"\| `([^`]+)` \|(.*)\|", line.strip())
        if m:
            out[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return out


def wire_type(t) -> str:
    origin = typing.get_origin(t)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(t) if a is not type(None)]
        return " or ".join(wire_type(a) for a in args) + " or nil"
    if origin is tuple:
        return f"[{wire_type(typing.get_args(t)[0])}]"
    names = {int: "int", bool: "bool", str: "str", Card: "card", Clan: "clan", Source: "source"}
    return names[t]


def event_fields_cell(cls) -> str:
    hints = typing.get_type_hints(cls, vars(E))
    return ", ".join(f"`{f.name}` {wire_type(hints[f.name])}" for f in dataclasses.fields(cls))


def test_every_event_and_field_is_documented_with_its_type():
    rows = _rows(_section("### 8.3 Events"))
    assert set(rows) == set(E.EVENT_TYPES), "events missing or gone from PROTOCOL.md §8.3"
    for name, cls in E.EVENT_TYPES.items():
        assert rows[name][0] == event_fields_cell(cls), name


def _paths(v: dict, prefix: str = "") -> set[str]:
    out = set()
    for key, value in v.items():
        path = f"{prefix}{key}"
        out.add(path)
        if path in KEYED:
            for sub in value.values():
                if isinstance(sub, dict):
                    out |= _paths(sub, path + "{}.")
        elif isinstance(value, dict):
            out |= _paths(value, path + ".")
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    out |= _paths(item, path + "[].")
    return out


def _views_of_games():
    """The views of every seat and the public table along bot games in both window modes
    (the games reach negotiations with offers, proposals, agreements and windows)."""
    for seed, mode in ((1, WindowMode.REAL_TIME), (2, WindowMode.ASK_AROUND)):
        game = Game([f"P{i}" for i in range(4)], seed, Settings(players=4, window_mode=mode))
        bots = [make_bot("random", s, seed) for s in range(4)]
        rng = random.Random(seed)
        st = game.state
        for _ in range(20000):
            yield from (view(st, seat) for seat in (0, None))
            if st.phase.value == "game_over":
                return
            action = random_move(st, bots, rng)
            game.apply(action)
        pytest.fail("a bot game did not end")


def test_every_view_key_is_documented_and_every_documented_key_exists():
    seen: set[str] = set()
    for v in _views_of_games():
        seen |= _paths(v)
    documented = set(_rows(_section("### 8.2 View keys")))
    assert seen - documented == set(), "view keys PROTOCOL.md §8.2 does not list"
    # A few keys appear only now and then (an agreement by the Boss, a recruit window...):
    # the games above see them all; a documented key they never saw is gone from the engine.
    assert documented - seen == set(), "PROTOCOL.md §8.2 lists keys no view has"


def _values(v: dict, prefix: str = ""):
    """(path, value) for every key of a view, along the paths of ``_paths``."""
    for key, value in v.items():
        path = f"{prefix}{key}"
        yield path, value
        if path in KEYED:
            for sub in value.values():
                if isinstance(sub, dict):
                    yield from _values(sub, path + "{}.")
        elif isinstance(value, dict):
            yield from _values(value, path + ".")
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    yield from _values(item, path + "[].")


def _is_int(x) -> bool:
    return type(x) is int


#: The type words of PROTOCOL.md §8 ("seat", "[clan#]", "card or nil", ...) as checks of a
#: decoded value: exactly the wire type (a bool is no int, an int no bool).
_TYPE_WORDS = {
    "int": _is_int,
    "seat": lambda x: _is_int(x) and 0 <= x <= 5,
    "clan#": lambda x: _is_int(x) and 0 <= x < len(CLAN_KEYS),
    "bool": lambda x: type(x) is bool,
    "str": lambda x: type(x) is str,
    "card": lambda x: x in CARD_KEYS,
    "clan": lambda x: x in CLAN_KEYS,
    "source": lambda x: type(x) is list and len(x) == 2 and x[0] in ("placard", "card")
    and _is_int(x[1]),
    "map": lambda x: type(x) is dict,
    "array": lambda x: type(x) is list,
}


def type_matches(word: str, value) -> bool:
    if word.endswith(" or nil"):
        return value is None or type_matches(word[: -len(" or nil")], value)
    if word.startswith("[") and word.endswith("]"):
        return type(value) is list and all(type_matches(word[1:-1], x) for x in value)
    return _TYPE_WORDS[word](value)


def test_every_view_value_has_its_documented_wire_type():
    """Found by a third-party client: `negotiation.last_proposal` was documented as a bool
    but sent as false, then 0 and 1. A typed client decodes what the page says."""
    types_of = {path: cells[0] for path, cells in _rows(_section("### 8.2 View keys")).items()}
    wrong: dict[str, set] = {}
    for v in _views_of_games():
        for path, value in _values(v):
            if not type_matches(types_of[path], value):
                wrong.setdefault(f"{path} ({types_of[path]})", set()).add(repr(value))
    assert wrong == {}


def test_keys_documented_as_decimal_strings_are_decimal_strings():
    text = _section("### 8.1 Names and numbers")
    for path in ("covered", "negotiation.agreements", "negotiation.pending", "negotiation.travel"):
        assert f"`{path}`" in text
    found = dict.fromkeys(("covered", "agreements", "pending", "travel"), False)
    for v in _views_of_games():
        maps = {"covered": v["covered"]}
        if v["negotiation"] is not None:
            maps.update({k: v["negotiation"][k] for k in ("agreements", "pending", "travel")})
        for name, m in maps.items():
            for key in m:
                assert isinstance(key, str) and key.isdigit(), (name, key)
                found[name] = True
    assert all(found.values()), found


def engine_rule_ids() -> set[str]:
    """Every rule id the rules can refuse with (what ``explain_illegal`` answers): the first
    argument of each ``Refusal("rule.id", message)`` in the modules that state the rules."""
    out = set()
    for module in (legality, deal_rules, rulebook, engine):
        tree = ast.parse(Path(module.__file__).read_text("utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Refusal"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and re.fullmatch(r"[a-z_0-9]+\.[A-Za-z_0-9]+", node.args[0].value)
            ):
                out.add(node.args[0].value)
    return out


def test_every_illegal_rule_id_is_documented():
    ids = engine_rule_ids()
    assert len(ids) > 40  # the scan finds them (it would find nothing if the code changed shape)
    assert set(_rows(_section("### 7.1 Rule ids"))) == ids


# --------------------------------------------------------------------------- the wire's
# loose ends (issue 33): what the page says of limits, counts and examples is the code's


def _counting_handlers() -> set[str]:
    """The action types whose engine handler calls ``_count`` (a negotiation move); the
    handlers live in the phase modules, `engine._HANDLERS` dispatches to them."""
    counting = set()
    for cls, fn in engine._HANDLERS.items():
        tree = ast.parse(inspect.getsource(fn))
        for call in ast.walk(tree):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == "_count"
            ):
                counting.add(cls.type)
    return counting


def test_the_negotiation_moves_of_round_active_are_the_engines():
    row = _rows(_section("### 8.2 View keys"))["negotiation.round_active"][1]
    moves = row.split("A **negotiation move** is", 1)[1].split("— not", 1)
    listed = set(re.findall(r"`([a-z_]+)`", moves[0])) - {"negotiation.actions"}
    not_listed = set(re.findall(r"`([a-z_]+)`", moves[1].split(".", 1)[0]))
    from game.rules.actions import ACTION_TYPES

    assert listed == _counting_handlers()
    assert not_listed == set(ACTION_TYPES) - listed - {"place_marker", "open_deal", "roll", "draw", "discard"}


def _examples() -> list[tuple[bytes, str]]:
    """§12's frames: (the bytes of the hex, the value written after '=')."""
    section = DOC[DOC.index("## 12. Example frames") : DOC.index("## 13.")]
    out = []
    for block in re.findall(r"```\n(.*?)```", section, re.S):
        hexpart, _, value = block.partition("=")
        out.append((bytes.fromhex(hexpart.replace("\n", " ")), value))
    for hexpart, value in re.findall(r"`([0-9a-f ]+)` = `(\{[^`]*\})`", section):
        out.append((bytes.fromhex(hexpart), value))
    return out


def test_the_example_frames_decode_to_what_they_say_and_pass_the_schemas():
    import json

    import msgpack

    from net import protocol as P

    examples = _examples()
    assert len(examples) == 6
    for data, value in examples:
        decoded = msgpack.unpackb(data, raw=False)
        assert decoded == json.loads(value), value
        if decoded["t"] in P.CLIENT_MESSAGES:
            P.check_client_message(decoded)
        else:
            P.check_host_message(decoded)


def test_the_example_welcome_has_every_field_a_host_sends():
    import asyncio

    import msgpack

    from tests.net_helpers import Peer, start_host

    async def real_welcome():
        host, _ = await start_host(seats=4)
        peer = await Peer.connect(host.port)
        welcome = await peer.hello("Mei")
        await host.close()
        return welcome

    real = asyncio.run(real_welcome())
    (example,) = [msgpack.unpackb(d) for d, _ in _examples() if msgpack.unpackb(d)["t"] == "welcome"]
    assert set(example) == set(real)
    assert set(example["table"]) == set(real["table"])
    assert set(example["table"]["pace"]) == set(real["table"]["pace"])


def test_the_overview_names_every_field_of_welcome():
    from net import protocol as P

    overview = _section("## 2. Session at a glance")
    fields = re.search(r"<- welcome \{([^}]*)\}", overview).group(1)
    assert {f.strip() for f in fields.split(",")} == set(P.HOST_MESSAGES["welcome"]) - {"t"}


def test_the_limits_the_page_states_are_the_codes():
    from net import protocol as P
    from net.host.connections import FLOODING, Limits
    from net.host.lobby import SEATS_BURST, SEATS_RATE

    limits = Limits()
    flat = " ".join(DOC.split())  # line breaks of the page are spaces
    hello = " ".join(_section("### `hello`").split())
    assert f"{limits.max_code_attempts - 1} `bad_code` answers" in hello
    assert f"the {limits.max_code_attempts}th wrong code gets `too_many_attempts`" in hello
    action = _rows(_section("### `action`"))["version"]
    assert action[0] == "int 0..2⁵³" and "`bad_message`" in action[1]
    assert P.CLIENT_MESSAGES["action"]["version"]("version", 2**53) == 2**53
    with pytest.raises(P.ProtocolError):
        P.CLIENT_MESSAGES["action"]["version"]("version", 2**53 + 1)
    assert "a `sources` list of more than 16 entries" in flat
    assert f"`message` `{FLOODING}`" in flat
    seats = " ".join(_section("### `seats`").split())
    assert f"bursts of at most {SEATS_BURST}, then at most {SEATS_RATE:g} `seats` a second" in seats
    assert f"({SEATS_BURST} of them, one more every {round(1000 / SEATS_RATE)} ms)" in seats
    assert f"bursts of {SEATS_BURST}, then at most {SEATS_RATE:g} a second" in flat
    assert set(re.findall(r"`(tcp|web)`", _rows(_section("### `seats`"))["seats"][1])) == set(P.VIAS)

def _message_sections(part: str) -> dict[str, str]:
    """§3 or §4: the text under each `### \\`kind\\`` heading, by kind (a heading may name
    several: `pong` · `said` · `bye`)."""
    start = DOC.index(part)
    end = DOC.index("\n## ", start + 1)
    out: dict[str, str] = {}
    for chunk in DOC[start:end].split("\n### ")[1:]:
        heading, _, body = chunk.partition("\n")
        for kind in re.findall(r"^`([a-z_]+)`|· `([a-z_]+)`", heading):
            for k in kind:
                if k:
                    out[k] = heading + "\n" + body
    return out


@pytest.mark.parametrize(
    "part, schemas",
    [("## 3. Messages from the client", "CLIENT_MESSAGES"),
     ("## 4. Messages from the host", "HOST_MESSAGES")],
)  # fmt: skip
def test_every_message_and_its_fields_are_documented(part, schemas):
    """A client written from the page alone knows every message either side sends (the
    host's `ping` it must answer included) and every field of each."""
    from net import protocol as P

    documented = _message_sections(part)
    for kind, fields in getattr(P, schemas).items():
        assert kind in documented, f"{part}: no section for `{kind}`"
        for name in fields:
            assert f"`{name}`" in documented[kind] or f"{{{name}" in documented[kind] or (
                f", {name}" in documented[kind]
            ), f"`{kind}.{name}` is not documented in {part}"
