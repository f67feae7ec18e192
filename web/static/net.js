// @ts-check
// The WebSocket binding of the Switchboard protocol (docs/protocol.md): one message a
// text frame, a JSON object with the fields of the msgpack message. Requests carry an
// id and `request` resolves with the reply that echoes it. A dropped connection is
// opened again by itself (backing off to 10 s); the app resumes its seats on `open`.

/** @typedef {import("../types").ServerMessage} ServerMessage */
/** @typedef {import("../types").Reply} Reply */
/** @typedef {import("../types").Welcome} Welcome */

/**
 * What the connection tells the page.
 * @typedef {object} Hooks
 * @property {(msg: ServerMessage) => void} onMessage every message but the welcome, pings and replies' resolution
 * @property {(welcome: Welcome) => void} onOpen the server welcomed us (again)
 * @property {(status: "connecting" | "offline" | "online") => void} onStatus
 */

const HELLO = { type: "hello", protocol: "switchboard", versions: [1], client: "switchboard-web 1" };
const RETRY_MAX_MS = 10000;
// A phone that loses its Wi-Fi may not hear of the dead socket for minutes: a ping
// unanswered this long drops it, and the connection is opened again (and the seats resumed).
const HEARTBEAT_MS = 15000;
const HEARTBEAT_WAIT_MS = 10000;

export class Connection {
  /**
   * @param {string} url the `/ws` URL of the server
   * @param {Hooks} hooks
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.nextId = 1;
    /** @type {Map<number, (reply: Reply) => void>} request id -> its resolve */
    this.waiting = new Map();
    this.ready = false;
    this.retryMs = 500;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.stopped = false;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
    setInterval(() => this.heartbeat(), HEARTBEAT_MS);
  }

  /** Ping; no answer in time means the socket is dead though nobody said so. */
  async heartbeat() {
    const ws = this.ws;
    if (!this.ready || !ws) return;
    const answer = this.request({ type: "ping" });
    const late = new Promise((resolve) => setTimeout(() => resolve(null), HEARTBEAT_WAIT_MS));
    if ((await Promise.race([answer, late])) === null && this.ws === ws) this.lost(ws);
  }

  /** Come back at once (the network is back, the page is shown again). */
  reconnectNow() {
    if (this.stopped || this.ws) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  open() {
    if (this.stopped || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.hooks.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ ...HELLO, id: 0 }));
    };
    ws.onmessage = (frame) => {
      let msg;
      try {
        msg = JSON.parse(frame.data);
      } catch {
        return; // not ours to mend: the server sends JSON objects only
      }
      if (msg === null || typeof msg !== "object") return;
      this.receive(msg);
    };
    ws.onclose = () => this.lost(ws);
  }

  /** `ws` is gone (closed, or silent): answer what waited on it, and try again soon.
   * @param {WebSocket} ws */
  lost(ws) {
    if (this.ws !== ws) return;
    ws.onclose = ws.onmessage = ws.onopen = null;
    if (ws.readyState <= WebSocket.OPEN) ws.close();
    this.ready = false;
    this.ws = null;
    for (const resolve of this.waiting.values()) resolve({ type: "error", code: "disconnected", text: "the connection dropped" });
    this.waiting.clear();
    this.hooks.onStatus("offline");
    this.reconnectSoon(this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  /** @param {number} ms */
  reconnectSoon(ms) {
    if (this.stopped || this.ws || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, ms);
  }

  /** Stop for good (the server banned or kicked us). */
  stop() {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.ws) this.lost(this.ws);
  }

  /** One message from the server. @param {ServerMessage} msg */
  receive(msg) {
    if (msg.type === "welcome" && !this.ready) {
      this.ready = true;
      this.retryMs = 500;
      this.hooks.onStatus("online");
      this.hooks.onOpen(msg);
      return;
    }
    if (msg.type === "ping") {
      this.send({ type: "pong", id: msg.id });
      return;
    }
    const resolve = msg.id === undefined || msg.id === null ? undefined : this.waiting.get(msg.id);
    if (resolve && msg.id !== undefined && msg.id !== null) {
      this.waiting.delete(msg.id);
      this.hooks.onMessage(msg);
      resolve(msg);
      return;
    }
    this.hooks.onMessage(msg);
  }

  /** @param {{type: string} & Record<string, unknown>} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Send `msg` with a fresh id; resolves with its reply (`error` included, never rejects).
   * @param {{type: string} & Record<string, unknown>} msg @returns {Promise<Reply>} */
  request(msg) {
    if (!this.ready) return Promise.resolve({ type: "error", code: "disconnected", text: "not connected" });
    const id = this.nextId;
    this.nextId = (this.nextId % 2000000000) + 1;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ ...msg, id });
    });
  }
}
