// @ts-check
// The web client: the terminal client's sibling for people without Python. It speaks the
// WebSocket binding of docs/protocol.md, keeps its name's secret and its seats' tokens per
// server in this browser, and shows the same lobby, boards, legal actions, talk and rules.
import { MORE_KEY, keepFocus, keyPages, shortcutIndex, turnWords } from "./a11y.js";
import { TurnAlert, browserEnv } from "./alerts.js";
import { ordered, playFor } from "./boards/legal.js";
import { leaveAsks, leaveQuestion } from "./confirm.js";
import { $, el, fill, who } from "./dom.js";
import { houseRules, plural, profileBody, renderLobby } from "./lobby.js";
import { Connection } from "./net.js";
import { CLOCK_WARNING, ClientState, clockLeft, myTurn } from "./state.js";
import { inviteBody, inviteTable } from "./invite.js";
import { loadSettings, settingsPanel } from "./settings.js";
import { LookBack } from "./review.js";
import { newSecret, store } from "./store.js";
import { boardOf, renderTable } from "./table.js";
import { TournamentDesk, renderTournament, renderTournamentCards } from "./tournament.js";

/** @typedef {import("../types").ServerMessage} ServerMessage */
/** @typedef {import("../types").Reply} Reply */
/** @typedef {import("../types").Welcome} Welcome */
/** @typedef {import("../types").TopPlayer} TopPlayer */
/** @typedef {import("./state.js").TableRecord} TableRecord */
/** @typedef {"connecting" | "offline" | "online"} Status */

/**
 * What the page shows, beside what it knows of the server (`ClientState`).
 * @typedef {object} Screen
 * @property {string} screen name, lobby, table, or none yet
 * @property {string | null} current the table on screen
 * @property {string[]} selection shedding: cards chosen to lay, in order
 * @property {boolean} confirming a selection not in the legal list was tapped once
 * @property {string | null} createRuleset the ruleset chosen in the new table's form
 * @property {Record<string, TopPlayer[]>} top the best rated of each family
 * @property {Status} status
 * @property {boolean} shoutsOff the server answered a shout with not_allowed
 * @property {{name: string, text: string} | null} shoutLine the last shout heard at a table
 * @property {number} [keyPage] which page of keys the actions have (a11y.js's MORE_KEY turns it)
 */

const FAMILIES = ["shedding", "abbott", "kilodney"];
const LOBBY_REFRESH_MS = 5000;
const NAME_RULE = /^[\p{L}\p{N}][\p{L}\p{N}_.-]{0,23}$/u;

export class App {
  constructor() {
    this.state = new ClientState();
    /** the tournaments heard of, and the table a round gives us (tournament.js) */
    this.tour = new TournamentDesk(this);
    /** @type {Screen} */
    this.ui = {
      screen: "none",
      current: null,
      selection: [],
      confirming: false,
      createRuleset: null,
      top: {},
      status: "connecting",
      shoutsOff: false,
      shoutLine: null,
    };
    this.drawing = false;
    this.lookback = new LookBack(this);
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.saving = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.toastTimer = undefined;
    this.settings = loadSettings();
    this.alerts = new TurnAlert(this.settings, browserEnv());
    this.applySettings();
    /** @type {string | null} the table an invite link (`/t/ID`) opens, once named */
    this.inviteTo = inviteTable(location.pathname);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.conn = new Connection(`${scheme}//${location.host}/ws`, {
      onMessage: (msg) => this.onMessage(msg),
      onOpen: (welcome) => this.onOpen(welcome),
      onStatus: (status) => this.setStatus(status),
    });
    this.wire();
    this.conn.open();
    setInterval(() => this.tick(), 250);
    setInterval(() => {
      if (this.ui.screen === "lobby" && this.conn.ready && this.state.name) this.refreshLobby();
    }, LOBBY_REFRESH_MS);
  }

  // ---- connection ----------------------------------------------------------------

  /** @param {Welcome} welcome */
  async onOpen(welcome) {
    this.state.server = welcome.server || "";
    const linked = this.lookback.fromLink(); // a game's link: its replay, named or not
    const known = store.identity();
    if (known) {
      const reply = await this.conn.request({ type: "claim_name", name: known.name, secret: known.secret });
      if (reply.type === "named") {
        await this.afterNamed();
        return;
      }
      this.toast(errorText(reply));
    }
    if (!linked) this.show("name");
  }

