// The rest of the page's logic, under node with stand-ins for the browser's parts: the
// connection (a reply found by its id, pings answered, a drop answering every request
// waiting), what is kept per server in localStorage, and where a person online is.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./fakedom.js";

install();
const g = /** @type {any} */ (globalThis);
g.location = { host: "127.0.0.1:7373", protocol: "http:" };
g.window = { addEventListener() {} };
g.document.addEventListener = () => {};
g.document.visibilityState = "visible";

/** A WebSocket that records what is sent, and is opened and fed by the test. */
class FakeSocket {
  static OPEN = 1;
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    /** @type {any[]} */
    this.sent = [];
    /** @type {any} */
    this.onopen = this.onmessage = this.onclose = null;
  }
  /** @param {string} data */
  send(data) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
}
g.WebSocket = FakeSocket;

/** A localStorage held in a map. */
const storage = new Map();
g.localStorage = {
  getItem: (/** @type {string} */ k) => (storage.has(k) ? storage.get(k) : null),
  setItem: (/** @type {string} */ k, /** @type {string} */ v) => storage.set(k, String(v)),
  removeItem: (/** @type {string} */ k) => storage.delete(k),
};

const { Connection } = await import("../static/net.js");
const { store, newSecret } = await import("../static/store.js");
const { plural, whereabouts } = await import("../static/lobby.js");

/** A connection past its welcome, with what it told the page; no timer is left running. */
function connected() {
  const heard = { messages: /** @type {any[]} */ ([]), statuses: /** @type {string[]} */ ([]) };
  const every = g.setInterval;
  g.setInterval = () => 0; // the heartbeat: not under test, and it would keep node running
  const conn = new Connection("ws://127.0.0.1:7373/ws", {
    onMessage: (msg) => heard.messages.push(msg),
    onOpen: () => heard.statuses.push("welcomed"),
    onStatus: (status) => heard.statuses.push(status),
  });
  g.setInterval = every;
  conn.open();
  const ws = /** @type {FakeSocket} */ (/** @type {unknown} */ (conn.ws));
  ws.onopen();
  ws.onmessage({ data: JSON.stringify({ type: "welcome", version: 1, id: 0 }) });
  return { conn, ws, heard };
}

test("a request is answered by the reply with its id; a ping by a pong", async () => {
  const { conn, ws, heard } = connected();
  assert.deepEqual(ws.sent[0], { type: "hello", protocol: "switchboard", versions: [1], client: "switchboard-web 1", id: 0 });
  assert.deepEqual(heard.statuses, ["connecting", "online", "welcomed"]);
  const reply = conn.request({ type: "join", table: "4" });
  const id = ws.sent[1].id;
  ws.onmessage({ data: JSON.stringify({ type: "event", table: "4", seq: 1, event: { kind: "deal" } }) });
  ws.onmessage({ data: JSON.stringify({ type: "seated", table: "4", seat: 0, token: "t", id }) });
  assert.deepEqual(await reply, { type: "seated", table: "4", seat: 0, token: "t", id });
  assert.deepEqual(heard.messages.map((m) => m.type), ["event", "seated"], "the page hears replies too");
  ws.onmessage({ data: JSON.stringify({ type: "ping", id: 7 }) });
  assert.deepEqual(ws.sent.at(-1), { type: "pong", id: 7 });
  ws.onmessage({ data: "not json" });
  ws.onmessage({ data: "3" });
  assert.equal(heard.messages.length, 2, "what is not a JSON object is dropped");
  conn.stop();
});

test("a dropped connection answers every request waiting, and says it is offline", async () => {
  const { conn, ws, heard } = connected();
  const waiting = conn.request({ type: "list_tables" });
  conn.stop();
  assert.deepEqual(await waiting, { type: "error", code: "disconnected", text: "the connection dropped" });
  assert.equal(heard.statuses.at(-1), "offline");
  assert.equal(ws.readyState, 3);
  assert.deepEqual(await conn.request({ type: "who" }), { type: "error", code: "disconnected", text: "not connected" });
});

test("the browser keeps a name's secret, the seats and their logs per server", () => {
  storage.clear();
  assert.equal(store.identity(), null);
  const made = store.secretFor("ann");
  assert.match(made, /^[A-Za-z0-9_-]{32}$/);
  assert.equal(store.secretFor("ann"), made, "the secret kept is kept");
  store.setName("ann");
  assert.deepEqual(store.identity(), { name: "ann", secret: made });
  assert.equal(store.secretFor("ann", "given"), "given");
  store.keepSeat("4", { token: "t", seat: 1, seq: 9, players: ["bob", "ann"], master: "bob", state: "playing" });
  store.keepLog("4", Array.from({ length: 200 }, (_, i) => ({ kind: "note", text: `line ${i}` })));
  assert.equal(store.seats()["4"].seq, 9);
  assert.equal(store.log("4").length, 150, "the last 150 lines");
  assert.ok([...storage.keys()].every((k) => k.startsWith("switchboard@127.0.0.1:7373:")));
  store.forgetSeat("4");
  assert.deepEqual(store.seats(), {});
  assert.deepEqual(store.log("4"), []);
  storage.set("switchboard@127.0.0.1:7373:seats", "{broken");
  assert.deepEqual(store.seats(), {}, "a broken entry reads as nothing kept");
  assert.notEqual(newSecret(), newSecret());
});

test("where a person online is, in the server's words; without them, nothing made up", () => {
  const where = "playing at table 4, watching table 5, seated at table 6, waiting, and 2 tables more";
  assert.equal(whereabouts({ name: "ann", state: "playing", where }), where);
  assert.equal(whereabouts({ name: "cy", state: "idle" }), "");
});

test("plural", () => {
  assert.equal(plural(1, "game"), "1 game");
  assert.equal(plural(2, "game"), "2 games");
});
