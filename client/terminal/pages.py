"""What floats over the screen: a page (the help, a game's rules, a long reply) or the
new-table picker. One at a time; Escape closes either.

The help says what can be done on the screen on display: the legal moves first
when it is our turn, then the family's actions and the commands, every line of it
read from ``protocol.commands`` (``client.terminal.commands`` chooses which).
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples

from client.terminal.boards.legal import choices, legal_text
from client.terminal.commands import (
    COMMANDS,
    MASTER_COMMANDS,
    OVER_COMMANDS,
    TABLE_COMMANDS,
    command,
    help_line,
)
from client.terminal.lobby_screen import LobbyScreen
from client.terminal.page import Page, wrap_page
from client.terminal.rules import rules_lines
from client.terminal.screen import Screen
from client.terminal.tournament import KEY_LINE, page_number
from protocol.commands import ACTION_HELP

HELP_TITLE = "Help"
RULES_TITLE = "Rules"
PAGE_CLOSES = "Escape closes this page"
#: How a seat's player is named, the one rule of the lobby, the table and its log.
BOT_NAMES = (
    "A server bot is named bot N, N its seat (the first seat is 0), in the lobby as at"
    " the table; in abbott a seat is also its compass point, the letter on its piece"
)


class Pages:
    """The page framed over the screen, or the new-table picker, or neither."""

    def __init__(self, app: Screen, lobby: LobbyScreen) -> None:
        self.app = app
        self.lobby = lobby
        #: the page framed over the screen (the help, a game's rules, a long reply), or None
        self.page: Page | None = None
        self.picker_open = False
        self.picker_index = 0

    # ------------------------------------------------------------ pages
    @property
    def title(self) -> str:
        return self.page.title if self.page is not None else ""

    def show(self, page: Page) -> None:
        """Frame ``page`` over the screen, in place of any other page or the picker."""
        self.page = page
        self.picker_open = False
        self.app.application.invalidate()

    def close(self) -> None:
        """Close whatever floats over the screen."""
        self.page = None
        self.picker_open = False

    def scroll(self, step: int) -> None:
        if self.page is not None:
            self.page.scroll(step)

    @property
    def help_shown(self) -> bool:
        """Whether the help is the page on screen (F1, ``help``)."""
        return self.title == HELP_TITLE

    def toggle(self, title: str, open_it: Any) -> None:
        """Close the page titled ``title`` if it is on screen, else ``open_it()``."""
        if self.title == title:
            self.page = None
        else:
            open_it()

    def open_help(self) -> None:
        self.show(Page(HELP_TITLE, lambda width: wrap_page(self.help_lines(), width), ""))

    def show_lines(self, title: str, lines: list[str]) -> None:
        """A reply of several lines as a page of its own (a tournament's says its keys)."""
        closes = KEY_LINE if page_number(title) is not None else PAGE_CLOSES
        self.show(Page(title, lambda width: wrap_page(lines, width), closes))

    def text(self) -> StyleAndTextTuples:
        """The page on screen, in the box its frame leaves (two columns and two rows)."""
        page = self.page
        if page is None:
            return []
        size = self.app.application.output.get_size()
        lines, hint = page.window(size.columns - 2, size.rows - 2)
        out: StyleAndTextTuples = [("", "\n".join(lines))]
        if hint:
            out += [("", "\n"), ("class:dim", "\n".join(hint))]
        return out

    def help_lines(self) -> list[str]:
        """The help for the screen on display (F1 or ``help``)."""
        # The way out first: a long list of legal moves may push the end off a small screen.
        lines = ["Escape or F1 closes this help; Up/Down scroll it. Tab completes, Ctrl-D quits"]
        t = self.app.table
        if t is None:
            lines.append("In the lobby:")
            lines += ["  " + help_line(c) for c in COMMANDS]
            return [*lines, BOT_NAMES]
        family = t.family or ""
        if t.my_turn:  # every one of them, first: the help wraps, it never cuts
            lines.append("Legal now:")
            width = max(20, self.app.application.output.get_size().columns - 4)
            groups = t.choices or choices(t.legal)  # the server's words, or composed alike
            lines += ["  " + line for line in legal_text(groups, width)]
        lines.append(f"At the table ({family or 'waiting'}): type an action")
        actions = ACTION_HELP.get(family, ("(actions appear once dealt)",))
        lines += ["  " + h for h in actions]
        lines.append(BOT_NAMES)
        lines.append("Table commands:")
        lines += ["  " + help_line(c) for c in TABLE_COMMANDS]
        if t.state == "over":
            lines += ["  " + help_line(c) for c in OVER_COMMANDS]
        if t.master == self.app.state.name:  # one wrapped line: the help fits 24 rows
            usage = [found.usage for c in MASTER_COMMANDS if (found := command(c))]
            lines.append("Game master: " + ", ".join(usage) + " (help WORD for one)")
        return lines

    def open_rules(self, ruleset: str | None = None) -> None:
        """Show the rules of ``ruleset``, or of the table's game and its options (F2)."""
        app = self.app
        t = app.table
        table_options: dict[str, Any] | None = None
        if ruleset is None and t is not None:
            ruleset = (t.view.get("ruleset") if t.view else None) or self.lobby.ruleset_of(t.table)
            row = self.lobby.row(t.table)
            table_options = dict(row["options"]) if row else {}
        if not ruleset:
            games = " ".join(r["name"] for r in app.state.rulesets)
            app.say(f"rules GAME shows a game's rules; the games: {games}", "class:error")
            return
        found = next((r for r in app.state.rulesets if r["name"] == ruleset), None)
        if found is None:
            app.say(f"no game {ruleset!r}; `rulesets` lists them", "class:error")
            return
        lines = rules_lines(
            found["family"], ruleset, found["options"], table_options, found["summary"]
        )
        closes = "Escape or F2 closes the rules"
        self.show(Page(RULES_TITLE, lambda width: wrap_page(lines, width), closes))

    # ------------------------------------------------------------ the picker
    def open_picker(self) -> None:
        """The list of games to create a table with (``create`` alone)."""
        self.page = None
        self.picker_open, self.picker_index = True, 0
        self.app.application.invalidate()

    def move_picker(self, step: int) -> None:
        self.picker_index = (self.picker_index + step) % max(1, len(self.app.state.rulesets))

    def picker_text(self) -> StyleAndTextTuples:
        rulesets = self.app.state.rulesets
        out: StyleAndTextTuples = [("class:dim", "Up/Down choose, Enter picks, Esc cancels\n")]
        for i, r in enumerate(rulesets):
            style = "class:picker.selected" if i == self.picker_index else ""
            seats = f"{r['min_seats']}-{r['max_seats']}"
            line = f"{r['name']:<10} {seats:<5} {r['summary'][:58]}"
            out += [(style, line), ("", "\n")]
        if rulesets:
            chosen = rulesets[self.picker_index % len(rulesets)]
            opts = " ".join(f"{o['name']}={o['default']}" for o in chosen["options"])
            out += [("class:dim", "options (add name=value after the seats; Tab lists them):\n")]
            out += [("class:dim", opts[:220])]
        return out

    def pick(self) -> None:
        """Enter in the picker: the command line is prefilled with a ``create`` to finish."""
        r = self.app.state.rulesets[self.picker_index]
        self.picker_open = False
        seats = r["max_seats"] if r["family"] == "abbott" else r["min_seats"]
        if r["family"] != "abbott" and r["max_seats"] >= 4 >= seats:
            seats = 4
        text = f"create {r['name']} {seats} "
        self.app.input_field.buffer.set_document(Document(text, len(text)))
        self.app.application.invalidate()
