// The reducer (static/state.js): what the page knows, folded in from the server's messages,
// each as docs/protocol.md sends it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ClientState, away, clockLeft, gameHands, myTurn, names, seatListing, seatName } from "../static/state.js";

const VIEW = { ruleset: "switch", family: "shedding", seats: 2, viewer: 0, to_act: 0, over: false, scores: [0, 0] };

/** A state holding table 4's snapshot (seat 0, alice against a bot) as of `seq`. */
function seated(seq = 3) {
  const s = new ClientState();
  s.handle({ type: "seated", table: "4", seat: 0, token: "tok" });
  s.handle({
    type: "snapshot", table: "4", seq, state: "playing", view: VIEW, seat: 0,
    legal: ["play 6C", "draw"], players: ["alice", "bot:search"], master: "alice", clock: 30,
  });
  return s;
}

/** @param {number} seq @param {object} event @param {string} [text] */
const event = (seq, event, text) => ({ type: "event", table: "4", seq, event, text });

test("a snapshot replaces what the page knew of the table", () => {
  const s = seated();
  const t = s.table("4");
  assert.equal(t.seq, 3);
  assert.equal(t.seat, 0);
  assert.equal(t.token, "tok");
  assert.deepEqual(t.legal, ["play 6C", "draw"]);
  assert.equal(t.toAct, 0);
  assert.equal(t.master, "alice");
  assert.deepEqual(t.playedBy, ["alice", "bot:search"]);
  assert.ok(myTurn(t));
  const left = clockLeft(t);
  assert.ok(left !== null && left > 29 && left <= 30, String(left));
});

test("an empty view (before the first game) is no view", () => {
  const s = new ClientState();
  assert.equal(s.handle({ type: "snapshot", table: "1", seq: 0, state: "waiting", view: {} }), "table");
  assert.equal(s.table("1").view, null);
  assert.equal(s.table("1").toAct, null);
});

test("events apply once, in order; a duplicate is ignored and a jump is a gap", () => {
  const s = seated();
  const t = s.table("4");
  assert.equal(s.handle(event(4, { kind: "play", seat: 0, cards: ["6C"] }, "alice plays 6♣")), "event");
  assert.equal(s.handle(event(4, { kind: "play", seat: 0, cards: ["6C"] })), null);
  assert.equal(t.log.length, 1);
  assert.equal(s.handle(event(6, { kind: "draw", seat: 1, count: 1 })), "gap");
  assert.equal(t.seq, 4);
  assert.equal(t.log.length, 1);
  const line = t.log[0];
  assert.equal(line.kind, "event");
  assert.equal(line.kind === "event" && line.text, "alice plays 6♣", "the server's words, kept with the event");
  s.handle(event(5, { kind: "pass", seat: 1 }));
  const bare = t.log[1];
  assert.equal(bare.kind === "event" && bare.text, null, "a server that sends no words");
});

test("events asked for after a snapshot are filed into the log in seq order, once", () => {
  const s = seated(10);
  const t = s.table("4");
  s.handle(event(11, { kind: "pass", seat: 1 }));
  t.backfillTo = 10;
  assert.equal(s.handle(event(8, { kind: "draw", seat: 0, count: 1 })), "event");
  assert.equal(s.handle(event(7, { kind: "play", seat: 1, cards: ["5C"] }, "bot 1 plays 5♣")), "event");
  assert.equal(s.handle(event(8, { kind: "draw", seat: 0, count: 1 })), null);
  assert.deepEqual(t.log.map((l) => (l.kind === "event" ? l.seq : -1)), [7, 8, 11]);
  assert.equal(t.log[0].kind === "event" && t.log[0].text, "bot 1 plays 5♣", "an old event keeps its words");
  assert.equal(t.seq, 11);
  t.backfillTo = null;
  assert.equal(s.handle(event(9, { kind: "pass", seat: 0 })), null);
});

