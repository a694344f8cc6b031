"""What a negotiation row says: the pending terms and the agreement of one player with the
Boss as a sentence that names whose terms they are ("Dara asks $4M for S", "You offer Chen
S for $4M", "Chen proposes $3M for your L"), from the viewer's side of them. The editor's
summary is the same sentence for the terms being dialled, so a row reads as it was sent.

Each sentence is one whole translated template; its {sources} is drawn as clan chips in a
row (words in the editor and where the chips do not fit), never glued from pieces."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pygame

from game.rules import Source
from game.rules.seat_view import SeatView
from game.rules.state import Terms

from ...drawing import draw
from ...drawing.theme import CLAN_LETTERS
from ...i18n import list_of, tr
from .geometry import grown, row_seats
from .slots import source_label

CHIP = 24  # a source's chip inside a sentence
SMALLER = 18  # a sentence's size where it does not fit at its own
CHIP_STEP = CHIP + 4
MARK = "\x00"  # where {sources} stands in a formatted template (never in a translation)


class Side(enum.Enum):
    """The viewer's side of a row's terms."""

    BOSS = "boss"  # the viewer is the Boss: the terms are with him
    OWN = "own"  # the row is the viewer's own
    OTHER = "other"  # another investor's row, or a screen that only watches


class Kind(enum.Enum):
    OFFER = "offer"  # an investor's offer to the Boss
    PROPOSAL = "proposal"  # the Boss's proposal to an investor
    FORMER = "former"  # an agreement fallen back to a pending offer (a new Boss)


# (kind, side, a fee: no sources) -> the template; a former agreement reads the same to
# the Boss as to anyone else
KEYS: dict[tuple[Kind, Side, bool], str] = {
    (kind, side, fee): f"row.{kind.value}{'_fee' if fee else ''}.{side.value}"
    for kind in (Kind.OFFER, Kind.PROPOSAL)
    for side in Side
    for fee in (False, True)
}
for _fee in (False, True):
    for _side, _key in ((Side.BOSS, "other"), (Side.OWN, "own"), (Side.OTHER, "other")):
        KEYS[(Kind.FORMER, _side, _fee)] = f"row.former{'_fee' if _fee else ''}.{_key}"


@dataclass(frozen=True)
class Sentence:
    """A template and its words; `sources` fill its {sources} (none: a fee)."""

    key: str
    names: tuple[tuple[str, str], ...]  # placeholder -> a player's name
    amount: int
    sources: tuple[Source, ...]

    def text(self, v: SeatView, short: bool = False) -> str:
        """The sentence in words (the editor's summary); `short`: clans by their letters
        (a row where the chips do not fit)."""
        words = list_of(_short(v, s) if short else source_label(v, s) for s in self.sources)
        return self._format(words)

    def _format(self, sources: str) -> str:
        return tr(self.key, sources=sources, amount=tr("money.amount", n=self.amount),
                  **dict(self.names))  # fmt: skip


def _short(v: SeatView, src: Source) -> str:
    """'S' for a placard, 'Clan card S' for a laid card."""
    clan = v.source_clan(src)
    letter = CLAN_LETTERS[clan] if clan is not None else "?"
    return tr("table.src_card", clan=letter) if src.kind.value == "card" else letter


def side_of(v: SeatView, viewer: int | None, seat: int) -> Side:
    if viewer is not None and viewer == v.negotiation.boss:
        return Side.BOSS
    return Side.OWN if viewer == seat else Side.OTHER


def kind_of(terms: Terms) -> Kind:
    if terms.by_boss:
        return Kind.PROPOSAL
    return Kind.FORMER if terms.was_agreed else Kind.OFFER


def terms_sentence(
    v: SeatView, viewer: int | None, seat: int, sources, amount: int, kind: Kind
) -> Sentence:
    """Terms between `seat` and the Boss, told to `viewer`."""
    names = [p.name for p in v.players]
    srcs = tuple(s if isinstance(s, Source) else Source.from_data(s) for s in sources)
    key = KEYS[(kind, side_of(v, viewer, seat), not srcs)]
    who = (("name", names[seat]), ("boss", names[v.negotiation.boss]))
    return Sentence(key, who, amount, srcs)


def pending_sentence(v: SeatView, viewer: int | None, seat: int) -> Sentence | None:
    terms = v.negotiation.pending.get(seat)
    if terms is None:
        return None
    return terms_sentence(v, viewer, seat, terms.sources, terms.amount, kind_of(terms))


def agreement_sentence(v: SeatView, seat: int) -> Sentence | None:
    """An agreement under the row's "Agreement" heading: "S for $5M" (or a fee)."""
    terms = v.negotiation.agreements.get(seat)
    if terms is None:
        return None
    srcs = terms.sources
    return Sentence("row.agreed_fee" if not srcs else "row.agreed", (), terms.amount, srcs)


def sentence_width(v: SeatView, s: Sentence, size: int) -> int:
    parts = s._format(MARK).split(MARK)
    chips = _chip_clans(v, s)
    return sum(draw.text_width(p, size) for p in parts if p) + _chips_width(chips, len(parts))


def _chip_clans(v: SeatView, s: Sentence) -> list[tuple[int, bool]]:
    """(clan, laid card) per source that names a clan."""
    out = []
    for src in s.sources:
        c = v.source_clan(src)
        if c is not None:
            out.append((int(c), src.kind.value == "card"))
    return out


def _chips_width(chips: list, n_parts: int) -> int:
    """The chips and 2 px either side of them (none without a {sources} or a clan)."""
    if n_parts < 2 or not chips:
        return 0
    return len(chips) * CHIP_STEP - (CHIP_STEP - CHIP) + 4


def fits(v: SeatView, s: Sentence, max_w: int) -> bool:
    """Whether the sentence fits in max_w with its chips (at its size or a smaller one)."""
    return sentence_width(v, s, SMALLER) <= max_w


def draw_sentence(surf, v: SeatView, s: Sentence, x: int, cy: int, colour, max_w: int,
                  size: int = 20) -> int:  # fmt: skip
    """The sentence from x on line cy, its sources as chips (a laid card's framed), a
    step or a size smaller where it does not fit in max_w, in words where even that does
    not.
    Returns where it ends."""
    parts = s._format(MARK).split(MARK)
    chips = _chip_clans(v, s)
    size = next((z for z in (size, size - 1, SMALLER) if sentence_width(v, s, z) <= max_w), None)
    if size is None:  # in words, cut with "…" at the least size
        img = draw.fit_name(s.text(v, short=True), SMALLER, max_w, colour)
        surf.blit(img, img.get_rect(midleft=(x, cy)))
        return x + img.get_width()
    for i, part in enumerate(parts):
        if part:
            img = draw.text(part, size, colour)
            surf.blit(img, img.get_rect(midleft=(x, cy)))
            x += img.get_width()
        if i < len(parts) - 1 and chips:
            x += 2
            for clan, card in chips:
                surf.blit(draw.clan_chip(clan, CHIP), (x, cy - CHIP // 2))
                if card:
                    frame = pygame.Rect(x - 2, cy - CHIP // 2 - 2, CHIP + 4, CHIP + 4)
                    pygame.draw.rect(surf, (250, 250, 250), frame, width=2, border_radius=6)
                x += CHIP_STEP
            x += 2 - (CHIP_STEP - CHIP)  # no gap after the last chip: the template's space
    return x


NAME_MAX = 176  # the name column at most (a longer name is cut: the plate shows it whole)
AGREEMENT_MAX = 240


def row_columns(v: SeatView, X: int) -> tuple[int, int, int]:
    """Where a row's name, agreement and pending sentence start: the name and agreement
    columns as wide as their widest entry (or heading), so the sentence has the room."""
    seats = row_seats(v)
    names = [v.players[s].name for s in seats]
    name_w = min(grown(NAME_MAX), max(draw.text_width(n, 22, True) for n in names) + 20)
    widths = [draw.text_width(tr("term.agreement"), 18), draw.text_width("—", 20)]
    for seat in seats:
        agr = agreement_sentence(v, seat)
        if agr is not None:
            widths.append(sentence_width(v, agr, 20) + 6 + draw.text_width("✓", 20))
    agr_w = min(grown(AGREEMENT_MAX), max(widths) + 16)
    return X + 24, X + 24 + name_w, X + 24 + name_w + agr_w
