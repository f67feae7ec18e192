// @ts-check
// Events in words: one line of the table's log for each thing that happened, the same
// sentences as the terminal client's (protocol/describe.py). A kind not known here still
// gets a line of its fields, so nothing is silently dropped.
import { cardSpan, SUIT_NAMES } from "./cards.js";
import { el } from "./dom.js";

/** An event's fields, each kind its own (docs/protocol.md, the appendix): read loosely.
 * @typedef {Record<string, any>} Fields */
/** @typedef {(string | null)[]} Names */
/** @typedef {(string | HTMLElement)[]} Sentence */

/** @param {Names} names @param {unknown} seat @returns {string} */
export function seatName(names, seat) {
  return typeof seat === "number" && names[seat] ? String(names[seat]) : `seat ${seat}`;
}

/** @param {number | string} n @param {string} word */
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** @param {number} n */
const ordinal = (n) => {
  if (!Number.isInteger(n)) return String(n);
  const teen = n % 100 >= 10 && n % 100 <= 20;
  return n + (teen ? "th" : /** @type {Record<number, string>} */ ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th");
};
/** @param {Names} names @param {unknown} seat */
const who = (names, seat) => el("b", { class: "who", text: seatName(names, seat) });
/** @param {Fields} ev @returns {Sentence} */
const cardsOf = (ev) => {
  /** @type {string[]} */
  const cards = ev.cards || (ev.card ? [ev.card] : []);
  return cards.flatMap((c, i) => (i ? [" ", cardSpan(c)] : [cardSpan(c)]));
};

/** @param {Names} names @param {unknown} values @returns {Sentence} */
function scores(names, values) {
  if (!Array.isArray(values)) return [];
  const text = values.map((v, s) => `${seatName(names, s)} ${v}`).join(", ");
  return [el("span", { class: "score", text: ` · scores ${text}` })];
}

/** @type {Record<string, (ev: Fields, names: Names) => Sentence>} */
const SENTENCES = {
  play: (ev, n) => {
    /** @type {Sentence} */
    const out = [who(n, ev.seat), " plays ", ...cardsOf(ev)];
    if (ev.how === "joker" || ev.stop) out.push(" (a joker stops the run)");
    if (Number.isInteger(ev.points) && ev.points) {
      out.push(el("span", { class: "score", text: ` (${ev.points > 0 ? "+" : ""}${ev.points})` }));
    }
    if (ev.left) out.push(" and is out");
    return out;
  },
  draw: (ev, n) => {
    /** @type {Sentence} */
    const out = [who(n, ev.seat), ` draws ${ev.count === undefined ? "" : plural(ev.count, "card")}`];
    if (ev.cards && ev.cards.length) out.push(": ", ...cardsOf(ev));
    if (ev.reason && ev.reason !== "draw") {
      out.push(el("span", { class: "dim", text: ` (${ev.reason === "pick-up" ? "the pick-up" : ev.reason})` }));
    }
    return out;
  },
  move: (ev, n) => {
    /** @type {Sentence} */
    const out = [who(n, ev.seat), ` moves to ${ev.to || ""}`];
    if (ev.by !== undefined && ev.by !== null) out.push(" (moved by ", who(n, ev.by), ")");
    return out;
  },
  take: (ev, n) => {
    /** @type {Sentence} */
    const out = [who(n, ev.seat), " takes ", ...cardsOf(ev)];
    if (ev.square) out.push(` at ${ev.square}`);
    if (ev.blocked) out.push(el("span", { class: "dim", text: " (blocked: the card under his piece)" }));
    return out;
  },
  miss: (ev, n) =>
    ev.square
      ? [who(n, ev.seat), ` cannot move from ${ev.square} and misses the turn`]
      : [who(n, ev.seat), ` misses ${plural(ev.turns ?? 1, "turn")}`],
  deal: (ev, n) => {
    /** @type {Sentence} */
    const out = [el("b", { text: ev.hand_number ? `Hand ${ev.hand_number}: ` : "New hand: " })];
    if (ev.dealer !== undefined && ev.dealer !== null) out.push(`${seatName(n, ev.dealer)} deals`);
    if (ev.first !== undefined && ev.first !== null) out.push(`; ${seatName(n, ev.first)} goes first`);
    if (ev.top) out.push("; the pile starts with ", cardSpan(ev.top));
    return out;
  },
  hand_end: (ev, n) => {
    /** @type {Sentence} */
    const out = [el("b", { text: "Hand over" })];
    if (ev.winner !== undefined && ev.winner !== null) out.push(`: ${seatName(n, ev.winner)} wins`);
    else if (Array.isArray(ev.finished) && ev.finished.length && !ev.blocked) {
      out.push(`: ${seatName(n, ev.finished[0])} went out first`);
    } else if (ev.blocked) out.push(": blocked, the fewest cards win");
    if (ev.reason && ev.reason !== "grid empty") out.push(el("span", { class: "dim", text: ` (${ev.reason})` }));
    const points = Array.isArray(ev.points) ? ev.points : ev.hand_points;
    if (Array.isArray(points) && points.some((p) => p)) {
      const text = points
        .map((/** @type {number} */ p, /** @type {number} */ s) => (p ? `${seatName(n, s)} ${p > 0 ? "+" : ""}${p}` : null))
        .filter(Boolean)
        .join(", ");
      out.push(el("span", { class: "score", text: `; this hand ${text}` }));
    }
    return out.concat(scores(n, ev.scores));
  },
  game_end: (ev, n) => {
    /** @type {Sentence} */
    const out = [el("b", { text: "Game over" })];
    const winner = ev.winner ?? ev.seat;
    if (winner !== undefined && winner !== null) out.push(`: ${seatName(n, winner)} wins`);
    return out.concat(scores(n, ev.scores));
  },
  knockout: (ev, n) => [
    who(n, ev.seat),
    ` is knocked out (${plural(ev.count ?? "?", "card")} to `,
    who(n, ev.by),
    ")",
  ],
  cut: (ev, n) => [el("b", { text: "The cut: " }), who(n, ev.dealer), " deals first"],
  blunder: (ev, n) => {
    /** @type {Sentence} */
    const out = [who(n, ev.seat), el("span", { class: "warn", text: " blunders" }), " with ", ...cardsOf(ev)];
    if (ev.why) out.push(el("span", { class: "dim", text: ` (${ev.why})` }));
    return out;
  },
  ally: (ev, n) => {
    /** @type {Sentence} */
    const out = [who(n, ev.seat), ` allies with ${seatName(n, ev.partner)}`];
    if (ev.power !== undefined && ev.power !== null) out.push(`; ${seatName(n, ev.power)} holds the power`);
    return out;
  },
  nominate: (ev, n) => [who(n, ev.seat), ` names ${SUIT_NAMES[ev.suit] || ev.suit}`],
  last: (ev, n) => [who(n, ev.seat), el("span", { class: "warn", text: ": last card!" })],
  skip: (ev, n) => [who(n, ev.seat), " is skipped"],
  pass: (ev, n) => [who(n, ev.seat), " passes"],
  reverse: (ev, n) => [who(n, ev.seat), " reverses the direction"],
  cancel: (ev, n) => [
    who(n, ev.seat),
    ev.left > 0 ? ` cancels part of the pick-up (${ev.left} still to pick up)` : " cancels the pick-up",
  ],
  out: (ev, n) => [who(n, ev.seat), ` is out${ev.place ? ` (${ordinal(ev.place)})` : ""}`],
  concede: (ev, n) => [who(n, ev.seat), " concedes the hand"],
  vote: (ev, n) => [who(n, ev.seat), " votes to end the hand"],
  swap: (ev, n) => [who(n, ev.seat), ` swaps hands with ${seatName(n, ev.with)}`],
};

/** The sentence for one event, as nodes and strings.
 * @param {import("../types").TableEvent} ev @param {Names} names @returns {Sentence} */
export function describeEvent(ev, names) {
  const sentence = SENTENCES[ev.kind];
  if (sentence) return sentence(ev, names);
  const rest = Object.entries(ev)
    .filter(([k, v]) => k !== "kind" && k !== "seat" && String(v).length < 40)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  if (ev.seat === undefined || ev.seat === null) return [`${ev.kind} ${rest}`.trim()];
  return [who(names, ev.seat), `: ${ev.kind} ${rest}`.trimEnd()];
}

/** `{kind: "pickup", count: 4}` -> `pick up 4`.
 * @param {import("../types").Pending} pending @returns {string} */
export function pendingText(pending) {
  const count = pending.count ?? "";
  switch (pending.kind) {
    case "pickup":
      return `pick up ${count}`;
    case "skip":
      return count === 1 || count === "" ? "skip" : `skip (${count})`;
    case "miss":
      return `miss ${plural(count, "turn")}`;
    case "cover":
      return "the card must be covered";
    case "go_on":
      return "go on in the named suit";
    default:
      return `${pending.kind || ""} ${count}`.trim();
  }
}
