// The open deal on a phone: the space and its proceeds, the Boss, what is on the table, the
// agreements and pending terms, the ledger (what the Boss keeps, what an agreement pays an
// investor), and the terms editor for offers and proposals (the host's `terms` entries: any
// subset of `pool` for any whole amount lo..hi).
//
// The ledger's figures follow docs/RULES.md §7.1 plainly: the bank pays the Boss the proceeds
// and the Boss pays every agreement, so he keeps the proceeds less the agreed total, and an
// accepted offer adds its amount (§4.3). Two-player deals also pay the opponent's placards at a
// fixed rate that depends on which sources the table picks: there the page shows only what
// the view says (proceeds and agreed total), not a figure it would have to work out.
import { S, act, send } from "./app.js";
import { button, h } from "./dom.js";
import { countdown } from "./game.js";
import { money, tr } from "./i18n.js";
import { LETTERS, clanIndex } from "./words.js";

const isBoss = (v) => v.negotiation && v.negotiation.boss === S.seat;
const plain = (v) => v.settings.players > 2; // the ledger's sums hold as written

export function dealStatus(v, w) {
  const n = v.negotiation;
  const boss = w.name(n.boss);
  const mine = n.pending[String(S.seat)];
  if (n.limit_spent) return tr("table.status.limit", { name: boss });
  if (v.settings.window_mode === "real_time") {
    if (isBoss(v)) return tr(n.covered ? "table.status.you_boss_covered" : "table.status.you_boss");
    if (mine && mine.by_boss) return tr("table.status.rt_answer_boss", { name: boss });
    if (mine) return tr("table.status.rt_offer_waits", { boss });
    return tr("table.status.real_time");
  }
  if (n.quiet && isBoss(v)) return tr("table.status.quiet");
  if (n.quiet) return tr("table.status.quiet_wait", { name: boss });
  if (n.floor === S.seat) {
    if (isBoss(v)) return tr(n.covered ? "table.status.you_boss_covered" : "table.status.you_boss");
    if (mine && mine.by_boss) return tr("table.status.answer_boss", { name: boss });
    return tr("table.status.you_floor");
  }
  if (n.floor === n.boss) return tr("table.status.boss_floor", { name: boss });
  return tr("table.status.floor", { name: w.name(n.floor) });
}

export function dealPanel(v, w) {
  const n = v.negotiation;
  const laid = n.laid.map((c) => h("li", {}, `${tr("table.src_card", { clan: LETTERS[clanIndex(c.clan)] })} · ${w.name(c.owner)}`));
  const travel = Object.entries(n.travel).map(([clan]) => h("li", {}, tr("log.travel_sent", { target: w.one(["placard", Number(clan)]) })));
  const clock = S.timers.negotiation;
  return h("section", { class: "deal", dataset: { boss: String(n.boss) } },
    h("h3", {}, tr("table.deal_on", { n: n.space + 1 }), " · ", money(n.proceeds)),
    h("p", {}, tr("table.boss_is", { name: isBoss(v) ? tr("player.you") : w.name(n.boss) }),
      " · ", h("span", { class: n.covered ? "good" : "warn" }, tr(n.covered ? "table.covered" : "table.not_covered")),
      " · ", tr("table.limit", { n: n.actions, limit: n.limit })),
    clock && countdown(clock),
    laid.length || travel.length ? [h("h4", {}, tr("table.on_table")), h("ul", {}, laid, travel)] : null,
    termsList(n, w, "agreements"), termsList(n, w, "pending"),
    h("div", { class: "ledger" }, isBoss(v) ? bossLedger(v) : investorLedger(v)),
    S.seat === null || S.seat === undefined ? null : phrases());
}

// the desktop's quick phrases (game/ui/table/panel.py): said to the whole table (§3 `say`)
const PHRASES = ["too_expensive", "deal", "no_way", "last_offer"];

function phrases() {
  return h("div", { class: "row phrases" }, PHRASES.map((p) =>
    button(tr(`phrase.${p}`), () => send({ t: "say", phrase: p }), { cls: "quiet", data: { phrase: p } })));
}

function termsList(n, w, which) {
  const rows = Object.entries(n[which]).sort((a, b) => Number(a[0]) - Number(b[0])).map(([seat, t]) => {
    const tag = which === "agreements" ? tr("term.agreement")
      : t.by_boss ? tr("phone.tag.proposal") : t.was_agreed ? tr("phone.tag.former") : tr("phone.tag.offer");
    return h("li", { class: Number(seat) === S.seat ? "me" : "" },
      h("span", { class: "tag" }, tag), " ", h("b", {}, w.name(Number(seat))), " ",
      tr("phone.terms", { what: w.all(t.sources), amount: money(t.amount) }));
  });
  return rows.length ? h("ul", { class: "terms" }, rows) : null;
}

function line(label, value, cls = "") {
  return h("p", { class: `led ${cls}` }, h("span", {}, label), h("b", {}, value));
}

function bossLedger(v) {
  const n = v.negotiation;
  const out = [line(tr("table.ledger.paid_of", { amount: money(n.proceeds) }), money(n.agreed_total))];
  if (plain(v)) out.push(line(tr("table.ledger.keep"), money(n.proceeds - n.agreed_total), "gold"));
  return out;
}