  async afterNamed() {
    fill($("#me"), this.state.name);
    $("#me").hidden = false;
    if (this.ui.screen === "name" || this.ui.screen === "none") this.show("lobby");
    this.conn.request({ type: "list_rulesets" });
    await this.refreshLobby();
    this.refreshTop();
    await this.takeSeatsBack();
    await this.openInvite();
    this.render();
  }

  /** The table the page was opened at by its invite link: the seat held there, else a
   * free seat (the server's join), else watching it. */
  async openInvite() {
    const table = this.inviteTo;
    if (table === null) return;
    this.inviteTo = null;
    history.replaceState(null, "", "/");
    const held = this.state.tables.get(table);
    if (held && held.token) return this.open(table);
    const seated = await this.conn.request({ type: "join", table });
    if (seated.type === "seated") {
      this.open(table);
      this.persistSoon();
    } else {
      const watched = await this.conn.request({ type: "spectate", table });
      if (watched.type === "error") return this.toast(errorText(watched));
      this.open(table);
    }
    this.catchUpLog(table);
  }

  /** Every seat this browser held here, by its kept token, from the last seq it applied;
   * tables watched on this page are watched again from theirs. */
  async takeSeatsBack() {
    const kept = store.seats();
    let first = null;
    for (const [table, entry] of Object.entries(kept)) {
      let t = this.state.tables.get(table);
      if (!t) {
        t = this.state.table(table);
        t.seq = entry.seq || 0;
        t.seat = entry.seat ?? null;
        t.token = entry.token;
        t.players = entry.players || [];
        t.master = entry.master ?? null;
        t.state = entry.state || t.state;
        t.log = store.log(table);
        t.synced = true; // the kept seq is the last event applied: a later jump is a gap
      }
      const reply = await this.conn.request({ type: "resume", table, token: entry.token, last_seq: t.seq });
      // caught up, a resume brings no snapshot: the kept state may be stale (a game ended)
      if (reply.type === "seated") this.conn.request({ type: "look", table });
      if (reply.type === "seated") first ??= table;
      else {
        store.forgetSeat(table);
        this.state.tables.delete(table);
      }
    }
    for (const t of [...this.state.tables.values()]) {
      if (t.seat === null && !kept[t.table]) this.conn.request({ type: "spectate", table: t.table, last_seq: t.seq });
    }
    if (first !== null && (this.ui.current === null || !this.state.tables.has(this.ui.current))) this.open(first);
    else if (this.ui.current !== null && !this.state.tables.has(this.ui.current)) this.show("lobby");
  }

  /** The lobby's page from its `start`-th table (the server sends the lobby a page at a
   * time, the waiting tables first); by default the page shown now, asked again.
   * @param {number} [start] */
  listTables(start) {
    return this.conn.request({ type: "list_tables", start: start ?? this.state.lobbyPage.start });
  }

  /** The table list and who is online, as the terminal client's lobby asks them together. */
  async refreshLobby() {
    this.conn.request({ type: "who" });
    this.tour.refresh();
    await this.listTables();
  }

  /** @param {Status} status */
  setStatus(status) {
    this.ui.status = status;
    /** @type {Record<Status, string>} */
    const words = { connecting: "connecting…", offline: "offline: reconnecting…", online: "" };
    fill($("#status"), words[status] ?? status);
    document.body.classList.toggle("offline", status !== "online");
  }

