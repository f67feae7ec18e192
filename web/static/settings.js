// @ts-check
// The page's own settings, kept by this browser (localStorage, for every server): how a
// turn is announced (a sound, a vibration, the tab's title and icon while the page is
// hidden) and the four-colour deck. The panel that changes them is built here too.
import { el } from "./dom.js";

/** @typedef {import("../types").Settings} Settings */

const KEY = "switchboard:settings";

/** @type {Settings} */
export const DEFAULTS = { sound: true, vibrate: true, title: true, fourColour: false };

/** What each setting is called in the panel, in its order. @type {[keyof Settings, string][]} */
export const LABELS = [
  ["sound", "Play a sound when it is your turn"],
  ["vibrate", "Vibrate when it is your turn (on a phone)"],
  ["title", "Mark the tab's title and icon when it is your turn and the page is hidden"],
  ["fourColour", "Four-colour deck (clubs green, diamonds blue)"],
];

/** The settings kept, each missing or unreadable one at its default.
 * @param {Pick<Storage, "getItem"> | null} [storage] @returns {Settings} */
export function loadSettings(storage = globalThis.localStorage) {
  /** @type {Partial<Settings>} */
  let kept = {};
  try {
    const raw = storage ? storage.getItem(KEY) : null;
    kept = raw ? JSON.parse(raw) : {};
  } catch {
    kept = {};
  }
  /** @type {Settings} */
  const out = { ...DEFAULTS };
  for (const [name] of LABELS) if (typeof kept[name] === "boolean") out[name] = kept[name];
  return out;
}

/** Keep `settings` (a storage that refuses, in private mode, forgets them at the reload).
 * @param {Settings} settings @param {Pick<Storage, "setItem"> | null} [storage] */
export function saveSettings(settings, storage = globalThis.localStorage) {
  try {
    if (storage) storage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // storage full or refused: the choice holds for this visit only
  }
}

/** The settings panel: a checkbox for each, which changes `settings`, keeps it, and
 * tells `changed`. @param {Settings} settings @param {(s: Settings) => void} changed */
export function settingsPanel(settings, changed) {
  const rows = LABELS.map(([name, label]) => {
    const id = `setting-${name}`;
    const box = el("input", { type: "checkbox", id, name, checked: settings[name] });
    box.addEventListener("change", () => {
      settings[name] = box.checked;
      saveSettings(settings);
      changed(settings);
    });
    return el("div", { class: "setting" }, box, el("label", { for: id, text: label }));
  });
  return el("form", { class: "settings", id: "settings" }, el("fieldset", {}, el("legend", { text: "Your turn" }), rows.slice(0, 3)), el("fieldset", {}, el("legend", { text: "Cards" }), rows.slice(3)));
}
