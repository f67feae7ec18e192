// @ts-check
// Looking back at a finished game, in the browser: its replay (`replay.js`), the shared
// review (anyone at the table leads with `review`, the others `follow` him and may step
// away and back; talk goes on beside it), the server's analysis (`analyse`, a progress bar
// from `analysis_progress`, then the marks at their steps and each player's summary), the
// download of the record, and the hint on one's turn in a game against bots. The app
// calls four hooks: `onMessage`, `render`, `key` and `tableBar`.
import { $, el, fill } from "./dom.js";
import { fetchReplay, gameLink, parseGameLink, renderReplay, summary, swipeable } from "./replay.js";
import { myTurn } from "./state.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("./state.js").TableRecord} TableRecord */
/** @typedef {import("./replay.js").ReplayModel} ReplayModel */
/** @typedef {import("../types").ServerMessage} ServerMessage */
/** @typedef {import("../types").Reply} Reply */
/** @typedef {import("../types").AnalysisBody} AnalysisBody */

/** A leader's steps are sent at most this often (the server allows 10 a second). */
const STEP_MS = 120;

/** An error reply's words. @param {Reply} reply */
function said(reply) {
  return ("text" in reply && reply.text) || ("code" in reply && reply.code) || reply.type;
}

/** Whether every seat but `seat` is a bot's (a hint is given only there).
 * @param {TableRecord} t */
export function againstBots(t) {
  return t.seat !== null && t.players.every((p, seat) => seat === t.seat || (p !== null && p.startsWith("bot:")));
}

/** `table-game`, the key of a game's analysis and review. @param {string} table @param {number} game */
const key = (table, game) => `${table}-${game}`;

