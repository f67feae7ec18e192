// @ts-check
// The table screen: who sits where (and who is here, away or gone), the family's board,
// every legal action as a button (wrapped, never cut off; digits pick them on a desktop),
// the game master's controls, the end of a hand or game with its scores, and the log.
// Every sentence of the game (an event, what a seat must answer, a legal move's label and
// its group's heading) is the server's, laid out here as it came; only cards are drawn as
// cards (coloured, and in a label with their suit's glyph).
import { MORE_KEY, keyPages, shortcutKey } from "./a11y.js";
import * as abbott from "./boards/abbott.js";
import * as kilodney from "./boards/kilodney.js";
import { groups, ordered, playFor } from "./boards/legal.js";
import * as shedding from "./boards/shedding.js";
import { actionLabel, cardSpan, wordsWithCards } from "./cards.js";
import { againControls, gameColumns, startGame } from "./again.js";
import { $, el, fill, who } from "./dom.js";
import { away, myTurn, names, seatWords } from "./state.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("./state.js").TableRecord} TableRecord */
/** @typedef {import("./state.js").LogEntry} LogEntry */
/** @typedef {import("../types").View} View */
/** @typedef {import("../types").TableEvent} TableEvent */

/**
 * A family's board: whether cards are selected before a play, what the seat strip shows
 * beside a seat, and the board itself.
 * @typedef {object} Board
 * @property {boolean} selects
 * @property {(view: any, seat: number) => string} seatBadge
 * @property {(view: any, ctx: import("../types").BoardContext) => HTMLElement} render
 */

/** @type {Record<string, Board>} */
const BOARDS = { abbott, shedding, kilodney };

/** How a seat is named in a list of seats: its player's name, or the seat's number.
 * @param {(string | null)[]} n @param {number | null | undefined} seat @returns {string} */
function seatName(n, seat) {
  return (seat !== null && seat !== undefined && n[seat]) || seatWords(seat);
}

/** The board of the table's family, or null before its first view. @param {TableRecord} t */
export function boardOf(t) {
  return BOARDS[(t.view && t.view.family) || ""] || null;
}

/** @param {App} app @param {TableRecord} t @param {(string | null)[]} n */
function seatStrip(app, t, n) {
  const view = t.view;
  const board = boardOf(t);
  const strip = el("ul", { class: "seats", id: "seats" });
  t.players.forEach((player, seat) => {
    const status = player === null ? "empty" : player.startsWith("bot:") ? "bot" : away(t, seat) === "dropped" ? "away" : away(t, seat) === "left" ? "gone" : "here";
    const turn = view !== null && view.to_act === seat && !view.over;
    const tags = [];
    if (seat === t.seat) tags.push("you");
    if (player !== null && player === t.master) tags.push("game master");
    strip.append(
      el(
        "li",
        { class: `seat ${turn ? "turn" : ""} ${status}`, dataset: { seat: String(seat), status } },
        el("span", { class: "marker", "aria-hidden": "true", text: turn ? "▶" : "" }),
        player !== null && !player.startsWith("bot:")
          ? el("button", { type: "button", class: "link who", onclick: () => app.finger(player) }, who(n[seat] || ""))
          : el("span", { class: "who" }, n[seat] ? who(n[seat]) : `${seatWords(seat)} (empty)`),
        tags.length ? el("span", { class: "dim", text: ` (${tags.join(", ")})` }) : null,
        status === "away" || status === "gone" ? el("span", { class: "presence warn", text: status }) : null,
        el("span", { class: "badge", text: board && view ? board.seatBadge(view, seat) : "" }),
        view ? el("span", { class: "score", text: `${(view.scores || [])[seat] ?? 0}` }) : null,
      ),
    );
  });
  const watching = t.watching ?? 0;
  if (watching > 0) strip.append(el("li", { class: "watching dim small", id: "watching", text: `${watching} watcher${watching === 1 ? "" : "s"}` }));
  return strip;
}

/** What the viewer may do now: what he must answer and the legal actions, in the
 * server's words and order, as buttons; and the selection to play (shedding).
 * @param {App} app @param {TableRecord} t */
