"""Every audience's view of the running game, kept in step one action at a time.

An action changes a few top-level keys of the views; the host finds them once per action,
not once per audience. Three kinds of sections (``game.rules.view.SECTIONS``):

* **static** (``STATIC_SECTIONS``: the format, the first player, the settings, the board):
  fixed for a game, built once per game;
* **public**: the same for every audience; built once per action and compared with the
  last version's once, so every audience's delta shares the same changed values (and the
  view hasher's memo encodes each of them once);
* **per seat** (``seat``, ``players``, ``hand``): ``players`` is the public list with the
  seat's own money in its own entry (when money is hidden), so it is not rebuilt per seat.

A view holds the very objects of the sections it shares: a seat's new view is its last one
with the changed keys replaced, never a full rebuild.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.view import SECTIONS, hand_data
from net import protocol as P

#: Sections that never change within a game (tests/net/test_net_protocol.py holds it).
STATIC_SECTIONS = ("format", "first_player", "settings", "board_id", "board")
#: Sections that depend on who looks (with "hand", only in a seat's own view).
PER_SEAT_SECTIONS = frozenset({"seat", "players"})
_PUBLIC = tuple(k for k in SECTIONS if k not in PER_SEAT_SECTIONS and k not in STATIC_SECTIONS)
_PUBLIC_AND_PLAYERS = (*_PUBLIC, "players")


def _players_inputs(st) -> tuple:
    """Everything the public ``players`` list is made of (``game.rules.view._players``)."""
    return (
        st.phase,
        tuple(st.names),
        tuple(st.placards),
        tuple(map(sum, st.hands)),
        tuple(st.money),
        tuple(st.ask_only_when_touched),
    )


#: Public sections that cost more to build than their state costs to copy and compare:
#: each is built again only when the state it is made of changed (equal inputs, equal
#: section; tests/net/test_net_protocol.py checks every view against the engine's).
_SECTION_INPUTS = {
    "players": _players_inputs,
    "discard_pile": lambda st: tuple(st.discard),
    "covered": lambda st: tuple(st.covered.items()),
}


@dataclass
class CachedView:
    """An audience's view as its connections last received it (and the hasher that knows
    its keys' encodings, so the next hash re-encodes only what changed)."""

    version: int
    view: dict
    hash: str
    hasher: P.ViewHasher
    #: the seat's hand counts the view's ``hand`` was made from (None: no hand)
    hand_of: tuple | None = None


@dataclass
class PublicSections:
    """The public and static sections at one version, the public players list, and the
    public keys whose values changed since the version before (None: not known)."""

    version: int
    sections: dict
    changed: dict | None
    #: the changed public keys every audience's delta shares (``changed`` but ``players``)
    shared: dict | None = None
    #: the state each keyed section was built from (``_SECTION_INPUTS``)
    inputs: dict | None = None


def seat_players(public: list, state, seat: int | None) -> list:
    """``players`` as ``seat`` sees it: the public list, with the seat's own money in its own
    entry when money is hidden (equal to ``view(state, seat)["players"]``)."""
    if seat is None or not 0 <= seat < state.players or "money" in public[seat]:
        return public
    own = dict(public[seat])
    own["money"] = state.money[seat]
    out = list(public)
    out[seat] = own
    return out


def compose_view(public: dict, state, seat: int | None) -> dict:
    """``view(state, seat)`` from the public and static sections plus the seat's own."""
    out = {}
    for k in SECTIONS:
        if k == "seat":
            out[k] = seat
        elif k == "players":
            out[k] = seat_players(public[k], state, seat)
        else:
            out[k] = public[k]
    if seat is not None and 0 <= seat < state.players:
        out["hand"] = hand_data(state.hands[seat])
    return out


