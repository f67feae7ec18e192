// @ts-check
// A finished game's replay: the steps the server worked out (`get_replay`: the board after
// each action, every hand, the step's words), stepped through first/previous/next/last,
// with the after-game analysis's marks at their steps. The model (`ReplayModel`) holds no
// DOM, so node tests it as it is; `renderReplay` draws it with the family's board.
import * as abbott from "./boards/abbott.js";
import * as kilodney from "./boards/kilodney.js";
import * as shedding from "./boards/shedding.js";
import { cardSpan, sortCards, wordsWithCards } from "./cards.js";
import { el } from "./dom.js";
import { seatWords } from "./state.js";

/** @typedef {import("../types").ReplayStep} ReplayStep */
/** @typedef {import("../types").RecordHead} RecordHead */
/** @typedef {import("../types").Replay} Replay */
/** @typedef {import("../types").AnalysisBody} AnalysisBody */
/** @typedef {import("../types").Decision} Decision */
/** @typedef {import("../types").Reply} Reply */

/** @type {Record<string, {render: (view: any, ctx: import("../types").BoardContext) => HTMLElement}>} */
const BOARDS = { abbott, shedding, kilodney };

/** A mark's sign, as the terminal client and `switchboard replay --analyze` print it. */
/** @type {Record<string, string>} */
export const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The link that opens a game's replay. @param {string} table @param {number} game */
export function gameLink(table, game) {
  return `/g/${table}-${game}`;
}

/** The game a page's path names (`/g/TABLE-GAME`), or null.
 * @param {string} path @returns {{table: string, game: number} | null} */
export function parseGameLink(path) {
  const found = /^\/g\/([0-9]{1,12})-([0-9]{1,9})\/?$/.exec(path);
  return found ? { table: found[1], game: Number(found[2]) } : null;
}

/** One finished game's replay as the page holds it. */
export class ReplayModel {
  /** @param {string} table @param {number} game */
  constructor(table, game) {
    this.table = table;
    this.game = game;
    /** @type {RecordHead | null} */
    this.head = null;
    /** @type {ReplayStep[]} */
    this.steps = [];
    /** the record's actions: steps 0 to `total` */
    this.total = 0;
    this.at = 0;
    /** whose hand the board shows (null: the public view) */
    /** @type {number | null} */
    this.seat = null;
    /** @type {AnalysisBody | null} */
    this.analysis = null;
    /** @type {Map<number, Decision>} decision by the step it is shown at */
    this.marks = new Map();
  }

  /** Take one `replay` page in (pages come in order). @param {Replay} page */
  add(page) {
    this.head = page.record;
    this.total = page.total ?? this.total;
    for (const step of page.steps || []) this.steps[step.step] = step;
  }

  /** Whether every step has come. */
  complete() {
    return this.steps.length === this.total + 1 && this.steps.every(Boolean);
  }

  /** Go to `step`, kept within 0..total; the step now. @param {number} step */
  go(step) {
    this.at = Math.max(0, Math.min(this.total, Math.round(step)));
    return this.at;
  }

  first() {
    return this.go(0);
  }
  prev() {
    return this.go(this.at - 1);
  }
  next() {
    return this.go(this.at + 1);
  }
  last() {
    return this.go(this.total);
  }

  /** The step on screen (null until it has come). */
  current() {
    return this.steps[this.at] || null;
  }

  /** Each seat's name. @returns {string[]} */
  names() {
    const head = this.head;
    const seats = head ? head.seats : 0;
    return Array.from({ length: seats }, (_, seat) => (head && head.names && head.names[seat]) || seatWords(seat));
  }

  /** The view the board draws at the step on screen: the public one, with the chosen
   * seat's hand (the game is over: every hand is shown). */
  view() {
    const step = this.current();
    if (!step) return null;
    const seat = this.seat;
    if (seat === null || !step.hands.length) return step.view;
    return { ...step.view, viewer: seat, hand: step.hands[seat] || [] };
  }

  /** Take the analysis in: its decisions by the step each is shown at (`index + 1`).
   * @param {AnalysisBody} analysis */
  setAnalysis(analysis) {
    this.analysis = analysis;
    this.marks = new Map((analysis.decisions || []).map((d) => [d.index + 1, d]));
  }