function investorLedger(v) {
  const n = v.negotiation;
  const agreed = n.agreements[String(S.seat)];
  const pending = n.pending[String(S.seat)];
  const out = [agreed ? line(tr("table.ledger.paid_you"), money(agreed.amount), "gold") : h("p", { class: "led" }, tr("table.ledger.no_agreement"))];
  if (pending) out.push(line(tr("table.ledger.would_pay"), money((agreed ? agreed.amount : 0) + pending.amount)));
  return out;
}

/** What the terms in the editor would leave: the Boss what he keeps once they are agreed
 *  (where the rules say it plainly), an investor what his agreement would pay him. */
function termsLedger(v, a, amount) {
  const n = v.negotiation;
  if (a.type === "propose") {
    if (!plain(v)) return [];
    return [line(tr("table.ledger.keep"), `${money(n.proceeds - n.agreed_total)} → ${money(n.proceeds - n.agreed_total - amount)}`, "gold")];
  }
  const agreed = n.agreements[String(S.seat)];
  return [line(tr("table.ledger.would_pay"), money((agreed ? agreed.amount : 0) + amount), "gold")];
}

/** An accept button's words: with what accepting leaves the Boss, where the rules say it plainly. */
export function acceptLabel(a, v, w) {
  const n = v.negotiation;
  const offer = n.pending[String(a.of)];
  const name = w.name(a.of);
  if (!plain(v) || !offer) return tr("phone.accept_offer", { name });
  const keeps = n.proceeds - n.agreed_total - offer.amount;
  return tr("table.ledger.if_accept", { name, amount: money(keeps) });
}

/** One button per `terms` entry: offer to the Boss, or propose to a player. */
export function termsButtons(v, w) {
  if (!S.legal) return [];
  return S.legal.terms.map((entry) => {
    const a = entry.action;
    const label = a.type === "offer" ? tr("phone.offer_to", { name: w.name(v.negotiation.boss) }) : tr("phone.propose_to", { name: w.name(a.to) });
    return button(label, () => openEditor(entry, v), { data: { terms: a.type, to: a.to === undefined ? "" : String(a.to), pool: String(entry.pool.length) }, disabled: S.busy !== null });
  });
}

function openEditor(entry, v) {
  const price = v.negotiation.price;
  const amount = Math.min(entry.hi, Math.max(entry.lo, price));
  S.editor = { entry, chosen: new Set(entry.pool.map((s) => JSON.stringify(s))), amount };
  document.dispatchEvent(new Event("rerender"));
}

export function editorBlock(v, w) {
  const ed = S.editor;
  const { entry } = ed;
  const a = entry.action;
  const redraw = () => document.dispatchEvent(new Event("rerender"));
  const sources = entry.pool.filter((s) => ed.chosen.has(JSON.stringify(s)));
  const chips = entry.pool.map((s) => {
    const key = JSON.stringify(s);
    const on = ed.chosen.has(key);
    return h("button", { class: `toggle${on ? " on" : ""}`, "aria-pressed": String(on), dataset: { source: key },
      onclick: () => { if (on) ed.chosen.delete(key); else ed.chosen.add(key); redraw(); } }, `${on ? "☑" : "☐"} ${w.one(s)}`);
  });
  const set = (x) => () => { ed.amount = Math.min(entry.hi, Math.max(entry.lo, x)); redraw(); };
  const price = v.negotiation.price;
  const quick = [[tr("table.min", { amount: money(entry.lo) }), entry.lo], [tr("phrase.one_dividend"), price], [tr("table.max", { amount: money(entry.hi) }), entry.hi]]
    .filter(([, x], i, all) => x >= entry.lo && x <= entry.hi && all.findIndex(([, y]) => y === x) === i);
  const title = a.type === "offer" ? tr("table.editor.offer", { name: w.name(v.negotiation.boss) }) : tr("table.editor.propose", { name: w.name(a.to) });
  const send = () => {
    const action = { ...a, sources, amount: ed.amount };
    S.editor = null;
    act(action);
  };
  return h("section", { class: "editor", dataset: { editor: a.type } },
    h("h3", {}, title),
    chips.length ? h("div", { class: "chips" }, chips) : h("p", { class: "small" }, tr("table.editor.no_sources")),
    h("div", { class: "amount" },
      button("−", set(ed.amount - 1), { cls: "step", data: { step: "-1" } }),
      h("output", { dataset: { amount: String(ed.amount) } }, money(ed.amount)),
      button("+", set(ed.amount + 1), { cls: "step", data: { step: "1" } })),
    h("div", { class: "row" }, quick.map(([label, x]) => button(label, set(x), { cls: "quiet" }))),
    h("p", { class: "small" }, tr("table.editor.range", { lo: money(entry.lo), hi: money(entry.hi) })),
    h("p", {}, tr("phone.terms", { what: w.all(sources), amount: money(ed.amount) })),
    h("div", { class: "ledger" }, termsLedger(v, a, ed.amount)),
    h("div", { class: "row" },
      button(tr(a.type === "offer" ? "table.send_offer" : "table.send_proposal"), send, { cls: "primary", data: { send: a.type } }),
      button(tr("ui.cancel"), () => { S.editor = null; redraw(); }, { cls: "quiet" })));
}