export function actions(app, t) {
  const box = el("div", { class: "actions", id: "actions" });
  const view = t.view;
  if (!myTurn(t)) {
    if (t.state === "playing" && t.waiting) box.append(el("p", { class: "waiting dim", text: t.waiting }));
    if (!t.legal.length) return box;
  }
  if (t.must) box.append(el("p", { class: "must", id: "must" }, wordsWithCards(t.must)));
  const keys = ordered(t.choices, t.legal);
  const pages = keyPages(keys.length);
  const page = (app.ui.keyPage || 0) % pages;
  if (pages > 1) {
    // more actions than keys: 0 gives the keys to the next actions (the buttons say which)
    box.append(el("button", { type: "button", class: "more-keys", dataset: { key: "more" }, "aria-keyshortcuts": MORE_KEY, onclick: () => app.nextKeys() }, el("kbd", { text: MORE_KEY }), `Keys for more moves (${page + 1} of ${pages})`));
  }
  for (const [heading, items] of groups(t.choices, t.legal)) {
    const row = el("div", { class: "action-row" }, el("span", { class: "heading", text: heading }));
    for (const [action, label] of items) {
      const key = shortcutKey(keys.indexOf(action), page);
      row.append(
        el(
          "button",
          { type: "button", class: "act", dataset: { action, label }, "aria-keyshortcuts": key, onclick: () => app.act(action) },
          key ? el("kbd", { text: key }) : null,
          actionLabel(label),
        ),
      );
    }
    box.append(row);
  }
  const board = boardOf(t);
  if (board && board.selects && view && "hand" in view && (view.hand || []).length) {
    const sel = app.ui.selection;
    const listed = sel.length ? playFor(sel, t.legal) : null;
    const label = !sel.length ? "Select cards to play" : listed ? "Play" : app.ui.confirming ? "Play anyway?" : "Play";
    box.append(
      el(
        "div",
        { class: "action-row selection" },
        el("span", { class: "heading", text: "Selected" }),
        el("span", { class: "chosen" }, sel.length ? sel.flatMap((/** @type {string} */ c, /** @type {number} */ i) => (i ? [" ", cardSpan(c)] : [cardSpan(c)])) : el("span", { class: "dim", text: "none" })),
        el("button", { type: "button", class: "primary", id: "play-selected", disabled: !sel.length || !myTurn(t), onclick: () => app.playSelection() }, el("kbd", { text: "Enter" }), label),
        sel.length ? el("button", { type: "button", id: "clear-selection", onclick: () => app.clearSelection() }, "Clear") : null,
      ),
    );
  }
  return box;
}

/** @param {App} app @param {TableRecord} t */
function masterControls(app, t) {
  if (t.master === null || t.master !== app.state.name) return null;
  const box = el("div", { class: "row master", id: "master" });
  if (t.state === "waiting" || t.state === "over") {
    box.append(el("button", { type: "button", class: "primary", id: "start", onclick: () => startGame(app, t) }, t.state === "over" ? "New game" : "Start (bots take the empty seats)"));
    t.players.forEach((p, seat) => {
      if (p === null) box.append(el("button", { type: "button", dataset: { bot: String(seat) }, onclick: () => app.tableRequest("seat_bot", t.table, { seat }) }, `Bot in ${seatWords(seat)}`));
    });
  } else if (t.state === "playing") {
    box.append(el("button", { type: "button", onclick: () => app.tableRequest("pause_game", t.table) }, "Pause"));
  } else if (t.state === "paused") {
    box.append(el("button", { type: "button", class: "primary", onclick: () => app.tableRequest("resume_game", t.table) }, "Resume"));
  }
  return box;
}

/** The end of a hand or a game: the server's words for it over a table of the scores.
 * @param {TableRecord} t @param {(string | null)[]} n */
export function result(t, n) {
  const view = t.view;
  /** @type {{ev: TableEvent, text: string | null} | null} */
  let line = t.result;
  // a game found over (its last event not seen here): the words its snapshot brought
  if (!line && view && (view.over || t.state === "over")) line = { ev: { kind: "game_end", winner: view.winner, scores: view.scores }, text: t.resultText };
  if (!line) return null;
  const ev = line.ev;
  const game = ev.kind === "game_end";
  const points = Array.isArray(ev.points) ? ev.points : ev.hand_points;
  const scores = ev.scores || (view && view.scores) || [];
  const more = game ? gameColumns(t) : null;
  const rows = scores.map((score, seat) =>
    el(
      "tr",
      { class: ev.winner === seat ? "winner" : "" },
      el("td", { text: seatName(n, seat) }),
      game ? null : el("td", { text: points ? `${points[seat] > 0 ? "+" : ""}${points[seat] ?? 0}` : "" }),
      more ? more.handCells(seat) : null,
      el("td", { text: String(score) }),
      more ? more.ratingCells(seat) : null,
    ),
  );
  return el(
    "section",
    { class: `result ${game ? "game" : "hand"}`, id: "result", "aria-live": "polite" },
    line.text ? el("h3", {}, wordsWithCards(line.text)) : null,
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "Player" }), game ? null : el("th", { text: "Hand" }), more ? more.hands : null, el("th", { text: "Total" }), more ? more.rating : null)), el("tbody", {}, rows)),
  );
}

