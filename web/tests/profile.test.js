// @ts-check
// A profile as the page shows it, fed a recorded `profile` reply: the server's lines, no
// word of the page's own (the terminal client shows the same lines: tests/client/test_players.py
// reads this same recording), and a Replay button beside each recent game.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { byClass, byTag, install, text } from "./fakedom.js";

install();
const { profileBody, profileLines } = await import("../static/lobby.js");
const { el } = await import("../static/dom.js");

/** @type {import("../types").Profile} */
const reply = JSON.parse(readFileSync(new URL("./recorded/profile.json", import.meta.url), "utf8"));

test("the page shows the name, then each of the server's lines, in order", () => {
  const box = el("div", {}, profileBody(reply, () => {}));
  assert.equal(text(byTag(box, "h3")[0]), "ann");
  const shown = [text(byTag(box, "p")[0]), ...byTag(box, "li").map((li) => text(li).replace(/ Replay$/, ""))];
  assert.deepEqual(shown, reply.lines);
});

test("each recent game's line has its Replay, which opens that game", () => {
  /** @type {[string, number][]} */
  const opened = [];
  const box = el("div", {}, profileBody(reply, (table, game) => opened.push([table, game])));
  const buttons = byClass(box, "replay-game");
  assert.equal(buttons.length, 2);
  for (const b of buttons) b.dispatch("click");
  assert.deepEqual(opened, [["4", 2], ["2", 1]]);
  const lines = profileLines(reply);
  assert.deepEqual(lines.map((l) => l.game && l.game.table), [null, null, null, "4", "2"]);
});

test("a reply without lines (an older server) shows the name alone", () => {
  const box = el("div", {}, profileBody({ type: "profile", name: "bob" }, () => {}));
  assert.equal(text(box), "bob");
});
