// The messages the browser client reads, as docs/protocol.md declares them (section 10 and
// the appendix of the families' views and events), for TypeScript's check of the JSDoc in
// static/ (tsc --checkJs). Nothing here is served or run: a module names a type with
// `/** @typedef {import("../types").Snapshot} Snapshot */`.
//
// A field the protocol may leave out (null fields are left out of a JSON frame) is optional
// here, so the code reading it must give a default. Unknown fields are allowed and ignored.

/** What `el` and `fill` take as children: nodes, strings (as text), arrays of them; null,
 * undefined and false are skipped. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** A seat's occupant: a name, `bot:STRATEGY` while a server bot plays it, or null. */
export type Player = string | null;

export type TableState = "waiting" | "playing" | "paused" | "over" | "closed";

// ---------------------------------------------------------------- views (the appendix)

/** What every family's view holds. */
export interface CommonView {
  ruleset: string;
  family: string;
  seats: number;
  viewer?: number | null;
  to_act?: number | null;
  over: boolean;
  scores: number[];
  /** the table's house rules: the options that differ from the defaults */
  options?: Record<string, unknown>;
  winner?: number | null;
  hand_number?: number;
  dealer?: number;
  target?: number;
}

export interface BestHand {
  category?: string;
  cards?: string[];
}

export interface AbbottView extends CommonView {
  family: "abbott";
  size: number;
  grid: (string | null)[][];
  pieces: string[];
  collections: string[][];
  best: BestHand[];
  turn_of?: number | null;
  round?: number;
  alliance?: { chooser: number; partner: number } | null;
  power?: number | null;
  votes: number[];
  conceded: number[];
  stall: number;
  stall_limit: number;
  hand_scores?: number[][];
  seat_names: string[];
}

/** A power waiting to be answered (shedding). */
export interface Pending {
  kind: string;
  count?: number;
  cards?: string[];
  rank?: string;
}

export interface SheddingView extends CommonView {
  family: "shedding";
  preset: string;
  hand?: string[] | null;
  hand_sizes: number[];
  top?: string | null;
  pile_size: number;
  nominated?: string | null;
  stock: number;
  pending?: Pending | null;
  direction: number;
  finished: number[];
  announced: number[];
  awaiting?: string | null;
  awaiting_kind?: string | null;
  drawn?: string[];
  misses?: number[];
}

export interface KilodneyView extends CommonView {
  family: "kilodney";
  hand?: string[] | null;
  hand_sizes: number[];
  top?: string | null;
  running: boolean;
  in_hand: boolean[];
  knocked_out: number[];
  stranded?: number[];
  hand_points?: number[];
  jokers: number;
  leader?: number | null;
}

export type View = AbbottView | SheddingView | KilodneyView;
/** A snapshot's view before the first game: `{}`. */
export interface NoView {
  family?: undefined;
}

// ---------------------------------------------------------------- events

/** One thing that happened at a table (`event.event`): `kind` names it, and the fields are
 * the kind's (the appendix). Its words come beside it, as the message's `text`. */
export interface TableEvent {
  kind: string;
  seat?: number | null;
  winner?: number | null;
  hand_number?: number;
  points?: number[] | number;
  hand_points?: number[];
  scores?: number[];
  [field: string]: unknown;
}

// ---------------------------------------------------------------- what a turn offers

/** A legal action with its label in words: `[action, label]`. */
export type Choice = [string, string];
/** The receiver's legal actions grouped for display: `[heading, choices]`, in order, each
 * legal action exactly once. */
export type ChoiceGroup = [string, Choice[]];

// ---------------------------------------------------------------- the boards

/** What a family's board is drawn with, besides its view. */
export interface BoardContext {
  /** how a seat's player is named (a bot by its seat) */
  name(seat: number | null | undefined): string;
  /** the viewer's legal actions now */
  legal: string[];
  /** whether the viewer is to act now */
  mine: boolean;
  /** cards selected to lay, in order (a board that selects) */
  selection: string[];
  /** what the pile asks of whoever plays next, in the server's words (`pending_text`) */
  pile: string | null;
  onCard(card: string): void;
  onAct(action: string): void;
}

