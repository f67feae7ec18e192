// @ts-check
// What the page knows about the server and its tables, folded in from messages (the
// terminal client's client/net/state.py). Events apply once, in order: one whose seq is not
// past the table's is a duplicate (a resume may overlap) and is ignored.
// No DOM here: node runs it as it is (web/tests/state.test.js).

/** @typedef {import("../types").ServerMessage} ServerMessage */
/** @typedef {import("../types").TableEvent} TableEvent */
/** @typedef {import("../types").View} View */
/** @typedef {import("../types").Player} Player */
/** @typedef {import("../types").ChoiceGroup} ChoiceGroup */
/** @typedef {import("../types").TableSummary} TableSummary */
/** @typedef {import("../types").Ruleset} Ruleset */
/** @typedef {import("../types").Person} Person */

/**
 * An event as the log keeps it: the event, its seq (for order) and the server's words for
 * it (null from a server that sends none).
 * @typedef {{kind: "event", ev: TableEvent, seq: number, text: string | null}} EventLine
 */

/**
 * One line of a table's log: an event, talk, a seated player's coming and going, a
 * spectator's, or a note (a notice, an error the page was answered).
 * @typedef {EventLine
 *   | {kind: "talk", name: string, text: string}
 *   | {kind: "presence", seat: number, name: string, what: string, text: string | null}
 *   | {kind: "watcher", name: string | null, what: string, watching: number, text: string | null}
 *   | {kind: "note" | "error", text: string}} LogEntry
 */

/**
 * What the page knows of one table.
 * @typedef {object} TableRecord
 * @property {string} table
 * @property {number | null} seat the seat held here; null when watching
 * @property {string | null} token the seat's token, to resume it
 * @property {string} state waiting, playing, paused, over or closed
 * @property {number} seq the last event applied
 * @property {View | null} view
 * @property {string[]} legal the actions this seat may take now
 * @property {string | null} must what this seat must answer now, in the server's words
 * @property {ChoiceGroup[]} choices the legal actions grouped and labelled by the server
 * @property {string | null} waiting whom the table waits for, in the server's words
 * @property {string | null} pendingText what the pile asks of whoever plays next, in the server's words
 * @property {string | null} clockWarning what to say when this seat's own clock runs low, in the server's words
 * @property {string | null} resultText at a finished game, how it ended, in the server's words
 * @property {Player[]} players
 * @property {Player[]} playedBy who played the last game (a seat left empty at its end)
 * @property {string | null} master
 * @property {number | null} toAct
 * @property {number | null} deadline performance.now() (ms) at which the seat to act runs out
 * @property {boolean} warned
 * @property {boolean} synced whether a snapshot (or a kept seq) set `seq`: a later jump is a gap
 * @property {LogEntry[]} log
 * @property {Record<number, [string, string]>} gone seat -> [name, "dropped" | "left"]
 * @property {EventLine | null} result the last hand_end / game_end event, until the next deal
 * @property {number | null} backfillTo events up to this seq asked for after a snapshot: the log only
 * @property {number | null} watching spectators, as the last `watcher` or table list counted them
 * @property {string | null} ruleset the table's ruleset, as its snapshot names it
 * @property {number[]} again at a finished game, the seats whose players asked to play again
 * @property {import("../types").Rated | null} rated the ratings the last game changed
 */

export const CLOCK_WARNING = 10;
const MAX_LOG = 500;
const RUNNING = new Set(["playing", "paused"]);

/** @param {string} table @returns {TableRecord} */
export function newTable(table) {
  return {
    table,
    seat: null,
    token: null,
    state: "waiting",
    seq: 0,
    view: null,
    legal: [],
    must: null,
    choices: [],
    waiting: null,
    pendingText: null,
    clockWarning: null,
    resultText: null,
    players: [],
    playedBy: [],
    master: null,
    toAct: null,
    deadline: null,
    warned: false,
    synced: false,
    log: [],
    gone: {},
    result: null,
    backfillTo: null,
    watching: null,
    ruleset: null,
    again: [],
    rated: null,
  };
}

const MAX_SHOUTS = 100;

/** A seat as a person reads it, counted from 1 (protocol/describe.py's `seat_words`):
 * `seat 1` is the wire's seat 0.
 * @param {number | null | undefined} seat @returns {string} */
export function seatWords(seat) {
  return typeof seat === "number" ? `seat ${seat + 1}` : `seat ${seat}`;
}

/** How a seat's player is named, the one rule of protocol/describe.py's `seat_name`:
 * a person by his name, a server bot (`bot:STRATEGY`) by its seat counted from 1 (the
 * wire's seat 1 is `bot 2`) in every family, so two bots of one strategy never look
 * alike; null for an empty seat.
 * @param {Player | undefined} player @param {number} seat @returns {string | null} */