  /** The judged decision shown at `step` (the action that led to it), if any.
   * @param {number} [step] */
  decision(step = this.at) {
    return this.marks.get(step) || null;
  }

  /** The steps whose decision is marked, in order. @returns {number[]} */
  markedSteps() {
    return [...this.marks.entries()].filter(([, d]) => d.mark).map(([s]) => s).sort((a, b) => a - b);
  }

  /** The record `switchboard replay FILE` reads: the head with every action, and the
   * players' names. */
  record() {
    const actions = this.steps.slice(1).map((s) => s.action);
    return { ...(this.head || {}), names: this.names(), actions };
  }
}

/** Every page of a game's replay into a new model (null and the error reply when
 * refused). @param {(msg: {type: string} & Record<string, unknown>) => Promise<Reply>} request
 * @param {string} table @param {number} game
 * @returns {Promise<{model: ReplayModel | null, error: Reply | null}>} */
export async function fetchReplay(request, table, game) {
  const model = new ReplayModel(table, game);
  /** @type {number | null | undefined} */
  let start = 0;
  for (let pages = 0; start !== null && start !== undefined && pages < 1000; pages++) {
    const reply = await request({ type: "get_replay", table, game, start });
    if (reply.type !== "replay") return { model: null, error: reply };
    model.add(reply);
    start = reply.next;
  }
  return { model, error: null };
}

/** A decision's better move and its value beside the one played, as the analysis gave
 * them (its values are each move's expected score for the seat, 0..1).
 * @param {Decision} d @returns {string} */
export function betterLine(d) {
  const values = d.values || {};
  const fmt = (/** @type {number | undefined} */ v) => (typeof v === "number" ? v.toFixed(2) : "?");
  const sign = d.mark ? ` ${SIGNS[d.mark] || ""}` : "";
  if (d.best === d.played) return `${d.played}${sign} (${fmt(values[d.played])}): the best move`;
  return `${d.played}${sign} (${fmt(values[d.played])}) · better: ${d.best} (${fmt(values[d.best])})`;
}

/** Each seat's hand at the step, for a family that deals hands.
 * @param {ReplayModel} model @param {(seat: number) => void} onSeat */
function hands(model, onSeat) {
  const step = model.current();
  if (!step || !step.hands.length) return null;
  const names = model.names();
  return el(
    "ul",
    { class: "replay-hands", id: "replay-hands" },
    step.hands.map((cards, seat) =>
      el(
        "li",
        { class: model.seat === seat ? "chosen" : "" },
        el("button", { type: "button", class: "link", "aria-pressed": model.seat === seat ? "true" : "false", onclick: () => onSeat(seat) }, names[seat]),
        ": ",
        cards.length ? sortCards(cards).flatMap((c, i) => (i ? [" ", cardSpan(c)] : [cardSpan(c)])) : el("span", { class: "dim", text: "no cards" }),
      ),
    ),
  );
}

/** The analysis's summary: each player's accuracy, marks and costliest decisions (each a
 * button to its step). @param {ReplayModel} model @param {(step: number) => void} onStep */
export function summary(model, onStep) {
  const analysis = model.analysis;
  if (!analysis) return null;
  const names = model.names();
  const rows = (analysis.players || []).map((p) => {
    const marked = p.marked || {};
    const costly = (p.costliest || []).map((index) =>
      el("button", { type: "button", class: "link step-link", dataset: { step: String(index + 1) }, onclick: () => onStep(index + 1) }, `step ${index + 1}`),
    );
    return el(
      "tr",
      {},
      el("td", { text: names[p.seat] || p.name }),
      el("td", { text: typeof p.accuracy === "number" ? `${Math.round(p.accuracy * 100)}%` : "" }),
      el("td", { text: `${marked.inaccuracy ?? 0} / ${marked.mistake ?? 0} / ${marked.blunder ?? 0}` }),
      el("td", {}, costly.flatMap((b, i) => (i ? [" ", b] : [b]))),
    );
  });
  const head = el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Accuracy" }), el("th", { text: "?! / ? / ??" }), el("th", { text: "Costliest" }));
  return el("table", { class: "analysis-summary", id: "analysis-summary" }, el("thead", {}, head), el("tbody", {}, rows));
}

