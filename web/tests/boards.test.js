// The boards (static/boards/) and the cards: what each family's board draws from a view,
// on a tiny fake document (./fakedom.js), and the logic of the hand (playable cards, the
// play a selection makes).
import assert from "node:assert/strict";
import { test } from "node:test";

import * as abbott from "../static/boards/abbott.js";
import * as kilodney from "../static/boards/kilodney.js";
import { playFor, playable } from "../static/boards/legal.js";
import * as shedding from "../static/boards/shedding.js";
import { actionLabel, byRankDesc, cardClass, cardText, sortCards } from "../static/cards.js";
import { byClass, byTag, install, text } from "./fakedom.js";

install();

/** A board's context: seat names, the legal actions, and what a tap would do (recorded). */
function context(legal = [], mine = true, selection = [], pile = /** @type {string | null} */ (null)) {
  /** @type {string[]} */
  const done = [];
  return {
    done,
    name: (/** @type {number} */ seat) => ["alice", "bob", "cy", "dee"][seat] || `seat ${seat}`,
    legal,
    mine,
    selection,
    pile,
    onCard: (/** @type {string} */ card) => done.push(`card ${card}`),
    onAct: (/** @type {string} */ action) => done.push(action),
  };
}

const COMMON = { seats: 2, viewer: 0, to_act: 0, over: false, scores: [3, 7], options: {} };

test("cards read as a person reads them, in the terminal client's order", () => {
  assert.equal(cardText("QH"), "Q♥");
  assert.equal(cardText("TD"), "10♦");
  assert.equal(cardText("JK"), "Joker");
  assert.equal(cardClass("QH"), "red");
  assert.equal(cardClass("AS"), "black");
  assert.equal(cardClass("JK"), "joker");
  assert.deepEqual(sortCards(["JK", "2S", "KC", "3C", "TD"]), ["3C", "KC", "TD", "2S", "JK"]);
  assert.deepEqual(byRankDesc(["2S", "AH", "TD"]), ["AH", "TD", "2S"]);
  const label = actionLabel("play 7H 7D");
  assert.equal(label.length, 5);
  assert.equal(label[0], "play");
  assert.equal(text(label[2]), "7♥");
});

test("the hand marks the cards that begin a legal play; a selection makes the listed play", () => {
  const legal = ["play 7H", "play 7H 7D", "play 5C last", "draw"];
  assert.deepEqual([...playable(legal)].sort(), ["5C", "7D", "7H"]);
  assert.equal(playFor(["7H", "7D"], legal), "play 7H 7D");
  assert.equal(playFor(["5C"], legal), "play 5C last", "the announcing form where that is the one listed");
  assert.equal(playFor(["7D", "7H"], legal), null, "order matters");
});

const SHEDDING = {
  ...COMMON, ruleset: "switch", family: "shedding", preset: "switch", hand: ["7H", "KC", "7D"],
  hand_sizes: [3, 1], top: "7S", pile_size: 4, nominated: "H", stock: 30, pending: null,
  direction: -1, finished: [], announced: [1], hand_number: 2, target: 0, dealer: 1,
};

test("shedding: the pile, the suit, the direction, and the hand with its playable cards", () => {
  const ctx = context(["play 7H", "draw"], true, ["7H"]);
  const board = shedding.render(/** @type {any} */ (SHEDDING), ctx);
  assert.equal(text(byClass(board, "board-title")[0]), "switch · hand 2 · dealer bob");
  assert.equal(text(byClass(board, "big")[0]), "7♠");
  const facts = byClass(board, "fact").map(text);
  assert.deepEqual(facts, ["Pile: 4", "Stock: 30", "↺ anticlockwise", "Suit: ♥ hearts"]);
  const cards = byClass(board, "card").filter((c) => c.tagName === "BUTTON");
  assert.deepEqual(cards.map((c) => c.dataset.card), ["KC", "7D", "7H"]);
  assert.deepEqual(cards.map((c) => c.classList.contains("playable")), [false, false, true]);
  assert.deepEqual(cards.map((c) => c.getAttribute("aria-pressed")), ["false", "false", "true"]);
  cards[0].dispatch("click");
  assert.deepEqual(ctx.done, ["card KC"]);
  assert.equal(shedding.seatBadge(/** @type {any} */ (SHEDDING), 0), "3 cards");
  assert.equal(shedding.seatBadge(/** @type {any} */ (SHEDDING), 1), "1 card · last card");
  const out = { ...SHEDDING, finished: [1], hand_sizes: [3, 0] };
  assert.equal(shedding.seatBadge(/** @type {any} */ (out), 1), "out");
});

test("shedding: a power waiting is said in the server's words (its kind where it sends none)", () => {
  const pending = { kind: "miss", count: 1, cards: ["8S"], rank: "8" };
  const owed = { ...SHEDDING, pending, awaiting: "play a 8 or miss 1 turn(s)" };
  const said = "Pending: play an 8 or miss 1 turn";
  const facts = byClass(shedding.render(/** @type {any} */ (owed), context([], true, [], said)), "fact").map(text);
  assert.equal(facts.at(-1), said, "the server's pending_text, not the view's awaiting");
  assert.equal(byClass(shedding.render(/** @type {any} */ (owed), context()), "fact").map(text).at(-1), "Pending: miss");
  const none = byClass(shedding.render(/** @type {any} */ ({ ...SHEDDING, pending: null }), context([], true, [], said)), "fact").map(text);
  assert.ok(!none.includes(said), "nothing pending: no line");
});

