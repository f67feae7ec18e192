// @ts-check
// Cards as a person reads them: `QH` is Q♥ in red, `TD` is 10♦, `JK` a joker; and the
// cards within the server's words coloured, their words left as the server wrote them.
import { el } from "./dom.js";

/** @type {Record<string, string>} */
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** @type {Record<string, string>} */
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
/** A rank as it is read aloud: protocol/cards.py's `RANK_WORDS` (a digit is itself); a
 * test checks the two tables say the same, so a screen reader hears the server's words.
 * @type {Record<string, string>} */
export const RANK_WORDS = { 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANKS = "23456789TJQKA";
const SUIT_ORDER = "CDHS";

/** `QH` -> `Q♥`, `TD` -> `10♦`, `JK` -> `Joker`. @param {string} card @returns {string} */
export function cardText(card) {
  if (card === "JK") return "Joker";
  if (typeof card !== "string" || card.length !== 2) return String(card);
  const rank = card[0] === "T" ? "10" : card[0];
  return rank + (SUITS[card[1]] || card[1]);
}

/** A card read aloud: `QH` -> `queen of hearts`, `TD` -> `10 of diamonds`, `JK` -> `joker`.
 * @param {string} card @returns {string} */
export function cardLabel(card) {
  if (card === "JK") return "joker";
  if (typeof card !== "string" || card.length !== 2 || !RANK_WORDS[card[0]] || !SUIT_NAMES[card[1]]) return String(card);
  return `${RANK_WORDS[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

/** A card's suit letter (C, D, H, S; "" for a joker), for the four-colour deck's style.
 * @param {string | null | undefined} card @returns {string} */
export function suitOf(card) {
  return card && card !== "JK" && card.length === 2 ? card[1] : "";
}

/** The colour class of a card. @param {string | null | undefined} card @returns {string} */
export function cardClass(card) {
  if (card === "JK") return "joker";
  return card && (card[1] === "H" || card[1] === "D") ? "red" : "black";
}

/** A card as an inline span (in the log, on a button). @param {string} card */
export function cardSpan(card) {
  return el("span", { class: `card-text ${cardClass(card)}`, dataset: { suit: suitOf(card) }, role: "img", "aria-label": cardLabel(card), text: cardText(card) });
}

/** Cards in suit order, then rank; jokers last (the terminal client's order).
 * @param {string[]} cards @returns {string[]} */
export function sortCards(cards) {
  /** @param {string} c */
  const key = (c) => (c === "JK" ? 999 : SUIT_ORDER.indexOf(c[1]) * 20 + RANKS.indexOf(c[0]));
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Cards by rank, high first (abbott's collections). @param {string[]} cards @returns {string[]} */
export function byRankDesc(cards) {
  return [...cards].sort((a, b) => RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}

const CARD_WORD = /^(?:[2-9TJQKA][CDHS]|JK)$/;
/** A card as the server's words write it: `K♣`, `10♥` (a board's `T♥` too), `JK` (a word
 * of its own). */
const CARD_IN_TEXT = /(?<![\p{L}\p{N}])((?:10|[2-9TJQKA])[♣♦♥♠]|JK)(?![\p{L}\p{N}])/u;
/** @type {Record<string, string>} */
const SUIT_OF_GLYPH = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };

/**
 * The server's words cut into runs of text and cards, each card with its code (for its
 * colour): `"bob plays K♣ 7♥"` -> `["bob plays ", {card: "KC", text: "K♣"}, " ", ...]`.
 * The words themselves are untouched: joined again, the runs are the text.
 * @param {string} text @returns {(string | {card: string, text: string})[]}
 */
export function splitCards(text) {
  /** @type {(string | {card: string, text: string})[]} */
  const out = [];
  const parts = text.split(CARD_IN_TEXT);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) out.push(part);
    } else if (part === "JK") out.push({ card: "JK", text: part });
    else out.push({ card: (part.startsWith("10") ? "T" : part[0]) + SUIT_OF_GLYPH[part.slice(-1)], text: part });
  });
  return out;
}

/** The server's words with their cards coloured (a span each, its text as written).
 * @param {string} text @returns {(string | HTMLElement)[]} */
export function wordsWithCards(text) {
  return splitCards(text).map((run) =>
    typeof run === "string" ? run : el("span", { class: `card-text ${cardClass(run.card)}`, dataset: { suit: suitOf(run.card) }, text: run.text }),
  );
}

/** An action's notation with its cards drawn as cards: `play 7H 7D` -> [play, 7♥, 7♦].
 * @param {string} action @returns {(string | HTMLElement)[]} */
export function actionLabel(action) {
  /** @type {(string | HTMLElement)[]} */
  const out = [];
  action.split(" ").forEach((word, i) => {
    if (i) out.push(" ");
    out.push(CARD_WORD.test(word) ? cardSpan(word) : word);
  });
  return out;
}
