// A finished game's replay in the browser: the steps the server sends, stepped through and
// kept in bounds, the analysis's marks at their steps with the better move, the record a
// download saves, the game's link, and the shared review's following and stepping away.
import assert from "node:assert/strict";
import { test } from "node:test";

import { byClass, byTag, install, text } from "./fakedom.js";

install();
const { ReplayModel, betterLine, fetchReplay, gameLink, parseGameLink, renderReplay, summary } = await import("../static/replay.js");
const { LookBack, againstBots } = await import("../static/review.js");

/** A page of a 3-action shedding game's replay. @param {number} start @param {number} end */
function page(start, end) {
  const steps = [];
  for (let n = start; n <= end; n++) {
    steps.push({
      step: n,
      action: n === 0 ? null : [n % 2, `play ${n}H`],
      view: { family: "shedding", ruleset: "switch", seats: 2, over: n === 3, scores: [0, 0], hand_sizes: [5 - n, 5], top: `${n + 1}H`, pile_size: n + 1, stock: 20, direction: 1, finished: [] },
      hands: [["2C", "3C"], ["4D"]],
      said: n === 0 ? ["the deal"] : [`ann plays ${n}♥`],
    });
  }
  return { type: "replay", table: "4", game: 2, record: { ruleset: "switch", seats: 2, seed: 9, names: ["ann", "bot 1"] }, steps, start, next: end < 3 ? end + 1 : null, total: 3 };
}

const ANALYSIS = {
  players: [{ seat: 0, name: "ann", decisions: 2, marked: { inaccuracy: 0, mistake: 0, blunder: 1 }, accuracy: 0.5, costliest: [1] }],
  decisions: [
    { index: 0, seat: 0, played: "play 1H", best: "play 1H", values: { "play 1H": 0.6 }, mark: null },
    { index: 1, seat: 1, played: "draw", best: "play 2H", values: { draw: 0.2, "play 2H": 0.7 }, mark: "blunder" },
  ],
};

test("the pages are joined and the steps stay within the game", async () => {
  const asked = [];
  const { model, error } = await fetchReplay(async (msg) => (asked.push(msg.start), msg.start === 0 ? page(0, 1) : page(2, 3)), "4", 2);
  assert.equal(error, null);
  assert.deepEqual(asked, [0, 2]);
  assert.ok(model.complete());
  assert.equal(model.last(), 3);
  assert.equal(model.next(), 3); // not past the end
  assert.equal(model.first(), 0);
  assert.equal(model.prev(), 0);
  assert.equal(model.go(2.4), 2);
  assert.deepEqual(model.names(), ["ann", "bot 1"]);
  model.seat = 1;
  assert.deepEqual(model.view().hand, ["4D"]);
  model.seat = null;
  assert.equal(model.view().hand, undefined);
});

test("a refused replay gives the error and no model", async () => {
  const { model, error } = await fetchReplay(async () => ({ type: "error", code: "bad_state", text: "still running" }), "4", 2);
  assert.equal(model, null);
  assert.equal(error.code, "bad_state");
});

test("the record to download is the head, every action and the names", () => {
  const model = new ReplayModel("4", 2);
  model.add(page(0, 3));
  const record = model.record();
  assert.equal(record.seed, 9);
  assert.deepEqual(record.actions, [[1, "play 1H"], [0, "play 2H"], [1, "play 3H"]]);
  assert.deepEqual(record.names, ["ann", "bot 1"]);
});

test("the analysis's marks sit at step index + 1, with the better move and its value", () => {
  const model = new ReplayModel("4", 2);
  model.add(page(0, 3));
  model.setAnalysis(ANALYSIS);
  assert.deepEqual(model.markedSteps(), [2]);
  assert.equal(model.decision(1).mark, null);
  assert.equal(betterLine(model.decision(2)), "draw ?? (0.20) · better: play 2H (0.70)");
  assert.equal(betterLine(model.decision(1)), "play 1H (0.60): the best move");
  model.go(2);
  const drawn = renderReplay(model, { go: () => {}, showSeat: () => {} });
  assert.equal(text(byClass(drawn, "mark")[0]), "??");
  assert.match(text(drawn), /better: play 2H/);
  assert.match(text(drawn), /step 2 of 3/);
  const table = summary(model, () => {});
  assert.match(text(table), /ann50%0 \/ 0 \/ 1step 2/);
  assert.equal(byTag(table, "button")[0].dataset.step, "2");
});

test("a game's link names its table and number, and nothing else opens as one", () => {
  assert.equal(gameLink("12", 3), "/g/12-3");
  assert.deepEqual(parseGameLink("/g/12-3"), { table: "12", game: 3 });
  assert.equal(parseGameLink("/g/12"), null);
  assert.equal(parseGameLink("/t/12-3"), null);
});

test("a follower goes to his leader's steps; stepping away stops it, following again resumes", () => {
  const sent = [];
  const app = { conn: { request: async (msg) => (sent.push(msg), { type: "ok" }) }, render: () => {}, state: { name: "bob", tables: new Map(), lobby: [] } };
  const look = new LookBack(/** @type {any} */ (app));
  look.model = new ReplayModel("4", 2);
  look.model.add(page(0, 3));
  look.onMessage({ type: "reviewing", table: "4", game: 2, leader: "ann", step: 2, total: 3 });
  assert.equal(look.model.at, 0); // not following: a leader is only known
  assert.deepEqual([...look.leaders.get("4")], [["ann", 2]]);
  look.following = { table: "4", name: "ann" };
  look.onMessage({ type: "reviewing", table: "4", game: 2, leader: "ann", step: 3, total: 3 });
  assert.equal(look.model.at, 3);
  look.go(1); // his own step: away from ann
  assert.equal(look.following, null);
  assert.deepEqual(look.away, { table: "4", name: "ann" });
  assert.deepEqual(sent.at(-1), { type: "follow", table: "4" });
  look.onMessage({ type: "reviewing", table: "4", game: 2, leader: "ann", step: 2, total: 3 });
  assert.equal(look.model.at, 1);
  look.onMessage({ type: "analysis_progress", table: "4", game: 2, done: 3, total: 9 });
  assert.deepEqual(look.progress.get("4-2"), { done: 3, total: 9 });
  look.onMessage({ type: "analysis", table: "4", game: 2, analysis: ANALYSIS });
  assert.equal(look.progress.has("4-2"), false);
  assert.deepEqual(look.model.markedSteps(), [2]);
});

test("a hint is offered only against bots", () => {
  const t = { seat: 0, players: ["ann", "bot:search", "bot:heuristic"] };
  assert.ok(againstBots(/** @type {any} */ (t)));
  assert.ok(!againstBots(/** @type {any} */ ({ ...t, players: ["ann", "bob", "bot:search"] })));
  assert.ok(!againstBots(/** @type {any} */ ({ ...t, seat: null })));
});

test("a swipe left is the next step, right the previous; a scroll is neither", async () => {
  const { swipeable } = await import("../static/replay.js");
  const node = document.createElement("div");
  const moves = [];
  swipeable(/** @type {any} */ (node), (delta) => moves.push(delta));
  const swipe = (x0, y0, x1, y1) => {
    for (const listener of node.listeners.touchstart) listener({ changedTouches: [{ clientX: x0, clientY: y0 }] });
    for (const listener of node.listeners.touchend) listener({ changedTouches: [{ clientX: x1, clientY: y1 }] });
  };
  swipe(300, 100, 100, 110);
  swipe(100, 100, 300, 90);
  swipe(100, 100, 130, 400); // a scroll down
  swipe(100, 100, 120, 100); // too short
  assert.deepEqual(moves, [1, -1]);
});
