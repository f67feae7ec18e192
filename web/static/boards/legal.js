// @ts-check
// The moves legal now, grouped by what they do (the terminal client's boards/legal.py),
// and what a player must answer (a pick-up, a suit to name), worked out from the legal
// actions themselves so the words never offer a move the server would refuse.

const GROUPS = [
  ["play", "Play"],
  ["move", "Move to"],
  ["suit", "Name a suit"],
  ["ally", "Ally with"],
  ["announce", "Announce"],
  ["other", "Or"],
];

/** The group an action is shown in. @param {string} action @returns {string} */
export function groupOf(action) {
  const verb = (action.split(" ")[0] || "").toLowerCase();
  if (["play", "move", "suit", "ally"].includes(verb)) return verb;
  if (verb === "last") return "announce";
  return "other";
}

/** [[heading, [actions]]] in the order shown; every legal action exactly once.
 * @param {string[]} legal @returns {[string, string[]][]} */
export function grouped(legal) {
  /** @type {Record<string, string[]>} */
  const by = {};
  for (const action of legal) (by[groupOf(action)] ||= []).push(action);
  /** @type {[string, string[]][]} */
  const out = [];
  for (const [group, heading] of GROUPS) {
    if (by[group]) out.push([out.length === 0 && group === "other" ? "You may" : heading, by[group]]);
  }
  return out;
}

/** The actions in the order the buttons show them (digit keys count in this order).
 * @param {string[]} legal @returns {string[]} */
export function ordered(legal) {
  return grouped(legal).flatMap(([, actions]) => actions);
}

/** What the player must answer now, or null on an ordinary turn (shedding).
 * @param {import("../../types").SheddingView} view @param {string[]} legal @returns {string | null} */
export function mustText(view, legal) {
  const pending = view.pending || { kind: "" };
  const plays = legal.filter((a) => groupOf(a) === "play");
  const canDraw = legal.includes("draw");
  const canPass = legal.includes("pass");
  if (legal.some((a) => a.startsWith("suit "))) return "You must name the suit to follow";
  const drew = view.awaiting_kind === "drawn";
  if (drew || ((view.drawn || []).length && canPass && !["skip", "miss"].includes(pending.kind))) {
    return plays.length ? "You must play the card you drew, or pass" : "You must pass";
  }
  if (pending.kind === "pickup") {
    const take = `draw (you take ${pending.count})`;
    if (!plays.length) return canDraw ? `You must take the pick-up of ${pending.count}: ${take}` : `You must answer the pick-up of ${pending.count}`;
    return `You must answer the pick-up of ${pending.count}: play one of these, or ${take}`;
  }
  if (pending.kind === "skip" || pending.kind === "miss") {
    const what = pending.kind === "skip" ? "skip" : `miss of ${pending.count} turns`;
    if (plays.length) return `You must pass the ${what} on with one of these plays, or pass`;
    return canPass ? "You must pass" : null;
  }
  if (pending.kind === "cover") {
    if (plays.length) return `You must cover the card with one of these plays${canDraw ? ", or draw" : ""}`;
    return canDraw ? "You must draw: nothing covers the card" : null;
  }
  return view.awaiting ? `You must: ${view.awaiting}` : null;
}

/** Cards that begin some legal play now (marked in the hand).
 * @param {string[]} legal @returns {Set<string>} */
export function playable(legal) {
  const out = new Set();
  for (const action of legal) {
    const words = action.split(" ");
    if (words[0] === "play") for (const w of words.slice(1)) if (w !== "last") out.add(w);
  }
  return out;
}

/** The legal action that lays exactly `cards` in that order (its `last` form if that is
 * the one listed), or null. @param {string[]} cards @param {string[]} legal @returns {string | null} */
export function playFor(cards, legal) {
  const bare = `play ${cards.join(" ")}`;
  return legal.find((a) => a === bare || a === `${bare} last`) || null;
}
