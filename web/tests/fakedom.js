// A tiny stand-in for the browser's document, enough for the page's modules to build their
// elements under node (no npm package): elements with children, text, classes, attributes,
// a dataset and listeners. `install()` puts it on globalThis before the modules are loaded;
// the helpers find what a board drew, as a test reads it.

class FakeNode {
  constructor() {
    /** @type {FakeNode[]} */
    this.childNodes = [];
    /** @type {FakeNode | null} */
    this.parentNode = null;
  }

  /** @param {...(FakeNode | string)} nodes */
  append(...nodes) {
    for (const node of nodes) {
      const child = node instanceof FakeNode ? node : new FakeText(String(node));
      child.parentNode = this;
      this.childNodes.push(child);
    }
  }

  /** @param {...(FakeNode | string)} nodes */
  replaceChildren(...nodes) {
    this.childNodes = [];
    this.append(...nodes);
  }

  get firstChild() {
    return this.childNodes[0] || null;
  }

  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }

  set textContent(text) {
    this.childNodes = [];
    if (text !== "") this.append(String(text));
  }
}

class FakeText extends FakeNode {
  /** @param {string} text */
  constructor(text) {
    super();
    this.text = text;
  }

  get textContent() {
    return this.text;
  }
}

class FakeElement extends FakeNode {
  /** @param {string} tag */
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    this.className = "";
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** @type {Record<string, string>} */
    this.attributes = {};
    /** @type {Record<string, Function[]>} */
    this.listeners = {};
    this.hidden = false;
  }

  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }

  /** @param {string} name */
  getAttribute(name) {
    return name in this.attributes ? this.attributes[name] : null;
  }

  /** @param {string} type @param {Function} listener */
  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  }

  /** Run the element's listeners of `type`, as a tap or a change would. @param {string} type */
  dispatch(type) {
    for (const listener of this.listeners[type] || []) listener({ type, target: this, preventDefault() {} });
  }

  get classList() {
    const names = this.className.split(/\s+/).filter(Boolean);
    return { contains: (/** @type {string} */ name) => names.includes(name) };
  }

  /** Every element under this one, depth first. @returns {FakeElement[]} */
  descendants() {
    const out = [];
    for (const child of this.childNodes) {
      if (child instanceof FakeElement) out.push(child, ...child.descendants());
    }
    return out;
  }
}

/** Put the fake document on globalThis (once), as the page's modules expect it. */
export function install() {
  const g = /** @type {any} */ (globalThis);
  if (g.document) return;
  g.Node = FakeNode;
  g.HTMLElement = FakeElement;
  g.document = {
    createElement: (/** @type {string} */ tag) => new FakeElement(tag),
    createTextNode: (/** @type {string} */ text) => new FakeText(text),
    querySelector: () => null,
  };
}

/** The elements under `root` (itself included) that have the class `name`.
 * @param {any} root @param {string} name @returns {FakeElement[]} */
export function byClass(root, name) {
  return [root, ...root.descendants()].filter((e) => e.classList.contains(name));
}

/** The elements under `root` (itself included) of tag `tag`.
 * @param {any} root @param {string} tag @returns {FakeElement[]} */
export function byTag(root, tag) {
  return [root, ...root.descendants()].filter((e) => e.tagName === tag.toUpperCase());
}

/** The text of `node`, its runs of white space made one space. @param {any} node */
export function text(node) {
  return node.textContent.replace(/\s+/g, " ").trim();
}
