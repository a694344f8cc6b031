// The game screen: this seat's money, placards and hand; whose turn it is; the reaction
// window with its countdown; the deal (deal.js); and the moves the host says are legal now.
import { S, act, discardNext, send } from "./app.js";
import { dealPanel, dealStatus, termsButtons, editorBlock, acceptLabel } from "./deal.js";
import { button, h } from "./dom.js";
import { money, tr, trCount, trNames } from "./i18n.js";
import { CARD_ORDER, LETTERS, Sources, cardClan, cardName, clanWord, eventLine } from "./words.js";

export function gameScreen() {
  const v = S.store.view;
  if (!v) return h("p", {}, tr("room.connected"));
  const w = new Sources(v);
  return h("main", { class: "game", dataset: { phase: v.phase, version: String(v.version) } },
    meBlock(v), statusBlock(v, w), v.phase === "game_over" && results(v, w), windowBanner(v, w),
    v.negotiation && dealPanel(v, w), S.editor && editorBlock(v, w),
    movesBlock(v, w), handBlock(v),
    playersStrip(v), logBlock(w), preference(v));
}

const legalOf = (type) => (S.legal ? S.legal.actions.filter((a) => a.type === type) : []);

function clanChip(clan, label) {
  return h("span", { class: `chip cl${clan}` }, label || LETTERS[clan]);
}

function meBlock(v) {
  const me = v.players[S.seat];
  return h("section", { class: "purse" },
    h("div", { class: "money", dataset: { money: String(me.money) } }, h("span", { class: "lbl" }, tr("term.money")), " ", money(me.money)),
    h("div", { class: "placards" }, h("span", { class: "lbl" }, tr("term.placard")), " ",
      me.placards.length ? me.placards.map((c) => clanChip(c, clanWord(c))) : "—"));
}

// phase -> [sentence when it is this seat's move, sentence when another's]
const PROMPTS = {
  place_marker: (v, mine, name) => (mine ? tr("table.you_place_marker")
    : tr("wait.place_marker", { name, first: v.players[v.first_player].name })),
  turn: (v, mine, name) => (mine ? tr("prompt.turn") : tr("wait.turn", { name })),
  moved: (v, mine, name) => {
    const one = v.draw_count === 1 ? "_one" : "";
    return mine ? tr("prompt.moved" + one, { count: v.draw_count }) : tr("wait.moved" + one, { name, count: v.draw_count });
  },
  discard: (v, mine, name) => {
    const p = v.players[v.turn];
    const excess = Math.max(0, p.hand_count - v.hand_limit);
    return mine ? trCount("phone.discard", excess, { limit: v.hand_limit }) : tr("wait.discard", { name, n: excess, limit: v.hand_limit });
  },
};

function statusBlock(v, w) {
  // the marker is placed by the seat right of the first player, not the turn's
  const who = v.phase === "place_marker" && v.waiting_for.length ? v.waiting_for[0] : v.turn;
  const mine = who === S.seat;
  const head = v.phase === "game_over" ? tr("results.game_over")
    : mine ? tr("table.your_turn") : tr("table.turn_of", { name: w.name(who) });
  const say = v.phase === "negotiation" ? dealStatus(v, w) : v.phase === "game_over" ? null : PROMPTS[v.phase](v, mine, w.name(who));
  return h("section", { class: `status${mine ? " mine" : ""}` },
    h("h2", { dataset: { turn: String(who) } }, head), say && h("p", {}, say), turnClock(w));
}

function turnClock(w) {
  const t = S.timers.turn;
  if (!t) return null;
  return h("p", { class: "small" }, tr("window.turn_clock", { name: (t.seats || []).map((s) => w.name(s)).join(", "), s: "" }), countdown(t));
}

/** A countdown that ticks by itself (the 'tick' event, every 250 ms). */
export function countdown(clock) {
  const text = h("span", { class: "secs" });
  const fill = h("span", { class: "fill" });
  const el = h("span", { class: "countdown" }, h("span", { class: "track" }, fill), text);
  const show = () => {
    const left = Math.max(0, clock.deadline - performance.now());
    text.textContent = tr("window.countdown", { s: Math.ceil(left / 1000) });
    fill.style.width = `${Math.min(100, (100 * left) / Math.max(1, clock.total_ms))}%`;
  };
  show();
  const tick = () => (el.isConnected ? show() : document.removeEventListener("tick", tick));
  document.addEventListener("tick", tick);
  return el;
}

// window kind -> what was played
const WINDOW_TEXT = {
  travel: (wn, w) => tr("window.travel", { name: w.name(wn.actor), target: wn.target ? w.one(wn.target) : "" }),
  boss: (wn, w) => tr("window.boss", { name: w.name(wn.actor) }),
  recruit: (wn, w) => tr("window.recruit", { name: w.name(wn.actor), clan: clanWord(wn.recruit) }),
  going_once: (wn, w) => tr("window.going_once", { name: w.name(wn.actor) }),
};

