// Keys for every action, the words a screen reader hears, cards read aloud, the settings
// kept, an invite's path, and when Leave asks first.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MORE_KEY, SHORTCUTS, keyPages, shortcutIndex, shortcutKey, turnWords } from "../static/a11y.js";
import { cardLabel } from "../static/cards.js";
import { leaveAsks } from "../static/confirm.js";
import { inviteLink, inviteTable } from "../static/invite.js";
import { DEFAULTS, loadSettings, saveSettings } from "../static/settings.js";

test("every action has a key: the digits, then letters but the table's own t and r", () => {
  assert.deepEqual([0, 8, 9, 10].map((i) => shortcutKey(i)), ["1", "9", "a", "b"]);
  assert.ok(!SHORTCUTS.includes("t") && !SHORTCUTS.includes("r"));
  assert.equal(new Set(SHORTCUTS).size, SHORTCUTS.length);
  for (let i = 0; i < SHORTCUTS.length; i++) assert.equal(shortcutIndex(/** @type {string} */ (shortcutKey(i))), i);
  assert.equal(shortcutKey(SHORTCUTS.length), null);
  assert.equal(shortcutIndex("Enter"), -1);
  assert.equal(shortcutIndex("t"), -1);
});

test("past the keys' count, 0 pages: every action of 70 has a key on some page", () => {
  const count = 70;
  const pages = keyPages(count);
  assert.equal(pages, 3);
  const reached = new Set();
  for (let page = 0; page < pages; page++) {
    for (let i = 0; i < count; i++) {
      const key = shortcutKey(i, page);
      if (key === null) continue;
      assert.equal(shortcutIndex(key, page), i, "the key shown picks its own action");
      reached.add(i);
    }
  }
  assert.equal(reached.size, count);
  assert.ok(!SHORTCUTS.includes(MORE_KEY));
  assert.equal(keyPages(SHORTCUTS.length), 1);
});

test("the turn is said in the server's words", () => {
  const choices = /** @type {import("../types").ChoiceGroup[]} */ ([["You may play", [["play 7H", "7H"]]]]);
  assert.equal(turnWords({ mine: true, must: "You must answer the 2 with a 2 or draw 2", choices, waiting: null }), "Your turn. You must answer the 2 with a 2 or draw 2");
  assert.equal(turnWords({ mine: true, must: null, choices, waiting: null }), "Your turn. You may play");
  assert.equal(turnWords({ mine: false, must: null, choices: [], waiting: "Waiting for bot 2…" }), "Waiting for bot 2…");
  assert.equal(turnWords({ mine: false, must: null, choices: [], waiting: null }), "");
});

test("a card is read aloud by its name", () => {
  assert.equal(cardLabel("QH"), "queen of hearts");
  assert.equal(cardLabel("TD"), "10 of diamonds");
  assert.equal(cardLabel("2C"), "2 of clubs");
  assert.equal(cardLabel("AS"), "ace of spades");
  assert.equal(cardLabel("JK"), "joker");
  assert.equal(cardLabel("ZZ"), "ZZ");
});

test("the settings are kept, and a bad or missing one is its default", () => {
  /** @type {Record<string, string>} */
  const kept = {};
  const storage = { getItem: (/** @type {string} */ k) => kept[k] ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => void (kept[k] = v) };
  assert.deepEqual(loadSettings(storage), DEFAULTS);
  saveSettings({ ...DEFAULTS, sound: false, fourColour: true }, storage);
  assert.deepEqual(loadSettings(storage), { ...DEFAULTS, sound: false, fourColour: true });
  kept["switchboard:settings"] = '{"sound": "no", "vibrate": false';
  assert.deepEqual(loadSettings(storage), DEFAULTS);
  kept["switchboard:settings"] = '{"sound": "no", "vibrate": false}';
  assert.deepEqual(loadSettings(storage), { ...DEFAULTS, vibrate: false });
  assert.deepEqual(loadSettings(null), DEFAULTS);
});

test("an invite's path names a table as the server gives them, nothing else", () => {
  assert.equal(inviteTable("/t/7"), "7");
  assert.equal(inviteTable("/t/1234"), "1234");
  for (const path of ["/", "/t/", "/t/07", "/t/7/", "/t/x", "/t/1234567890"]) assert.equal(inviteTable(path), null, path);
  assert.equal(inviteLink("http://192.168.1.20:7373", "7"), "http://192.168.1.20:7373/t/7");
});

test("Leave asks first only at a seat while the game runs", () => {
  assert.equal(leaveAsks({ seat: 0, state: "playing" }), true);
  assert.equal(leaveAsks({ seat: 0, state: "paused" }), true);
  assert.equal(leaveAsks({ seat: 0, state: "waiting" }), false);
  assert.equal(leaveAsks({ seat: 0, state: "over" }), false);
  assert.equal(leaveAsks({ seat: null, state: "playing" }), false);
  assert.equal(leaveAsks(null), false);
});