test("a turn moves the turn, the legal actions, the server's words and the view", () => {
  const s = seated();
  const t = s.table("4");
  const choices = [["Play", [["play 6C", "6♣"]]], ["Or", [["draw", "draw a card"]]]];
  s.handle({
    type: "turn", table: "4", seq: 4, seat: 0, to_act: 0, legal: ["play 6C", "draw"],
    must: "You must answer the pick-up of 2", choices, clock: 20, view: { ...VIEW, scores: [1, 0] },
  });
  assert.equal(t.must, "You must answer the pick-up of 2");
  assert.deepEqual(t.choices, choices);
  assert.deepEqual(t.view && t.view.scores, [1, 0]);
  s.handle({ type: "turn", table: "4", seq: 5, seat: 0, to_act: 1 });
  assert.equal(t.must, null, "a turn without words clears the last turn's");
  assert.deepEqual(t.choices, []);
  assert.deepEqual(t.legal, []);
  assert.equal(t.view && t.view.to_act, 1, "a turn without a view moves the view's turn");
  assert.ok(!myTurn(t));
});

test("a hand's and a game's end are kept as the result until the next deal or game", () => {
  const s = seated();
  const t = s.table("4");
  s.handle(event(4, { kind: "hand_end", hand_number: 1, points: [5, 0], scores: [5, 0] }, "Hand over: alice went out first"));
  assert.equal(t.result && t.result.ev.kind, "hand_end");
  assert.equal(t.result && t.result.text, "Hand over: alice went out first");
  s.handle(event(5, { kind: "deal", dealer: 1, hand_number: 2 }));
  assert.equal(t.result, null);
  s.handle(event(6, { kind: "game_end", winner: 0, scores: [10, 0] }));
  assert.equal(t.result && t.result.ev.kind, "game_end");
  s.handle({ type: "snapshot", table: "4", seq: 7, state: "playing", view: VIEW, seat: 0, players: ["alice", "bob"] });
  assert.equal(t.result, null, "a new game's snapshot ends the last game's result");
});

test("presence marks a seat away until the player is back, and goes to the log", () => {
  const s = seated();
  const t = s.table("4");
  const dropped = "alice dropped out (the seat stays theirs; their clock runs)";
  s.handle({ type: "presence", table: "4", seat: 0, name: "alice", what: "dropped", text: dropped });
  assert.equal(away(t, 0), "dropped");
  s.handle({ type: "presence", table: "4", seat: 0, name: "alice", what: "back" });
  assert.equal(away(t, 0), null);
  assert.deepEqual(
    t.log.map((l) => (l.kind === "presence" ? [l.what, l.text] : null)),
    [["dropped", dropped], ["back", null]],
  );
});

test("talk, watchers and a table's notice go to its log; a watcher of a table left is ignored", () => {
  const s = seated();
  const t = s.table("4");
  assert.equal(s.handle({ type: "talk", table: "4", name: "bob", text: "hi" }), "talk");
  assert.equal(s.handle({ type: "watcher", table: "4", what: "came", name: "cy", watching: 2 }), "talk");
  assert.equal(t.watching, 2);
  assert.equal(s.handle({ type: "watcher", table: "9", what: "came", watching: 1 }), null);
  assert.equal(s.tables.has("9"), false);
  assert.equal(s.handle({ type: "notice", text: "the clock played for bob", table: "4" }), "notice");
  s.handle({ type: "notice", text: "server going down" });
  assert.deepEqual(t.log.map((l) => l.kind), ["talk", "watcher", "note"]);
  assert.deepEqual(s.notices, ["the clock played for bob", "server going down"]);
});

test("the lobby, the people online, the shouts and the name", () => {
  const s = seated();
  s.handle({ type: "tables", tables: [{ table: "4", ruleset: "switch", seats: 2, players: [], state: "playing", spectators: 3 }] });
  assert.equal(s.table("4").watching, 3);
  assert.deepEqual(s.lobbyPage, { start: 0, next: null, total: 1, size: 1 }); // from a server without pages: all of it
  s.handle({ type: "tables", tables: [{ table: "9", ruleset: "switch", seats: 2, players: [], state: "waiting" }], start: 50, next: 51, total: 120 });
  assert.deepEqual(s.lobbyPage, { start: 50, next: 51, total: 120, size: 1 }); // a page of the lobby, and the next one's start
  s.handle({ type: "tables", tables: [0, 1, 2].map((n) => ({ table: String(n), ruleset: "switch", seats: 2, players: [], state: "waiting" })), start: 0, next: 3, total: 8 });
  s.handle({ type: "tables", tables: [{ table: "7", ruleset: "switch", seats: 2, players: [], state: "waiting" }], start: 6, next: null, total: 8 });
  assert.deepEqual(s.lobbyPage, { start: 6, next: null, total: 8, size: 3 }); // the short last page keeps the page's size
  s.handle({ type: "people", people: [{ name: "alice", state: "playing" }], total: 2, guests: 1, text: "2 people online (1 of them listed), and 1 connection with no name yet" });
  assert.deepEqual(s.online, { total: 2, guests: 1, text: "2 people online (1 of them listed), and 1 connection with no name yet" }); // the server's words, kept as sent
  for (let i = 0; i < 105; i++) s.handle({ type: "shouted", name: "bob", text: `shout ${i}` });
  assert.equal(s.shouts.length, 100);
  assert.equal(s.shouts[0].text, "shout 5");
  assert.equal(s.handle({ type: "named", name: "alice" }), "name");
  assert.equal(s.name, "alice");
  assert.equal(s.handle({ type: "pong" }), null);
});

