// @ts-check
// A table's invite: `/t/ID` is this page opened at table ID (the server serves the page
// there), and the table shows that link and its QR code (drawn by the server,
// `/qr.svg?t=ID`, for the address this browser used), so a host sends a friend straight
// to a seat.
import { el } from "./dom.js";

const INVITE = /^\/t\/([1-9][0-9]{0,8})$/;

/** The table an invite's path names (`/t/7` -> `7`), or null.
 * @param {string} pathname @returns {string | null} */
export function inviteTable(pathname) {
  const found = INVITE.exec(pathname);
  return found ? found[1] : null;
}

/** The invite link to `table` on the server at `origin` (`http://host:port`).
 * @param {string} origin @param {string} table @returns {string} */
export function inviteLink(origin, table) {
  return `${origin}/t/${encodeURIComponent(table)}`;
}

/** The invite's dialog body: the link (to copy, or share where the device can) and
 * its QR code to scan off this screen. @param {string} origin @param {string} table */
export function inviteBody(origin, table) {
  const link = inviteLink(origin, table);
  const field = el("input", { id: "invite-link", readonly: true, value: link, "aria-label": "invite link", onfocus: () => field.select() });
  const share = typeof navigator !== "undefined" && typeof navigator.share === "function" ? el("button", { type: "button", id: "invite-share", onclick: () => navigator.share({ title: `Table ${table}`, url: link }).catch(() => {}) }, "Share") : null;
  return el(
    "div",
    { class: "invite", id: "invite" },
    el("p", { text: "Send this link to a friend, or let them scan the code: it opens this table (joining a free seat, or watching)." }),
    el("div", { class: "row" }, field, share),
    el("img", { id: "invite-qr", class: "qr", src: `/qr.svg?t=${encodeURIComponent(table)}`, alt: `QR code of ${link}`, width: "264", height: "264" }),
  );
}
