// The phone's hand: joins the host's table by its address (?code=ROOM), keeps the seat's
// token in localStorage, and shows this seat's view with the host's legal moves as buttons.
// The page decides no rule: every move it offers is in the host's `legal` (hello legal:true).
import { loadLanguage, pickLanguage } from "./i18n.js";
import { Link } from "./link.js";
import { render } from "./screens.js";
import { ViewStore } from "./wire.js";

const params = new URLSearchParams(location.search);
const STORE = "imtheboss.phone.";

/** Everything the screens read. */
export const S = {
  screen: "join", // join | room | game
  name: localStorage.getItem(STORE + "name") || "",
  code: (params.get("code") || "").trim().toUpperCase(),
  seat: null,
  heard: 0, // quick phrases heard (the log starts afresh with every snapshot)
  table: null,
  seats: null,
  store: new ViewStore(),
  legal: null,
  timers: { window: null, negotiation: null, turn: null },
  log: [],
  link: null,
  online: false,
  everOnline: false,
  notice: null, // {key, args, bad}
  busy: null, // id of the action in flight
  staged: [], // cards chosen to discard, in order
  editor: null, // {entry, chosen: Set of source keys, amount}
  nextId: 1,
  wantSync: false,
  seen: new Set(), // event types this page has shown
};

function tokenKey() { return `${STORE}token.${location.host}.${S.code}`; }
export function savedToken() { return localStorage.getItem(tokenKey()); }
function saveToken(t) { if (t) localStorage.setItem(tokenKey(), t); else localStorage.removeItem(tokenKey()); }

function hello() {
  const msg = { t: "hello", v: 2, role: "player", name: S.name, legal: true };
  const token = savedToken();
  if (token) msg.token = token;
  else msg.code = S.code;
  return msg;
}

/** Join with the name typed (kept on the phone for next time). */
export function join(name, code) {
  S.name = name;
  if (code) S.code = code.trim().toUpperCase();
  localStorage.setItem(STORE + "name", name);
  S.notice = null;
  S.screen = "room";
  if (!S.link) S.link = new Link({ url: wsUrl(), hello, onMessage, onState });
  S.link.stopped = false;
  S.link.restart();
  render();
}

