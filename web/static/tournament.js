// @ts-check
// The evening's tournaments in the browser: a card for each in the lobby (Enter), the page
// of one (its standings with the tiebreaks, the round and its clock, who is paused, the
// tables of the round, Withdraw / Pause / Back, the host's Start, Pause tournament /
// Resume tournament and End), the podium at the end, and the host's form to create one
// (every setting the wire takes: the format and its rounds or the arena's wait, the
// tables' size and house rules, round 1 by rating, the pairs never seated together). The server pushes a tournament's standings
// whenever they change (never polled here) and tells each player his table in a round
// (`your_table`): the page sits down there by itself.
import { append, el, fill } from "./dom.js";
import { optionInput, readOptions } from "./lobby.js";

/** @typedef {import("./app.js").App} App */
/** @typedef {import("../types").ServerMessage} ServerMessage */
/** @typedef {import("../types").Reply} Reply */
/** @typedef {import("../types").Standing} Standing */
/** @typedef {import("../types").TournamentSummary} TournamentSummary */
/** @typedef {import("../types").TournamentMessage} TournamentMessage */
/** @typedef {import("../types").Ruleset} Ruleset */

/** The prefix of the host's form's house-rule fields (their own ids beside the new-table
 * form's). */
const OPTION_PREFIX = "tour-opt-";

// ---- pure: what the page shows, tested under node ----------------------------------

/** Seconds as a clock: 75 -> "1:15", 3600 -> "60:00"; null -> "".
 * @param {number | null | undefined} seconds @returns {string} */
export function clockText(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "";
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The seconds left in the round now, from the `time_left` the server sent at `heardAt`
 * (ms, the page's clock) counted down (standing still while the host has `paused` the
 * tournament); null when no round runs.
 * @param {number | null | undefined} timeLeft @param {number} heardAt @param {number} now
 * @param {boolean} [paused] @returns {number | null} */
export function secondsLeft(timeLeft, heardAt, now, paused = false) {
  if (timeLeft === null || timeLeft === undefined) return null;
  if (paused) return Math.max(0, timeLeft);
  return Math.max(0, timeLeft - (now - heardAt) / 1000);
}

/** The standings as shown: best first by the server's rank (players level on every
 * tiebreak share it, and keep the server's order), withdrawn players last among their
 * rank's. Returns new objects; the input is not changed.
 * @param {Standing[]} standings @returns {Standing[]} */
export function orderedStandings(standings) {
  return standings
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.rank - b.s.rank || Number(a.s.withdrawn) - Number(b.s.withdrawn) || a.i - b.i)
    .map(({ s }) => ({ ...s }));
}

/** The podium: the first three places of the final standings (a shared rank shares a
 * step), each step's names. @param {Standing[]} standings
 * @returns {{place: number, names: string[]}[]} */
export function podium(standings) {
  /** @type {{place: number, names: string[]}[]} */
  const steps = [];
  for (const s of orderedStandings(standings)) {
    if (s.rank > 3) break;
    const step = steps.find((x) => x.place === s.rank);
    if (step) step.names.push(s.name);
    else steps.push({ place: s.rank, names: [s.name] });
  }
  return steps;
}

/** Where a tournament stands, in the words of its card: "Round 2 of 3", "Waiting",
 * "Over". @param {TournamentSummary} t @returns {string} */
export function roundLabel(t) {
  if (t.state === "over") return "Over";
  if (t.paused) return `${roundLabel({ ...t, paused: false })} · paused`;
  if (t.format === "arena") return t.state === "waiting" ? "Arena · waiting" : "Arena";
  if (t.state === "waiting" || !t.round) return t.rounds ? `Waiting · ${t.rounds} rounds` : "Waiting";
  return `Round ${t.round} of ${t.rounds || "?"}`;
}

/** The pairs never seated together, as the wire's `apart` lines, from what the host
 * typed: a pair a line (or split by commas), the names by spaces or a `+`: "ann bob",
 * "ann+bob". A line that is not two names is sent as typed: the server's error says why.
 * @param {string} text @returns {string[]} */
export function apartPairs(text) {
  return text
    .split(/[\n,;]/)
    .map((line) => line.split(/[\s+]+/).filter(Boolean).join(" "))
    .filter(Boolean);
}