export function seatName(player, seat) {
  if (player === null || player === undefined) return null;
  return player.startsWith("bot:") ? `bot ${seat + 1}` : player;
}

/** `seatName` where seats are listed (the lobby), with a bot's strategy: `bot 2 (search)`.
 * @param {Player | undefined} player @param {number} seat @returns {string | null} */
export function seatListing(player, seat) {
  const name = seatName(player, seat);
  if (name === null || !player || !player.startsWith("bot:")) return name;
  const strategy = player.slice(4);
  return strategy ? `${name} (${strategy})` : name;
}

/** Who sits where, for a person (`seatName` for each seat).
 * @param {TableRecord} t @returns {(string | null)[]} */
export function names(t) {
  return t.players.map((player, seat) => {
    if (player === null && t.state === "over" && seat < t.playedBy.length) player = t.playedBy[seat];
    return seatName(player, seat);
  });
}

/** Whether the page's seat is to act now, with something to do. @param {TableRecord} t */
export function myTurn(t) {
  return t.seat !== null && t.toAct === t.seat && t.legal.length > 0;
}

/** `dropped` or `left` while the player at `seat` is gone, else null.
 * @param {TableRecord} t @param {number} seat @returns {string | null} */
export function away(t, seat) {
  const entry = t.gone[seat];
  if (!entry || t.players[seat] !== entry[0]) return null;
  return entry[1];
}

/** Seconds left to the seat to act, or null without a clock.
 * @param {TableRecord} t @param {number} [now] @returns {number | null} */
export function clockLeft(t, now = performance.now()) {
  return t.deadline === null ? null : Math.max(0, (t.deadline - now) / 1000);
}

/** @param {TableRecord} t @param {number | null | undefined} clock */
function setClock(t, clock) {
  t.deadline = clock === null || clock === undefined ? null : performance.now() + clock * 1000;
  if (clock === null || clock === undefined || clock > CLOCK_WARNING) t.warned = false;
}

/** @param {TableRecord} t @param {LogEntry} line */
function addLog(t, line) {
  t.log.push(line);
  if (t.log.length > MAX_LOG) t.log.splice(0, t.log.length - MAX_LOG);
}

/** An event older than the board, asked for to show how the board came about: filed
 * into the log in seq order, once; any other old event is a duplicate, ignored.
 * @param {TableRecord} t @param {import("../types").EventMessage} msg */
function backfill(t, msg) {
  if (t.backfillTo === null || msg.seq > t.backfillTo) return null;
  if (t.log.some((line) => line.kind === "event" && line.seq === msg.seq)) return null;
  let at = t.log.findIndex((line) => line.kind === "event" && line.seq > msg.seq);
  if (at < 0) at = t.log.length;
  t.log.splice(at, 0, eventLine(msg));
  return "event";
}

/** An event message as a line of the log. @param {import("../types").EventMessage} msg
 * @returns {EventLine} */
function eventLine(msg) {
  return { kind: "event", ev: msg.event || { kind: "" }, seq: msg.seq, text: msg.text ?? null };
}

/** What a snapshot or a turn says this seat may and must do. @param {TableRecord} t
 * @param {import("../types").Snapshot | import("../types").Turn} msg */
function setOffer(t, msg) {
  t.legal = msg.legal || [];
  t.must = msg.must ?? null;
  t.choices = msg.choices || [];
  t.waiting = msg.waiting ?? null;
  t.pendingText = msg.pending_text ?? null;
  t.clockWarning = msg.clock_warning ?? null;
}

export class ClientState {
  constructor() {
    /** @type {string | null} */
    this.name = null;
    this.server = "";
    /** @type {Ruleset[]} */
    this.rulesets = [];
    /** @type {TableSummary[]} the lobby's page shown */
    this.lobby = [];
    /** @type {{start: number, next: number | null, total: number, size: number}} which page it is,
     * of how many tables, and how many tables a page holds (learnt from a page with a next one:
     * the lobby's last page may be shorter) */
    this.lobbyPage = { start: 0, next: null, total: 0, size: 0 };
    /** @type {Map<string, TableRecord>} */
    this.tables = new Map();
    /** @type {string[]} */
    this.notices = [];
    /** @type {{name: string, text: string}[]} the room's shouts, newest last */
    this.shouts = [];
    /** @type {Person[]} who is online, as last asked */
    this.people = [];
    /** @type {{total: number, guests: number, text: string} | null} of the last `people` */
    this.online = null;
  }

  /** The table's record, made when new. @param {string} id @returns {TableRecord} */
  table(id) {
    let t = this.tables.get(id);
    if (!t) this.tables.set(id, (t = newTable(id)));
    return t;
  }