test("shedding: a spectator's board hides the hands and marks nothing", () => {
  const board = shedding.render(/** @type {any} */ ({ ...SHEDDING, viewer: null, hand: null }), context([], false));
  assert.equal(byClass(board, "card").filter((c) => c.tagName === "BUTTON").length, 0);
  assert.ok(text(board).includes("Watching: the hands are hidden"));
});

const KILODNEY = {
  ...COMMON, ruleset: "kilodney", family: "kilodney", hand: ["QH", "3C", "JK"], hand_sizes: [3, 5],
  top: "8H", running: true, in_hand: [true, true], knocked_out: [], jokers: 2, leader: 1,
  hand_number: 1, target: 50, dealer: 0,
};

test("kilodney: what must follow the top card, and a card selected with a tap, as in switch", () => {
  const follow = "Follow: ♥ hearts or an 8, or play a joker"; // the server's pending_text
  const ctx = context(["play QH", "play JK"], true, [], follow);
  const board = kilodney.render(/** @type {any} */ (KILODNEY), ctx);
  const facts = byClass(board, "fact").map(text);
  assert.deepEqual(facts, ["played by bob", follow, "Jokers in the deck: 2"]);
  const cards = byClass(board, "card").filter((c) => c.tagName === "BUTTON");
  assert.deepEqual(cards.map((c) => c.dataset.card), ["3C", "QH", "JK"]);
  assert.deepEqual(cards.filter((c) => c.classList.contains("playable")).map((c) => c.dataset.card), ["QH", "JK"]);
  assert.equal(kilodney.selects, true);
  assert.equal(shedding.selects, kilodney.selects, "one rule for a tapped card");
  assert.equal(kilodney.seatBadge(/** @type {any} */ (KILODNEY), 1), "5 cards");
  const knocked = { ...KILODNEY, knocked_out: [1], in_hand: [true, false] };
  assert.equal(kilodney.seatBadge(/** @type {any} */ (knocked), 1), "knocked out (5)");
  const lead = kilodney.render(/** @type {any} */ ({ ...KILODNEY, running: false, top: null }), context([], true, [], "Lead any card"));
  assert.ok(byClass(lead, "fact").map(text).includes("Lead any card"));
  const mute = kilodney.render(/** @type {any} */ (KILODNEY), context());
  assert.deepEqual(byClass(mute, "fact").map(text), ["played by bob", "Jokers in the deck: 2"], "no words sent: none made up");
  const out = kilodney.render(/** @type {any} */ ({ ...KILODNEY, viewer: 0, hand: [], hand_sizes: [4, 5], knocked_out: [0], in_hand: [false, true] }), ctx);
  assert.equal(byClass(out, "card").filter((c) => c.tagName === "BUTTON").length, 0);
  assert.equal(text(byClass(out, "out-note")[0]), "Your hand: knocked out (4)");
});

const ABBOTT = {
  ...COMMON, seats: 4, scores: [0, 5, 0, 0], ruleset: "abbott", family: "abbott", size: 6,
  grid: Array.from({ length: 6 }, (_, r) => Array.from({ length: 6 }, (_, f) => (r === 0 && f === 2 ? null : "2C"))),
  pieces: ["c1", "a3", "c6", "f4"], collections: [["AH", "AS", "3D"], [], [], []],
  best: [{ category: "pair", cards: ["AH", "AS"] }, {}, {}, {}], dealer: 3, hand_number: 1,
  turn_of: 0, alliance: null, power: null, votes: [], conceded: [], stall: 2, stall_limit: 12,
  target: 100, seat_names: ["South", "West", "North", "East"],
};

test("abbott: the grid from South's side, the squares to move to as buttons, the collections", () => {
  const ctx = context(["move c4", "move e1", "vote end"]);
  const board = abbott.render(/** @type {any} */ (ABBOTT), ctx);
  const squares = byClass(board, "square");
  assert.equal(squares.length, 36);
  assert.equal(squares[0].dataset.square, "a6", "the top row is rank 6");
  assert.equal(squares[35].dataset.square, "f1");
  const targets = squares.filter((s) => s.classList.contains("target"));
  assert.deepEqual(targets.map((s) => s.dataset.square), ["c4", "e1"]);
  assert.ok(targets.every((s) => s.tagName === "BUTTON"));
  targets[0].dispatch("click");
  assert.deepEqual(ctx.done, ["move c4"]);
  const c1 = squares.find((s) => s.dataset.square === "c1");
  assert.ok(c1 && c1.classList.contains("empty") && text(c1) === "·S", c1 && text(c1));
  const lines = byTag(byClass(board, "collections")[0], "li").map(text);
  assert.equal(lines[0], "S alice (you) 0 pts pair: A♥ A♠ 3♦");
  assert.equal(lines[1], "W bob 5 pts no cards");
  assert.ok(byClass(board, "fact").map(text).includes("No alliance yet"));
  assert.equal(abbott.seatBadge(/** @type {any} */ (ABBOTT), 0), "S · 3 cards · pair");
});

test("abbott: a spectator, or a seat out of turn, gets no square to move to", () => {
  const board = abbott.render(/** @type {any} */ (ABBOTT), context(["move c4"], false));
  assert.equal(byClass(board, "target").length, 0);
});
