// @ts-check
// The end of a game: each hand's scores and each seat's rating change (the server's
// `rated`), and "Play again" for every seated player (`again`); the game master's start
// says what becomes of the seats of those who did not ask (`absent`: free or a bot).
// Layout only: who asked is the server's snapshot (`again`), what it means its notices.
import { el } from "./dom.js";
import { gameHands } from "./state.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("./state.js").TableRecord} TableRecord */

/** A signed number as a change: `+12`, `-8`, `0`. @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** The hands and, when the game ended in the middle of one (kilodney ends the moment a
 * player reaches the target), that last hand: what the totals hold beyond the hands.
 * @param {import("./state.js").EventLine[]} hands @param {number[]} scores
 * @returns {import("./state.js").EventLine[]} */
export function withLastHand(hands, scores) {
  if (!hands.length || !scores.every((s) => typeof s === "number")) return hands;
  /** @param {any} ev @returns {number[]} */
  const pointsOf = (ev) => (Array.isArray(ev.points) ? ev.points : Array.isArray(ev.hand_points) ? ev.hand_points : []);
  const rest = scores.map((total, seat) => total - hands.reduce((sum, h) => sum + (Number(pointsOf(h.ev)[seat]) || 0), 0));
  if (rest.every((r) => r === 0)) return hands;
  const last = Number(hands[hands.length - 1].ev.hand_number);
  const ev = /** @type {any} */ ({ kind: "hand_end", hand_number: Number.isFinite(last) ? last + 1 : hands.length + 1, points: rest });
  return [...hands, { kind: "event", ev, seq: -1, text: null }];
}

/** What the end of a game adds to its table of scores: a column a hand (its points, when
 * the game had more than one) before the total, and the rating change after it.
 * @param {TableRecord} t
 * @returns {{hands: HTMLElement[], rating: HTMLElement[], handCells: (seat: number) => HTMLElement[], ratingCells: (seat: number) => HTMLElement[]}} */
export function gameColumns(t) {
  const end = [...t.log].reverse().find((line) => line.kind === "event" && line.ev.kind === "game_end");
  const totals = end && end.kind === "event" && Array.isArray(end.ev.scores) ? end.ev.scores : [];
  const hands = withLastHand(gameHands(t), totals);
  const shown = hands.length > 1 ? hands : [];
  const changes = t.rated ? t.rated.changes || [] : [];
  /** @param {number} seat @param {import("../types").TableEvent} ev */
  const points = (seat, ev) => {
    const p = Array.isArray(ev.points) ? ev.points : ev.hand_points;
    return p ? signed(p[seat] ?? 0) : "";
  };
  return {
    hands: shown.map((h) => el("th", { class: "hand-col", text: String(h.ev.hand_number ?? "") })),
    rating: changes.length ? [el("th", { class: "rating-col", text: "±" })] : [],
    handCells: (seat) => shown.map((h) => el("td", { class: "hand-col", text: points(seat, h.ev) })),
    ratingCells: (seat) => {
      if (!changes.length) return [];
      const change = changes.find((c) => c.seat === seat);
      const title = change ? `${change.before} → ${change.after}` : "";
      return [el("td", { class: "rating-col", title, text: change ? signed(change.after - change.before) : "" })];
    },
  };
}

/** "Play again" for a seated player at a finished game; pressed once asked.
 * @param {App} app @param {TableRecord} t */
export function againControls(app, t) {
  if (t.state !== "over" || t.seat === null) return null;
  const asked = t.again.includes(t.seat);
  const box = el("div", { class: "row again", id: "again" });
  box.append(
    el(
      "button",
      { type: "button", class: asked ? "" : "primary", id: "play-again", disabled: asked, "aria-pressed": String(asked), onclick: () => app.tableRequest("again", t.table) },
      asked ? "Play again ✓" : "Play again",
    ),
  );
  const mine = t.master !== null && t.master === app.state.name;
  if (mine && t.again.length) {
    box.append(
      el(
        "select",
        { id: "again-absent", "aria-label": "absent" },
        el("option", { value: "free" }, "Others' seats: free"),
        el("option", { value: "bot" }, "Others' seats: bots"),
      ),
    );
  }
  return box;
}

/** The master's start: at a finished game, with the choice for the absent seats.
 * @param {App} app @param {TableRecord} t */
export function startGame(app, t) {
  const choice = /** @type {HTMLSelectElement | null} */ (document.getElementById("again-absent"));
  return app.tableRequest("start_game", t.table, choice ? { absent: choice.value } : {});
}
