// @ts-check
// The turn alert: when the turn comes to this browser's seat (a turn whose seat to act is
// ours, with legal actions, after it was not), a short tone made in the page (Web Audio:
// an oscillator, no sound file), a vibration where the device has one, and while the page
// is hidden the tab's title and icon marked until it is seen again; each as the settings
// say (settings.js). Browser notifications would need HTTPS: none is used.
// Everything it touches comes in `AlertEnv`, so node tests it (web/tests/alerts.test.js)
// and a browser test can watch the hooks it calls (`sounded`, `vibrated`, `marked`).

/** @typedef {import("../types").Settings} Settings */
/** @typedef {import("./state.js").TableRecord} TableRecord */

/**
 * What the alert works with: the page's document (title, hidden, the icon's link), the
 * vibration, and a way to make an audio context (null where there is no Web Audio).
 * @typedef {object} AlertEnv
 * @property {{title: string, hidden: boolean, querySelector(s: string): {href: string} | null, addEventListener(type: string, f: () => void): void}} doc
 * @property {((pattern: number[]) => boolean) | null} vibrate
 * @property {(() => AudioContext) | null} audio
 */

/** The tab's title while the turn waits on a hidden page. */
export const TURN_TITLE = "● Your turn — Switchboard";
/** The icon that marks the tab meanwhile (the usual one with a dot). */
export const TURN_ICON = "/favicon-turn.svg";
/** The vibration: two short buzzes. */
export const BUZZ = [120, 80, 120];
/** The tone: its pitch (Hz) and length (s). */
const TONE = { hz: 880, seconds: 0.18 };

/** @param {TableRecord} t */
function ours(t) {
  return t.seat !== null && t.toAct === t.seat && t.legal.length > 0;
}

/** The browser's own env (only in a page). @returns {AlertEnv} */
export function browserEnv() {
  const Ctx = globalThis.AudioContext || /** @type {any} */ (globalThis).webkitAudioContext;
  return {
    doc: /** @type {any} */ (document),
    vibrate: typeof navigator.vibrate === "function" ? (pattern) => navigator.vibrate(pattern) : null,
    audio: Ctx ? () => new Ctx() : null,
  };
}

export class TurnAlert {
  /** @param {Settings} settings @param {AlertEnv} env */
  constructor(settings, env) {
    this.settings = settings;
    this.env = env;
    /** @type {Set<string>} tables where the turn is ours */
    this.mine = new Set();
    /** @type {AudioContext | null} */
    this.context = null;
    /** @type {{title: string, icon: string} | null} what the tab showed before it was marked */
    this.saved = null;
    this.sounded = 0;
    this.vibrated = 0;
    this.marked = 0;
    env.doc.addEventListener("visibilitychange", () => {
      if (!this.env.doc.hidden) this.unmark();
    });
  }

  /** Look at every table after a message: a table whose turn just became ours alerts
   * (once: the turn must leave us before it alerts again). @param {Iterable<TableRecord>} tables */
  update(tables) {
    /** @type {Set<string>} */
    const now = new Set();
    let fresh = false;
    for (const t of tables) {
      if (!ours(t)) continue;
      now.add(t.table);
      if (!this.mine.has(t.table)) fresh = true;
    }
    this.mine = now;
    if (fresh) this.alert();
    else if (!now.size) this.unmark();
  }

  /** The turn came: each way of saying so that is on. */
  alert() {
    if (this.settings.sound) this.sound();
    if (this.settings.vibrate) this.vibrate();
    if (this.settings.title && this.env.doc.hidden) this.mark();
  }

  /** Make the audio context at a person's gesture (a browser lets a page sound only
   * after one), so the tone of a later turn is heard. */
  unlock() {
    if (!this.env.audio) return;
    try {
      this.context ??= this.env.audio();
      if (this.context.state === "suspended") this.context.resume();
    } catch {
      this.context = null;
    }
  }

  /** A short tone, faded in and out (no click). */
  sound() {
    this.sounded++;
    this.unlock();
    const ctx = this.context;
    if (!ctx) return;
    try {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const start = ctx.currentTime;
      osc.type = "sine";
      osc.frequency.value = TONE.hz;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + TONE.seconds);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + TONE.seconds + 0.02);
    } catch {
      // no sound this time; the title and the vibration still say it
    }
  }

  vibrate() {
    if (!this.env.vibrate) return;
    this.vibrated++;
    try {
      this.env.vibrate(BUZZ);
    } catch {
      // a device that refuses: nothing to do
    }
  }

  /** Mark the tab (title and icon) until the page is seen again. */
  mark() {
    const doc = this.env.doc;
    const icon = doc.querySelector("#favicon");
    if (this.saved === null) this.saved = { title: doc.title, icon: icon ? icon.href : "" };
    doc.title = TURN_TITLE;
    if (icon) icon.href = TURN_ICON;
    this.marked++;
  }

  /** The tab as it was. */
  unmark() {
    if (this.saved === null) return;
    const doc = this.env.doc;
    doc.title = this.saved.title;
    const icon = doc.querySelector("#favicon");
    if (icon && this.saved.icon) icon.href = this.saved.icon;
    this.saved = null;
  }
}