class TableViews:
    """The views of one game (``reset`` for the next): the public sections at the current
    version and each audience's last view."""

    def __init__(self) -> None:
        self.audiences: dict[int | None, CachedView] = {}
        self._public: PublicSections | None = None
        self._static: dict | None = None

    def reset(self) -> None:
        self.audiences.clear()
        self._public = None
        self._static = None

    def forget(self, audience: int | None) -> None:
        self.audiences.pop(audience, None)

    def public(self, state) -> PublicSections:
        """The public sections now (built at most once per version)."""
        pub = self._public
        version = state.actions_taken
        if pub is not None and pub.version == version:
            return pub
        if self._static is None:
            self._static = {k: SECTIONS[k](state, None) for k in STATIC_SECTIONS}
        inputs = {k: of(state) for k, of in _SECTION_INPUTS.items()}
        changed = shared = None
        if pub is not None and pub.version == version - 1:
            old = pub.sections
            was_made_of = pub.inputs
            fresh = {}
            for k in _PUBLIC_AND_PLAYERS:  # in this order: the deltas' keys are
                made_of = inputs.get(k)
                if made_of is not None and made_of == was_made_of[k]:
                    fresh[k] = old[k]  # its state did not change: the very object it was
                else:
                    fresh[k] = SECTIONS[k](state, None)
            changed = {}
            for k, v in fresh.items():
                was = old[k]
                if was is v:
                    continue
                if was == v:
                    fresh[k] = was  # the same object as before: shared, hashed once
                else:
                    changed[k] = v
            shared = {k: v for k, v in changed.items() if k != "players"}
        else:
            fresh = {k: SECTIONS[k](state, None) for k in _PUBLIC_AND_PLAYERS}
        fresh.update(self._static)
        self._public = pub = PublicSections(version, fresh, changed, shared, inputs)
        return pub

    def view_of(self, state, audience: int | None) -> CachedView:
        """The audience's whole view now (a snapshot), hashed whole."""
        cached = self.audiences.get(audience)
        if cached is None or cached.version != state.actions_taken:
            v = compose_view(self.public(state).sections, state, audience)
            hasher = P.ViewHasher()
            hand_of = tuple(state.hands[audience]) if "hand" in v else None
            cached = CachedView(state.actions_taken, v, hasher(v), hasher, hand_of)
            self.audiences[audience] = cached
        return cached

    def advance(self, state, audience: int | None, memo: dict) -> tuple[CachedView, dict] | None:
        """The audience's view one action on and its delta (the keys whose values changed),
        or None when its last view is not the version before (it needs a snapshot).
        ``memo`` is shared by every audience of the same action."""
        prev = self.audiences.get(audience)
        version = state.actions_taken
        if prev is None or prev.version != version - 1:
            return None
        pub = self.public(state)
        old = prev.view
        hand_of = prev.hand_of
        if pub.changed is None:  # the public sections were not kept at the version before
            new = compose_view(pub.sections, state, audience)
            delta = P.view_delta(old, new)
            if hand_of is not None:
                hand_of = tuple(state.hands[audience])
            cached = CachedView(
                version, new, prev.hasher(new, delta, memo), prev.hasher, hand_of
            )
            self.audiences[audience] = cached
            return cached, delta
        delta = dict(pub.shared)
        was = old["players"]
        if "players" in pub.changed or (
            # the public list is the same: only the seat's own hidden money can differ
            audience is not None
            and 0 <= audience < len(was)
            and was[audience].get("money", state.money[audience]) != state.money[audience]
        ):
            players = seat_players(pub.sections["players"], state, audience)
            if players != was:
                delta["players"] = players
        if hand_of is not None:
            counts = state.hands[audience]
            if hand_of != tuple(counts):  # the same counts: the same hand
                hand_of = tuple(counts)
                hand = hand_data(counts)
                if hand != old["hand"]:
                    delta["hand"] = hand
        new = dict(old)
        new.update(delta)
        h = prev.hasher(new, delta, memo)
        cached = CachedView(version, new, h, prev.hasher, hand_of)
        self.audiences[audience] = cached
        return cached, delta