function wsUrl() { return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`; }

function onState(open) {
  S.online = open;
  if (open && S.everOnline) S.notice = { key: "net.reconnected" };
  if (open) S.everOnline = true;
  else if (S.everOnline && !S.link.stopped) S.notice = { key: "net.host_lost", bad: true };
  render();
}

export function send(msg) { return S.link && S.link.send(msg); }

/** Play one of the host's legal actions. */
export function act(action) {
  const id = S.nextId++;
  if (!send({ t: "action", version: S.store.version, action, id })) return;
  S.busy = id;
  setTimeout(() => { if (S.busy === id) { S.busy = null; render(); } }, 3000);
  render();
}

const HANDLERS = {
  welcome(m) {
    S.seat = m.seat;
    S.table = m.table;
    saveToken(m.token);
    S.screen = m.table.started ? "game" : "room";
  },
  seats(m) { m.received = performance.now(); S.seats = m; },
  snapshot(m, bytes) {
    S.wantSync = false;
    if (!S.store.snapshot(bytes, m)) console.warn("snapshot hash mismatch");
    took(m);
    S.screen = "game";
    S.log = [];
    note(m.events);
  },
  update(m, bytes) {
    if (S.wantSync) return;
    if (!S.store.update(bytes, m)) { S.wantSync = true; send({ t: "sync" }); return; }
    took(m);
    if (m.ack !== undefined && m.ack === S.busy) S.busy = null;
    note(m.events);
    if (S.staged.length && S.busy === null) discardNext();
  },
  timers(m) { setTimers(m.timers); },
  error(m) {
    if (m.id !== undefined && m.id === S.busy) S.busy = null;
    ERRORS[m.code] ? ERRORS[m.code](m) : (S.notice = errorNotice(m));
  },
  said(m) { S.heard += 1; S.log.unshift({ said: m }); },
  gave_up(m) { S.log.unshift({ gaveUp: m }); },
  bye(m) {
    if (m.reason === "shutdown") return; // it may come back (--resume): keep trying
    S.link.stop();
    if (m.reason === "game_over") S.notice = { key: "net.host_closed" };
  },
  pong() {},
  // the host pings a seat it has not heard from for a while (§4): answer, or show as away
  ping(m) { send(m.n === undefined ? { t: "pong" } : { t: "pong", n: m.n }); },
};

// errors with a consequence beyond a notice
const FATAL = (m) => { S.link.stop(); S.notice = errorNotice(m, true); S.screen = S.screen === "game" ? "game" : "join"; };
const ERRORS = {
  bad_token(m) { saveToken(null); if (S.code) S.link.restart(); else FATAL(m); },
  bad_name(m) { S.link.stop(); S.screen = "join"; S.notice = errorNotice(m, true); },
  bad_code(m) { S.link.stop(); S.screen = "join"; S.code = ""; S.notice = errorNotice(m, true); }, // ask for it
  too_many_attempts: FATAL, table_full: FATAL, version: FATAL, replaced: FATAL,
  stale() {}, // a fresh snapshot follows
};

const NOTICE_MS = 4000; // a refused move's notice goes away by itself

/** A refusal in words; `sticky`: it stays (the phone cannot go on without acting on it). */
function errorNotice(m, sticky = false) {
  const notice = { error: m, bad: true };
  if (!sticky) setTimeout(() => { if (S.notice === notice) { S.notice = null; render(); } }, NOTICE_MS);
  return notice;
}

function took(m) {
  if (m.legal !== undefined) S.legal = m.legal;
  if (m.timers !== undefined) setTimers(m.timers);
  if (S.editor) refreshEditor(S.editor);
  S.staged = S.staged.filter(() => S.legal && S.legal.actions.some((a) => a.type === "discard"));
}

/** Terms being edited follow the host's latest entry (its pool and range may have moved);
 *  the editor closes when the entry is gone. */
function refreshEditor(ed) {
  const same = (e) => e.action.type === ed.entry.action.type && e.action.to === ed.entry.action.to;
  const entry = S.legal && S.legal.terms.find(same);
  if (!entry) { S.editor = null; return; }
  const pool = new Set(entry.pool.map((s) => JSON.stringify(s)));
  ed.entry = entry;
  ed.chosen = new Set([...ed.chosen].filter((k) => pool.has(k)));
  ed.amount = Math.min(entry.hi, Math.max(entry.lo, ed.amount));
}

function setTimers(t) {
  const now = performance.now();
  const at = (c) => (c ? { ...c, deadline: now + c.ms } : null);
  S.timers = t ? { window: at(t.window), negotiation: at(t.negotiation), turn: at(t.turn) } : { window: null, negotiation: null, turn: null };
}

function note(events) {
  for (const e of events || []) {
    S.log.unshift({ event: e });
    S.seen.add(e.purpose ? `${e.type}.${e.purpose}` : e.type);
  }
  S.log.length = Math.min(S.log.length, 30);
}

/** Staged discards go one action at a time, each on the version the last one made. */
export function discardNext() {
  const card = S.staged[0];
  const legal = S.legal && S.legal.actions.find((a) => a.type === "discard" && a.card === card);
  if (!legal) { S.staged = []; return; }
  S.staged.shift();
  act(legal);
}

let lastCall = false;
function onMessage(msg, bytes) {
  const handle = HANDLERS[msg.t];
  if (!handle) return; // an informational message this page cannot read
  handle(msg, bytes);
  buzzIfCalled();
  render();
}

/** Buzz when the game starts waiting for this seat (its turn, the floor, asked in a window) or
 *  the Boss proposes terms to it. */
function buzzIfCalled() {
  const v = S.store.view;
  const proposal = v && v.negotiation && v.negotiation.pending[String(S.seat)];
  const called = Boolean(v && S.seat !== null && v.phase !== "game_over" && ((v.waiting_for || []).includes(S.seat)
    || (v.window && (v.window.asked || []).includes(S.seat)) || (proposal && proposal.by_boss)));
  if (called && !lastCall && navigator.vibrate) navigator.vibrate([120, 60, 120]);
  lastCall = called;
}

// read by the browser tests (tests/phone_pages.py): what the page holds, never written there
globalThis.imthebossPhone = S;

async function main() {
  await loadLanguage(pickLanguage(navigator.languages || [navigator.language], params.get("lang")));
  if (savedToken() && S.name) join(S.name); // a reload: straight back to the seat
  else render();
  document.addEventListener("rerender", render);
  setInterval(() => document.dispatchEvent(new Event("tick")), 250);
}

main();