/** The create_tournament request the host's form makes (numbers as numbers, the empty
 * left to the server's defaults; `options`: the tables' house rules that differ from the
 * game's defaults). @param {Record<string, string | boolean>} form
 * @param {Record<string, unknown>} [options] @returns {{type: string} & Record<string, unknown>} */
export function createRequest(form, options = {}) {
  const format = String(form.format || "swiss");
  /** @type {{type: string} & Record<string, unknown>} */
  const msg = { type: "create_tournament", ruleset: String(form.ruleset), format };
  const keys = ["rounds", "minutes", "seats", "final", ...(format === "arena" ? ["wait"] : [])];
  for (const key of keys) {
    const value = String(form[key] ?? "").trim();
    if (value !== "") msg[key] = Number(value);
  }
  // bots allowed: at most one a table, where no split of the people fits; none: people only
  msg.bots = form.bots === false ? 0 : 1;
  if (form.by_strength === "strength" || form.by_strength === true) msg.by_strength = true;
  const pairs = apartPairs(String(form.apart ?? ""));
  if (pairs.length) msg.apart = pairs;
  if (Object.keys(options).length) msg.options = options;
  return msg;
}

// ---- the state the page keeps ------------------------------------------------------

/** The tournaments heard of: the lobby's list, and each one's last `tournament` (a reply
 * or the server's push) with when it came, for its clock. */
export class TournamentDesk {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    /** @type {TournamentSummary[]} */
    this.list = [];
    /** @type {Map<number, {msg: TournamentMessage, heardAt: number}>} */
    this.heard = new Map();
    /** the tournament whose page is open @type {number | null} */
    this.current = null;
  }

  /** Fold in a message; sit down at the table a round gives us.
   * @param {ServerMessage} msg @returns {boolean} whether a tournament changed */
  handle(msg) {
    if (msg.type === "tournaments") {
      this.list = msg.tournaments || [];
      return true;
    }
    if (msg.type === "tournament") {
      this.heard.set(msg.tournament, { msg, heardAt: Date.now() });
      const i = this.list.findIndex((t) => t.tournament === msg.tournament);
      if (i >= 0) this.list[i] = { ...this.list[i], ...msg.summary };
      else this.list.push(msg.summary);
      return true;
    }
    if (msg.type === "your_table") {
      this.app.join(String(msg.table));
      return true;
    }
    return false;
  }

  /** The tournaments the lobby lists (asked with the table list). */
  refresh() {
    this.app.conn.request({ type: "list_tournaments" });
  }

  /** Open tournament `n`'s page (its standings asked for once; pushes keep it).
   * @param {number} n */
  async open(n) {
    this.current = n;
    this.app.show("tournament");
    await this.app.conn.request({ type: "get_tournament", tournament: n });
    this.app.render();
  }

  /** A request about tournament `n`; its words (or its error) in a toast, then the
   * standings again. @param {{type: string} & Record<string, unknown>} msg */
  async ask(msg) {
    const reply = await this.app.conn.request(msg);
    if (reply.type === "ok" && reply.text) this.app.toast(reply.text);
    if (reply.type === "error") this.app.toast(reply.text || reply.code);
    if (typeof msg.tournament === "number") await this.app.conn.request({ type: "get_tournament", tournament: msg.tournament });
    this.app.render();
    return reply;
  }

  /** @param {Record<string, string | boolean>} form @param {Record<string, unknown>} [options] */
  async create(form, options = {}) {
    const reply = await this.app.conn.request(createRequest(form, options));
    if (reply.type === "error") return this.app.toast(reply.text || reply.code);
    if (reply.type === "ok" && reply.text) this.app.toast(reply.text);
    await this.app.conn.request({ type: "list_tournaments" });
    const newest = Math.max(0, ...this.list.map((t) => t.tournament));
    if (newest) await this.open(newest);
  }

  /** The seconds left in tournament `n`'s round now. @param {number} n */
  left(n) {
    const heard = this.heard.get(n);
    if (!heard) return null;
    const t = heard.msg.summary;
    return secondsLeft(t.time_left, heard.heardAt, Date.now(), Boolean(t.paused));
  }

  /** The page's round clock, counting down between pushes. */
  tick() {
    if (this.app.ui.screen !== "tournament" || this.current === null) return;
    const clock = document.querySelector("#tour-clock");
    if (clock) clock.textContent = clockText(this.left(this.current));
  }
}

// ---- drawing -----------------------------------------------------------------------