  /** @param {ServerMessage} msg */
  onMessage(msg) {
    const changed = this.state.handle(msg);
    this.tour.handle(msg);
    this.lookback.onMessage(msg);
    const t = "table" in msg && msg.table !== undefined && msg.table !== null ? this.state.tables.get(String(msg.table)) : undefined;
    if (changed === "gap" && t) {
      if (t.token) this.conn.request({ type: "resume", table: t.table, token: t.token, last_seq: t.seq });
      else this.conn.request({ type: "spectate", table: t.table, last_seq: t.seq });
    }
    if (msg.type === "event" && msg.event && msg.event.kind === "game_end") this.listTables();
    if (msg.type === "rated") this.refreshTop(); // the ratings are stored
    if (msg.type === "snapshot" || msg.type === "turn") this.keepSelectionValid();
    if (msg.type === "notice") this.toast(msg.text);
    if (msg.type === "shouted" && this.ui.screen === "table") this.ui.shoutLine = { name: msg.name, text: msg.text };
    if (msg.type === "goodbye") {
      this.toast(`The server said goodbye: ${msg.text || msg.code}`);
      if (["banned", "kicked", "quit"].includes(msg.code)) this.conn.stop();
    }
    if (msg.type === "error" && (msg.id === undefined || msg.id === null)) this.toast(msg.text || msg.code);
    if (t && t.token) this.persistSoon();
    this.alerts.update(this.state.tables.values());
    this.render();
  }

  /** Keep every held seat's token, seq, players and log (soon: a burst of messages is
   * one write; and at once when the page goes away, so a reload loses none of them). */
  persistSoon() {
    if (this.saving) return;
    this.saving = setTimeout(() => this.persistNow(), 200);
  }

  persistNow() {
    if (this.saving !== null) clearTimeout(this.saving);
    this.saving = null;
    for (const t of this.state.tables.values()) {
      if (!t.token) continue;
      const { token, seat, seq, players, master, state } = t;
      store.keepSeat(t.table, { token, seat, seq, players, master, state });
      store.keepLog(t.table, t.log);
    }
  }

  // ---- what a person does -----------------------------------------------------

  /** Play under `name`, with the secret given, or the one kept for it here (made if none).
   * @param {string} name @param {string | null} given @returns {Promise<Reply>} */
  async claim(name, given) {
    const known = store.identity();
    const secret = given || (known && known.name === name ? known.secret : null) || store.secretFor(name);
    const reply = await this.conn.request({ type: "claim_name", name, secret });
    if (reply.type !== "named") return reply;
    store.secretFor(reply.name, secret);
    store.setName(reply.name);
    await this.afterNamed();
    return reply;
  }

  /** @returns {Promise<Reply>} */
  async claimGuest() {
    for (let i = 0; i < 4; i++) {
      const digits = new Uint16Array(1);
      crypto.getRandomValues(digits);
      const name = `guest-${1000 + (digits[0] % 9000)}`;
      const secret = newSecret();
      const reply = await this.conn.request({ type: "claim_name", name, secret });
      if (reply.type === "named") {
        store.secretFor(reply.name, secret);
        store.setName(reply.name);
        await this.afterNamed();
        return reply;
      }
      if (reply.type !== "error" || reply.code !== "name_taken") return reply;
    }
    return { type: "error", code: "name_taken", text: "no free guest name: pick a name" };
  }

  /** @param {string} table */
  async join(table) {
    const reply = await this.conn.request({ type: "join", table });
    if (reply.type !== "seated") return this.toast(errorText(reply));
    this.open(table);
    this.persistSoon();
    this.catchUpLog(table);
  }

  /** @param {string} table */
  async watch(table) {
    const reply = await this.conn.request({ type: "spectate", table });
    if (reply.type === "error") return this.toast(errorText(reply));
    this.open(table);
    this.catchUpLog(table);
  }

