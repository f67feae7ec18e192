// The WebSocket binding of the Switchboard protocol (docs/protocol.md): one message a
// text frame, a JSON object with the fields of the msgpack message. Requests carry an
// id and `request` resolves with the reply that echoes it. A dropped connection is
// opened again by itself (backing off to 10 s); the app resumes its seats on `open`.

const HELLO = { type: "hello", protocol: "switchboard", versions: [1], client: "switchboard-web 1" };
const RETRY_MAX_MS = 10000;

export class Connection {
  /**
   * @param {string} url the `/ws` URL of the server
   * @param {{onMessage: Function, onOpen: Function, onStatus: Function}} hooks
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map(); // id -> resolve
    this.ready = false;
    this.retryMs = 500;
    this.timer = null;
    this.stopped = false;
    window.addEventListener("online", () => this.reconnectSoon(0));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectSoon(0);
    });
  }

  open() {
    if (this.stopped || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.timer);
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
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.ws = null;
      for (const resolve of this.waiting.values()) resolve({ type: "error", code: "disconnected", text: "the connection dropped" });
      this.waiting.clear();
      this.hooks.onStatus("offline");
      this.reconnectSoon(this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    };
  }

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
    if (this.ws) this.ws.close();
  }

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
    if (msg.id !== undefined && msg.id !== null && this.waiting.has(msg.id)) {
      const resolve = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      this.hooks.onMessage(msg);
      resolve(msg);
      return;
    }
    this.hooks.onMessage(msg);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Send `msg` with a fresh id; resolves with its reply (`error` included, never rejects). */
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
