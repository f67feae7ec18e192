// @ts-check
// What keeps the page usable without a mouse or without eyes: the keyboard focus kept
// where it was when a message redraws the table, a key for every legal action (not only
// the first nine), and the words a screen reader hears when the turn changes hands.
// No DOM at import: node runs it as it is (web/tests/a11y.test.js).

/** The keys that pick the legal actions, in the order the buttons show them: the digits,
 * then the letters but those the table's own keys use (`t` talks, `r` shows the rules). */
export const SHORTCUTS = "123456789abcdefghijklmnopqsuvwxyz";

/** The key that turns to the next page of keys, where the actions outnumber the keys
 * (an abbott or kilodney turn can offer more than 33): each page gives the same keys to
 * the next actions, so every action is a key or two away. */
export const MORE_KEY = "0";

/** How many pages of keys `count` actions take (1 where every action has its own key).
 * @param {number} count @returns {number} */
export function keyPages(count) {
  return Math.max(1, Math.ceil(count / SHORTCUTS.length));
}

/** The key shown on the `index`th action (from 0) while keys are on `page` (from 0), or
 * null for an action of another page.
 * @param {number} index @param {number} [page] @returns {string | null} */
export function shortcutKey(index, page = 0) {
  const at = index - page * SHORTCUTS.length;
  return index >= 0 && at >= 0 && at < SHORTCUTS.length ? SHORTCUTS[at] : null;
}

/** Which action a key press picks on `page` (its index from 0), or -1 for a key that picks
 * none.
 * @param {string} key @param {number} [page] @returns {number} */
export function shortcutIndex(key, page = 0) {
  const at = key.length === 1 ? SHORTCUTS.indexOf(key) : -1;
  return at < 0 ? -1 : at + page * SHORTCUTS.length;
}

/** The attributes that name an element of the table screen across redraws, most
 * telling first: a redraw makes new elements, and these say which new one is the old. */
const KEYS = ["data-key", "data-action", "data-card", "data-bot", "data-seat", "data-join", "data-watch", "data-table", "data-name"];

/** @param {string} value */
function quoted(value) {
  return `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/** One step of an element's key: its id, or its tag, first class and naming attribute.
 * @param {Element} node @returns {{step: string, named: boolean}} */
function step(node) {
  if (node.id) return { step: `#${node.id.replace(/[^\w-]/g, (c) => `\\${c}`)}`, named: true };
  const tag = node.tagName.toLowerCase();
  const cls = (node.getAttribute("class") || "").split(/\s+/).filter(Boolean)[0];
  const base = cls ? `${tag}.${cls.replace(/[^\w-]/g, (c) => `\\${c}`)}` : tag;
  for (const attr of KEYS) {
    const value = node.getAttribute(attr);
    if (value !== null) return { step: `${base}[${attr}=${quoted(value)}]`, named: true };
  }
  return { step: base, named: false };
}

/**
 * A selector that finds, after a redraw of `root`, the element that stands where `node`
 * stood: its own key, or the nearest named ancestor's key and the steps down from it.
 * Null when `node` is not inside `root`.
 * @param {Element} node @param {Element} root @returns {string | null}
 */
export function focusKey(node, root) {
  /** @type {string[]} */
  const steps = [];
  /** @type {Element | null} */
  let at = node;
  while (at && at !== root) {
    const one = step(at);
    steps.unshift(one.step);
    if (one.named) return steps.join(" > ");
    at = at.parentElement;
  }
  return at === root && steps.length ? steps.join(" > ") : null;
}

/**
 * Redraw `root` with `draw`, the keyboard focus kept: the element focused in it before
 * is focused again after (the one that stands in its place), so a move by another
 * player never throws a keyboard user back to the top of the page. When that element is
 * gone (an action no longer legal), the first action takes the focus, else `root`.
 * @param {HTMLElement} root @param {() => void} draw
 */
export function keepFocus(root, draw) {
  const doc = root.ownerDocument;
  const had = doc.activeElement;
  const key = had && had !== root && root.contains(had) ? focusKey(had, root) : null;
  draw();
  if (key === null || (doc.activeElement && doc.activeElement !== doc.body && root.contains(doc.activeElement))) return;
  /** @type {HTMLElement | null} */
  let again = null;
  try {
    again = root.querySelector(key);
  } catch {
    again = null; // a key no selector can say: fall back below
  }
  again ??= root.querySelector("#actions button:not([disabled])");
  if (!again) {
    if (!root.hasAttribute("tabindex")) root.setAttribute("tabindex", "-1");
    again = root;
  }
  again.focus({ preventScroll: true });
}

/**
 * What a screen reader is told of the turn (the live region's words), or "" when there
 * is nothing to say: on the viewer's turn what the server says he must answer, else the
 * heading of the server's first group of moves; on another's turn whom the table waits for
 * (the server's words).
 * @param {{mine: boolean, must: string | null, choices: import("../types").ChoiceGroup[], waiting: string | null}} turn
 * @returns {string}
 */
export function turnWords(turn) {
  if (turn.mine) {
    const heading = turn.choices.length ? turn.choices[0][0] : "";
    return ["Your turn.", turn.must || heading].filter(Boolean).join(" ");
  }
  return turn.waiting || "";
}