/** The Stop / let-it-pass window, on every phone, with its countdown. */
function windowBanner(v, w) {
  const wn = v.window;
  if (!wn) return null;
  const asked = wn.asked || [];
  const me = asked.includes(S.seat);
  const closing = wn.kind === "going_once";
  const ask = me ? tr(closing ? "window.your_call_close" : "window.your_call")
    : asked.length ? trNames("window.asking", asked.map((s) => w.name(s))) : "";
  const t = S.timers.window;
  const buttons = [
    ...legalOf("play_stop").map((a) => button(tr("card.stop"), () => act(a), { cls: "stop", data: { type: a.type }, disabled: S.busy !== null })),
    ...legalOf("pass").map((a) => button(tr(closing ? "table.let_close" : "table.let_pass"), () => act(a), { data: { type: a.type }, disabled: S.busy !== null })),
  ];
  return h("section", { class: `window${me ? " asked" : ""}`, dataset: { window: wn.kind } },
    h("p", { class: "what" }, WINDOW_TEXT[wn.kind](wn, w)),
    t && t.stage && h("p", { class: "stage" }, tr(`window.stage.${t.stage}`)),
    h("p", {}, ask), t && countdown(t),
    buttons.length ? h("div", { class: "row" }, buttons) : null,
    closing && me && h("p", { class: "small" }, tr("window.jump_in", { boss: tr("card.boss") })));
}

// action type -> its button's words (window answers, discards and the preference live elsewhere)
const LABELS = {
  roll: () => tr("action.roll"),
  draw: (a, v) => (v.draw_count === 1 ? tr("action.draw_one") : tr("action.draw", { count: v.draw_count })),
  open_deal: () => tr("action.make_deal"),
  place_marker: (a) => tr("space.tip.title", { n: a.space + 1 }),
  going_once: () => tr("action.going_once"),
  fail_deal: () => tr("action.fail_deal"),
  pass_floor: () => tr("table.pass_floor"),
  play_boss: () => tr("table.play_boss"),
  accept_former: () => tr("table.accept_former"),
  accept: (a, v, w) => acceptLabel(a, v, w),
  accept_proposal: (a, v, w) => {
    const p = v.negotiation.pending[String(S.seat)];
    return tr("phone.accept_proposal", { amount: money(p.amount), sources: w.all(p.sources) });
  },
  withdraw: (a, v, w) => (a.player === S.seat ? tr("phone.withdraw_own") : tr("phone.withdraw_with", { name: w.name(a.player) })),
  lay_clan: (a) => tr("table.editor.lay", { clan: clanWord(a.clan) }),
  recruit: (a) => tr("table.recruit_clan", { clan: clanWord(a.clan) }),
  play_travel: (a, v, w) => tr("phone.travel_on", { card: cardName(a.card), target: travelTarget(a.target, v, w) }),
};
const ELSEWHERE = new Set(["pass", "play_stop", "discard", "set_ask_preference", "time_up"]);
// the order moves are listed in: the likely ones first
const ORDER = ["accept_proposal", "accept", "accept_former", "going_once", "roll", "open_deal", "draw", "pass_floor",
  "lay_clan", "play_travel", "play_boss", "recruit", "withdraw", "fail_deal", "place_marker"];

function travelTarget(target, v, w) {
  if (target[0] !== "placard") return w.one(target);
  const owner = v.players.find((p) => p.placards.includes(target[1]));
  return owner ? `${w.one(target)} (${owner.name})` : w.one(target);
}

function movesBlock(v, w) {
  if (!S.legal) return null;
  const moves = S.legal.actions.filter((a) => !ELSEWHERE.has(a.type) && LABELS[a.type]);
  moves.sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
  const busy = S.busy !== null;
  const grid = moves.filter((a) => a.type === "place_marker");
  const list = moves.filter((a) => a.type !== "place_marker");
  const btn = (a) => button(LABELS[a.type](a, v, w), () => act(a), { cls: a.type === "fail_deal" ? "quiet" : "", data: { type: a.type }, disabled: busy });
  const terms = S.editor ? [] : termsButtons(v, w);
  if (!list.length && !grid.length && !terms.length) return null;
  return h("section", { class: "moves" },
    h("div", { class: "list" }, list.slice(0, 2).map(btn), terms, list.slice(2).map(btn)),
    grid.length ? h("div", { class: "grid" }, grid.map(btn)) : null);
}