  /** A table joined or watched mid-game: its snapshot has the board, not how it came
   * about, so the last events of the game are asked for, for the log only (from 40
   * back; from fewer when a snapshot comes instead: the game is younger than that).
   * @param {string} table @param {number} [back] */
  async catchUpLog(table, back = 40) {
    /** @param {number} ms @returns {Promise<void>} */
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let i = 0; i < 20 && !this.state.tables.get(table)?.synced; i++) await sleep(100);
    const t = this.state.tables.get(table);
    if (!t || t.seq <= 1 || !["playing", "paused", "over"].includes(t.state)) return;
    const newest = (t.backfillTo = t.seq);
    for (let n = back; n >= 2; n = Math.floor(n / 2)) {
      const since = Math.max(1, newest - n);
      if (since >= newest) continue;
      const had = t.log.length;
      const reply = t.token
        ? await this.conn.request({ type: "resume", table, token: t.token, last_seq: since })
        : await this.conn.request({ type: "spectate", table, last_seq: since });
      if (reply.type === "error") return;
      await sleep(300);
      if (t.log.length > had) return;
    }
  }

  /** Make a table, sit down at it and put `bots` bots in the other seats (all of them:
   * the game starts at once). @param {string} ruleset @param {number} seats
   * @param {number} bots @param {Record<string, unknown>} options */
  async create(ruleset, seats, bots, options) {
    const made = await this.conn.request({ type: "create_table", ruleset, seats, options });
    if (made.type !== "ok" || !made.table) return this.toast(errorText(made));
    const table = made.table;
    const seated = await this.conn.request({ type: "join", table });
    if (seated.type !== "seated") return this.toast(errorText(seated));
    this.open(table);
    this.persistSoon();
    if (bots >= seats - 1) {
      await this.tableRequest("start_game", table);
      return;
    }
    for (let seat = seats - 1, placed = 0; seat >= 0 && placed < bots; seat--) {
      if (seat === seated.seat) continue;
      await this.tableRequest("seat_bot", table, { seat });
      placed++;
    }
  }

  /** Leave the table on screen; a seat in a running game only after the question.
   * @param {boolean} [asked] the question was answered "leave" */
  async leave(asked = false) {
    const table = this.ui.current;
    if (table === null) return this.show("lobby");
    const d = $("#dialog", HTMLDialogElement);
    if (!asked && leaveAsks(this.table())) return this.dialog("Leave the game?", leaveQuestion(() => (d.close(), this.leave(true)), () => d.close()));
    const reply = await this.conn.request({ type: "leave", table });
    if (reply.type === "error" && reply.code !== "no_table" && reply.code !== "no_seat") return this.toast(errorText(reply));
    store.forgetSeat(table);
    this.state.tables.delete(table);
    this.ui.current = null;
    this.show("lobby");
    this.listTables();
  }

  /** @param {string} type @param {string} table @param {Record<string, unknown>} [extra] */
  async tableRequest(type, table, extra = {}) {
    const reply = await this.conn.request({ type, table, ...extra });
    if (reply.type === "error") {
      this.state.note(table, errorText(reply), "error");
      this.toast(errorText(reply));
    }
    this.render();
    return reply;
  }

  /** Give the keys to the next page of actions (where they outnumber the keys). */
  nextKeys() {
    const t = this.table();
    const pages = t ? keyPages(ordered(t.choices, t.legal).length) : 1;
    this.ui.keyPage = ((this.ui.keyPage || 0) + 1) % pages;
    this.render();
  }

  /** @param {string} action */
  async act(action) {
    const t = this.table();
    if (!t) return;
    this.ui.confirming = false;
    this.ui.keyPage = 0; // the next turn's keys start on their first page
    const reply = await this.conn.request({ type: "act", table: t.table, action });
    if (reply.type === "ok") this.ui.selection = [];
    else {
      this.state.note(t.table, `${action}: ${errorText(reply)}`, "error");
      this.toast(errorText(reply));
    }
    this.render();
  }

  /** @param {string} text */
  async say(text) {
    const t = this.table();
    if (!t || !text.trim()) return;
    const reply = await this.conn.request({ type: "say", table: t.table, text });
    if (reply.type === "error") this.toast(errorText(reply));
  }

  /** A shout to everyone online; a server with shouts off says `not_allowed`, and the
   * shout line goes away for the rest of the visit. @param {string} text */
  async shout(text) {
    if (!text.trim()) return;
    const reply = await this.conn.request({ type: "shout", text });
    if (reply.type !== "error") return;
    if (reply.code === "not_allowed") {
      this.ui.shoutsOff = true;
      this.render();
    }
    this.toast(errorText(reply));
  }

  /** @param {string} card */
  tapCard(card) {
    const t = this.table();
    if (!t) return;
    const board = boardOf(t);
    if (board && !board.selects) {
      const action = `play ${card}`;
      if (myTurn(t) && t.legal.includes(action)) this.act(action);
      else this.toast(myTurn(t) ? `${card} cannot be played now` : "not your turn");
      return;
    }
    const at = this.ui.selection.indexOf(card);
    if (at >= 0) this.ui.selection.splice(at, 1);
    else this.ui.selection.push(card);
    this.ui.confirming = false;
    this.render();
  }

  /** Lay the selected cards: the listed play (with its `last` if that is how it is
   * listed); a play not listed (the table may punish it) is sent on a second tap. */
  playSelection() {
    const t = this.table();
    const sel = this.ui.selection;
    if (!t || !sel.length || !myTurn(t)) return;
    const listed = playFor(sel, t.legal);
    if (listed) return this.act(listed);
    if (this.ui.confirming) return this.act(`play ${sel.join(" ")}`);
    this.ui.confirming = true;
    this.toast("That play is not among the legal ones: the table may punish it. Tap again to play it anyway.");
    this.render();
  }

  clearSelection() {
    this.ui.selection = [];
    this.ui.confirming = false;
    this.render();
  }

  keepSelectionValid() {
    const t = this.table();
    const hand = (t && t.view && "hand" in t.view && t.view.hand) || [];
    this.ui.selection = this.ui.selection.filter((c) => hand.includes(c));
  }

  // ---- dialogs: rules, finger, top ----------------------------------------------

  /** @param {string} title @param {...import("../types").Child} body */
  dialog(title, ...body) {
    fill($("#dialog-title"), title);
    fill($("#dialog-body"), ...body);
    const d = $("#dialog", HTMLDialogElement);
    if (!d.open) d.showModal();
  }

  async openRules() {
    const t = this.table();
    /** The table as the lobby lists it: its house rules in the server's words. */
    const listed = () => this.state.lobby.find((x) => String(x.table) === (t && t.table));
    if (t && !listed()) await this.listTables();
    const named = (t && t.ruleset) || (listed() || {}).ruleset; // a waiting table's, from its snapshot
    const family = t && t.view ? t.view.family : (this.state.rulesets.find((r) => r.name === named) || {}).family;
    if (!family) return this.toast("The rules show once the game's family is known");
    let text;
    try {
      const response = await fetch(`/rules/${encodeURIComponent(family)}`);
      text = response.ok ? await response.text() : `No rules page for ${family} here.`;
    } catch {
      text = "The rules could not be fetched.";
    }
    const options = houseRules(listed(), t && t.view);
    this.dialog(
      `Rules: ${family}`,
      options.length ? el("p", { class: "house-rules" }, el("b", { text: "This table's house rules: " }), options.join(", ")) : null,
      el("pre", { class: "rules", id: "rules-text", text }),
    );
  }

  /** @param {string | null} name */
  async finger(name) {
    const reply = await this.conn.request({ type: "get_profile", name: name || null });
    if (reply.type !== "profile") return this.playersDialog(el("p", { class: "error", text: errorText(reply) }));
    const mine = reply.name === this.state.name ? store.identity() : null;
    this.playersDialog(
      el(
        "div",
        { class: "profile", id: "profile" },
        profileBody(reply, (table, game) => this.lookback.open(table, game)),
        mine ? el("details", {}, el("summary", { text: "Your secret (to use this name on another device)" }), el("code", { class: "secret", text: mine.secret })) : null,
        mine ? el("button", { type: "button", id: "other-name", onclick: () => this.otherName() }, "Play under another name") : null,
      ),
    );
  }

  /** Back to the name screen (the secret of this name stays kept, to come back to it). */
  otherName() {
    const held = [...this.state.tables.values()].some((t) => t.token);
    if (held) return this.toast("Leave your tables first: a seat keeps the name it was taken under");
    $("#dialog", HTMLDialogElement).close();
    store.forgetName();
    $("#me").hidden = true;
    this.show("name");
  }

  /** @param {string} family */
  async top(family) {
    const reply = await this.conn.request({ type: "get_top", family });
    if (reply.type !== "top") return this.playersDialog(el("p", { class: "error", text: errorText(reply) }));
    const rows = (reply.players || []).map((p) =>
      el("li", {}, el("button", { type: "button", class: "link", onclick: () => this.finger(p.name) }, who(p.name)), ` ${Math.round(p.rating)} · ${plural(p.games, "game")}`),
    );
    this.playersDialog(el("div", { id: "top" }, el("h3", { text: `Best rated: ${reply.family}` }), rows.length ? el("ol", {}, rows) : el("p", { class: "dim", text: "nobody rated yet" })));
  }

  /** @param {HTMLElement | null} [result] */
  playersDialog(result = null) {
    const nameInput = el("input", { id: "finger-name", name: "finger", autocapitalize: "off", placeholder: this.state.name || "name" });
    const familySelect = el("select", { id: "top-family" }, FAMILIES.map((f) => el("option", { value: f }, f)));
    const fingerForm = el("form", { class: "row" }, el("label", { for: "finger-name", class: "sr-only", text: "Name" }), nameInput, el("button", { type: "submit", id: "finger-go" }, "Finger"));
    fingerForm.addEventListener("submit", (e) => {
      e.preventDefault();
      this.finger(nameInput.value.trim() || this.state.name);
    });
    const topForm = el("form", { class: "row" }, el("label", { for: "top-family", class: "sr-only", text: "Family" }), familySelect, el("button", { type: "submit", id: "top-go" }, "Top"));
    topForm.addEventListener("submit", (e) => {
      e.preventDefault();
      this.top(familySelect.value);
    });
    this.dialog("Players", fingerForm, topForm, el("div", { class: "dialog-result" }, result));
  }

  async refreshTop() {
    for (const family of FAMILIES) {
      const reply = await this.conn.request({ type: "get_top", family, count: 5 });
      if (reply.type === "top") this.ui.top[family] = reply.players || [];
    }
    this.render();
  }

  // ---- screens ------------------------------------------------------------------

  table() {
    return this.ui.current === null ? null : this.state.tables.get(this.ui.current) || null;
  }

  /** @param {string} table */
  open(table) {
    if (this.ui.current !== table) this.ui.selection = [];
    this.ui.current = table;
    this.show("table");
    requestAnimationFrame(() => {
      const log = $("#log");
      log.scrollTop = log.scrollHeight;
    });
  }

  /** @param {string} screen */
  show(screen) {
    this.ui.screen = screen;
    for (const id of ["name-screen", "lobby", "table", "tournament", "replay"]) $(`#${id}`).hidden = true;
    $(`#${screen === "name" ? "name-screen" : screen}`).hidden = false;
    if (screen === "name") setTimeout(() => $("#name-input").focus(), 0);
    this.render();
  }

  render() {
    if (this.drawing) return;
    this.drawing = true;
    requestAnimationFrame(() => {
      this.drawing = false;
      if (this.ui.screen === "lobby") {
        keepFocus($("#lobby"), () => renderLobby(this, $("#lobby")));
        renderTournamentCards(this, $("#lobby"));
      } else if (this.ui.screen === "tournament") renderTournament(this, $("#tournament"));
      else if (this.ui.screen === "replay") this.lookback.render();
      else if (this.ui.screen === "table") {
        const t = this.table();
        if (t) keepFocus($("#table-main"), () => renderTable(this, t));
        this.announceTurn(t);
      }
      this.tick();
    });
  }

  /** Whose turn it is, in the live region a screen reader follows (said when it changes).
   * @param {TableRecord | null} t */
  announceTurn(t) {
    const view = t && t.view;
    const waiting = t !== null && t.state === "playing" && view && !view.over ? t.waiting : null;
    const words = t === null ? "" : turnWords({ mine: myTurn(t), must: t.must, choices: t.choices, waiting });
    const live = $("#turn-live");
    if (live.textContent !== words) live.textContent = words;
  }

  /** The settings as they are now, on the page (the four-colour deck). */
  applySettings() {
    document.body.classList.toggle("four-colour", this.settings.fourColour);
  }

  /** The turn clock, counting down; red with a line in the log at 10 s on our turn. */
  tick() {
    this.tour.tick();
    const t = this.table();
    const clock = $("#clock");
    const left = t && t.state === "playing" ? clockLeft(t) : null;
    if (t === null || left === null) {
      clock.textContent = "";
      clock.className = "clock";
      return;
    }
    const s = Math.ceil(left);
    clock.textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    const warn = myTurn(t) && left <= CLOCK_WARNING;
    clock.className = `clock${warn ? " warn" : ""}${myTurn(t) ? " mine" : ""}`;
    if (warn && !t.warned) {
      t.warned = true;
      // the server's words for it (a server that sends none: the red clock says it)
      if (t.clockWarning) {
        this.state.note(t.table, t.clockWarning, "error");
        this.toast(t.clockWarning);
      }
      this.render();
    }
  }

  /** @param {string | null | undefined} text */
  toast(text) {
    const box = $("#toast");
    box.textContent = String(text || "");
    box.hidden = !text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (box.hidden = true), 4000);
  }

  // ---- wiring ------------------------------------------------------------------

  wire() {
    $("#name-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = $("#name-input", HTMLInputElement).value.trim();
      if (!NAME_RULE.test(name)) {
        fill($("#name-error"), "A name is 1 to 24 letters, digits, _ - or ., starting with a letter or digit.");
        return;
      }
      const reply = await this.claim(name, $("#secret-input", HTMLInputElement).value.trim() || null);
      fill($("#name-error"), reply.type === "named" ? "" : reply.type === "error" && reply.code === "name_taken" ? "That name belongs to someone else (or your secret is not its secret)." : errorText(reply));
    });
    $("#guest").addEventListener("click", async () => {
      const reply = await this.claimGuest();
      fill($("#name-error"), reply.type === "named" ? "" : errorText(reply));
    });
    $("#lobby-btn").addEventListener("click", () => {
      if (this.state.name) {
        this.show("lobby");
        this.refreshLobby();
      }
    });
    $("#me").addEventListener("click", () => this.finger(this.state.name));
    $("#players-btn").addEventListener("click", () => this.playersDialog());
    $("#rules-btn").addEventListener("click", () => this.openRules());
    $("#leave-btn").addEventListener("click", () => this.leave());
    $("#settings-btn").addEventListener("click", () => this.dialog("Settings", settingsPanel(this.settings, () => this.applySettings())));
    $("#invite-btn").addEventListener("click", () => this.ui.current !== null && this.dialog(`Invite to table ${this.ui.current}`, inviteBody(location.origin, this.ui.current)));
    // a browser sounds a page only after a gesture: the first one readies the turn's tone
    for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, () => this.alerts.unlock(), { once: true });
    $("#talk-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("#talk", HTMLInputElement);
      this.say(input.value);
      input.value = "";
    });
    document.addEventListener("keydown", (e) => this.key(e));
    window.addEventListener("pagehide", () => this.persistNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.persistNow();
    });
  }

  /** Keys for play on a desktop: 1-9, then a-z (but t and r) pick a legal action, Enter plays the selection,
   * t talks, r shows the rules, Escape clears the selection. @param {KeyboardEvent} e */
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const typing = e.target instanceof HTMLElement && e.target.closest("input, textarea, select");
    if (typing) {
      if (e.key === "Escape") e.target.blur();
      return;
    }
    if (this.ui.screen === "replay" && !$("#dialog", HTMLDialogElement).open) {
      this.lookback.key(e);
      return;
    }
    if (this.ui.screen !== "table" || $("#dialog", HTMLDialogElement).open) return;
    const t = this.table();
    if (!t) return;
    const list = ordered(t.choices, t.legal);
    const pages = keyPages(list.length);
    if (e.key === MORE_KEY && pages > 1 && myTurn(t)) {
      e.preventDefault();
      this.nextKeys();
      return;
    }
    const action = list[shortcutIndex(e.key, (this.ui.keyPage || 0) % pages)];
    if (action && myTurn(t)) {
      e.preventDefault();
      this.act(action);
    } else if (e.key === "Enter" && this.ui.selection.length && (!(e.target instanceof HTMLButtonElement) || e.target.closest(".hand"))) {
      // (on a card of the hand too, which keeps the focus: Space selects it, Enter plays)
      e.preventDefault();
      this.playSelection();
    } else if (e.key === "t") {
      e.preventDefault();
      $("#talk").focus();
    } else if (e.key === "r") {
      e.preventDefault();
      this.openRules();
    } else if (e.key === "Escape") this.clearSelection();
  }
}

/** An error reply's words for a person: its text, else its code. @param {Reply} reply */
function errorText(reply) {
  return ("text" in reply && reply.text) || ("code" in reply && reply.code) || reply.type;
}

/** @type {any} */ (window).switchboard = new App();
