// Building the page's elements without HTML strings (names come from other players).

/** h("button", {class: "big", onclick}, "text", child, ...): an element. */
export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

/** A large button; `data` lands in data-* (the browser tests pick moves by them). */
export function button(label, onclick, { cls = "", data = {}, disabled = false } = {}) {
  return h("button", { class: `btn ${cls}`.trim(), onclick, dataset: data, disabled }, label);
}
