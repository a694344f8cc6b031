// The three screens: join (a name, and the code when the address has none), the room before
// the game, and the game itself (game.js).
import { S, join, send } from "./app.js";
import { button, h } from "./dom.js";
import { gameScreen } from "./game.js";
import { has, tr } from "./i18n.js";

const root = () => document.getElementById("app");

export function render() {
  const screen = { join: joinScreen, room: roomScreen, game: gameScreen }[S.screen]();
  root().replaceChildren(...[h("div", { class: "bar" }, connectionBadge()), noticeLine(), screen].filter(Boolean));
}

function connectionBadge() {
  if (S.screen === "join") return h("span", { class: "title" }, tr("app.title"));
  const me = S.seat !== null && S.store.view ? S.store.view.players[S.seat].name : S.name;
  const state = S.online ? tr("room.connected") : tr("room.retrying");
  return [h("span", { class: "title" }, me), h("span", { class: S.online ? "dot on" : "dot off", "data-online": String(S.online) }, state)];
}

/** The notice line: a refusal, a lost or restored link (words from net.* and net.error.*). */
function noticeLine() {
  const n = S.notice;
  if (!n) return null;
  const text = n.error ? errorText(n.error) : tr(n.key, n.args);
  return h("p", { class: n.bad ? "notice bad" : "notice", role: "status" }, text);
}

export function errorText(m) {
  if (m.code === "illegal") return has(`reason.${m.rule}`) ? tr(`reason.${m.rule}`) : tr("table.refused");
  const key = `net.error.${m.code}`;
  const error = has(key) ? tr(key) : tr("net.error.other", { code: m.code });
  const parts = [];
  const seats = (list) => list.map((s) => s + 1).join(", ");
  if (m.open_seats && m.open_seats.length) parts.push(tr("net.error.open_seats", { seats: seats(m.open_seats) }));
  if (m.bot_seats && m.bot_seats.length) parts.push(tr("net.error.bot_seats", { seats: seats(m.bot_seats) }));
  return parts.length ? tr("net.error.with_seats", { error, seats: parts.join(" ") }) : error;
}

function joinScreen() {
  const name = h("input", { id: "name", type: "text", value: S.name, maxlength: "48", autocomplete: "nickname", enterkeyhint: "go" });
  const code = S.code ? null : h("input", { id: "code", type: "text", maxlength: "4", autocapitalize: "characters", autocomplete: "off" });
  const go = (ev) => {
    ev.preventDefault();
    const typed = name.value.trim();
    const room = code ? code.value.replace(/[^a-z]/gi, "") : S.code;
    if (typed && room) join(typed, room);
  };
  return h("form", { class: "join", onsubmit: go },
    h("h1", {}, tr("app.title")),
    h("p", {}, tr("phone.join_intro")),
    h("label", { for: "name" }, tr("phone.your_name")), name,
    code && [h("label", { for: "code" }, tr("phone.room_code")), code],
    h("button", { class: "btn primary", type: "submit", dataset: { join: "1" } }, tr("phone.join")),
    h("p", { class: "small" }, tr("phone.awake_note")));
}

function roomScreen() {
  const m = S.seats;
  const t = S.table;
  const rows = m ? m.seats.map((s) => h("li", { class: s.seat === S.seat ? "me" : "" },
    h("span", { class: "seatno" }, s.seat + 1),
    h("span", {}, s.name || tr("room.open_seat")),
    s.seat === S.seat ? h("span", { class: "tag" }, tr("player.you")) : s.bot ? h("span", { class: "tag" }, tr("player.bot")) : null,
    s.via === "web" ? h("span", { class: "tag" }, tr("player.phone")) : null)) : [];
  let wait = tr("room.waiting_players");
  let start = null;
  if (m && m.starter === S.seat) {
    wait = tr("room.you_start");
    start = button(tr("room.start"), () => send({ t: "start" }), { cls: "primary", data: { start: "1" } });
  } else if (m && m.starter !== null && m.starter !== undefined) {
    wait = tr("room.waiting_start", { name: m.seats[m.starter].name });
  }
  return h("section", { class: "room" },
    t && h("h1", {}, t.name),
    t && t.pace && h("p", {}, tr(`phone.pace.${t.pace.mode}`, { s: t.pace.window })),
    !t && h("p", {}, tr("room.title_connecting")),
    h("h2", {}, tr("room.players")), h("ul", { class: "seats" }, rows),
    m && m.start_ms !== null && m.start_ms !== undefined && startsIn(m.received + m.start_ms),
    h("p", {}, wait), start,
    h("p", { class: "small" }, tr("phone.awake_note")));
}


/** "The game starts in 12 s.", counting down between seats messages. */
function startsIn(at) {
  const el = h("p", {});
  const show = () => { el.textContent = tr("room.starting_in", { s: Math.max(0, Math.ceil((at - performance.now()) / 1000)) }); };
  show();
  const tick = () => (el.isConnected ? show() : document.removeEventListener("tick", tick));
  document.addEventListener("tick", tick);
  return el;
}
