"""The commands the screen carries out itself (``help``, ``quit``, ``lobby``, ``table``,
``ascii``, ``bell``, ``rules``, ``filter``, ``create`` with nothing after it); every other line
goes to the server through the app's ``submit``.

Each is a handler in ``HANDLERS`` that says whether it took the line: ``table N``
for a table we are not at, say, is not the screen's to carry out alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from client.terminal.bell import TurnBell, keep_bell
from client.terminal.commands import command_help
from client.terminal.lobby_screen import LobbyScreen
from client.terminal.pages import Pages
from client.terminal.screen import Screen


class Commanded(Screen, Protocol):
    """The app as its commands see it: the screen, its pages and its lobby."""

    pages: Pages
    lobby: LobbyScreen
    bell: TurnBell


Handler = Callable[[Commanded, list[str]], bool]


def _quit(app: Commanded, words: list[str]) -> bool:
    app.exit()
    return True


def _help(app: Commanded, words: list[str]) -> bool:
    if len(words) > 1:
        app.say(command_help(words[1]))
    else:
        app.pages.open_help()
    return True


def _lobby(app: Commanded, words: list[str]) -> bool:
    """Back to the lobby, its table list asked for at once: the list kept is the one
    fetched when the lobby was last on screen, and the periodic refresh is seconds off."""
    app.show_table(None)
    app.submit("tables")
    return True


def _table(app: Commanded, words: list[str]) -> bool:
    """``table N``: show a table we are at; one the server's list seats our name at is
    taken back by joining it (our name's seat: joining gives it back)."""
    if len(words) != 2:
        return False
    table = words[1]
    if table in app.state.tables:
        app.show_table(table)
    elif table in app.lobby.seated_by_server():
        app.submit(f"join {table}")
    else:
        app.say(f"you are not at table {table}; `join {table}` sits down", "class:error")
    return True


def _ascii(app: Commanded, words: list[str]) -> bool:
    app.toggle_ascii()
    return True


def _bell(app: Commanded, words: list[str]) -> bool:
    """``bell on`` / ``bell off``: the turn's bell, kept for the next run; ``bell`` says
    which it is."""
    if len(words) == 2 and words[1].lower() in ("on", "off"):
        app.bell.on = words[1].lower() == "on"
        keep_bell(app.bell.on)
    elif len(words) != 1:
        app.say("bell on, or bell off", "class:error")
        return True
    app.say(f"the bell rings on your turn: {'on' if app.bell.on else 'off'}", "class:ok")
    return True


def _rules(app: Commanded, words: list[str]) -> bool:
    app.pages.open_rules(words[1] if len(words) > 1 else None)
    return True


def _filter(app: Commanded, words: list[str]) -> bool:
    app.lobby.set_filter(words[1:])
    app.application.invalidate()
    return True


def _create(app: Commanded, words: list[str]) -> bool:
    """``create`` alone opens the picker of games (once the server has listed them)."""
    if len(words) != 1 or not app.state.rulesets:
        return False
    app.pages.open_picker()
    return True


HANDLERS: dict[str, Handler] = {
    "quit": _quit,
    "exit": _quit,
    "help": _help,
    "?": _help,
    "lobby": _lobby,
    "table": _table,
    "ascii": _ascii,
    "bell": _bell,
    "rules": _rules,
    "filter": _filter,
    "create": _create,
}


def run_line(app: Commanded, text: str) -> None:
    """Carry out one typed line: on the screen if it is the screen's, else at the
    server (a line starting with ``'`` is talk)."""
    words = text.split()
    handler = HANDLERS.get(words[0].lower() if words else "")
    if handler is not None and handler(app, words):
        return
    if text.startswith("'"):
        text = "say " + text[1:]
    app.submit(text)