/** One tournament's card in the lobby. @param {App} app @param {TournamentSummary} t */
function card(app, t) {
  const desk = app.tour;
  const n = t.tournament;
  const me = app.state.name;
  const standings = desk.heard.get(n)?.msg.standings || [];
  const entered = me !== null && standings.some((s) => s.name === me && !s.withdrawn);
  return el(
    "li",
    { class: "tour-card", dataset: { tournament: String(n) } },
    el("div", { class: "table-head" }, el("b", { text: `Tournament ${n}` }), el("span", { text: ` · ${t.ruleset} · ${t.format}` })),
    el("div", { class: "dim small" }, el("span", { class: "tour-players", text: `${t.players} players` }), " · ", el("span", { class: "tour-round", text: roundLabel(t) }), ` · host ${t.host}`),
    t.winner ? el("div", { class: "tour-winner", text: `Winner: ${t.winner}` }) : null,
    el(
      "div",
      { class: "row" },
      t.state !== "over" && !entered
        ? el("button", { type: "button", class: "primary", dataset: { enter: String(n) }, onclick: () => desk.ask({ type: "enter_tournament", tournament: n }).then(() => desk.open(n)) }, "Enter")
        : null,
      el("button", { type: "button", dataset: { open: String(n) }, onclick: () => desk.open(n) }, "Standings"),
    ),
  );
}

/** The lobby's tournaments (a box of their own at the top of the lobby, built here so the
 * lobby's own drawing is untouched), with the host's form to create one.
 * @param {App} app @param {HTMLElement} lobby */
export function renderTournamentCards(app, lobby) {
  const main = lobby.querySelector(".lobby-main");
  if (!main) return;
  let box = lobby.querySelector("#tournaments-box");
  if (!box) {
    box = el("div", { class: "card-box", id: "tournaments-box" });
    main.prepend(box);
  }
  const shown = app.tour.list.filter((t) => t.state !== "over" || t.winner);
  const list = el("ul", { class: "table-list tour-list", id: "tournaments" });
  for (const t of shown.slice().reverse()) list.append(card(app, t));
  const formOpen = box.querySelector("#tour-form")?.closest("details")?.hasAttribute("open");
  const keep = box.querySelector("#tour-create");
  fill(box, el("h2", { text: "Tournaments" }), shown.length ? list : el("p", { class: "dim small", text: "No tournament tonight yet." }));
  box.append(keep instanceof HTMLElement && keep.dataset.key === rulesetKey(app) ? keep : createForm(app));
  if (formOpen) box.querySelector("#tour-create")?.setAttribute("open", "");
}

/** @param {App} app */
function rulesetKey(app) {
  return app.state.rulesets.map((r) => r.name).join(",");
}

/** @param {string} id @param {string} label @param {HTMLElement} input */
function field(id, label, input) {
  return el("div", { class: "field" }, el("label", { for: id, text: label }), input);
}

/** The host's form: format, game, rounds (or the arena's wait), minutes, seats, bots
 * allowed, a final, round 1's seating, the pairs kept apart, the tables' house rules (the
 * chosen game's, drawn again when the game changes). A phone first: one labelled field a
 * line. @param {App} app */
