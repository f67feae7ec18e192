"""The terminal client's own vocabulary: what each command does, for help and completion.

The wire meaning of a command line comes from ``protocol``'s shared command
parser (the text mode speaks the same commands); this module only lists the
commands a person types, with a line of help each, and the few that never go
to the server (``help``, ``quit``, ``lobby``, ``ascii``, ``filter``).
"""

from __future__ import annotations

#: Commands available everywhere, with one line of help.
COMMANDS: dict[str, str] = {
    "help": "this help (or F1); help COMMAND for one command",
    "quit": "leave the client (or Ctrl-D)",
    "tables": "refresh the list of tables",
    "rulesets": "list the games a table can be created with",
    "create": "create RULESET SEATS [option=value ...]: open a table (you are its master)",
    "join": "join TABLE [SEAT]: take a seat",
    "watch": "watch TABLE: spectate",
    "who": "who is online, and where each sits or watches",
    "shout": "shout TEXT: talk to everyone online (shouts off: hear none)",
    "filter": "filter [WORDS]: show only tables matching every word (no words: all)",
    "name": "name NAME: play under another name (its secret is kept for you)",
    "chips": "your chip balance",
    "finger": "finger [NAME]: a player's ratings, games won, chips and last games",
    "history": "history [NAME] [START]: a player's finished games, newest first",
    "top": "top FAMILY [N]: the best rated players (abbott, shedding, kilodney); a game"
    " two or more people play is rated, its bots by strategy",
    "ascii": "switch between card symbols (Q♥) and plain ASCII (QH)",
    "rules": "rules [GAME]: the rules of the table's game and its options (or F2)",
}

#: Commands that concern the table on screen.
TABLE_COMMANDS: dict[str, str] = {
    "say": "say TEXT: talk to everyone at the table (or start the line with ')",
    "look": "the table again, fresh from the server",
    "leave": "leave the table (a bot takes your seat in a running game)",
    "lobby": "the lobby and its commands (you stay here; `table TABLE` returns)",
    "table": "table TABLE: show a table you are at",
    "start": "start the game (the game master; empty seats get bots)",
    "record": "record [TABLE]: fetch the game's record (every page) and save it",
    "hint": "hint: the search's advice for your move (against bots only)",
    "analyze": "analyze [TABLE]: mark the mistakes in the finished game (in its log)",
}

#: What the table's game master may do (``not_master`` for anyone else); the
#: server seats bots, sets options and keeps the clock, so each is one request.
MASTER_COMMANDS: dict[str, str] = {
    "bot": "bot SEAT [STRATEGY]: seat a server bot (random, heuristic, search)",
    "unseat": "unseat SEAT: empty a seat",
    "set": "set option=value ...: change the table's options before a game",
    "prize": "prize CHIPS: put up a prize from your chips",
    "pause": "pause the game and its clock (`resume` carries on)",
    "resume": "resume a paused game",
    "master": "master NAME: hand the game master role on",
    "end": "end the game now",
    "close": "close [REASON]: close the table for good, telling everyone why",
}

#: Never sent to the server.
LOCAL = {
    "help",
    "quit",
    "exit",
    "lobby",
    "table",
    "ascii",
    "filter",
    "rules",
    "hint",
    "analyze",
    "analyse",
}

ACTIONS_HELP = {
    "abbott": [
        "move SQUARE   move your piece, e.g. move c4 (squares are labelled on the grid)",
        "ally SEAT     name a partner before moving, e.g. ally west",
        "concede       give up the hand (both of a side must concede)",
        "vote end      ask to end the hand now",
    ],
    "shedding": [
        "play CARD [CARD ...] [last]   e.g. play QH, play 7H 7D, play 5C last",
        "draw          draw from the stock, or take a pending pick-up",
        "pass          keep the card you drew",
        "suit SUIT     name the suit after a wild card, e.g. suit hearts",
        "last          announce your last card",
    ],
    "kilodney": [
        "play CARD     follow the suit or the face of the top card, or lead after a stop",
        "              a joker may be played at any time (it stops the sequence)",
    ],
}
