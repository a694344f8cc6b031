"""Which handler reads each message kind: the host's and the client's tables name every kind
of protocol.CLIENT_MESSAGES / HOST_MESSAGES, and a client handler's own bug is not taken for
a bad message from the host."""

from __future__ import annotations

import pytest

from net import protocol as P
from net.client.session import ClientSession
from net.host.server import Host


def test_the_dispatch_tables_name_every_message_kind_and_no_other():
    assert set(Host.HANDLERS) == set(P.CLIENT_MESSAGES)
    assert set(ClientSession.HANDLERS) == set(P.HOST_MESSAGES)


def test_a_bug_in_a_client_handler_propagates_and_bad_contents_count_as_bad_messages(
    monkeypatch,
):
    def broken(*args) -> None:
        raise AttributeError("a bug in the 'said' handler")

    monkeypatch.setattr("net.client.session.Said", broken)
    session = ClientSession("127.0.0.1", 9)
    with pytest.raises(AttributeError, match="a bug"):
        session._on_raw({"t": "said", "seat": 0, "phrase": "deal"})
    assert session.stats["bad_messages"] == 0

    got = []
    session = ClientSession("127.0.0.1", 9, on_message=got.append)
    table = {"name": "T", "seats": "many", "code_required": False, "started": False}
    welcome = {"t": "welcome", "v": P.PROTOCOL_VERSION, "role": "player", "table": table}
    session._on_raw(welcome)  # a table that says "many" seats
    view = {"version": 1, 1: "a map with keys of two types"}
    snapshot = {"t": "snapshot", "version": 1, "hash": "0" * P.HASH_HEX, "view": view,
                "events": []}  # fmt: skip
    session._on_raw(snapshot)
    assert session.stats["bad_messages"] == 2 and got == [] and session.view is None
