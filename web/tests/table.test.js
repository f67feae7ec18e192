// The table screen's words: every one is the server's, laid out as it came (an event's
// text, what a seat must answer, the legal actions' groups and labels, a table's house
// rules); the page adds only card colours, and a neutral fallback where a server sends none.
import assert from "node:assert/strict";
import { test } from "node:test";

import { groups, ordered } from "../static/boards/legal.js";
import { splitCards, wordsWithCards } from "../static/cards.js";
import { houseRules } from "../static/lobby.js";
import { ClientState } from "../static/state.js";
import { actions, logLine, result } from "../static/table.js";
import { byClass, byTag, install, text } from "./fakedom.js";

install();

test("the server's words are cut into text and cards, and joined again are the same words", () => {
  const said = "bob plays 10♣ JK Q♥ T♦ and is out; 10 points (JKL stays a word)";
  const runs = splitCards(said);
  assert.deepEqual(runs.filter((r) => typeof r !== "string"), [
    { card: "TC", text: "10♣" },
    { card: "JK", text: "JK" },
    { card: "QH", text: "Q♥" },
    { card: "TD", text: "T♦" },
  ]);
  assert.equal(runs.map((r) => (typeof r === "string" ? r : r.text)).join(""), said);
  const nodes = wordsWithCards("ann draws 2 cards: 2♦ 3♠");
  const li = /** @type {any} */ (document.createElement("li"));
  li.append(...nodes);
  assert.equal(text(li), "ann draws 2 cards: 2♦ 3♠");
  assert.deepEqual(byClass(li, "card-text").map((s) => s.className), ["card-text red", "card-text black"]);
});

test("an event's line is the server's text; without one, only the event's kind", () => {
  const said = logLine({ kind: "event", ev: { kind: "miss", seat: 1, turns: 1 }, seq: 9, text: "bot 1 misses 1 turn" });
  assert.equal(text(said), "bot 1 misses 1 turn");
  assert.equal(said.dataset.seq, "9");
  const bare = logLine({ kind: "event", ev: { kind: "miss", seat: 1, turns: 1 }, seq: 10, text: null });
  assert.equal(text(bare), "miss");
});

test("the legal actions are the server's choices, in its order; without them, the notation", () => {
  /** @type {import("../types").ChoiceGroup[]} */
  const choices = [["You may play", [["play 7H", "7H"], ["play 7H 7D", "7H 7D"]]], ["or", [["draw", "draw"]]]];
  const legal = ["draw", "play 7H", "play 7H 7D"];
  assert.deepEqual(groups(choices, legal), choices);
  assert.deepEqual(ordered(choices, legal), ["play 7H", "play 7H 7D", "draw"]);
  assert.deepEqual(groups([], ["draw", "pass"]), [["", [["draw", "draw"], ["pass", "pass"]]]]);
  assert.deepEqual(groups([], []), []);
});

/** A table at seat 0's turn, as the server's turn leaves it. */
function myTable(turn) {
  const s = new ClientState();
  s.handle({ type: "seated", table: "1", seat: 0, token: "t" });
  const view = { ruleset: "j28", family: "shedding", seats: 2, viewer: 0, to_act: 0, over: false, scores: [0, 0], hand: ["7H", "7D"] };
  s.handle({ type: "snapshot", table: "1", seq: 1, state: "playing", view, seat: 0, players: ["ann", "bot:random"] });
  s.handle({ type: "turn", table: "1", seq: 2, seat: 0, to_act: 0, view, ...turn });
  return s.table("1");
}

const APP = /** @type {any} */ ({ ui: { selection: [], confirming: false }, act() {}, playSelection() {}, clearSelection() {} });

test("what a seat must answer and its moves are shown as the server words them", () => {
  const t = myTable({
    legal: ["play 8H", "pass"],
    must: "You must pass the miss of 1 turn on with one of these plays, or pass",
    choices: [["You may play", [["play 8H", "8H"]]], ["or", [["pass", "pass"]]]],
  });
  const box = actions(APP, t);
  assert.equal(text(byClass(box, "must")[0]), "You must pass the miss of 1 turn on with one of these plays, or pass");
  const rows = byClass(box, "action-row").filter((r) => !r.classList.contains("selection"));
  assert.deepEqual(rows.map((r) => text(byClass(r, "heading")[0])), ["You may play", "or"]);
  const buttons = byClass(box, "act");
  assert.deepEqual(buttons.map((b) => [b.dataset.action, b.dataset.label]), [["play 8H", "8H"], ["pass", "pass"]]);
  assert.deepEqual(buttons.map((b) => text(b)), ["18♥", "2pass"], "the digit key, then the label (its card drawn)");
  assert.deepEqual(byTag(box, "kbd").slice(0, 2).map(text), ["1", "2"]);
});

test("a turn with nothing owed shows no must line", () => {
  const t = myTable({ legal: ["draw"], choices: [["You may", [["draw", "draw"]]]] });
  assert.equal(byClass(actions(APP, t), "must").length, 0);
});

test("the end of a hand is headed by the server's words for it", () => {
  const t = myTable({ legal: [] });
  const s = new ClientState();
  s.tables.set("1", t);
  assert.equal(s.handle({ type: "event", table: "1", seq: 2, event: { kind: "hand_end", hand_number: 1, points: [6, 0], scores: [6, 0] }, text: "Hand over: ann went out first; this hand ann +6" }), "event");
  const box = result(t, ["ann", "bot 1"]);
  assert.ok(box);
  assert.equal(text(byTag(box, "h3")[0]), "Hand over: ann went out first; this hand ann +6");
  assert.deepEqual(byTag(box, "tr").slice(1).map(text), ["ann+66", "bot 100"]);
});

