// @ts-check
// The lobby: the tables (with their players and ratings; join, watch, or back to your
// seat), a table to create (ruleset, seats, bots, the clock and house rules), and the
// best rated of each family; and the room: who is online, and the shouts.
import { $, append, el, fill, who } from "./dom.js";
import { seatListing } from "./state.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("../types").TableSummary} TableSummary */
/** @typedef {import("../types").RuleOption} RuleOption */
/** @typedef {import("../types").Ruleset} Ruleset */
/** @typedef {import("../types").Person} Person */

const FAMILIES = ["shedding", "abbott", "kilodney"];

/** @param {number | null | undefined} value */
function rating(value) {
  return value === null || value === undefined ? "" : ` (${Math.round(value)})`;
}

/**
 * A table's house rules, as the server words them in its listing (`options_text`); from a
 * server that sends no words, each option as `name=value`, as it was given.
 * @param {import("../types").TableSummary | undefined} listed
 * @param {import("../types").View | null | undefined} view
 * @returns {string[]}
 */
export function houseRules(listed, view) {
  if (listed && listed.options_text) return listed.options_text;
  const options = (listed && listed.options) || (view && view.options) || {};
  return Object.entries(options).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
}

/** One table of the list. @param {App} app @param {TableSummary} info */
export function tableCard(app, info) {
  const me = app.state.name;
  const players = info.players || [];
  const ratings = info.ratings || [];
  const mine = me !== null && players.includes(me);
  const free = players.some((p) => p === null) || (info.state === "playing" && players.some((p) => p && p.startsWith("bot:")));
  const seats = el("ul", { class: "seat-list" });
  players.forEach((p, seat) => {
    const label = seatListing(p, seat) ?? "empty";
    seats.append(
      el("li", { class: p === null ? "dim" : "" }, el("span", {}, p === null ? label : who(label)), el("span", { class: "rating", text: rating(ratings[seat]) })),
    );
  });
  const id = String(info.table);
  const opts = houseRules(info, null).join(", ");
  // a tournament's table (its master `tournament:N`) holds every seat for the round's players
  const tournament = typeof info.master === "string" && info.master.startsWith("tournament:") ? info.master.slice("tournament:".length) : null;
  return el(
    "li",
    { class: "table-card", dataset: { table: id } },
    el("div", { class: "table-head" }, el("b", { text: `Table ${id}` }), el("span", { text: ` · ${info.ruleset} · ${info.state}` })),
    el("div", { class: "dim small" }, tournament !== null ? `tournament ${tournament}` : "master ", tournament !== null ? "" : info.master ? who(info.master) : "-", ` · ${info.spectators ?? 0} watching${opts ? ` · ${opts}` : ""}`),
    seats,
    el(
      "div",
      { class: "row" },
      mine
        ? el("button", { type: "button", class: "primary", dataset: { join: id }, onclick: () => app.join(id) }, "Back to my seat")
        : el("button", { type: "button", class: "primary", dataset: { join: id }, disabled: !free || tournament !== null || info.state === "closed", onclick: () => app.join(id) }, "Join"),
      el("button", { type: "button", dataset: { watch: id }, onclick: () => app.watch(id) }, "Watch"),
    ),
  );
}

/** The form's field for one option (`prefix` before its id and name: another form's
 * fields, such as a tournament's tables' options, keep ids of their own).
 * @param {RuleOption} option @param {string} [prefix] */
export function optionInput(option, prefix = "") {
  const name = `${prefix || "opt-"}${option.name}`;
  const field = `${prefix}${option.name}`;
  const label = el("label", { for: name, text: option.name.replaceAll("_", " ") });
  let input;
  if (option.choices) {
    input = el("select", { id: name, name: field }, option.choices.map((c) => el("option", { value: String(c), selected: c === option.default }, String(c))));
  } else if (typeof option.default === "boolean") {
    input = el("input", { id: name, name: field, type: "checkbox", checked: option.default });
  } else if (typeof option.default === "number" || option.min !== undefined) {
    input = el("input", { id: name, name: field, type: "number", inputmode: "numeric", min: option.min, max: option.max, placeholder: option.default === null ? "default" : String(option.default) });
  } else {
    input = el("input", { id: name, name: field, type: "text", placeholder: String(option.default ?? "") });
  }
  return el("div", { class: "field" }, label, input, el("small", { class: "dim", text: option.doc || "" }));
}

/** The options the form sets that differ from the ruleset's defaults (`prefix`: as
 * `optionInput` was given it). @param {HTMLFormElement} form @param {Ruleset} ruleset
 * @param {string} [prefix] */
