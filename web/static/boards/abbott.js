// @ts-check
// The abbott board: the grid of cards with the four pieces, labelled like a chess board
// from South's side (files a-f left to right, ranks 1-6 bottom to top) so `move c4` reads
// off the screen; the squares the viewer may move to now are marked and tapped to move.
// Beside it the hand's state; under it each seat's collection with its best poker hand.
import { byRankDesc, cardClass, cardLabel, cardSpan, cardText, suitOf } from "../cards.js";
import { el } from "../dom.js";
import { seatWords } from "../state.js";

/** @typedef {import("../../types").AbbottView} AbbottView */
/** @typedef {import("../../types").BoardContext} BoardContext */

export const selects = false;
const FILES = "abcdef";

/** A seat's piece: its compass letter. @param {AbbottView} view @param {number} seat */
function letter(view, seat) {
  const names = view.seat_names || [];
  return names[seat] ? names[seat][0].toUpperCase() : String(seat);
}

/** @param {AbbottView} view @param {number | null | undefined} seat */
function compass(view, seat) {
  if (seat === null || seat === undefined) return "-";
  return (view.seat_names || [])[seat] || seatWords(seat);
}

/** What the seat strip shows beside a seat. @param {AbbottView} view @param {number} seat */
export function seatBadge(view, seat) {
  const best = (view.best || [])[seat];
  const taken = ((view.collections || [])[seat] || []).length;
  return `${letter(view, seat)} · ${taken} card${taken === 1 ? "" : "s"}${best && best.category ? ` · ${best.category}` : ""}`;
}

/** @param {AbbottView} view @param {BoardContext} ctx */
function grid(view, ctx) {
  const size = view.size || (view.grid || []).length || 6;
  const rows = view.grid || [];
  /** @type {Record<string, number>} */
  const pieces = {};
  (view.pieces || []).forEach((sq, seat) => {
    if (sq) pieces[sq] = seat;
  });
  const targets = new Set(
    ctx.mine ? ctx.legal.filter((a) => /^move [a-f][1-6]$/.test(a)).map((a) => a.split(" ")[1]) : [],
  );
  const box = el("div", { class: "grid", style: null, role: "grid", "aria-label": "the grid" });
  box.dataset.size = String(size);
  box.append(el("div", { class: "label" }));
  for (let f = 0; f < size; f++) box.append(el("div", { class: "label", text: FILES[f] }));
  for (let r = size - 1; r >= 0; r--) {
    box.append(el("div", { class: "label", text: String(r + 1) }));
    for (let f = 0; f < size; f++) {
      const square = `${FILES[f]}${r + 1}`;
      const card = (rows[r] || [])[f] || null;
      const seat = pieces[square];
      const inside = [
        card ? el("span", { class: `sq-card ${cardClass(card)}`, dataset: { suit: suitOf(card) }, role: "img", "aria-label": cardLabel(card), text: cardText(card) }) : el("span", { class: "sq-card blank", text: "·" }),
        seat !== undefined ? el("span", { class: `piece p${seat % 4}`, text: letter(view, seat) }) : null,
      ];
      const classes = `square${targets.has(square) ? " target" : ""}${card ? "" : " empty"}`;
      if (targets.has(square)) {
        box.append(
          el("button", { type: "button", class: classes, dataset: { action: `move ${square}`, square }, "aria-label": `move ${square}${card ? `, ${cardLabel(card)}` : ""}`, onclick: () => ctx.onAct(`move ${square}`) }, inside),
        );
      } else {
        box.append(el("div", { class: classes, dataset: { square }, role: "gridcell" }, inside));
      }
    }
  }
  return box;
}

/** @param {AbbottView} view */
function side(view) {
  const out = [el("div", { class: "fact", text: `Hand ${view.hand_number ?? 1} · to ${view.target}` }), el("div", { class: "fact", text: `Dealer ${compass(view, view.dealer)}` })];
  if (view.over) out.push(el("div", { class: "fact turn", text: "Game over" }));
  else {
    out.push(el("div", { class: "fact", text: `To move: ${compass(view, view.to_act)}` }));
    if (view.turn_of !== undefined && view.turn_of !== null && view.turn_of !== view.to_act) out.push(el("div", { class: "fact", text: `(for ${compass(view, view.turn_of)})` }));
  }
  const alliance = view.alliance;
  if (alliance) out.push(el("div", { class: "fact ally", text: `Allies ${compass(view, alliance.chooser)} + ${compass(view, alliance.partner)}` }));
  else if ((view.seats || 0) === 4) out.push(el("div", { class: "fact dim", text: "No alliance yet" }));
  if (view.power !== undefined && view.power !== null) out.push(el("div", { class: "fact ally", text: `Power: ${compass(view, view.power)}` }));
  out.push(el("div", { class: "fact", text: `Stall ${view.stall ?? 0}/${view.stall_limit ?? "?"}` }));
  if ((view.votes || []).length) out.push(el("div", { class: "fact", text: `End votes: ${view.votes.map((s) => letter(view, s)).join(" ")}` }));
  if ((view.conceded || []).length) out.push(el("div", { class: "fact", text: `Conceded: ${view.conceded.map((s) => letter(view, s)).join(" ")}` }));
  return el("div", { class: "facts side" }, out);
}

/** @param {AbbottView} view @param {BoardContext} ctx */
function collections(view, ctx) {
  const list = el("ul", { class: "collections" });
  const seats = view.seats || (view.collections || []).length;
  for (let seat = 0; seat < seats; seat++) {
    const cards = (view.collections || [])[seat] || [];
    const best = (view.best || [])[seat] || {};
    const bestCards = best.cards || [];
    const rest = byRankDesc(cards).filter((c) => !bestCards.includes(c));
    const line = el(
      "li",
      { dataset: { seat: String(seat) } },
      el("span", { class: `piece p${seat % 4}`, text: letter(view, seat) }),
      el("span", { class: "who", text: ` ${ctx.name(seat)}${view.viewer === seat ? " (you)" : ""} ` }),
      el("span", { class: "score", text: `${(view.scores || [])[seat] ?? 0} pts ` }),
    );
    if (!cards.length) line.append(el("span", { class: "dim", text: "no cards" }));
    else {
      line.append(el("span", { class: "category", text: `${best.category || ""}: ` }));
      for (const c of bestCards) line.append(el("b", {}, cardSpan(c)), " ");
      for (const c of rest) line.append(cardSpan(c), " ");
    }
    list.append(line);
  }
  return list;
}

/** @param {AbbottView} view @param {BoardContext} ctx @returns {HTMLElement} */
export function render(view, ctx) {
  return el(
    "div",
    { class: "board abbott" },
    el("div", { class: "abbott-top" }, grid(view, ctx), side(view)),
    collections(view, ctx),
  );
}