test("a table's house rules are the server's words; without them, name=value", () => {
  const listed = { table: "1", ruleset: "switch", seats: 2, players: [], state: "waiting", options: { turn_seconds: 0 }, options_text: ["no clock"] };
  assert.deepEqual(houseRules(/** @type {any} */ (listed), null), ["no clock"]);
  assert.deepEqual(houseRules(/** @type {any} */ ({ ...listed, options_text: undefined }), null), ["turn_seconds=0"]);
  assert.deepEqual(houseRules(undefined, /** @type {any} */ ({ options: { target: 20 } })), ["target=20"]);
});

test("the end of a game: each hand's points before the total, each seat's rating change after", () => {
  const t = myTable({ legal: [] });
  const s = new ClientState();
  s.tables.set("1", t);
  s.handle({ type: "event", table: "1", seq: 2, event: { kind: "hand_end", hand_number: 1, points: [6, 0], scores: [6, 0] }, text: "Hand over" });
  s.handle({ type: "event", table: "1", seq: 3, event: { kind: "hand_end", hand_number: 2, points: [0, 9], scores: [6, 9] }, text: "Hand over" });
  s.handle({ type: "event", table: "1", seq: 4, event: { kind: "game_end", winner: 0, scores: [6, 9] }, text: "Game over: ann wins" });
  const changes = [{ seat: 0, name: "ann", before: 1500, after: 1512 }, { seat: 1, name: "bot:random", before: 1500, after: 1492 }];
  s.handle({ type: "rated", table: "1", game: 1, changes, text: "ratings after game 1: ann 1500 → 1512 (+12), bot 1 1500 → 1492 (-8)" });
  const box = result(t, ["ann", "bot 1"]);
  assert.ok(box);
  assert.deepEqual(byTag(box, "th").map(text), ["Player", "1", "2", "Total", "±"]);
  assert.deepEqual(byTag(box, "tr").slice(1).map((row) => byTag(row, "td").map(text)), [
    ["ann", "+6", "0", "6", "+12"],
    ["bot 1", "0", "+9", "9", "-8"],
  ]);
});

test("whom the table waits for is the server's line; without one, none is made up", () => {
  const s = new ClientState();
  s.handle({ type: "seated", table: "1", seat: 0, token: "t" });
  const view = { ruleset: "j28", family: "shedding", seats: 2, viewer: 0, to_act: 1, over: false, scores: [0, 0], hand: ["7H"] };
  s.handle({ type: "snapshot", table: "1", seq: 1, state: "playing", view, seat: 0, players: ["ann", "bot:random"] });
  s.handle({ type: "turn", table: "1", seq: 2, seat: 0, to_act: 1, view, waiting: "Waiting for bot 1…" });
  const t = s.table("1");
  assert.equal(t.waiting, "Waiting for bot 1…");
  assert.deepEqual(byClass(actions(APP, t), "waiting").map(text), ["Waiting for bot 1…"]);
  s.handle({ type: "turn", table: "1", seq: 3, seat: 0, to_act: 1, view });
  assert.equal(byClass(actions(APP, t), "waiting").length, 0);
});

test("the pile's line and the clock's warning are kept as the turn brought them", () => {
  const t = myTable({ legal: ["draw"], pending_text: "Pending: play an 8 or miss 1 turn", clock_warning: "10 seconds left: play, or the clock plays for you" });
  assert.equal(t.pendingText, "Pending: play an 8 or miss 1 turn");
  assert.equal(t.clockWarning, "10 seconds left: play, or the clock plays for you");
});

test("a person's coming and going is the server's line, his name marked", () => {
  const said = "cy3 dropped out (the seat stays theirs; their clock runs)";
  const line = logLine({ kind: "presence", seat: 1, name: "cy3", what: "dropped", text: said });
  assert.equal(text(line), said);
  assert.equal(text(byClass(line, "who")[0]), "cy3");
  const watcher = logLine({ kind: "watcher", name: null, what: "came", watching: 2, text: "someone with no name came to watch (2 watchers)" });
  assert.equal(text(watcher), "someone with no name came to watch (2 watchers)");
  assert.equal(text(logLine({ kind: "presence", seat: 1, name: "cy3", what: "back", text: null })), "cy3 back", "no words sent: the word");
});

test("a game found over is headed by the words its snapshot brought; without them, no heading", () => {
  const s = new ClientState();
  const view = { ruleset: "j28", family: "shedding", seats: 2, viewer: null, to_act: null, over: true, scores: [3, 9] };
  s.handle({ type: "snapshot", table: "1", seq: 9, state: "over", view, players: ["ann", "bob"], result_text: "Game over · scores ann 3, bob 9" });
  const box = result(s.table("1"), ["ann", "bob"]);
  assert.ok(box);
  assert.equal(text(byTag(box, "h3")[0]), "Game over · scores ann 3, bob 9");
  s.handle({ type: "snapshot", table: "1", seq: 9, state: "over", view, players: ["ann", "bob"] });
  const bare = result(s.table("1"), ["ann", "bob"]);
  assert.ok(bare);
  assert.equal(byTag(bare, "h3").length, 0);
});
