// What the page knows about the server and its tables, folded in from messages (the
// terminal client's client/state.py). Events apply once, in order: one whose seq is not
// past the table's is a duplicate (a resume may overlap) and is ignored.

export const CLOCK_WARNING = 10;
const MAX_LOG = 500;
const RUNNING = new Set(["playing", "paused"]);

export function newTable(table) {
  return {
    table,
    seat: null,
    token: null,
    state: "waiting",
    seq: 0,
    view: null,
    legal: [],
    players: [],
    playedBy: [],
    master: null,
    toAct: null,
    deadline: null, // performance.now() (ms) at which the seat to act runs out
    warned: false,
    synced: false,
    log: [],
    gone: {}, // seat -> [name, "dropped" | "left"]
    result: null, // the last hand_end / game_end event, until the next deal
    backfillTo: null, // events up to this seq asked for after a snapshot: the log only
    watching: null, // spectators, as the last `watcher` or table list counted them
  };
}

const MAX_SHOUTS = 100;

/** How a seat's player is named, the one rule of protocol/describe.py's `seat_name`:
 * a person by his name, a server bot (`bot:STRATEGY`) by its seat (`bot 2`) in every
 * family, so two bots of one strategy never look alike; null for an empty seat. */
export function seatName(player, seat) {
  if (player === null || player === undefined) return null;
  return player.startsWith("bot:") ? `bot ${seat}` : player;
}

/** `seatName` where seats are listed (the lobby), with a bot's strategy: `bot 2 (search)`. */
export function seatListing(player, seat) {
  const name = seatName(player, seat);
  if (name === null || !player.startsWith("bot:")) return name;
  const strategy = player.slice(4);
  return strategy ? `${name} (${strategy})` : name;
}

/** Who sits where, for a person (`seatName` for each seat). */
export function names(t) {
  return t.players.map((player, seat) => {
    if (player === null && t.state === "over" && seat < t.playedBy.length) player = t.playedBy[seat];
    return seatName(player, seat);
  });
}

export function myTurn(t) {
  return t.seat !== null && t.toAct === t.seat && t.legal.length > 0;
}

/** `dropped` or `left` while the player at `seat` is gone, else null. */
export function away(t, seat) {
  const entry = t.gone[seat];
  if (!entry || t.players[seat] !== entry[0]) return null;
  return entry[1];
}

export function clockLeft(t, now = performance.now()) {
  return t.deadline === null ? null : Math.max(0, (t.deadline - now) / 1000);
}

function setClock(t, clock) {
  t.deadline = clock === null || clock === undefined ? null : performance.now() + clock * 1000;
  if (clock === null || clock === undefined || clock > CLOCK_WARNING) t.warned = false;
}

function addLog(t, line) {
  t.log.push(line);
  if (t.log.length > MAX_LOG) t.log.splice(0, t.log.length - MAX_LOG);
}

/** An event older than the board, asked for to show how the board came about: filed
 * into the log in seq order, once; any other old event is a duplicate, ignored. */
function backfill(t, msg) {
  if (t.backfillTo === null || msg.seq > t.backfillTo) return null;
  if (t.log.some((line) => line.seq === msg.seq)) return null;
  let at = t.log.findIndex((line) => line.seq !== undefined && line.seq > msg.seq);
  if (at < 0) at = t.log.length;
  t.log.splice(at, 0, { kind: "event", ev: msg.event || {}, seq: msg.seq });
  return "event";
}

export class ClientState {
  constructor() {
    this.name = null;
    this.server = "";
    this.rulesets = [];
    this.lobby = [];
    this.tables = new Map();
    this.notices = [];
    this.shouts = []; // the room's shouts, newest last: {name, text}
    this.people = []; // who is online (`people`'s maps), as last asked
    this.online = null; // {total, guests} of the last `people`
  }

  table(id) {
    if (!this.tables.has(id)) this.tables.set(id, newTable(id));
    return this.tables.get(id);
  }

