"""Which commands the terminal client offers where, and the keys that do the same.

Every command's help (its usage and one line of summary) is written once, in
``protocol.commands``: the wire's commands, which text mode shares, and the
client's own (``SCREEN_COMMANDS``: ``lobby``, ``table``, ``ascii``, ``filter``,
``rules``, ``hint``, ``analyze``). This module only chooses which of them the
lobby's help, the table's help and the completion offer, so a new command's
help is written in one place and read everywhere.

>>> help_line("help")
'help [COMMAND]: list the commands, or explain one (F1)'
"""

from __future__ import annotations

from protocol.commands import Command, action_help, command_named

#: Commands offered everywhere (the lobby's help lists them).
COMMANDS: tuple[str, ...] = (
    "help", "quit", "tables", "rulesets", "create", "join", "watch", "who", "shout",
    "filter", "name", "chips", "finger", "history", "top", "ascii", "rules", "bell",
)  # fmt: skip

#: Commands that concern the table on screen.
TABLE_COMMANDS: tuple[str, ...] = (
    "say", "look", "leave", "lobby", "table", "start", "record", "hint", "analyze", "review",
    "follow",
)  # fmt: skip

#: Offered at a finished game only (the help fits 24 rows while a game runs).
OVER_COMMANDS: tuple[str, ...] = ("again",)

#: What the table's game master may do (``not_master`` for anyone else); the server
#: seats bots, sets options and keeps the clock, so each is one request.
MASTER_COMMANDS: tuple[str, ...] = (
    "bot", "unseat", "set", "prize", "pause", "resume", "master", "end", "close",
)  # fmt: skip

#: Never sent to the server: the screen or the player's machine carries them out.
LOCAL = frozenset(
    {"help", "quit", "exit", "lobby", "table", "ascii", "filter", "rules", "hint", "analyze"}
    | {"analyse", "bell"}
)

#: The key that does what a command does, said beside its help.
KEYS: dict[str, str] = {"help": "F1", "quit": "Ctrl-D", "rules": "F2"}


def command(word: str) -> Command | None:
    """The command ``word`` names for this client (its own commands first)."""
    return command_named(word, screen=True)


def help_line(word: str) -> str:
    """``usage: summary`` of a command, with its key if it has one (``word`` must name one)."""
    found = command(word)
    if found is None:
        raise KeyError(word)
    key = KEYS.get(found.name)
    return f"{found.usage}: {found.summary}" + (f" ({key})" if key else "")


def summary(word: str) -> str:
    """The one line a completion menu shows beside ``word``."""
    found = command(word)
    return found.summary if found is not None else ""


def command_help(word: str) -> str:
    """One line of help for a command or an action verb (``help join``).

    >>> command_help("suit")
    'shedding: suit SUIT name the suit after a wild card, e.g. suit hearts'
    """
    if command(word) is not None:
        return help_line(word)
    actions = action_help(word)
    if actions:
        return "; ".join(actions)
    return f"no command {word!r}; F1 lists them all"
