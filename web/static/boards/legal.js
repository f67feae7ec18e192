// @ts-check
// The moves legal now, as the server words them: a turn's (or snapshot's) `choices` group
// the legal actions, each with its label, in the order to show them; the page composes no
// word of its own. What is left here is logic: the order the digit keys count in, the cards
// that begin a play (marked in the hand), and the play a selection of cards makes.

/** @typedef {import("../../types").ChoiceGroup} ChoiceGroup */

/**
 * The groups to show: the server's `choices`; from a server that sends none, the legal
 * actions as they are, under no heading (the notation is what a player types anyway).
 * @param {ChoiceGroup[]} choices @param {string[]} legal @returns {ChoiceGroup[]}
 */
export function groups(choices, legal) {
  if (choices.length || !legal.length) return choices;
  return [["", legal.map((action) => /** @type {[string, string]} */ ([action, action]))]];
}

/** The actions in the order the buttons show them (digit keys count in this order).
 * @param {ChoiceGroup[]} choices @param {string[]} legal @returns {string[]} */
export function ordered(choices, legal) {
  return groups(choices, legal).flatMap(([, items]) => items.map(([action]) => action));
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
