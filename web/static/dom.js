// @ts-check
// Building the page. Every text that came from the server (names, talk, table titles,
// error texts) reaches the page as a text node, never as HTML: `el` has no way to set
// innerHTML, so a name like `<img src=x onerror=alert(1)>` is shown as those characters.

/**
 * A new element: `el("button", {class: "act", onclick: f, dataset: {action: "draw"}}, "draw")`.
 * Props: `class`, `text`, `dataset`, `on<event>` (a listener), booleans (`disabled`,
 * `hidden`) and anything else as an attribute. Children are nodes or strings (text).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, any>} [props] @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** A name as the page shows it, in its own `<bdi>`: a right-to-left name (Hebrew, Arabic)
 * keeps its direction without reordering the words beside it ("ann: 12 34" stays so).
 * @param {string} name @param {Record<string, any>} [props] @returns {HTMLElement} */
export function who(name, props = {}) {
  return el("bdi", props, name);
}

/** @typedef {import("../types").Child} Child */

/** Add children (nodes, strings as text, arrays flattened; null skipped).
 * @template {Node & ParentNode} N @param {N} node @param {Child} children @returns {N} */
export function append(node, children) {
  for (const child of /** @type {unknown[]} */ ([children]).flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace everything in `node` with `children`.
 * @template {Node & ParentNode} N @param {N} node @param {...Child} children @returns {N} */
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/**
 * The element of the page that `selector` finds, of the kind given (an `HTMLElement` when
 * none is): the page's own ids, so a missing one (or another kind) is an error, said at once.
 * @template {HTMLElement} [E=HTMLElement]
 * @param {string} selector @param {new () => E} [kind] @returns {E}
 */
export function $(selector, kind) {
  const found = document.querySelector(selector);
  if (!(found instanceof (kind || HTMLElement))) throw new Error(`no element ${selector}`);
  return /** @type {E} */ (found);
}