// ---------------------------------------------------------------- messages (section 10)

interface Message {
  type: string;
  id?: number | null;
}

export interface Welcome extends Message {
  type: "welcome";
  version: number;
  protocol?: string;
  server?: string;
}
export interface Ok extends Message {
  type: "ok";
  table?: string | null;
  text?: string;
}
export interface ErrorReply extends Message {
  type: "error";
  code: string;
  text?: string;
  table?: string | null;
}
export interface Goodbye extends Message {
  type: "goodbye";
  code: string;
  text?: string;
}
export interface Notice extends Message {
  type: "notice";
  text: string;
  shutdown_in?: number | null;
  table?: string | null;
}
export interface Ping extends Message {
  type: "ping";
}
export interface Named extends Message {
  type: "named";
  name: string;
}

export interface RuleOption {
  name: string;
  default: unknown;
  /** what the option does, in words */
  doc?: string;
  min?: number;
  max?: number;
  choices?: unknown[];
}
export interface Ruleset {
  name: string;
  family: string;
  summary?: string;
  min_seats: number;
  max_seats: number;
  options?: RuleOption[];
}
export interface Rulesets extends Message {
  type: "rulesets";
  rulesets: Ruleset[];
}

/** One table of the lobby's listing. */
export interface TableSummary {
  table: string;
  ruleset: string;
  family?: string;
  seats: number;
  players: Player[];
  taken?: number;
  spectators?: number;
  state: TableState;
  game?: number;
  master?: string | null;
  options?: Record<string, unknown>;
  /** each option that differs from the ruleset's default, in words */
  options_text?: string[];
  start_when_full?: boolean;
  prize?: number;
  away?: number[];
  turn_seconds?: number | null;
  ratings?: (number | null)[];
  rated?: boolean | null;
}
export interface Tables extends Message {
  type: "tables";
  /** a page of the lobby: the waiting tables first */
  tables: TableSummary[];
  /** the first one's place in the listing (0 the first) */
  start?: number;
  /** the `start` of the next page; null: this page is the last */
  next?: number | null;
  /** the tables listed in all */
  total?: number;
}

export interface Seated extends Message {
  type: "seated";
  table: string;
  seat: number;
  token: string;
}

/** What a turn and a snapshot say the receiving seat may and must do now. */
interface Offer {
  legal?: string[];
  /** what the receiving seat must answer now, in words; null when nothing is asked */
  must?: string | null;
  /** the legal actions grouped and labelled for display */
  choices?: ChoiceGroup[];
  /** whom the table waits for, in words ("Waiting for ann…"); to all but the seat to act */
  waiting?: string | null;
  /** what the pile asks of whoever plays next, in words (shedding's pending power,
   * kilodney's suit or rank to follow); null when there is nothing to say */
  pending_text?: string | null;
  /** what to say once a turn when the receiving seat's own clock runs low (sent to the
   * seat to act while a clock runs); the page times the clock */
  clock_warning?: string | null;
}

export interface Snapshot extends Message, Offer {
  type: "snapshot";
  table: string;
  seq: number;
  state: TableState;
  /** `{}` before the first game */
  view: View | NoView;
  seat?: number | null;
  players?: Player[];
  master?: string | null;
  clock?: number | null;
  /** the table's ruleset, known before the first deal */
  ruleset?: string | null;
  /** at a finished game, the seats whose players asked to play again */
  again?: number[];
  /** at a finished game, how it ended in words (its `game_end`'s), for one who came later */
  result_text?: string | null;
}

/** One rated seat's rating before and after a game (`rated`). */
export interface RatingChange {
  seat: number;
  name: string;
  before: number;
  after: number;
}
/** The ratings a finished game changed, once stored. */
export interface Rated extends Message {
  type: "rated";
  table: string;
  game: number;
  changes: RatingChange[];
  text: string;
}