function handBlock(v) {
  const hand = v.hand || {};
  const discards = legalOf("discard");
  const staging = discards.length > 0;
  const excess = staging ? Math.max(0, v.players[S.seat].hand_count - v.hand_limit) : 0;
  const staged = (card) => S.staged.filter((c) => c === card).length;
  const tap = (card) => () => {
    if (staged(card) < hand[card] && S.staged.length < excess) S.staged.push(card);
    else S.staged = S.staged.filter((c) => c !== card);
    document.dispatchEvent(new Event("rerender"));
  };
  const cards = CARD_ORDER.filter((c) => hand[c]).map((card) => {
    const clan = cardClan(card);
    const kids = [h("span", { class: "name" }, cardName(card)), h("span", { class: "count" }, `×${hand[card]}`),
      staged(card) ? h("span", { class: "staged" }, `−${staged(card)}`) : null];
    const cls = `card ${clan === null ? "k-" + card.split("_")[0] : "cl" + clan}${staged(card) ? " marked" : ""}`;
    return staging && discards.some((a) => a.card === card)
      ? h("button", { class: cls, onclick: tap(card), dataset: { card, left: String(hand[card] - staged(card)) } }, kids)
      : h("div", { class: cls, dataset: { card } }, kids);
  });
  const confirm = staging && h("div", { class: "row" },
    button(S.staged.length === 1 ? tr("table.discard_confirm_one") : tr("table.discard_confirm", { count: S.staged.length }),
      () => discardNext(), { cls: "primary", data: { discard: "1", staged: String(S.staged.length), excess: String(excess) }, disabled: !S.staged.length || S.busy !== null }));
  return h("section", { class: "hand" },
    h("h3", {}, tr("term.hand"), " ", h("span", { class: "small" }, trCount("phone.cards", v.players[S.seat].hand_count))),
    cards.length ? h("div", { class: "cards" }, cards) : h("p", { class: "small" }, tr("table.empty_hand")), confirm);
}

function seatState(seat) {
  const s = S.seats && S.seats.seats[seat];
  if (!s) return null;
  if (s.status === "away") return tr("player.away", { s: Math.ceil((s.grace_ms || 0) / 1000) });
  if (s.status === "bot" || s.status === "open") return s.name ? tr("player.standing_in") : tr("player.bot");
  return s.via === "web" ? tr("player.phone") : null;
}

function playersStrip(v) {
  const boss = v.negotiation ? v.negotiation.boss : null;
  return h("section", { class: "players" }, v.players.map((p) => h("div", { class: `pl${p.seat === v.turn ? " turn" : ""}${p.seat === S.seat ? " me" : ""}` },
    h("span", { class: "nm" }, p.name, p.seat === boss ? ` · ${tr("term.boss")}` : ""),
    h("span", {}, p.placards.map((c) => clanChip(c))),
    h("span", { class: "small" }, trCount("phone.cards", p.hand_count), p.money !== undefined && p.seat !== S.seat ? ` · ${money(p.money)}` : ""),
    seatState(p.seat) && h("span", { class: "small" }, seatState(p.seat)))));
}

function logBlock(w) {
  const lines = [];
  for (const item of S.log) {
    let text = null;
    if (item.event) text = eventLine(w, item.event);
    else if (item.said) text = tr("log.says", { name: w.name(item.said.seat), text: tr(`phrase.${item.said.phrase}`) });
    else if (item.gaveUp) text = tr("log.gives_up", { name: w.name(item.gaveUp.seat), reason: tr(`reason.${item.gaveUp.reason}`) });
    if (text) lines.push(h("li", {}, text));
    if (lines.length === 4) break;
  }
  return lines.length ? h("section", { class: "log" }, h("ul", {}, lines)) : null;
}

function preference(v) {
  const a = legalOf("set_ask_preference")[0];
  if (!a) return null;
  const on = v.players[S.seat].asks_only_when_touched;
  return h("section", { class: "pref" },
    button(`${on ? "☑" : "☐"} ${tr("table.ask_pref")}`, () => act(a), { cls: "quiet", data: { type: a.type }, disabled: S.busy !== null }));
}

function results(v, w) {
  const names = v.winners.map((s) => w.name(s));
  const ranked = [...v.players].sort((a, b) => (b.money || 0) - (a.money || 0));
  const again = S.seats && S.seats.starter === S.seat
    ? button(tr("results.play_again"), () => send({ t: "start" }), { cls: "primary", data: { start: "1" } }) : null;
  return h("section", { class: "results", dataset: { over: "1" } },
    h("h2", {}, trNames("results.winners", names)),
    h("ol", {}, ranked.map((p) => h("li", { class: p.seat === S.seat ? "me" : "" }, `${p.name} · ${money(p.money || 0)}`))), again);
}
