// @ts-check
// The viewer's own hand as cards to tap, shared by shedding and kilodney: sorted, a gap
// between suits, playable cards marked, the selected ones raised.
import { cardClass, cardLabel, cardText, sortCards, suitOf } from "../cards.js";
import { el } from "../dom.js";

/** @typedef {import("../../types").BoardContext} BoardContext */

/** The viewer's hand, or a line saying it is hidden (a spectator).
 * @param {{hand?: string[] | null}} view @param {BoardContext} ctx @param {Set<string>} marks
 * @returns {HTMLElement} */
export function handRow(view, ctx, marks) {
  if (view.hand === null || view.hand === undefined) {
    return el("p", { class: "dim", text: "Watching: the hands are hidden" });
  }
  const row = el("div", { class: "hand", role: "group", "aria-label": "your hand" });
  let suit = null;
  for (const card of sortCards(view.hand)) {
    const gap = suit !== null && card[1] !== suit;
    suit = card[1];
    const at = ctx.selection.indexOf(card);
    const classes = ["card", cardClass(card)];
    if (marks.has(card)) classes.push("playable");
    if (at >= 0) classes.push("selected");
    if (gap) classes.push("gap");
    row.append(
      el(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          dataset: { card, suit: suitOf(card) },
          "aria-label": cardLabel(card),
          "aria-pressed": at >= 0 ? "true" : "false",
          title: marks.has(card) ? "playable" : null,
          onclick: () => ctx.onCard(card),
        },
        el("span", { class: "rank", text: cardText(card) }),
        at >= 0 && ctx.selection.length > 1 ? el("span", { class: "order", text: String(at + 1) }) : null,
      ),
    );
  }
  return el("div", { class: "hand-box" }, el("h3", { text: `Your hand (${view.hand.length})` }), row);
}

/** A big card (the pile's top). @param {string | null | undefined} card */
export function bigCard(card) {
  if (!card) return el("div", { class: "card big empty", text: "—" });
  return el("div", { class: `card big ${cardClass(card)}`, dataset: { card, suit: suitOf(card) }, role: "img", "aria-label": cardLabel(card), text: cardText(card) });
}