  /** Fold one message in; says what changed (`table`, `event`, `talk`, `lobby`, ...). */
  handle(msg) {
    switch (msg.type) {
      case "snapshot": {
        const t = this.table(msg.table);
        t.seq = msg.seq;
        t.state = msg.state;
        t.view = msg.view && Object.keys(msg.view).length ? msg.view : null;
        if (msg.seat !== undefined && msg.seat !== null) t.seat = msg.seat;
        t.legal = msg.legal || [];
        t.players = msg.players || [];
        t.master = msg.master ?? null;
        if (RUNNING.has(msg.state)) t.playedBy = t.players;
        t.toAct = t.view ? t.view.to_act ?? null : null;
        setClock(t, msg.clock);
        t.synced = true;
        if (t.view && !t.view.over && msg.state !== "over" && t.result && t.result.kind === "game_end") t.result = null;
        return "table";
      }
      case "event": {
        const t = this.table(msg.table);
        if (msg.seq <= t.seq) return backfill(t, msg);
        if (t.synced && msg.seq > t.seq + 1) return "gap";
        t.seq = msg.seq;
        const ev = msg.event || {};
        addLog(t, { kind: "event", ev, seq: msg.seq });
        if (ev.kind === "hand_end" || ev.kind === "game_end") t.result = ev;
        else if (ev.kind === "deal" || ev.kind === "cut") t.result = null;
        return "event";
      }
      case "turn": {
        const t = this.table(msg.table);
        if (msg.seat !== undefined && msg.seat !== null && t.seat === null) t.seat = msg.seat;
        t.toAct = msg.to_act ?? null;
        t.legal = msg.legal || [];
        setClock(t, msg.clock);
        if (msg.view) t.view = msg.view;
        else if (t.view) t.view = { ...t.view, to_act: t.toAct };
        return "table";
      }
      case "seated": {
        const t = this.table(msg.table);
        t.seat = msg.seat;
        t.token = msg.token;
        return "table";
      }
      case "presence": {
        const t = this.table(msg.table);
        if (msg.what === "back") delete t.gone[msg.seat];
        else t.gone[msg.seat] = [msg.name, msg.what];
        // whether a game ran then: its words differ (no seat held, no bot, no clock)
        addLog(t, { kind: "presence", seat: msg.seat, name: msg.name, what: msg.what, playing: RUNNING.has(t.state) });
        return "talk";
      }
      case "talk":
        addLog(this.table(msg.table), { kind: "talk", name: msg.name, text: msg.text });
        return "talk";
      case "watcher": {
        // only a table this page is at: one left a moment ago is not opened again by it
        const t = this.tables.get(String(msg.table));
        if (!t) return null;
        t.watching = msg.watching ?? 0;
        addLog(t, { kind: "watcher", name: msg.name ?? null, what: msg.what, watching: t.watching });
        return "talk";
      }
      case "shouted":
        this.shouts.push({ name: msg.name, text: msg.text });
        if (this.shouts.length > MAX_SHOUTS) this.shouts.splice(0, this.shouts.length - MAX_SHOUTS);
        return "shout";
      case "people":
        this.people = msg.people || [];
        this.online = { total: msg.total ?? 0, guests: msg.guests ?? 0 };
        return "lobby";
      case "tables":
        this.lobby = msg.tables || [];
        for (const info of this.lobby) {
          const mine = this.tables.get(String(info.table));
          if (mine && Number.isInteger(info.spectators)) mine.watching = info.spectators;
        }
        return "lobby";
      case "rulesets":
        this.rulesets = msg.rulesets || [];
        return "lobby";
      case "named":
        this.name = msg.name;
        return "name";
      case "notice": {
        this.notices.push(msg.text);
        const table = msg.table === undefined || msg.table === null ? null : String(msg.table);
        if (table !== null && this.tables.has(table)) addLog(this.tables.get(table), { kind: "note", text: msg.text });
        return "notice";
      }
      default:
        return null;
    }
  }

  /** A line from the page itself (an error reply) in a table's log. */
  note(table, text, kind = "note") {
    if (table !== null && this.tables.has(table)) addLog(this.tables.get(table), { kind, text });
  }
}