export function readOptions(form, ruleset, prefix = "") {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const option of ruleset.options || []) {
    const input = form.elements.namedItem(`${prefix}${option.name}`);
    if (!(input instanceof HTMLInputElement || input instanceof HTMLSelectElement)) continue;
    let value;
    if (input instanceof HTMLInputElement && input.type === "checkbox") value = input.checked;
    else if (input.value === "") continue;
    else if (input.type === "number") value = Number(input.value);
    else value = input.value;
    if (value !== option.default) out[option.name] = value;
  }
  return out;
}

/** @param {App} app */
function createForm(app) {
  const rulesets = app.state.rulesets;
  if (!rulesets.length) return el("p", { class: "dim", text: "Loading the games…" });
  const chosen = rulesets.find((r) => r.name === app.ui.createRuleset) || rulesets.find((r) => r.name === "switch") || rulesets[0];
  const seatsDefault = Math.min(Math.max(chosen.min_seats, 4), chosen.max_seats);
  const seatSelect = el("select", { id: "create-seats", name: "seats" });
  for (let n = chosen.min_seats; n <= chosen.max_seats; n++) seatSelect.append(el("option", { value: String(n), selected: n === seatsDefault }, String(n)));
  const botSelect = el("select", { id: "create-bots", name: "bots" });
  const fillBots = () => {
    const seats = Number(seatSelect.value);
    fill(botSelect, ...Array.from({ length: seats }, (_, n) => el("option", { value: String(n), selected: n === 0 }, n === seats - 1 ? `${n} (start at once)` : String(n))));
  };
  fillBots();
  seatSelect.addEventListener("change", fillBots);
  const rulesetSelect = el(
    "select",
    { id: "create-ruleset", name: "ruleset", onchange: (/** @type {Event} */ e) => {
      app.ui.createRuleset = /** @type {HTMLSelectElement} */ (e.target).value;
      app.render();
    } },
    rulesets.map((r) => el("option", { value: r.name, selected: r === chosen }, r.name)),
  );
  const houseRules = (chosen.options || []).map((o) => optionInput(o));
  const form = el(
    "form",
    { id: "create-form", class: "card-box" },
    el("h2", { text: "New table" }),
    el("p", { class: "dim small", text: chosen.summary || "" }),
    el("div", { class: "field" }, el("label", { for: "create-ruleset", text: "Game" }), rulesetSelect),
    el("div", { class: "row" }, el("div", { class: "field" }, el("label", { for: "create-seats", text: "Seats" }), seatSelect), el("div", { class: "field" }, el("label", { for: "create-bots", text: "Bots" }), botSelect)),
    el("details", {}, el("summary", { text: "House rules" }), houseRules),
    el("button", { type: "submit", class: "primary", id: "create-go" }, "Create and sit down"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    app.create(chosen.name, Number(seatSelect.value), Number(botSelect.value), readOptions(form, chosen));
  });
  return form;
}

/** @param {App} app */
function leaders(app) {
  const box = el("div", { class: "card-box", id: "leaders" }, el("h2", { text: "Best rated" }));
  for (const family of FAMILIES) {
    const top = app.ui.top[family];
    const list = el("ol", { class: "leader-list" });
    for (const p of (top || []).slice(0, 5)) {
      list.append(el("li", {}, el("button", { type: "button", class: "link", onclick: () => app.finger(p.name) }, who(p.name)), el("span", { class: "rating", text: ` ${Math.round(p.rating)} · ${plural(p.games, "game")}` })));
    }
    box.append(el("h3", { text: family }), top && top.length ? list : el("p", { class: "dim small", text: "nobody rated yet" }));
  }
  return box;
}

/** @param {number} n @param {string} word */
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * A profile's lines as the server composed them (its `lines`: the terminal client and
 * text mode show the same ones), each with the recent game it tells of, if it is one:
 * the last `recent.length` lines are those games, in their order.
 * @param {import("../types").Profile} reply
 * @returns {{ text: string, game: import("../types").GameLine | null }[]}
 */
export function profileLines(reply) {
  const lines = reply.lines || [];
  const recent = reply.recent || [];
  const first = lines.length - recent.length;
  return lines.map((text, i) => ({ text, game: i >= first && i - first < recent.length ? recent[i - first] : null }));
}

/**
 * A profile as the page shows it: the name, the first line, then the others as a list,
 * a Replay button beside each recent game (which calls `replay` with its table and game).
 * @param {import("../types").Profile} reply
 * @param {(table: string, game: number) => void} replay
 * @returns {import("../types").Child[]}
 */
export function profileBody(reply, replay) {
  const [head, ...rest] = profileLines(reply);
  const items = rest.map(({ text, game }) =>
    el("li", {}, text, game && game.game ? [" ", el("button", { type: "button", class: "link replay-game", onclick: () => replay(String(game.table), Number(game.game)) }, "Replay")] : null),
  );
  return [el("h3", { text: reply.name }), head ? el("p", { text: head.text }) : null, items.length ? el("ul", {}, items) : null];
}

