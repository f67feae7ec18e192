// @ts-check
// The shedding board: the pile, the suit to follow, what is pending, the direction, every
// hand's size (beside the names), and the viewer's hand as cards to tap: tap cards to
// select them (in the order they are to be laid), then Play.
import { SUITS, SUIT_NAMES } from "../cards.js";
import { el } from "../dom.js";
import { bigCard, handRow } from "./hand.js";
import { playable } from "./legal.js";

/** @typedef {import("../../types").SheddingView} SheddingView */
/** @typedef {import("../../types").BoardContext} BoardContext */

export const selects = true; // multi-card plays: select, then Play

/** Seats that went out (only an empty hand is out, even in a finished ranking).
 * @param {SheddingView} view @returns {number[]} */
function wentOut(view) {
  const sizes = view.hand_sizes || [];
  return (view.finished || []).filter((s) => sizes[s] === 0);
}

/** What the seat strip shows beside a seat. @param {SheddingView} view @param {number} seat */
export function seatBadge(view, seat) {
  if (wentOut(view).includes(seat)) return "out";
  const size = (view.hand_sizes || [])[seat];
  const last = (view.announced || []).includes(seat) ? " · last card" : "";
  return size === undefined ? "" : `${size} card${size === 1 ? "" : "s"}${last}`;
}

/** @param {SheddingView} view @param {BoardContext} ctx @returns {HTMLElement} */
export function render(view, ctx) {
  const head = [view.preset || view.ruleset, `hand ${view.hand_number ?? 1}`];
  if (view.target) head.push(`to ${view.target}`);
  if (view.dealer !== undefined && view.dealer !== null) head.push(`dealer ${ctx.name(view.dealer)}`);
  const facts = [
    el("div", { class: "fact", text: `Pile: ${view.pile_size ?? 0}` }),
    el("div", { class: "fact", text: `Stock: ${view.stock ?? 0}` }),
    el("div", { class: "fact", text: view.direction === -1 ? "↺ anticlockwise" : "↻ clockwise" }),
  ];
  if (view.nominated) {
    const s = view.nominated;
    facts.push(el("div", { class: `fact suit ${s === "H" || s === "D" ? "red" : "black"}`, text: `Suit: ${SUITS[s]} ${SUIT_NAMES[s]}` }));
  }
  // what the power waiting asks for, in the server's words (its kind where it sends none)
  if (view.pending) facts.push(el("div", { class: "fact warn", id: "pile-line", text: ctx.pile || `Pending: ${view.pending.kind}` }));
  return el(
    "div",
    { class: "board shedding" },
    el("h2", { class: "board-title", text: head.join(" · ") }),
    el("div", { class: "pile" }, bigCard(view.top), el("div", { class: "facts" }, facts)),
    handRow(view, ctx, ctx.mine ? playable(ctx.legal) : new Set()),
  );
}
