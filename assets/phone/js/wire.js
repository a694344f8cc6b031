// The wire: msgpack messages (vendor/msgpack.min.js) and the view they carry.
// docs/PROTOCOL.md §6: the view hash is over the host's own bytes of each top-level value,
// so the store keeps those bytes (a JavaScript object would reorder numeric-looking keys such
// as `covered`'s) and re-hashes them after every delta. The hash needs SHA-256 without
// crypto.subtle (a page on plain HTTP is no secure context): vendor/sha256.min.js.

const MP = globalThis.MessagePack;
const utf8 = new TextDecoder();

function u16(b, p) { return (b[p] << 8) | b[p + 1]; }
function u32(b, p) { return ((b[p] << 24) >>> 0) + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]); }

// fixed-size tails by first byte (nil, bool, numbers, fixext)
const FIXED = {
  0xc0: 1, 0xc2: 1, 0xc3: 1, 0xca: 5, 0xcb: 9, 0xcc: 2, 0xcd: 3, 0xce: 5, 0xcf: 9,
  0xd0: 2, 0xd1: 3, 0xd2: 5, 0xd3: 9, 0xd4: 3, 0xd5: 4, 0xd6: 6, 0xd7: 10, 0xd8: 18,
};

/** The end of the msgpack value starting at p (its bytes are b[p..end)). */
export function skip(b, p) {
  const t = b[p];
  if (t <= 0x7f || t >= 0xe0) return p + 1;
  if (t <= 0x8f) return skipItems(b, p + 1, 2 * (t & 0x0f));
  if (t <= 0x9f) return skipItems(b, p + 1, t & 0x0f);
  if (t <= 0xbf) return p + 1 + (t & 0x1f);
  if (FIXED[t]) return p + FIXED[t];
  switch (t) {
    case 0xc4: case 0xd9: return p + 2 + b[p + 1];
    case 0xc5: case 0xda: return p + 3 + u16(b, p + 1);
    case 0xc6: case 0xdb: return p + 5 + u32(b, p + 1);
    case 0xc7: return p + 3 + b[p + 1];
    case 0xc8: return p + 4 + u16(b, p + 1);
    case 0xc9: return p + 6 + u32(b, p + 1);
    case 0xdc: return skipItems(b, p + 3, u16(b, p + 1));
    case 0xdd: return skipItems(b, p + 5, u32(b, p + 1));
    case 0xde: return skipItems(b, p + 3, 2 * u16(b, p + 1));
    case 0xdf: return skipItems(b, p + 5, 2 * u32(b, p + 1));
  }
  throw new Error("msgpack: bad byte " + t);
}

function skipItems(b, p, n) {
  for (let i = 0; i < n; i++) p = skip(b, p);
  return p;
}

/** A map's entries as [key, valueStart, valueEnd] (string keys only, as the protocol says). */
export function mapEntries(b, p) {
  const t = b[p];
  let n, q;
  if (t >= 0x80 && t <= 0x8f) { n = t & 0x0f; q = p + 1; }
  else if (t === 0xde) { n = u16(b, p + 1); q = p + 3; }
  else if (t === 0xdf) { n = u32(b, p + 1); q = p + 5; }
  else return null;
  const out = [];
  for (let i = 0; i < n; i++) {
    const k0 = q;
    q = skip(b, q);
    const key = MP.decode(b.subarray(k0, q));
    const v0 = q;
    q = skip(b, q);
    out.push([key, v0, q]);
  }
  return out;
}

export function encode(obj) { return MP.encode(obj); }
export function decode(bytes) { return MP.decode(bytes); }

function mapHeader(n) {
  if (n < 16) return Uint8Array.of(0x80 | n);
  if (n < 65536) return Uint8Array.of(0xde, n >> 8, n & 0xff);
  return Uint8Array.of(0xdf, n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
}

/** The view hash of §6 over top-level pairs key -> the host's bytes of its value. */
export function viewHash(raw) {
  const keys = [...raw.keys()].filter((k) => k !== "board").sort();
  const parts = [mapHeader(keys.length)];
  for (const k of keys) parts.push(MP.encode(k), raw.get(k));
  let len = 0;
  for (const p of parts) len += p.length;
  const all = new Uint8Array(len);
  let at = 0;
  for (const p of parts) { all.set(p, at); at += p.length; }
  return globalThis.sha256.hex(all).slice(0, 16);
}

/** One seat's view as the host sent it: values decoded for reading, bytes kept for the hash. */
export class ViewStore {
  constructor() { this.raw = new Map(); this.view = null; this.version = -1; }

  /** Take a whole view from a snapshot's bytes; false when the hash disagrees. */
  snapshot(bytes, msg) {
    const at = entryOf(bytes, "view");
    this.raw = new Map();
    this.view = {};
    for (const [k, a, b] of mapEntries(bytes, at)) this.put(k, bytes, a, b);
    this.version = msg.version;
    return viewHash(this.raw) === msg.hash;
  }

  /** Apply an update's delta; false on a gap or a hash mismatch (then ask `sync`). */
  update(bytes, msg) {
    if (this.view === null || msg.base !== this.version) return false;
    const at = entryOf(bytes, "delta");
    for (const [k, a, b] of mapEntries(bytes, at)) this.put(k, bytes, a, b);
    this.version = msg.version;
    return viewHash(this.raw) === msg.hash;
  }

  put(key, bytes, a, b) {
    const slice = bytes.slice(a, b);
    this.raw.set(key, slice);
    this.view[key] = MP.decode(slice);
  }
}

function entryOf(bytes, name) {
  for (const [k, a] of mapEntries(bytes, 0)) if (k === name) return a;
  throw new Error("message without " + name);
}
