// Game words as the desktop says them (game/ui/cardart.py, game/ui/table/sentences.py):
// cards, clans, sources, and the events worth a line on a phone.
import { andList, money, tr, trCount, trNames } from "./i18n.js";

export const CLANS = ["red", "blue", "yellow", "magenta", "orange", "green"];
export const LETTERS = ["C", "S", "W", "D", "G", "L"];
// the order a hand is shown in: Clan cards by clan, Travel, then the rest
export const CARD_ORDER = [
  ...CLANS.map((c) => "clan_" + c), ...CLANS.map((c) => "travel_" + c), "travel_grey",
  "recruit", "boss", "stop",
];

export function clanIndex(clan) { return typeof clan === "string" ? CLANS.indexOf(clan) : clan; }

/** A clan, given by name or number, as sentences say it in the player's language (the
 * desktop's `clan.<colour>.word`: 'S Sacks', 藍色（S）, แซกส์ (S)). */
export function clanWord(clan) {
  return tr(`clan.${CLANS[clanIndex(clan)]}.word`);
}

/** The clan a card belongs to (null: none). */
export function cardClan(card) {
  if ((card.startsWith("clan_") || card.startsWith("travel_")) && card !== "travel_grey") {
    return CLANS.indexOf(card.split("_")[1]);
  }
  return null;
}

const TITLES = { recruit: "card.recruitment", boss: "card.boss", stop: "card.stop", travel_grey: "card.travel_any" };

/** 'Travel C', 'Clan card S', 'Recruitment'. */
export function cardName(card) {
  const clan = cardClan(card);
  if (clan === null) return tr(TITLES[card]);
  return `${tr(card.startsWith("clan_") ? "card.clan" : "card.travel")} ${LETTERS[clan]}`;
}

/** Words for sources, given the view (to know whose laid card an id is). */
export class Sources {
  constructor(view) {
    this.names = view.players.map((p) => p.name);
    this.laid = new Map();
    for (const c of (view.negotiation && view.negotiation.laid) || []) this.laid.set(c.id, c);
  }

  name(seat) { return seat === null || seat < 0 ? tr("log.bank") : this.names[seat] || "?"; }

  letter([kind, ref]) {
    if (kind === "placard") return LETTERS[ref];
    const c = this.laid.get(ref);
    return c ? LETTERS[clanIndex(c.clan)] : "?";
  }

  /** One source: 'S Sacks' or "Mei's Clan card W". */
  one(src) {
    const [kind, ref] = src;
    if (kind === "placard") return clanWord(ref);
    const c = this.laid.get(ref);
    if (!c) return tr("log.a_clan_card");
    return tr("log.clan_card_of", { clan: LETTERS[clanIndex(c.clan)], name: this.name(c.owner) });
  }

  /** A player's sources: 'Clan cards W and G and placard C', or 'a fee'. */
  all(srcs) {
    if (!srcs.length) return tr("log.a_fee");
    const parts = [];
    for (const [kind, one, many] of [["card", "log.src.card", "log.src.cards"], ["placard", "log.src.placard", "log.src.placards"]]) {
      const letters = srcs.filter((s) => s[0] === kind).map((s) => this.letter(s));
      if (letters.length) parts.push(tr(letters.length === 1 ? one : many, { clans: andList(letters) }));
    }
    return andList(parts);
  }
}

// event type -> its line (null: not worth one on a phone; the table shows it)
const LINES = {
  game_started: (w, e) => tr("log.game_started", { name: w.name(e.first_player) }),
  turn_started: (w, e) => tr("log.turn_started", { name: w.name(e.seat) }),
  die_rolled: (w, e) => tr(e.purpose === "move" ? "log.rolled" : "log.rolled_end", { name: w.name(e.seat), n: e.value }),
  cards_drawn: (w, e) => (e.cards ? tr("log.you_drew", { cards: e.cards.map(cardName).join(", ") })
    : trCount("log.drew", e.count, { name: w.name(e.seat) })),
  hand_limit_reached: (w, e) => tr("log.hand_limit", { name: w.name(e.seat), n: e.excess, limit: e.limit }),
  deal_opened: (w, e) => tr("log.deal_opened", { name: w.name(e.seat), space: e.space + 1, amount: money(e.proceeds) }),
  clan_laid: (w, e) => tr("log.clan_laid", { name: w.name(e.seat), clan: clanWord(e.clan) }),
  card_played: (w, e) => (e.card === "boss" ? tr("log.played_boss", { name: w.name(e.seat) })
    : e.card === "recruit" ? tr("log.played_recruit", { name: w.name(e.seat), clan: clanWord(e.clan) })
      : tr("log.played_travel", { name: w.name(e.seat), target: w.one(e.target) })),
  stopped: (w, e) => tr("log.stopped", { name: w.name(e.seat) }),
  boss_changed: (w, e) => tr("log.boss_changed", { name: w.name(e.new) }),
  placard_recruited: (w, e) => tr("log.recruited", { name: w.name(e.new_owner), clan: clanWord(e.clan) }),
  offer_made: (w, e) => tr("log.offer", { name: w.name(e.seat), sources: w.all(e.sources), amount: money(e.amount) }),
  proposed: (w, e) => tr("log.proposed", { boss: w.name(e.boss), name: w.name(e.to), sources: w.all(e.sources), amount: money(e.amount) }),
  agreement_made: (w, e) => tr("log.agreement", { name: w.name(e.seat), sources: w.all(e.sources), amount: money(e.amount) }),
  going_once_called: (w, e) => tr("log.going_once", { name: w.name(e.boss) }),
  call_cancelled: (w, e) => tr("log.call_cancelled", { name: w.name(e.seat) }),
  quiet_round: (w, e) => tr("log.quiet_round", { name: w.name(e.boss) }),
  negotiation_limit_reached: () => tr("log.limit_reached"),
  deal_closed: (w, e) => tr("log.deal_closed", { name: w.name(e.boss), space: e.space + 1, amount: money(e.proceeds) }),
  deal_failed: (w, e) => tr("log.deal_failed", { name: w.name(e.boss) }),
  paid: (w, e) => (e.payer < 0 ? tr("log.paid_dividends", { name: w.name(e.payee), amount: money(e.amount) })
    : tr("log.paid", { payer: w.name(e.payer), name: w.name(e.payee), amount: money(e.amount) })),
  tile_placed: (w, e) => tr("log.tile_placed", { n: e.tile, space: e.space + 1 }),
  game_over: (w, e) => trNames("log.game_over", e.winners.map((s) => w.name(s))),
};

/** The event's line for the phone's log, or null. */
export function eventLine(words, e) {
  const say = LINES[e.type];
  return say ? say(words, e) : null;
}
