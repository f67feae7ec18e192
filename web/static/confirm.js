// @ts-check
// The question Leave asks while a game runs: leaving a running game gives the seat to a
// bot, and one tap should not do that unasked. A waiting or finished table is left at once.
import { el } from "./dom.js";

/** The states in which leaving hands the seat to a bot. */
const RUNNING = new Set(["playing", "paused"]);

/** Whether leaving the table asks first: a seat held while its game runs.
 * @param {{seat: number | null, state: string} | null} t @returns {boolean} */
export function leaveAsks(t) {
  return t !== null && t.seat !== null && RUNNING.has(t.state);
}

/** The question's body: what happens, and the two answers.
 * @param {() => void} leave @param {() => void} stay */
export function leaveQuestion(leave, stay) {
  return el(
    "div",
    { class: "leave-question", id: "leave-question" },
    el("p", { text: "The game is still on. If you leave, a bot takes your seat; you can come back to it while the game lasts." }),
    el(
      "div",
      { class: "row" },
      el("button", { type: "button", class: "primary", id: "leave-stay", onclick: stay }, "Stay"),
      el("button", { type: "button", class: "danger", id: "leave-confirm", onclick: leave }, "Leave the game"),
    ),
  );
}
