// The tournament module (static/tournament.js): the standings as shown, the podium, the
// round's clock counting down between pushes, the host's form as a request, and the desk
// that folds the server's messages in and sits down at the table a round gives us.
import assert from "node:assert/strict";
import { test } from "node:test";

import { install } from "./fakedom.js";

install();
const { TournamentDesk, apartPairs, clockText, createRequest, orderedStandings, podium, roundLabel, secondsLeft } = await import("../static/tournament.js");

/** @param {number} rank @param {string} name @param {object} [more] */
const standing = (rank, name, more = {}) => ({
  rank, name, points: 1, exact: "1", opponents: 0.5, firsts: 0, score: 0, games: 1, paused: false, withdrawn: false, ...more,
});

test("the standings are shown by rank, the server's order kept within a rank, the withdrawn last of it", () => {
  const given = [standing(2, "cy"), standing(1, "bob", { withdrawn: true }), standing(1, "ann"), standing(1, "dee"), standing(4, "eve")];
  const shown = orderedStandings(given);
  assert.deepEqual(shown.map((s) => s.name), ["ann", "dee", "bob", "cy", "eve"]);
  assert.equal(given[0].name, "cy"); // the input is left as it was
  shown[0].name = "changed";
  assert.equal(given[2].name, "ann"); // copies, not the server's objects
});

test("the podium gives a shared rank one step and stops after third place", () => {
  const steps = podium([standing(1, "ann"), standing(2, "bob"), standing(2, "cy"), standing(4, "dee")]);
  assert.deepEqual(steps, [{ place: 1, names: ["ann"] }, { place: 2, names: ["bob", "cy"] }]);
  assert.deepEqual(podium([]), []);
});

test("the round's clock counts down from the push and stops at zero", () => {
  assert.equal(clockText(75), "1:15");
  assert.equal(clockText(0.2), "0:01"); // a part of a second left is still a second
  assert.equal(clockText(3600), "60:00");
  assert.equal(clockText(null), "");
  assert.equal(secondsLeft(90, 1000, 31000), 60);
  assert.equal(secondsLeft(10, 0, 60000), 0);
  assert.equal(secondsLeft(null, 0, 1), null);
});

test("a card's round says where the tournament stands", () => {
  const t = { tournament: 1, format: "swiss", ruleset: "switch", host: "ann", players: 5, round: 0, rounds: 3, state: "waiting" };
  assert.equal(roundLabel(t), "Waiting · 3 rounds");
  assert.equal(roundLabel({ ...t, state: "playing", round: 2 }), "Round 2 of 3");
  assert.equal(roundLabel({ ...t, state: "over", round: 3 }), "Over");
  assert.equal(roundLabel({ ...t, format: "arena", state: "playing" }), "Arena");
});

test("the host's form makes a create_tournament request, empty fields left to the server", () => {
  const msg = createRequest({ ruleset: "switch", format: "swiss", rounds: "3", minutes: " 1 ", seats: "", final: "", bots: true });
  assert.deepEqual(msg, { type: "create_tournament", ruleset: "switch", format: "swiss", rounds: 3, minutes: 1, bots: 1 });
  assert.equal(createRequest({ ruleset: "kilodney", bots: false }).bots, 0);
});

test("the desk keeps the pushed standings, updates the list, and sits down where a round says", () => {
  const joined = [];
  const app = { join: (t) => joined.push(t), conn: { request: async () => ({ type: "ok" }) }, ui: { screen: "lobby" } };
  const desk = new TournamentDesk(/** @type {any} */ (app));
  const summary = { tournament: 2, format: "swiss", ruleset: "switch", host: "ann", players: 3, round: 0, rounds: 3, state: "waiting" };
  assert.ok(desk.handle({ type: "tournaments", tournaments: [summary] }));
  assert.ok(desk.handle({ type: "tournament", tournament: 2, summary: { ...summary, state: "playing", round: 1, time_left: 600 }, standings: [standing(1, "ann")] }));
  assert.equal(desk.list[0].state, "playing");
  assert.equal(desk.list[0].round, 1);
  const left = desk.left(2);
  assert.ok(left !== null && left > 599 && left <= 600, String(left));
  assert.ok(desk.handle({ type: "your_table", tournament: 2, round: 1, table: "7", seat: 2 }));
  assert.deepEqual(joined, ["7"]);
  assert.equal(desk.handle({ type: "notice", text: "hello" }), false);
});

test("the host's form carries round 1 by rating, the pairs kept apart, the arena's wait and the tables' options", () => {
  const msg = createRequest(
    { ruleset: "kilodney", format: "arena", rounds: "4", minutes: "90", wait: "40", by_strength: "strength", apart: "ann bob\ncy+dee, eve fay", bots: true },
    { target: 300 },
  );
  assert.deepEqual(msg, {
    type: "create_tournament", ruleset: "kilodney", format: "arena", rounds: 4, minutes: 90, wait: 40, bots: 1,
    by_strength: true, apart: ["ann bob", "cy dee", "eve fay"], options: { target: 300 },
  });
  const swiss = createRequest({ ruleset: "switch", format: "swiss", wait: "40", by_strength: "mixed", apart: "  " });
  assert.equal(swiss.wait, undefined); // a Swiss tournament has no wait
  assert.equal(swiss.by_strength, undefined);
  assert.equal(swiss.apart, undefined);
  assert.equal(swiss.options, undefined);
  assert.deepEqual(apartPairs("ann\n bob  cy \nx y z"), ["ann", "bob cy", "x y z"]); // the server says what is wrong
});

test("a paused tournament's clock stands still and its round says so", () => {
  assert.equal(secondsLeft(90, 1000, 31000, true), 90);
  const t = { tournament: 1, format: "swiss", ruleset: "switch", host: "ann", players: 5, round: 2, rounds: 3, state: "playing", paused: true };
  assert.equal(roundLabel(t), "Round 2 of 3 · paused");
  assert.equal(roundLabel({ ...t, state: "over" }), "Over");
});
