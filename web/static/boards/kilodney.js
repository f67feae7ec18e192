// @ts-check
// The kilodney board: the pile top and what must follow it, who is still in the hand
// (beside the names: cards, knocked out, out, score), and the viewer's hand. A card is
// tapped to select it and played with Play, as in every family with cards (one rule a
// page: a tap never plays by surprise).
import { el } from "../dom.js";
import { bigCard, handRow } from "./hand.js";
import { playable } from "./legal.js";

/** @typedef {import("../../types").KilodneyView} KilodneyView */
/** @typedef {import("../../types").BoardContext} BoardContext */

export const selects = true;

/** What the seat strip shows beside a seat. @param {KilodneyView} view @param {number} seat */
export function seatBadge(view, seat) {
  const size = (view.hand_sizes || [])[seat] ?? 0;
  if ((view.knocked_out || []).includes(seat)) return `knocked out (${size})`;
  const inHand = (view.in_hand || [])[seat];
  if (inHand === false) return size ? `out (${size})` : "out";
  return `${size} card${size === 1 ? "" : "s"}`;
}

/** @param {KilodneyView} view @param {BoardContext} ctx @returns {HTMLElement} */
export function render(view, ctx) {
  const head = ["kilodney", `hand ${view.hand_number ?? 1}`, `to ${view.target ?? 50}`];
  if (view.dealer !== undefined && view.dealer !== null) head.push(`dealer ${ctx.name(view.dealer)}`);
  const top = view.top;
  const facts = [];
  if (top && view.leader !== undefined && view.leader !== null) facts.push(el("div", { class: "fact", text: `played by ${ctx.name(view.leader)}` }));
  // what must follow the pile (or that any card leads), in the server's words
  if (ctx.pile) facts.push(el("div", { class: "fact", id: "pile-line", text: ctx.pile }));
  facts.push(el("div", { class: "fact dim", text: `Jokers in the deck: ${view.jokers ?? 0}` }));
  return el(
    "div",
    { class: "board kilodney" },
    el("h2", { class: "board-title", text: head.join(" · ") }),
    el("div", { class: "pile" }, bigCard(top), el("div", { class: "facts" }, facts)),
    outOfHand(view) ? el("p", { class: "out-note", id: "out-note", text: outOfHand(view) }) : handRow(view, ctx, ctx.mine ? playable(ctx.legal) : new Set()),
  );
}

/** Where the viewer has no hand to show while the game goes on, his seat's label instead
 * of "Your hand (0)": knocked out, or out (null: his hand is shown).
 * @param {KilodneyView} view @returns {string | null} */
function outOfHand(view) {
  const me = view.viewer;
  if (view.over || me === null || me === undefined || (view.hand || []).length) return null;
  const out = (view.knocked_out || []).includes(me) || (view.in_hand || [])[me] === false;
  return out ? `Your hand: ${seatBadge(view, me)}` : null;
}
