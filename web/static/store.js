// What the browser keeps per server (localStorage, keyed by the page's host:port): the
// secret behind each name claimed here, the name in use, and for each seat held its
// token, the last event seq applied and the table's log, so a reload or a dropped
// Wi-Fi resumes the seat and shows the log caught up.

const PREFIX = `switchboard@${location.host}`;
const LOG_KEEP = 150;

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(`${PREFIX}:${key}`);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

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
  identity() {
    const name = read("name", null);
    const secrets = read("secrets", {});
    return name && secrets[name] ? { name, secret: secrets[name] } : null;
  },
  /** The secret kept for `name`, made (and kept) when there is none. */
  secretFor(name, given = null) {
    const secrets = read("secrets", {});
    if (given) secrets[name] = given;
    else if (!secrets[name]) secrets[name] = newSecret();
    write("secrets", secrets);
    return secrets[name];
  },
  setName(name) {
    write("name", name);
  },
  forgetName() {
    write("name", null);
  },
  /** table -> {token, seat, seq} for every seat held. */
  seats() {
    return read("seats", {});
  },
  keepSeat(table, entry) {
    const seats = read("seats", {});
    seats[table] = entry;
    write("seats", seats);
  },
  forgetSeat(table) {
    const seats = read("seats", {});
    delete seats[table];
    write("seats", seats);
    write(`log:${table}`, null);
  },
  log(table) {
    return read(`log:${table}`, []);
  },
  keepLog(table, lines) {
    write(`log:${table}`, lines.slice(-LOG_KEEP));
  },
};
