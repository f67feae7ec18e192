"""Text mode's ``rules [GAME]``: a family's rules text for a person at ``nc``.

The texts are the terminal client's (``protocol.rules``, in its typed wording); text mode
answers the command on the connection itself, as it answers ``format``, since the words
need nothing of the server's. A paragraph goes out as one ``help`` line, which the codec
breaks at spaces to 80 columns.

>>> reply = rules_reply("kilodney")
>>> reply.lines[0]
"kilodney: Crad Kilodney's Switch (2002), a knock-out game for 4 to 9 players"
>>> rules_reply("chess").text
'no game called chess; rules GAME takes abbott, shedding, kilodney or a ruleset such as switch'
>>> rules_reply(None).code
'bad_command'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import OptionError
from engine.registry import ruleset
from protocol.messages import Error, HelpText, Message
from protocol.rules import FAMILIES, family_text

#: The command's usage, for ``help`` (text mode's; the terminal client has its own page).
RULES_USAGE = "rules [GAME]"
RULES_SUMMARY = (
    "a game's rules: abbott, shedding, kilodney or a ruleset such as switch (no GAME: the"
    " game of your table)"
)


@dataclass(frozen=True, slots=True)
class TextRules:
    """``rules [GAME]``: a text connection's own command, answered by the connection
    (``ServerTextCodec.rules``), with ``game`` the word typed (``None``: the table's)."""

    game: str | None
    id: int | None = None


def family_of(game: str) -> str | None:
    """The family a word names: a family itself, or a ruleset of it (``switch``)."""
    word = game.lower()
    if word in FAMILIES:
        return word
    try:
        return ruleset(word).family
    except OptionError:
        return None


def rules_reply(game: str | None, request_id: int | None = None) -> Message:
    """The rules of ``game``'s family, a paragraph a line; an error naming the games."""
    if game is None:
        return Error(
            code="bad_command",
            text="rules of which game? at a table, rules shows its game's; else rules GAME"
            f" ({', '.join(FAMILIES)})",
            id=request_id,
        )
    family = family_of(game)
    text = None if family is None else family_text(family)
    if text is None:
        return Error(
            code="bad_command",
            text=f"no game called {game}; rules GAME takes {', '.join(FAMILIES)} or a ruleset"
            " such as switch",
            id=request_id,
        )
    paragraphs = tuple(line for line in text.strip().splitlines() if line.strip())
    return HelpText(lines=paragraphs, topic="rules", id=request_id)