/**
 * What the replay screen is drawn with, beside its model.
 * @typedef {object} ReplayControls
 * @property {(step: number) => void} go step to `step` (the review's leader sends it)
 * @property {(seat: number | null) => void} showSeat whose hand the board shows
 */

/** The board, the step's words and mark, the hands and the step buttons.
 * @param {ReplayModel} model @param {ReplayControls} controls @returns {HTMLElement} */
export function renderReplay(model, controls) {
  const step = model.current();
  const view = model.view();
  const names = model.names();
  const board = view ? BOARDS[view.family] : null;
  /** @type {import("../types").BoardContext} */
  const ctx = {
    name: (seat) => (seat !== null && seat !== undefined && names[seat]) || seatWords(seat),
    legal: [],
    mine: false,
    selection: [],
    pile: (step && step.pile) || null,
    onCard: () => {},
    onAct: () => {},
  };
  const d = model.decision();
  const mark = d && d.mark ? SIGNS[d.mark] : null;
  const who = step && step.action ? names[step.action[0]] || seatWords(step.action[0]) : null;
  const words = step ? (step.said.length ? step.said : [step.step === 0 ? "The deal" : ""]) : ["Loading…"];
  const nav = el(
    "div",
    { class: "row replay-nav", id: "replay-nav" },
    el("button", { type: "button", id: "replay-first", "aria-label": "first step", onclick: () => controls.go(0) }, "|◀"),
    el("button", { type: "button", id: "replay-prev", "aria-label": "previous step", onclick: () => controls.go(model.at - 1) }, "◀"),
    el("span", { class: "replay-at", id: "replay-at", text: `step ${model.at} of ${model.total}` }),
    el("button", { type: "button", id: "replay-next", "aria-label": "next step", onclick: () => controls.go(model.at + 1) }, "▶"),
    el("button", { type: "button", id: "replay-last", "aria-label": "last step", onclick: () => controls.go(model.total) }, "▶|"),
  );
  const marked = model.markedSteps();
  const marks = marked.length
    ? el(
        "div",
        { class: "row replay-marks", id: "replay-marks" },
        el("span", { class: "heading", text: "Marks:" }),
        marked.map((s) => {
          const m = model.decision(s);
          return el("button", { type: "button", class: `mark ${m && m.mark}`, dataset: { step: String(s) }, onclick: () => controls.go(s) }, `${s}${m && m.mark ? SIGNS[m.mark] : ""}`);
        }),
      )
    : null;
  return el(
    "div",
    { class: "replay", id: "replay-body" },
    nav,
    el(
      "div",
      { class: "replay-said", id: "replay-said", "aria-live": "polite" },
      mark ? el("span", { class: `mark ${d && d.mark}`, id: "replay-mark", text: mark }) : null,
      words.map((w) => el("p", {}, wordsWithCards(w))),
      d ? el("p", { class: "better", id: "replay-better" }, `${who}: `, wordsWithCards(betterLine(d))) : null,
    ),
    marks,
    board && view ? board.render(view, ctx) : null,
    step && step.hands.length
      ? el("div", { class: "row" }, el("button", { type: "button", id: "replay-public", "aria-pressed": model.seat === null ? "true" : "false", onclick: () => controls.showSeat(null) }, "Public view"))
      : null,
    hands(model, (seat) => controls.showSeat(seat)),
  );
}

/** A swipe on a phone: left is the next step, right the previous one.
 * @param {HTMLElement} node @param {(delta: number) => void} onSwipe */
export function swipeable(node, onSwipe) {
  /** @type {{x: number, y: number} | null} */
  let from = null;
  node.addEventListener("touchstart", (e) => {
    const t = e.changedTouches[0];
    from = t ? { x: t.clientX, y: t.clientY } : null;
  });
  node.addEventListener("touchend", (e) => {
    const t = e.changedTouches[0];
    if (!from || !t) return;
    const dx = t.clientX - from.x;
    const dy = t.clientY - from.y;
    from = null;
    if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) onSwipe(dx < 0 ? 1 : -1);
  });
}