/** Where one of `people` is, in the server's words (its `where`); from a server that
 * sends none, nothing.
 * @param {Person} person @returns {string} */
export function whereabouts(person) {
  return person.where || "";
}

/** The room: who is online (the server's `who`, asked with the table list) and the
 * shouts heard, newest first, with a line to shout (gone once the server says its
 * shouts are off). The line is built once, so a redraw never wipes what is typed.
 * @param {App} app @param {HTMLElement} box */
function renderRoom(app, box) {
  if (!box.firstChild) {
    const input = el("input", { id: "shout", name: "shout", maxlength: "400", autocomplete: "off", placeholder: "Shout to everyone online" });
    const form = el("form", { class: "row", id: "shout-form" }, el("label", { for: "shout", class: "sr-only", text: "Shout" }), input, el("button", { type: "submit", id: "shout-go" }, "Shout"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (!input.value.trim()) return;
      app.shout(input.value);
      input.value = "";
    });
    append(box, [el("div", { id: "people-box" }), el("h3", { text: "Shouts" }), form, el("p", { class: "dim small", id: "shouts-off", text: "Shouts are off on this server.", hidden: true }), el("div", { id: "shouts-box" })]);
  }
  const online = app.state.online;
  const list = el("ul", { class: "people-list", id: "people" });
  for (const person of app.state.people) {
    list.append(
      el(
        "li",
        { dataset: { name: String(person.name) } },
        el("button", { type: "button", class: "link", onclick: () => app.finger(person.name) }, who(String(person.name))),
        el("span", { class: "dim small whereabouts", text: ` ${whereabouts(person)}` }),
      ),
    );
  }
  fill($("#people-box"), el("h2", { text: online ? `Online (${online.total})` : "Online" }), online && online.text ? el("p", { class: "dim small", id: "online-text", text: online.text }) : null, list);
  $("#shout-form").hidden = Boolean(app.ui.shoutsOff);
  $("#shouts-off").hidden = !app.ui.shoutsOff;
  const shouts = el("ol", { class: "shout-list", id: "shouts" });
  for (const s of app.state.shouts.slice(-20).reverse()) shouts.append(el("li", {}, el("b", { class: "who" }, who(s.name), ": "), el("span", { class: "shout-text", text: s.text })));
  fill($("#shouts-box"), app.state.shouts.length ? shouts : el("p", { class: "dim small", text: "nobody has shouted yet" }));
}

/** Which page of the lobby the list is, with the buttons to the others; nothing when it
 * shows every table. The layout only: the figures are the server's.
 * @param {App} app @returns {HTMLElement | string} */
function pager(app) {
  const { start, next, total, size: pageSize } = app.state.lobbyPage;
  const shown = app.state.lobby.length;
  if (start === 0 && shown >= total) return "";
  const size = Math.max(pageSize, shown, 1); // the short last page goes back a whole page
  return el(
    "div",
    { class: "row lobby-pager" },
    el("span", { class: "dim small", text: shown ? `Tables ${start + 1}–${start + shown} of ${total}` : `${total} tables` }),
    el("button", { type: "button", dataset: { page: "previous" }, disabled: start === 0, onclick: () => app.listTables(Math.max(0, start - size)) }, "Previous"),
    el("button", { type: "button", dataset: { page: "next" }, disabled: next === null, onclick: () => app.listTables(next ?? 0) }, "Next"),
  );
}

/** Draw the lobby into `root`. The form is built again only when the games or the game
 * chosen change, so a refresh of the table list never wipes what is being typed in it.
 * @param {App} app @param {HTMLElement} root */
export function renderLobby(app, root) {
  if (!root.firstChild) {
    append(root, [el("div", { class: "lobby-main" }, el("div", { class: "card-box", id: "tables-box" }), el("div", { id: "form-box" })), el("div", { class: "lobby-side" }, el("div", { class: "card-box", id: "room" }), el("div", { id: "leaders-box" }))]);
  }
  const tables = app.state.lobby.filter((t) => t.state !== "closed");
  const list = el("ul", { class: "table-list", id: "tables" });
  for (const info of tables) list.append(tableCard(app, info));
  fill($("#tables-box"), el("h2", { text: "Tables" }), tables.length ? list : el("p", { class: "dim", text: "No tables yet: create one below." }), pager(app));
  const formBox = $("#form-box");
  const key = JSON.stringify([app.state.rulesets.map((r) => r.name), app.ui.createRuleset]);
  if (formBox.dataset.key !== key) {
    formBox.dataset.key = key;
    fill(formBox, createForm(app));
  }
  renderRoom(app, $("#room"));
  fill($("#leaders-box"), leaders(app));
}