function createForm(app) {
  const games = app.state.rulesets.map((r) => el("option", { value: r.name }, r.name));
  const ruleset = el("select", { id: "tour-ruleset", name: "ruleset" }, games);
  const format = el("select", { id: "tour-format", name: "format" }, el("option", { value: "swiss" }, "Swiss rounds"), el("option", { value: "arena" }, "Table arena"));
  const rounds = field("tour-rounds", "Rounds", el("input", { id: "tour-rounds", name: "rounds", type: "number", inputmode: "numeric", min: 0, max: 12, placeholder: "by players" }));
  const wait = field("tour-wait", "Seconds a player waits before bots fill his table", el("input", { id: "tour-wait", name: "wait", type: "number", inputmode: "numeric", min: 0, max: 3600, placeholder: "25" }));
  const houseRules = el("div", { id: "tour-options" });
  /** The chosen game (its house rules are the tables' options). @returns {Ruleset | undefined} */
  const chosen = () => app.state.rulesets.find((r) => r.name === ruleset.value);
  const drawRules = () => fill(houseRules, ...(chosen()?.options || []).map((o) => optionInput(o, OPTION_PREFIX)));
  const showFormat = () => {
    rounds.hidden = format.value === "arena";
    wait.hidden = format.value !== "arena";
  };
  ruleset.addEventListener("change", drawRules);
  format.addEventListener("change", showFormat);
  drawRules();
  showFormat();
  const form = el(
    "form",
    { id: "tour-form", class: "tour-form" },
    field("tour-format", "Format", format),
    field("tour-ruleset", "Game", ruleset),
    rounds,
    wait,
    field("tour-minutes", "Minutes a round (an arena: its length)", el("input", { id: "tour-minutes", name: "minutes", type: "number", inputmode: "numeric", min: 1, max: 1440, value: 30 })),
    field("tour-seats", "Seats a table", el("input", { id: "tour-seats", name: "seats", type: "number", inputmode: "numeric", min: 2, max: 9, placeholder: "any" })),
    field("tour-final", "Final table of", el("input", { id: "tour-final", name: "final", type: "number", inputmode: "numeric", min: 0, max: 9, placeholder: "none" })),
    field("tour-strength", "Round 1", el("select", { id: "tour-strength", name: "by_strength" }, el("option", { value: "mixed" }, "Mixed ratings at each table"), el("option", { value: "strength" }, "By rating, the strongest together"))),
    field("tour-apart", "Never seated together (a pair a line: ann bob)", el("textarea", { id: "tour-apart", name: "apart", rows: 2, autocapitalize: "none", spellcheck: "false" })),
    el("label", { class: "check" }, el("input", { id: "tour-bots", name: "bots", type: "checkbox", checked: true }), " Bots fill the gaps"),
    el("details", { id: "tour-rules" }, el("summary", { text: "Table options (house rules)" }), houseRules),
    el("button", { type: "submit", id: "tour-go", class: "primary" }, "Create tournament"),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    /** @type {Record<string, string | boolean>} */
    const values = {};
    for (const input of form.querySelectorAll("input, select, textarea")) {
      if (input instanceof HTMLInputElement && input.type === "checkbox") values[input.name] = input.checked;
      else if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement || input instanceof HTMLTextAreaElement) values[input.name] = input.value;
    }
    const game = chosen();
    app.tour.create(values, game ? readOptions(form, game, OPTION_PREFIX) : {});
  });
  return el("details", { id: "tour-create", dataset: { key: rulesetKey(app) } }, el("summary", { text: "Host a tournament" }), form);
}

/** The page of the tournament open: its head and clock, the podium once over, the
 * standings with their tiebreaks, the round's tables, and what we may do.
 * @param {App} app @param {HTMLElement} root */
export function renderTournament(app, root) {
  const desk = app.tour;
  const n = desk.current;
  const heard = n === null ? undefined : desk.heard.get(n);
  const back = el("button", { type: "button", id: "tour-back", onclick: () => app.show("lobby") }, "Lobby");
  if (n === null || !heard) {
    fill(root, el("div", { class: "card-box" }, back, el("p", { class: "dim", text: "Loading the standings…" })));
    return;
  }
  const { msg } = heard;
  const t = msg.summary;
  const me = app.state.name;
  const standings = orderedStandings(msg.standings || []);
  const mine = standings.find((s) => s.name === me);
  const host = me !== null && me === t.host;
  const head = el(
    "div",
    { class: "tour-head" },
    back,
    el("h1", { text: `Tournament ${n}` }),
    el("span", { class: "dim", text: ` ${t.ruleset} · ${t.format} · ${t.players} players · ` }),
    el("span", { id: "tour-round", text: roundLabel(t) }),
    el("span", { id: "tour-clock", class: "clock", title: "time left in the round", text: clockText(desk.left(n)) }),
  );
  const actions = el("div", { class: "row tour-actions" });
  if (t.state !== "over") {
    if (!mine || mine.withdrawn) {
      if (!mine) actions.append(el("button", { type: "button", class: "primary", id: "tour-enter", onclick: () => desk.ask({ type: "enter_tournament", tournament: n }) }, "Enter"));
    } else {
      if (mine.paused) actions.append(el("button", { type: "button", class: "primary", id: "tour-resume", onclick: () => desk.ask({ type: "enter_tournament", tournament: n }) }, "Back"));
      else actions.append(el("button", { type: "button", id: "tour-pause", onclick: () => desk.ask({ type: "sit_out", tournament: n }) }, "Pause"));
      actions.append(el("button", { type: "button", id: "tour-withdraw", onclick: () => confirm("Withdraw for good? Your points stay in the standings.") && desk.ask({ type: "withdraw", tournament: n }) }, "Withdraw"));
    }
    if (host && t.state === "waiting") actions.append(el("button", { type: "button", class: "primary", id: "tour-start", onclick: () => desk.ask({ type: "start_tournament", tournament: n }) }, "Start"));
    if (host && (t.state !== "waiting" || t.paused)) {
      const verb = t.paused ? "resume_tournament" : "pause_tournament";
      actions.append(el("button", { type: "button", id: "tour-hold", class: t.paused ? "primary" : "", onclick: () => desk.ask({ type: verb, tournament: n }) }, t.paused ? "Resume tournament" : "Pause tournament"));
    }
    if (host) actions.append(el("button", { type: "button", id: "tour-end", onclick: () => confirm("End the tournament now? Games still running are scored as they stand.") && desk.ask({ type: "end_tournament", tournament: n }) }, "End"));
  }
  const body = el("div", { class: "card-box" });
  if (t.state === "over") body.append(podiumBox(t, standings));
  append(body, [standingsTable(standings, me), tiebreakNotes(msg), tablesBox(app, msg)]);
  fill(root, head, actions, body);
}