test("the log keeps the last 500 lines", () => {
  const s = seated(0);
  for (let i = 1; i <= 510; i++) s.handle(event(i, { kind: "pass", seat: 0 }));
  const t = s.table("4");
  assert.equal(t.log.length, 500);
  assert.equal(t.log[0].kind === "event" && t.log[0].seq, 11);
});

test("a bot is named by its seat, a person by his name; the listing adds the strategy", () => {
  assert.equal(seatName("bot:search", 2), "bot 3", "seats are counted from 1 where a person reads them");
  assert.equal(seatName("alice", 0), "alice");
  assert.equal(seatName(null, 1), null);
  assert.equal(seatListing("bot:search", 2), "bot 3 (search)");
  assert.equal(seatListing("bot:", 2), "bot 3");
  assert.equal(seatListing("alice", 0), "alice");
  const s = seated();
  const t = s.table("4");
  assert.deepEqual(names(t), ["alice", "bot 2"]);
  t.state = "over";
  t.players = [null, "bot:search"];
  assert.deepEqual(names(t), ["alice", "bot 2"], "who played the game ended names an empty seat");
});

test("a snapshot names the table's ruleset (a waiting table's too) and who asked to play again", () => {
  const s = new ClientState();
  s.handle({ type: "snapshot", table: "9", seq: 0, state: "waiting", view: {}, players: ["ann", null], master: "ann", ruleset: "kilodney" });
  const t = s.table("9");
  assert.equal(t.ruleset, "kilodney");
  assert.deepEqual(t.again, []);
  s.handle({ type: "snapshot", table: "9", seq: 5, state: "over", view: {}, players: ["ann", "bob"], master: "ann", again: [1] });
  assert.deepEqual(t.again, [1]);
  assert.equal(t.ruleset, "kilodney", "kept when a snapshot leaves it out");
});

test("rated: the table keeps each seat's change, says it in its log, and forgets it at the next deal", () => {
  const s = seated();
  const changes = [{ seat: 0, name: "alice", before: 1500, after: 1512 }];
  const text = "ratings after game 1: alice 1500 → 1512 (+12)";
  assert.equal(s.handle({ type: "rated", table: "4", game: 1, changes, text }), "table");
  const t = s.table("4");
  assert.deepEqual(t.rated && t.rated.changes, changes);
  assert.deepEqual(t.log.at(-1), { kind: "note", text });
  s.handle({ type: "snapshot", table: "4", seq: 40, state: "playing", view: VIEW, seat: 0, players: ["alice", "bob"] });
  assert.equal(t.rated, null);
  assert.equal(s.handle({ type: "rated", table: "77", game: 1, changes, text }), null, "a table not here");
});

test("the hands of the last game: its hand_end events, not the game's before", () => {
  const s = seated(1);
  const t = s.table("4");
  const hand = (/** @type {number} */ seq, /** @type {number} */ n) => event(seq, { kind: "hand_end", hand_number: n, points: [n, 0] });
  for (const msg of [hand(2, 1), hand(3, 2), event(4, { kind: "game_end", winner: 0 }), hand(5, 1), hand(6, 2), hand(7, 3), event(8, { kind: "game_end", winner: 1 })]) s.handle(msg);
  assert.deepEqual(gameHands(t).map((line) => line.seq), [5, 6, 7]);
  s.handle(hand(9, 1)); // the next game's first hand, before its end
  assert.deepEqual(gameHands(t).map((line) => line.seq), [9]);
});

test("a game's end caught up after a resume (no snapshot follows) makes the table over", () => {
  const s = seated(3);
  const t = s.table("4");
  s.handle(event(4, { kind: "game_end", winner: 0 }, "Game over: alice wins"));
  assert.equal(t.state, "over");
});
