// The desktop's four translation tables, served by the host (/lang/<lang>.json): one source
// of truth. The language follows the phone's (navigator.languages); ?lang= overrides it.

export const LANGUAGES = ["en", "zh_Hant", "zh_Hans", "th"];
const HTML_LANG = { en: "en", zh_Hant: "zh-Hant", zh_Hans: "zh-Hans", th: "th" };
let table = {};

/** The table for one of the phone's languages, in the order it prefers them. */
export function pickLanguage(wanted, override) {
  if (LANGUAGES.includes(override)) return override;
  for (const tag of wanted) {
    const t = tag.toLowerCase();
    if (t.startsWith("zh")) {
      return /hant|-tw|-hk|-mo/.test(t) ? "zh_Hant" : "zh_Hans";
    }
    if (t.startsWith("th")) return "th";
    if (t.startsWith("en")) return "en";
  }
  return "en";
}

export async function loadLanguage(lang) {
  const res = await fetch(`lang/${lang}.json`, { cache: "no-cache" });
  table = await res.json();
  document.documentElement.lang = HTML_LANG[lang];
  return lang;
}

/** The text for key with {placeholders} filled, as game/ui/i18n.py's tr. */
export function tr(key, args = {}) {
  const text = table[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in args ? String(args[name]) : m));
}

/** A counted sentence: key_one for 1, key otherwise (with {count}). */
export function trCount(key, count, args = {}) {
  return tr(count === 1 ? key + "_one" : key, { ...args, count });
}

/** 'W', 'W and G', 'C, W and G'. */
export function andList(items) {
  if (items.length <= 1) return items.join("");
  let first = items[0];
  for (const it of items.slice(1, -1)) first = tr("log.list", { first, rest: it });
  return tr("log.and", { first, last: items[items.length - 1] });
}

/** A sentence about one or more players: key_one with {name}, key with {names}. */
export function trNames(key, names, args = {}) {
  if (names.length === 1) return tr(key + "_one", { ...args, name: names[0] });
  return tr(key, { ...args, names: andList(names) });
}

export function money(n) { return tr("money.amount", { n }); }

export function has(key) { return key in table; }