export interface EventMessage extends Message {
  type: "event";
  table: string;
  seq: number;
  event: TableEvent;
  /** the event in words for this receiver, composed by the server when it happened (naming
   * who held each seat then); a client shows it as it is */
  text?: string | null;
}

export interface Turn extends Message, Offer {
  type: "turn";
  table: string;
  seq: number;
  seat?: number | null;
  to_act?: number | null;
  clock?: number | null;
  view?: View | null;
}

export interface Presence extends Message {
  type: "presence";
  table: string;
  seat: number;
  name: string;
  what: string;
  /** the line in words ("ann is back"), composed by the server */
  text?: string | null;
}
export interface Talk extends Message {
  type: "talk";
  table: string;
  name: string;
  text: string;
}
export interface Watcher extends Message {
  type: "watcher";
  table: string;
  what: string;
  name?: string | null;
  watching?: number;
  /** the line in words ("bob came to watch (2 watchers)"), composed by the server */
  text?: string | null;
}
export interface Shouted extends Message {
  type: "shouted";
  name: string;
  text: string;
}

/** Where one person online is: `seat` null when watching. */
export interface Spot {
  table: string;
  seat?: number | null;
  state: TableState;
}
export interface Person {
  name: string;
  state: string;
  tables?: Spot[];
  idle?: number;
  more?: number;
  /** where he is, in words ("playing at table 4, watching table 5") */
  where?: string;
}
export interface People extends Message {
  type: "people";
  people: Person[];
  total?: number;
  guests?: number;
  /** How many are online, in words: the line a client shows above the list. */
  text?: string | null;
}

export interface GameLine {
  table: string;
  game?: number;
  ruleset: string;
  rated?: boolean;
  time?: number;
  seat: number;
  players?: string[];
  scores?: number[];
  places?: number[];
}
export interface Profile extends Message {
  type: "profile";
  name: string;
  games?: number;
  chips?: number | null;
  ratings?: { family: string; rating: number; mu?: number; sigma?: number; games: number }[];
  tallies?: { ruleset: string; played: number; won: number }[];
  recent?: GameLine[];
  /** The profile in words, as every client shows it; the last `recent.length` are the recent games. */
  lines?: string[];
}
export interface TopPlayer {
  place?: number;
  name: string;
  rating: number;
  games: number;
}
export interface Top extends Message {
  type: "top";
  family: string;
  players?: TopPlayer[];
}

// ---------------------------------------------------------------- tournaments

/** A tournament as listed (`tournaments`), and the head of one (`tournament`). */
export interface TournamentSummary {
  tournament: number;
  format: "swiss" | "arena" | string;
  ruleset: string;
  host: string;
  players: number;
  /** 0 before round 1 is seated */
  round: number;
  /** 0 while the host left it to the players' count */
  rounds: number;
  state: "waiting" | "playing" | "over" | string;
  /** the host has paused it: no round starts, the round's clock stands still */
  paused?: boolean;
  final?: number;
  winner?: string | null;
  /** seconds left in the round under way (or the arena); null when none runs */
  time_left?: number | null;
}
/** One line of the standings, best first. */
export interface Standing {
  rank: number;
  name: string;
  points: number;
  /** the points exactly, as a fraction: "7/6" */
  exact: string;
  opponents: number;
  firsts: number;
  score: number;
  games: number;
  paused: boolean;
  withdrawn: boolean;
}
export interface TournamentTable {
  index: number;
  table: string | null;
  /** a bot's seat is "bot" */
  players: string[];
  over: boolean;
}
export interface Tiebreak {
  name: string;
  how: string;
}
export interface Tournaments extends Message {
  type: "tournaments";
  tournaments?: TournamentSummary[];
}
export interface TournamentMessage extends Message {
  type: "tournament";
  tournament: number;
  summary: TournamentSummary;
  standings?: Standing[];
  tables?: TournamentTable[];
  tiebreaks?: Tiebreak[];
}
/** A round is seated: our seat, held for us by name; the page sits down there itself. */
export interface YourTable extends Message {
  type: "your_table";
  tournament: number;
  round: number;
  table: string;
  seat: number;
  final?: boolean;
}
// ---------------------------------------------------------------- looking back