export class LookBack {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** @type {ReplayModel | null} */
    this.model = null;
    /** the screen to go back to when the replay closes */
    this.back = "lobby";
    /** @type {Map<string, Map<string, number>>} table -> each leader's step now */
    this.leaders = new Map();
    /** @type {Map<string, number>} table -> the game its review is of */
    this.reviewed = new Map();
    /** @type {{table: string, name: string} | null} whose review this page follows */
    this.following = null;
    /** @type {{table: string, name: string} | null} the leader stepped away from */
    this.away = null;
    /** whether this page leads the review of the model's game */
    this.leading = false;
    /** @type {Map<string, {done: number, total: number}>} analyses under way */
    this.progress = new Map();
    /** @type {Map<string, AnalysisBody>} analyses come */
    this.analyses = new Map();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.sending = null;
    this.linkOpened = false;
  }

  // ---- hooks the app calls --------------------------------------------------------

  /** Fold a message in; whether the page should be drawn again. @param {ServerMessage} msg */
  onMessage(msg) {
    switch (msg.type) {
      case "reviewing": {
        const leaders = this.leaders.get(msg.table) || new Map();
        if (this.reviewed.get(msg.table) !== msg.game) leaders.clear();
        this.reviewed.set(msg.table, msg.game);
        leaders.set(msg.leader, msg.step);
        this.leaders.set(msg.table, leaders);
        const f = this.following;
        if (f && f.table === msg.table && f.name === msg.leader && this.showing(msg.table, msg.game)) {
          /** @type {ReplayModel} */ (this.model).go(msg.step);
        }
        return true;
      }
      case "analysis_progress":
        this.progress.set(key(msg.table, msg.game), { done: msg.done, total: msg.total });
        return true;
      case "analysis":
        this.progress.delete(key(msg.table, msg.game));
        this.analyses.set(key(msg.table, msg.game), msg.analysis);
        if (this.showing(msg.table, msg.game)) /** @type {ReplayModel} */ (this.model).setAnalysis(msg.analysis);
        return true;
      case "snapshot":
        if (msg.state === "playing") this.leaders.delete(msg.table); // a new game: the review is over
        return false;
      default:
        return false;
    }
  }

  /** Whether the replay on screen is of that game. @param {string} table @param {number} game */
  showing(table, game) {
    return this.model !== null && this.model.table === table && this.model.game === game;
  }

  /** Open the replay a `/g/TABLE-GAME` link names (once a visit); whether it did. */
  fromLink() {
    const linked = parseGameLink(location.pathname);
    if (!linked || this.linkOpened) return false;
    this.linkOpened = true;
    this.open(linked.table, linked.game);
    return true;
  }

  /** Arrow keys and Home/End step; Escape closes. Whether the key was the replay's.
   * @param {KeyboardEvent} e */
  key(e) {
    const model = this.model;
    if (!model) return false;
    /** @type {Record<string, () => number>} */
    const moves = { ArrowLeft: () => model.at - 1, ArrowRight: () => model.at + 1, Home: () => 0, End: () => model.total };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      this.go(move());
      return true;
    }
    if (e.key === "Escape") {
      this.close();
      return true;
    }
    return false;
  }

  // ---- the replay ------------------------------------------------------------------

  /** Open game `game` of `table`'s replay (its steps from the server).
   * @param {string} table @param {number} game */
  async open(table, game) {
    const app = this.app;
    if (app.ui.screen !== "replay") this.back = app.ui.screen === "table" ? "table" : app.state.name ? "lobby" : "name";
    if (!this.showing(table, game)) {
      this.leading = false;
      this.following = null;
      this.away = null;
    }
    const dialog = document.querySelector("dialog#dialog");
    if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
    app.show("replay");
    if (this.showing(table, game) && this.model && this.model.complete()) return this.model;
    const { model, error } = await fetchReplay((msg) => app.conn.request(msg), table, game);
    if (!model) {
      app.toast(error ? said(error) : "no replay");
      this.close();
      return null;
    }
    const t = app.state.tables.get(table);
    model.seat = t && t.seat !== null ? t.seat : null;
    const kept = this.analyses.get(key(table, game));
    if (kept) model.setAnalysis(kept);
    this.model = model;
    if (history.replaceState && location.pathname !== gameLink(table, game)) history.replaceState(null, "", gameLink(table, game));
    app.render();
    return model;
  }

  /** The replay of the table's last game. @param {TableRecord} t */
  async openTable(t) {
    const game = await this.lastGame(t.table);
    return game === null ? null : this.open(t.table, game);
  }

  /** The number of a table's last game: the lobby's listing knows it, else a record page.
   * @param {string} table @returns {Promise<number | null>} */
  async lastGame(table) {
    const listed = this.app.state.lobby.find((x) => String(x.table) === table);
    if (listed && listed.game) return listed.game;
    const reply = await this.app.conn.request({ type: "get_record", table, start: 1e9 });
    if (reply.type === "record" && reply.game) return reply.game;
    this.app.toast(said(reply));
    return null;
  }

  close() {
    this.stepAway(false);
    this.model = null;
    this.leading = false;
    if (location.pathname.startsWith("/g/") && history.replaceState) history.replaceState(null, "", "/");
    this.app.show(this.back === "table" && this.app.table() ? "table" : this.app.state.name ? "lobby" : "name");
  }

  /** Step to `step`; a leader's step is sent (the last of a burst), a follower who steps
   * steps away from his leader. @param {number} step */
  go(step) {
    const model = this.model;
    if (!model) return;
    model.go(step);
    if (this.following) this.stepAway(true);
    if (this.leading) this.sendStep();
    this.app.render();
  }

  sendStep() {
    if (this.sending !== null) return;
    this.sending = setTimeout(() => {
      this.sending = null;
      const model = this.model;
      if (!model || !this.leading) return;
      this.app.conn.request({ type: "review", table: model.table, step: model.at }).then((reply) => {
        if (reply.type === "error") this.app.toast(said(reply));
      });
    }, STEP_MS);
  }

  // ---- the shared review -------------------------------------------------------------

  /** Lead the review of the table's last game from the step on screen (opened first). */
  async lead() {
    const model = this.model;
    if (!model) return;
    this.stepAway(false);
    const reply = await this.app.conn.request({ type: "review", table: model.table, step: model.at });
    if (reply.type === "error") return this.app.toast(said(reply));
    this.leading = true;
    this.app.render();
  }

  /** Follow `name`'s review at `table` (opening its replay). @param {string} table @param {string} name */
  async follow(table, name) {
    const game = this.reviewed.get(table) ?? (await this.lastGame(table));
    if (game === null) return;
    if (!this.showing(table, game)) await this.open(table, game);
    this.leading = false;
    this.following = { table, name };
    this.away = null;
    const reply = await this.app.conn.request({ type: "follow", table, name });
    if (reply.type === "error") {
      this.following = null;
      this.app.toast(said(reply));
    }
    this.app.render();
  }

  /** Stop following (kept as the leader to come back to when `back`). @param {boolean} back */
  stepAway(back) {
    const f = this.following;
    if (!f) return;
    this.following = null;
    this.away = back ? f : null;
    this.app.conn.request({ type: "follow", table: f.table });
  }

  // ---- analysis, download, hint --------------------------------------------------------

  /** Ask for the analysis of a table's game: kept ones come at once, else its progress.
   * @param {string} table @param {number | null} game */
  async analyse(table, game) {
    const reply = await this.app.conn.request({ type: "analyse", table, game });
    if (reply.type === "analysis") this.onMessage(reply);
    else if (reply.type === "error") this.app.toast(said(reply));
    else if (game !== null && !this.progress.has(key(table, game))) this.progress.set(key(table, game), { done: 0, total: 0 });
    this.app.render();
  }

  download() {
    const model = this.model;
    if (!model || !model.complete()) return;
    const blob = new Blob([JSON.stringify(model.record(), null, 1)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: `switchboard-table${model.table}-game${model.game}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  /** @param {TableRecord} t */
  async hint(t) {
    const reply = await this.app.conn.request({ type: "hint", table: t.table });
    const text = reply.type === "hinted" ? reply.text || `hint: ${reply.best}` : said(reply);
    this.app.state.note(t.table, text, reply.type === "hinted" ? "note" : "error");
    this.app.toast(text);
    this.app.render();
  }

  // ---- drawing ------------------------------------------------------------------------

  /** What the table screen shows of looking back: at a finished game Replay, Review
   * together, Follow (each leader), Analyse (with its progress) and Download; on one's
   * turn against bots, Hint. @param {TableRecord} t */
  tableBar(t) {
    if (t.state === "playing" && myTurn(t) && againstBots(t)) {
      return el("div", { class: "row lookback", id: "lookback" }, el("button", { type: "button", id: "hint", onclick: () => this.hint(t) }, "Hint"));
    }
    if (t.state !== "over") return null;
    const me = this.app.state.name;
    const leaders = [...(this.leaders.get(t.table) || new Map()).keys()].filter((n) => n !== me);
    const game = this.reviewed.get(t.table) ?? null;
    const progress = game !== null ? this.progress.get(key(t.table, game)) : [...this.progress.entries()].find(([k]) => k.startsWith(`${t.table}-`))?.[1];
    return el(
      "div",
      { class: "row lookback", id: "lookback" },
      el("button", { type: "button", id: "replay-open", onclick: () => this.openTable(t) }, "Replay"),
      el("button", { type: "button", id: "review-lead", onclick: async () => (await this.openTable(t)) && this.lead() }, "Review together"),
      leaders.map((name) => el("button", { type: "button", class: "follow", dataset: { leader: name }, onclick: () => this.follow(t.table, name) }, `Follow ${name}`)),
      el("button", { type: "button", id: "analyse-table", onclick: async () => this.analyse(t.table, await this.lastGame(t.table)) }, "Analyse"),
      progress ? el("progress", { id: "analysis-progress-table", max: String(progress.total || 1), value: String(progress.done) }) : null,
    );
  }

  /** The review's controls for the replay on screen, at a table the page is at.
   * @param {ReplayModel} model */
  reviewBox(model) {
    const t = this.app.state.tables.get(model.table);
    const reviewed = this.reviewed.get(model.table);
    const listed = this.app.state.lobby.find((x) => String(x.table) === model.table);
    const last = reviewed ?? (listed && listed.game) ?? model.game;
    if (!t || t.state !== "over" || last !== model.game) return null; // a review is of the table's last game
    const me = this.app.state.name;
    const leaders = [...(this.leaders.get(model.table) || new Map()).entries()].filter(([n]) => n !== me);
    const f = this.following;
    const status = this.leading ? "You lead the review: the others may follow you." : f ? `Following ${f.name}.` : this.away ? `You stepped away from ${this.away.name}'s review.` : "";
    return el(
      "section",
      { class: "review-box", id: "review-box" },
      el("h2", { text: "Review together" }),
      status ? el("p", { id: "review-status", text: status }) : null,
      el(
        "div",
        { class: "row" },
        this.leading ? null : el("button", { type: "button", id: "review-lead-here", onclick: () => this.lead() }, "Lead"),
        leaders.map(([name, step]) =>
          f && f.name === name ? null : el("button", { type: "button", class: "follow", dataset: { leader: name }, onclick: () => this.follow(model.table, name) }, this.away && this.away.name === name ? `Back to ${name} (step ${step})` : `Follow ${name} (step ${step})`),
        ),
        f ? el("button", { type: "button", id: "review-away", onclick: () => (this.stepAway(true), this.app.render()) }, "Step away") : null,
      ),
    );
  }

  /** The table's talk beside the replay: it goes on while the table looks back (the form
   * is made once, so a redraw never loses what is being typed). @param {string} table */
  talkLines(table) {
    const t = this.app.state.tables.get(table);
    if (!t) return [];
    return t.log
      .slice(-60)
      .map((e) => (e.kind === "talk" ? el("li", { class: "talk" }, el("b", { class: "who", text: `${e.name}: ` }), el("span", { class: "talk-text", text: e.text })) : null))
      .filter(Boolean);
  }

  /** The screen's parts that stay: its bar, the board's place, the side and the talk form. */
  skeleton() {
    const screen = $("#replay");
    if (screen.querySelector("#replay-main")) return;
    const input = el("input", { id: "replay-talk", name: "talk", maxlength: "400", autocomplete: "off", placeholder: "Say something" });
    const form = el("form", { class: "talk-form" }, el("label", { for: "replay-talk", class: "sr-only", text: "Talk to the table" }), input, el("button", { type: "submit" }, "Say"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const model = this.model;
      if (!model || !input.value.trim()) return;
      this.app.conn.request({ type: "say", table: model.table, text: input.value }).then((reply) => reply.type === "error" && this.app.toast(said(reply)));
      input.value = "";
    });
    const main = el("div", { class: "table-main", id: "replay-main" });
    swipeable(main, (delta) => this.model && this.go(this.model.at + delta));
    fill(
      screen,
      el("div", { class: "table-bar" }, el("h1", { id: "replay-title" }), el("button", { type: "button", id: "replay-close", onclick: () => this.close() }, "Close")),
      el(
        "div",
        { class: "table-layout" },
        main,
        el("aside", { class: "talk-pane replay-side" }, el("div", { id: "replay-side" }), el("section", { class: "replay-talk", id: "replay-talk-box" }, el("h2", { class: "sr-only", text: "Talk" }), el("ol", { class: "log", id: "replay-log", "aria-live": "polite" }), form)),
      ),
    );
  }

  /** Draw the replay screen. */
  render() {
    this.skeleton();
    const model = this.model;
    fill($("#replay-title"), model ? `Table ${model.table} · game ${model.game}${model.head ? ` · ${model.head.ruleset}` : ""}` : "Replay");
    const atTable = model !== null && this.app.state.tables.has(model.table);
    $("#replay-talk-box").hidden = !atTable;
    if (!model) {
      fill($("#replay-main"), el("p", { class: "dim", text: "Loading the replay…" }));
      fill($("#replay-side"));
      return;
    }
    const progress = this.progress.get(key(model.table, model.game));
    fill($("#replay-main"), renderReplay(model, { go: (s) => this.go(s), showSeat: (seat) => ((model.seat = seat), this.app.render()) }));
    const tools = el(
      "div",
      { class: "row" },
      model.analysis || !this.app.state.name ? null : el("button", { type: "button", id: "analyse", disabled: Boolean(progress), onclick: () => this.analyse(model.table, model.game) }, progress ? "Analysing…" : "Analyse"),
      el("button", { type: "button", id: "download", disabled: !model.complete(), onclick: () => this.download() }, "Download"),
      el("a", { href: gameLink(model.table, model.game), id: "replay-link", class: "small" }, "Link"),
    );
    fill(
      $("#replay-side"),
      tools,
      progress ? el("progress", { id: "analysis-progress", max: String(progress.total || 1), value: String(progress.done), "aria-label": "analysis progress" }) : null,
      summary(model, (s) => this.go(s)),
      this.reviewBox(model),
    );
    if (atTable) {
      const log = $("#replay-log");
      fill(log, this.talkLines(model.table));
      log.scrollTop = log.scrollHeight;
    }
  }
}
