// The turn alert: it sounds, buzzes and (on a hidden page) marks the tab once when the turn
// comes to our seat, not again while it stays ours, and each way only when it is on.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BUZZ, TURN_ICON, TURN_TITLE, TurnAlert } from "../static/alerts.js";
import { DEFAULTS } from "../static/settings.js";
import { newTable } from "../static/state.js";

/** A page as the alert sees it, recording what it was made to do. */
function fakeEnv({ hidden = false, vibrate = true, audio = true } = {}) {
  const icon = { href: "/favicon.svg" };
  /** @type {Record<string, Function[]>} */
  const listeners = {};
  const calls = { tones: 0, buzzes: /** @type {number[][]} */ ([]) };
  const param = { value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} };
  const node = () => ({ connect: (/** @type {any} */ next) => next, start() {}, stop() {}, frequency: { ...param }, gain: { ...param }, type: "" });
  const context = {
    state: "running",
    currentTime: 0,
    destination: {},
    resume() {},
    createOscillator: () => (calls.tones++, node()),
    createGain: node,
  };
  const doc = {
    title: "Switchboard",
    hidden,
    querySelector: (/** @type {string} */ s) => (s === "#favicon" ? icon : null),
    addEventListener: (/** @type {string} */ type, /** @type {Function} */ f) => (listeners[type] ||= []).push(f),
    show() {
      this.hidden = false;
      for (const f of listeners.visibilitychange || []) f();
    },
  };
  const env = {
    doc,
    vibrate: vibrate ? (/** @type {number[]} */ p) => (calls.buzzes.push(p), true) : null,
    audio: audio ? () => /** @type {any} */ (context) : null,
  };
  return { env, doc, icon, calls };
}

/** Table 1, seat 0, with `toAct` to act and legal actions for us when it is ours. */
function table(toAct) {
  const t = newTable("1");
  t.seat = 0;
  t.toAct = toAct;
  t.legal = toAct === 0 ? ["draw"] : [];
  return t;
}

test("the turn coming to us sounds and buzzes once, not again while it stays ours", () => {
  const { env, calls } = fakeEnv();
  const alert = new TurnAlert({ ...DEFAULTS }, /** @type {any} */ (env));
  alert.update([table(1)]);
  assert.equal(calls.tones, 0);
  alert.update([table(0)]);
  assert.equal(calls.tones, 1);
  assert.deepEqual(calls.buzzes, [BUZZ]);
  alert.update([table(0)]);
  assert.equal(calls.tones, 1, "still our turn: no second alert");
  alert.update([table(1)]);
  alert.update([table(0)]);
  assert.equal(calls.tones, 2);
});

test("a hidden page's tab is marked until the page is seen again", () => {
  const { env, doc, icon } = fakeEnv({ hidden: true });
  const alert = new TurnAlert({ ...DEFAULTS }, /** @type {any} */ (env));
  alert.update([table(0)]);
  assert.equal(doc.title, TURN_TITLE);
  assert.equal(icon.href, TURN_ICON);
  doc.show();
  assert.equal(doc.title, "Switchboard");
  assert.equal(icon.href, "/favicon.svg");
});

test("a visible page's tab is left as it is", () => {
  const { env, doc } = fakeEnv({ hidden: false });
  new TurnAlert({ ...DEFAULTS }, /** @type {any} */ (env)).update([table(0)]);
  assert.equal(doc.title, "Switchboard");
});

test("each way of saying it can be turned off", () => {
  const { env, doc, calls } = fakeEnv({ hidden: true });
  const alert = new TurnAlert({ ...DEFAULTS, sound: false, vibrate: false, title: false }, /** @type {any} */ (env));
  alert.update([table(0)]);
  assert.equal(calls.tones, 0);
  assert.deepEqual(calls.buzzes, []);
  assert.equal(doc.title, "Switchboard");
});

test("a device without vibration or Web Audio is no error", () => {
  const { env } = fakeEnv({ vibrate: false, audio: false });
  const alert = new TurnAlert({ ...DEFAULTS }, /** @type {any} */ (env));
  alert.update([table(0)]);
  assert.equal(alert.sounded, 1);
  assert.equal(alert.vibrated, 0);
});
