// @ts-check
// What the browser keeps per server (localStorage, keyed by the page's host:port): the
// secret behind each name claimed here, the name in use, and for each seat held its
// token, the last event seq applied and the table's log, so a reload or a dropped
// Wi-Fi resumes the seat and shows the log caught up.

/** @typedef {import("./state.js").LogEntry} LogEntry */
/** @typedef {import("../types").Player} Player */

/**
 * What is kept of a seat held: enough to resume it and show its table before the server
 * answers.
 * @typedef {object} KeptSeat
 * @property {string} token
 * @property {number | null} seat
 * @property {number} seq the last event applied
 * @property {Player[]} players
 * @property {string | null} master
 * @property {string} state
 */

const PREFIX = `switchboard@${location.host}`;
const LOG_KEEP = 150;

/** @template T @param {string} key @param {T} fallback @returns {T} */
function read(key, fallback) {
  try {
    const raw = localStorage.getItem(`${PREFIX}:${key}`);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {unknown} value (null: forget it) */
function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(`${PREFIX}:${key}`);
    else localStorage.setItem(`${PREFIX}:${key}`, JSON.stringify(value));
  } catch {
    // storage full or refused (private mode): the game goes on, only a reload forgets
  }
}

/** A fresh secret from the browser's random source: 24 bytes, URL-safe base64 (a Word). */
export function newSecret() {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

export const store = {
  /** The name in use here and its secret, or null. */
  /** @returns {{name: string, secret: string} | null} */
  identity() {
    const name = read("name", /** @type {string | null} */ (null));
    /** @type {Record<string, string>} */
    const secrets = read("secrets", {});
    return name && secrets[name] ? { name, secret: secrets[name] } : null;
  },
  /** The secret kept for `name`, made (and kept) when there is none. */
  /** @param {string} name @param {string | null} [given] @returns {string} */
  secretFor(name, given = null) {
    /** @type {Record<string, string>} */
    const secrets = read("secrets", {});
    if (given) secrets[name] = given;
    else if (!secrets[name]) secrets[name] = newSecret();
    write("secrets", secrets);
    return secrets[name];
  },
  /** @param {string} name */
  setName(name) {
    write("name", name);
  },
  forgetName() {
    write("name", null);
  },
  /** table -> what is kept of the seat, for every seat held. @returns {Record<string, KeptSeat>} */
  seats() {
    return read("seats", {});
  },
  /** @param {string} table @param {KeptSeat} entry */
  keepSeat(table, entry) {
    const seats = this.seats();
    seats[table] = entry;
    write("seats", seats);
  },
  /** @param {string} table */
  forgetSeat(table) {
    const seats = this.seats();
    delete seats[table];
    write("seats", seats);
    write(`log:${table}`, null);
  },
  /** @param {string} table @returns {LogEntry[]} */
  log(table) {
    return read(`log:${table}`, []);
  },
  /** @param {string} table @param {LogEntry[]} lines */
  keepLog(table, lines) {
    write(`log:${table}`, lines.slice(-LOG_KEEP));
  },
};