  /** Fold one message in; says what changed (`table`, `event`, `gap`, `talk`, `lobby`, ...).
   * @param {ServerMessage} msg @returns {string | null} */
  handle(msg) {
    switch (msg.type) {
      case "snapshot": {
        const t = this.table(msg.table);
        t.seq = msg.seq;
        t.state = msg.state;
        t.view = msg.view && msg.view.family !== undefined ? msg.view : null;
        if (msg.seat !== undefined && msg.seat !== null) t.seat = msg.seat;
        setOffer(t, msg);
        t.players = msg.players || [];
        t.master = msg.master ?? null;
        if (msg.ruleset) t.ruleset = msg.ruleset;
        t.again = msg.again || [];
        t.resultText = msg.result_text ?? null;
        if (RUNNING.has(msg.state)) {
          t.playedBy = t.players;
          t.rated = null; // a new game: the last one's ratings are its log's
        }
        t.toAct = t.view ? t.view.to_act ?? null : null;
        setClock(t, msg.clock);
        t.synced = true;
        if (t.view && !t.view.over && msg.state !== "over" && t.result && t.result.ev.kind === "game_end") t.result = null;
        return "table";
      }
      case "event": {
        const t = this.table(msg.table);
        if (msg.seq <= t.seq) return backfill(t, msg);
        if (t.synced && msg.seq > t.seq + 1) return "gap";
        t.seq = msg.seq;
        const line = eventLine(msg);
        addLog(t, line);
        const kind = line.ev.kind;
        if (kind === "hand_end" || kind === "game_end") t.result = line;
        // caught up after a resume (no snapshot follows): the game's end is the table's
        if (kind === "game_end" && RUNNING.has(t.state)) t.state = "over";
        else if (kind === "deal" || kind === "cut") t.result = null;
        return "event";
      }
      case "turn": {
        const t = this.table(msg.table);
        if (msg.seat !== undefined && msg.seat !== null && t.seat === null) t.seat = msg.seat;
        t.toAct = msg.to_act ?? null;
        setOffer(t, msg);
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
        addLog(t, { kind: "presence", seat: msg.seat, name: msg.name, what: msg.what, text: msg.text ?? null });
        return "talk";
      }
      case "talk":
        addLog(this.table(msg.table), { kind: "talk", name: msg.name, text: msg.text });
        return "talk";
      case "watcher": {
        // only a table this page is at: one left a moment ago is not opened again by it
        const t = this.tables.get(String(msg.table));
        if (!t) return null;
        const watching = msg.watching ?? 0;
        t.watching = watching;
        addLog(t, { kind: "watcher", name: msg.name ?? null, what: msg.what, watching, text: msg.text ?? null });
        return "talk";
      }
      case "shouted":
        this.shouts.push({ name: msg.name, text: msg.text });
        if (this.shouts.length > MAX_SHOUTS) this.shouts.splice(0, this.shouts.length - MAX_SHOUTS);
        return "shout";
      case "people":
        this.people = msg.people || [];
        this.online = { total: msg.total ?? 0, guests: msg.guests ?? 0, text: msg.text || "" };
        return "lobby";
      case "tables":
        this.lobby = msg.tables || [];
        {
          const start = msg.start ?? 0;
          const next = msg.next ?? null;
          const size = next !== null ? next - start : Math.max(this.lobbyPage.size, this.lobby.length);
          this.lobbyPage = { start, next, total: Math.max(msg.total ?? 0, start + this.lobby.length), size };
        }
        for (const info of this.lobby) {
          const mine = this.tables.get(String(info.table));
          if (mine && typeof info.spectators === "number") mine.watching = info.spectators;
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
        const t = msg.table === undefined || msg.table === null ? undefined : this.tables.get(String(msg.table));
        if (t) addLog(t, { kind: "note", text: msg.text });
        return "notice";
      }
      case "rated": {
        const t = this.tables.get(String(msg.table));
        if (!t) return null;
        t.rated = msg;
        addLog(t, { kind: "note", text: msg.text });
        return "table";
      }
      default:
        return null;
    }
  }

  /** A line from the page itself (an error reply) in a table's log.
   * @param {string | null} table @param {string} text @param {"note" | "error"} [kind] */
  note(table, text, kind = "note") {
    const t = table === null ? undefined : this.tables.get(table);
    if (t) addLog(t, { kind, text });
  }
}

/** The hands of the table's last game, in order: the `hand_end` events the log holds
 * after the game before it (a hand's number only grows within one game).
 * @param {TableRecord} t @returns {EventLine[]} */
export function gameHands(t) {
  /** @type {EventLine[]} */
  const out = [];
  let ended = false;
  for (let i = t.log.length - 1; i >= 0; i--) {
    const line = t.log[i];
    if (line.kind !== "event") continue;
    const kind = line.ev.kind;
    if (kind === "game_end") {
      if (ended || out.length) break; // the game before
      ended = true;
    } else if (kind === "hand_end") {
      const hand = Number(line.ev.hand_number);
      if (out.length && !(hand < Number(out[0].ev.hand_number))) break;
      out.unshift(line);
    }
  }
  return out;
}
