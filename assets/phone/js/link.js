// The WebSocket to the host (/ws on the page's own host and port): one msgpack message per
// binary frame. A phone sleeps, walks out of the wifi and reloads: the link comes back by
// itself, at once when the page is shown again or the network returns, else with backoff
// (0.2 s doubling to 5 s, as docs/PROTOCOL.md §11 asks of clients). A page on plain HTTP may
// not hold a Wake Lock, so instead of keeping the phone awake it recovers instantly.
import { decode, encode } from "./wire.js";

const PING_MS = 15000;
const PROBE_MS = 2000; // a link that says nothing this long after a ping on wake-up is dead
const SILENT_MS = 2 * PING_MS + 5000; // the host answers every ping: this much silence is a dead link
const BACKOFF_MIN = 200;
const BACKOFF_MAX = 5000;

export class Link {
  /** `hello()` builds the hello for each new connection; `onMessage(msg, bytes)` sees every
   *  message; `onState(open)` the link going up or down. */
  constructor({ url, hello, onMessage, onState }) {
    Object.assign(this, { url, hello, onMessage, onState });
    this.ws = null;
    this.stopped = false;
    this.delay = BACKOFF_MIN;
    this.retry = null;
    this.lastHeard = 0;
    this.pinger = setInterval(() => this.beat(), PING_MS);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.wake();
    });
    window.addEventListener("online", () => this.wake());
    window.addEventListener("pageshow", (ev) => { if (ev.persisted) this.wake(); });
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.delay = BACKOFF_MIN;
      this.lastHeard = Date.now();
      ws.send(encode(this.hello()));
      this.onState(true);
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws || !(ev.data instanceof ArrayBuffer)) return;
      this.lastHeard = Date.now();
      const bytes = new Uint8Array(ev.data);
      this.onMessage(decode(bytes), bytes);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.onState(false);
      this.later();
    };
  }

  later() {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(BACKOFF_MAX, this.delay * 2);
  }

  /** Ping; a link that has said nothing for two pings is gone (a wifi that dropped without
   *  closing the socket): replace it. */
  beat() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && Date.now() - this.lastHeard > SILENT_MS) {
      this.drop();
      this.connect();
      return;
    }
    this.send({ t: "ping" });
  }

  /** The page is seen again or the network is back: reconnect now, or prove the link alive. */
  wake() {
    if (this.stopped) return;
    this.delay = BACKOFF_MIN;
    const ws = this.ws;
    if (!ws || ws.readyState > WebSocket.OPEN) { this.connect(); return; }
    if (ws.readyState !== WebSocket.OPEN) return;
    const asked = Date.now();
    this.send({ t: "ping" });
    setTimeout(() => {
      if (this.ws === ws && this.lastHeard < asked) { this.drop(); this.connect(); }
    }, PROBE_MS);
  }

  drop() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { ws.onclose = null; ws.close(); this.onState(false); }
  }

  /** Now, on a fresh connection (e.g. a token the host refused: join with the code). */
  restart() { this.drop(); this.delay = BACKOFF_MIN; this.connect(); }

  /** No more reconnecting (replaced, table full, the host closed the table). */
  stop() { this.stopped = true; clearTimeout(this.retry); this.drop(); }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(encode(msg)); return true; }
    return false;
  }
}