/** @param {TournamentSummary} t @param {Standing[]} standings */
function podiumBox(t, standings) {
  const steps = podium(standings);
  return el(
    "div",
    { class: "podium", id: "podium" },
    el("p", { class: "tour-winner" }, el("span", { class: "dim", text: "Winner " }), el("b", { id: "tour-winner", text: t.winner || "-" })),
    el("ol", { class: "podium-steps" }, steps.map((s) => el("li", { class: `step step-${s.place}`, dataset: { place: String(s.place) } }, el("b", { text: String(s.place) }), " ", s.names.join(", ")))),
  );
}

/** @param {Standing[]} standings @param {string | null} me */
function standingsTable(standings, me) {
  const headRow = el("tr", {}, ["#", "Name", "Points", "Opp.", "Firsts", "Score", "Games"].map((h) => el("th", { scope: "col", text: h })));
  const rows = standings.map((s) =>
    el(
      "tr",
      { class: `${s.name === me ? "me" : ""}${s.paused ? " paused" : ""}${s.withdrawn ? " withdrawn" : ""}`.trim(), dataset: { name: s.name } },
      el("td", { text: String(s.rank) }),
      el("td", {}, s.name, s.paused ? el("span", { class: "tag", text: " paused" }) : null, s.withdrawn ? el("span", { class: "tag", text: " withdrawn" }) : null),
      el("td", { class: "num", title: String(s.points), text: s.exact }),
      el("td", { class: "num", text: String(s.opponents) }),
      el("td", { class: "num", text: String(s.firsts) }),
      el("td", { class: "num", text: String(s.score) }),
      el("td", { class: "num", text: String(s.games) }),
    ),
  );
  return el("div", { class: "scroll-x" }, el("table", { class: "standings", id: "standings" }, el("thead", {}, headRow), el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: "7", class: "dim", text: "Nobody has entered yet." })))));
}

/** How each tiebreak is computed, in the server's words. @param {TournamentMessage} msg */
function tiebreakNotes(msg) {
  const breaks = msg.tiebreaks || [];
  if (!breaks.length) return null;
  return el("details", { class: "tiebreaks" }, el("summary", { text: "How the standings are ranked" }), el("dl", {}, breaks.map((b) => [el("dt", { text: b.name }), el("dd", { text: b.how })])));
}

/** The round's tables; ours with a button to go there. @param {App} app @param {TournamentMessage} msg */
function tablesBox(app, msg) {
  const tables = msg.tables || [];
  if (!tables.length) return null;
  const me = app.state.name;
  const list = el("ul", { class: "tour-tables" });
  for (const t of tables) {
    const id = t.table;
    const ours = me !== null && t.players.includes(me) && id !== null && !t.over;
    list.append(el("li", { dataset: { table: String(id ?? "") } }, el("b", { text: id ? `Table ${id}` : "Opening" }), ` ${t.players.join(", ")}${t.over ? " · over" : ""} `, ours ? el("button", { type: "button", class: "primary", onclick: () => app.join(String(id)) }, "Go") : null));
  }
  return append(el("div", { class: "tour-round-tables" }, el("h3", { text: "This round" })), [list]);
}