/** One step of a finished game's replay, worked out by the server. */
export interface ReplayStep {
  /** 0: the deal; N: after the record's Nth action */
  step: number;
  /** the `[seat, notation]` that led here; null at the deal */
  action: [number, string] | null;
  /** the public view after the step */
  view: View;
  /** each seat's hand then (empty in a family without hands) */
  hands: string[][];
  /** the step's events in the server's words */
  said: string[];
  /** what the pile asks then, in the server's words (the table's `pending_text`) */
  pile?: string;
}
/** The full record but its actions, with each seat's player as shown. */
export interface RecordHead {
  ruleset: string;
  seats: number;
  seed?: number;
  options?: Record<string, unknown>;
  dealer?: number | null;
  deck?: string[] | null;
  names?: string[];
  [field: string]: unknown;
}
export interface Replay extends Message {
  type: "replay";
  table: string;
  game: number;
  record: RecordHead;
  steps?: ReplayStep[];
  start?: number;
  next?: number | null;
  total?: number;
}
export interface RecordPage extends Message {
  type: "record";
  table: string;
  record: Record<string, unknown>;
  full?: boolean;
  start?: number;
  next?: number | null;
  total?: number;
  game?: number;
}
/** One judged decision of an analysis. */
export interface Decision {
  /** the action's place in the record: replay step index + 1 */
  index: number;
  seat: number;
  played: string;
  best: string;
  values?: Record<string, number>;
  loss?: number;
  mark?: "inaccuracy" | "mistake" | "blunder" | null;
  exact?: boolean;
  exact_mark?: boolean;
  error?: number;
  capped?: string | null;
}
/** A player's summary in an analysis. */
export interface PlayerSummary {
  seat: number;
  name: string;
  decisions?: number;
  marked?: Record<string, number>;
  accuracy?: number;
  mean_loss?: number;
  /** the indexes of his costliest marked decisions, costliest first */
  costliest?: number[];
}
export interface AnalysisBody {
  players?: PlayerSummary[];
  decisions?: Decision[];
  [field: string]: unknown;
}
export interface Analysis extends Message {
  type: "analysis";
  table: string;
  game: number;
  analysis: AnalysisBody;
}
export interface AnalysisProgress extends Message {
  type: "analysis_progress";
  table: string;
  game: number;
  done: number;
  total: number;
}
export interface Reviewing extends Message {
  type: "reviewing";
  table: string;
  game: number;
  leader: string;
  step: number;
  total: number;
  said?: string;
}
export interface Hinted extends Message {
  type: "hinted";
  table: string;
  best: string;
  values?: Record<string, number>;
  exact?: boolean;
  text?: string;
}

/** Every message the page reads from the server. */
export type ServerMessage =
  | Welcome
  | Ok
  | ErrorReply
  | Goodbye
  | Notice
  | Rated
  | Ping
  | Named
  | Rulesets
  | Tables
  | Seated
  | Snapshot
  | EventMessage
  | Turn
  | Presence
  | Talk
  | Watcher
  | Shouted
  | People
  | Profile
  | Top
  | Tournaments
  | TournamentMessage
  | YourTable
  | Replay
  | RecordPage
  | Analysis
  | AnalysisProgress
  | Reviewing
  | Hinted;

/** A request's reply: the specific answer, `ok`, or `error` (a dropped connection answers
 * every waiting request with `error disconnected`). */
export type Reply = ServerMessage;

/** The page's own settings, kept by the browser (static/settings.js): how a turn is
 * announced, and the four-colour deck. */
export interface Settings {
  /** a short tone (Web Audio) when the turn comes */
  sound: boolean;
  /** a vibration, where the device has one */
  vibrate: boolean;
  /** the tab's title and icon marked while the page is hidden */
  title: boolean;
  /** clubs green, diamonds blue */
  fourColour: boolean;
}