test("past the ninth action the buttons show letters, and say their key", async () => {
  const { install, byClass, byTag, text } = await import("./fakedom.js");
  install();
  const { ClientState } = await import("../static/state.js");
  const { actions } = await import("../static/table.js");
  const s = new ClientState();
  s.handle({ type: "seated", table: "1", seat: 0, token: "t" });
  const hand = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"];
  const view = /** @type {any} */ ({ ruleset: "j28", family: "shedding", seats: 2, viewer: 0, to_act: 0, over: false, scores: [0, 0], hand });
  s.handle({ type: "snapshot", table: "1", seq: 1, state: "playing", view, seat: 0, players: ["ann", "bot:random"] });
  const legal = hand.map((c) => `play ${c}`);
  s.handle({ type: "turn", table: "1", seq: 2, seat: 0, to_act: 0, view, legal, choices: [["You may play", legal.map((a) => [a, a.slice(5)])]] });
  const app = /** @type {any} */ ({ ui: { selection: [], confirming: false }, act() {}, playSelection() {}, clearSelection() {} });
  const buttons = byClass(actions(app, s.table("1")), "act");
  assert.equal(buttons.length, 11);
  assert.deepEqual(buttons.map((b) => text(byTag(b, "kbd")[0])), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b"]);
  assert.equal(buttons[10].getAttribute("aria-keyshortcuts"), "b");
});

test("a kilodney lead of 40 cards: every button gets a key, on the page 0 turns to", async () => {
  const { install, byClass, byTag, text } = await import("./fakedom.js");
  install();
  const { ClientState } = await import("../static/state.js");
  const { actions } = await import("../static/table.js");
  const s = new ClientState();
  s.handle({ type: "seated", table: "1", seat: 0, token: "t" });
  const hand = ["C", "D", "H", "S"].flatMap((suit) => ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"].map((r) => r + suit));
  const view = /** @type {any} */ ({ ruleset: "kilodney", family: "kilodney", seats: 4, viewer: 0, to_act: 0, over: false, scores: [0, 0, 0, 0], hand });
  s.handle({ type: "snapshot", table: "1", seq: 1, state: "playing", view, seat: 0, players: ["ann", "bot:random", "bot:random", "bot:random"] });
  const legal = hand.map((c) => `play ${c}`);
  s.handle({ type: "turn", table: "1", seq: 2, seat: 0, to_act: 0, view, legal, choices: [["You may lead", legal.map((a) => [a, a.slice(5)])]] });
  const keyed = new Set();
  for (const keyPage of [0, 1]) {
    const app = /** @type {any} */ ({ ui: { selection: [], confirming: false, keyPage }, act() {}, playSelection() {}, clearSelection() {}, nextKeys() {} });
    const box = actions(app, s.table("1"));
    const more = byClass(box, "more-keys");
    assert.equal(more.length, 1, "a button (and the key 0) turns the page of keys");
    assert.equal(more[0].getAttribute("aria-keyshortcuts"), MORE_KEY);
    for (const b of byClass(box, "act")) if (byTag(b, "kbd").length) keyed.add(b.dataset.action);
    const first = byClass(box, "act")[keyPage * SHORTCUTS.length];
    assert.equal(text(byTag(first, "kbd")[0]), "1", "each page starts again at 1");
  }
  assert.equal(keyed.size, 40, "every one of the 40 moves has a key");
});

test("a tournament's table in the lobby: run by the tournament, and no Join for others", async () => {
  const { install, byTag, text } = await import("./fakedom.js");
  install();
  const { tableCard } = await import("../static/lobby.js");
  const info = /** @type {any} */ ({ table: "5", ruleset: "switch", family: "shedding", state: "waiting", seats: 3, taken: 2, players: ["ann", "bob", null], master: "tournament:1", spectators: 0, options: {}, options_text: [], ratings: [] });
  const app = /** @type {any} */ ({ state: { name: "cy", tables: new Map() }, join() {}, watch() {}, tableOf() { return null; } });
  const card = tableCard(app, info);
  assert.ok(text(card).includes("tournament 1") && !text(card).includes("tournament:1"), text(card));
  const join = byTag(card, "button").find((b) => b.dataset.join === "5");
  assert.ok(join && join.getAttribute("disabled") !== null, "a seat held for the round's player is not offered");
});

test("a game that ended mid-hand shows that hand too: the totals beyond the hands", async () => {
  const { withLastHand } = await import("../static/again.js");
  const hand = (/** @type {number} */ n, /** @type {number[]} */ p) => /** @type {any} */ ({ kind: "event", ev: { kind: "hand_end", hand_number: n, hand_points: p }, seq: n, text: null });
  const hands = [hand(1, [3, 1]), hand(2, [0, 4])];
  const shown = withLastHand(hands, [5, 5]);
  assert.equal(shown.length, 3);
  assert.deepEqual(/** @type {any} */ (shown[2].ev).points, [2, 0]);
  assert.equal(shown[2].ev.hand_number, 3);
  assert.equal(withLastHand(hands, [3, 5]).length, 2, "totals that are the hands' sum add nothing");
});