/** A line about a person in the server's words, his name marked where it starts the
 * line; from a server that sends no words, his name and what happened, as a word.
 * @param {string} cls @param {string | null} name @param {string | null} text @param {string} what */
function personLine(cls, name, text, what) {
  if (!text) return el("li", { class: cls }, name ? el("b", { class: "who" }, who(name)) : null, ` ${what}`);
  if (!name || !text.startsWith(name)) return el("li", { class: cls }, text);
  return el("li", { class: cls }, el("b", { class: "who" }, who(name)), text.slice(name.length));
}

/** One line of the log. @param {LogEntry} entry */
export function logLine(entry) {
  switch (entry.kind) {
    case "event":
      // the server's words; from a server that sends none, only what kind of thing happened
      return el("li", { class: "event", dataset: { seq: String(entry.seq) } }, entry.text ? wordsWithCards(entry.text) : entry.ev.kind);
    case "talk":
      return el("li", { class: "talk" }, el("b", { class: "who" }, who(entry.name), ": "), el("span", { class: "talk-text", text: entry.text }));
    case "presence":
      return personLine("presence", entry.name, entry.text, entry.what);
    case "watcher":
      return personLine("watcher", entry.name, entry.text, entry.what);
    default:
      return el("li", { class: entry.kind }, entry.text);
  }
}

/** How many of the newest log lines a phone shows above the board. */
const RECENT = 3;

/** The newest log lines, above the board: on a phone the log is below the board (and
 * the talk bar), so what the others just did would be off screen; the stylesheet shows
 * this only while the log is not beside the board. The log itself is what a screen
 * reader follows, so this copy is hidden from one.
 * @param {TableRecord} t */
function recent(t) {
  const last = t.log.slice(-RECENT);
  if (!last.length) return null;
  return el("ol", { class: "recent", id: "recent", "aria-hidden": "true" }, last.map((entry) => logLine(entry)));
}

/** Draw the table `t` into the page's table screen. @param {App} app @param {TableRecord} t */
export function renderTable(app, t) {
  const n = names(t);
  const view = t.view;
  const board = boardOf(t);
  const ruleset = (view && view.ruleset) || t.ruleset || (app.state.lobby.find((x) => String(x.table) === t.table) || {}).ruleset || "";
  const state = t.state === "playing" ? "" : ` · ${t.state}`;
  fill($("#table-title"), `Table ${t.table}`, ruleset ? ` · ${ruleset}` : "", state, t.seat === null ? " · watching" : "");
  /** @type {import("../types").BoardContext} */
  const ctx = {
    name: (seat) => seatName(n, seat),
    legal: t.legal,
    mine: myTurn(t),
    selection: app.ui.selection,
    pile: t.pendingText,
    onCard: (card) => app.tapCard(card),
    onAct: (action) => app.act(action),
  };
  fill(
    $("#table-main"),
    seatStrip(app, t, n),
    recent(t),
    board && view ? board.render(view, ctx) : el("p", { class: "dim board-wait", text: t.state === "waiting" ? t.waiting || "" : "" }),
    result(t, n),
    app.lookback?.tableBar(t),
    actions(app, t),
    againControls(app, t),
    masterControls(app, t),
  );
  const shout = $("#shout-line");
  const heard = app.ui.shoutLine;
  shout.hidden = !heard;
  if (heard) fill(shout, el("b", { class: "who" }, who(heard.name), " shouts: "), heard.text);
  const log = $("#log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  fill(log, t.log.map((entry) => logLine(entry)));
  if (atEnd) log.scrollTop = log.scrollHeight;
}
