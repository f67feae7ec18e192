"""The shedding family's card powers, each declared once: its name, what it does in words,
and where it comes from. Everything else that names a power is derived from ``POWERS``:

- the option that binds it to cards (``engine.shedding.rules.OPTIONS``: a card selector
  option named after the power, its ``doc`` the option's help) and the option keys a
  compiled table is cached by (``engine.shedding.table``);
- the power's flag on each face (``rules.Powers.effects``) and its per-card lookup
  (``table.PowerTable``: ``pt.skip[card]``, one attribute per power);
- the rulesets' payload (``engine.options.Option.describe``: ``power``, the title, and
  ``rule``, the words of docs/rules.md), which every client reads;
- a table's power in words (``client.rules.powers``: ``words``, its ``{cards}`` filled
  with the table's cards), the rules page's list of powers (``protocol.rules``) and the
  "Power cards" section of docs/rules.md (``markdown``; a test keeps it current).

A new power is its declaration here, its rule code (``resolve``/``legality`` reading
``pt.NAME``) and its test. The powers with a syntax of their own (``pickup`` counts,
``stack`` and ``cancel`` rules, ``together``, ``no_end``, ``red_jacks_add``) keep their
own options in ``engine.shedding.rules``.

>>> POWERS_BY_NAME["skip"].words.format(cards="an eight")
'an eight makes the next player miss his turn'
>>> POWERS_BY_NAME["skip"].brief
'skip: the next player misses his turn.'
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Power:
    """One power a card may carry (see the module's docstring for where each part goes)."""

    #: the option that binds it to cards, the face's flag and the lookup's attribute
    name: str
    #: how docs/rules.md and the rules page head it
    title: str
    #: the option's help: which cards it binds
    doc: str
    #: the power at a table, as a sentence; ``{cards}`` stands for its cards in words
    words: str
    #: what it does, as docs/rules.md says it (markdown); its first sentence is the brief
    rule: str
    #: the house version it comes from, if one
    source: str = ""

    @property
    def brief(self) -> str:
        """One line for the rules page: ``skip: the next player misses his turn.``"""
        first = self.rule.split(". ")[0].rstrip(".") + "."
        return f"{self.title[0].lower()}{self.title[1:]}: {first[0].lower()}{first[1:]}"

    def markdown(self) -> str:
        """Its bullet in docs/rules.md's "Power cards", wrapped as the docs are."""
        where = ", ".join([f"`{self.name}`", *([self.source] if self.source else [])])
        text = f"- **{self.title}** ({where}). {self.rule}"
        return textwrap.fill(text, 100, subsequent_indent="  ", break_on_hyphens=False)


POWERS: tuple[Power, ...] = (
    Power(
        "skip",
        "Skip",
        "cards that make the next player miss his turn",
        "{cards} makes the next player miss his turn",
        "The next player misses his turn. Where skips chain, he may instead lay a card of"
        " the same rank to pass the skip on, or `pass` to take it.",
    ),
    Power(
        "miss",
        "Miss N turns",
        "cards the next player must match or miss a turn per card laid",
        "{cards} makes the next player lay the same rank or miss a turn for each one laid",
        "The next player must lay the same rank (the count grows by one per card laid) or"
        " `pass`: that turn is the first he misses, and his next N-1 turns are missed too.",
        "Jacks Twos and Eights",
    ),
    Power(
        "reverse",
        "Reverse",
        "cards that reverse the direction (2 players: play again)",
        "{cards} reverses the direction of play (with 2 players, its player plays again)",
        "The direction changes, once per reversing card laid. With two players left, the"
        " player who reversed plays again.",
    ),
    Power(
        "wild",
        "Wild",
        "cards that may be played on anything",
        "{cards} may be played on anything",
        "The card may be laid on anything, whatever the top of the pile; other cards only"
        " where they match.",
    ),
    Power(
        "nominate",
        "Nominate",
        "cards whose player names the suit to follow",
        "{cards} names the suit to follow",
        "The player names a suit (`suit hearts`), which the next player must follow (or lay"
        " a card of the nominating card's rank, or a wild card).",
    ),
    Power(
        "go_on",
        "Go on",
        "nominating cards after which their player may go on laying the named suit",
        "after {cards}, its player may go on laying the suit he named",
        "After naming the suit the same player may go on: he lays cards that follow the suit"
        " he named (any play that would be legal on it), or `pass`es to end his go; he may"
        " not draw. He may also lay it all as one play: after such a card, the next card of"
        " the play may be anything, and its suit is the suit he names (`play JD 6H 7H` is"
        " `play JD`, `suit hearts`, `play 6H 7H`). A card that also does something to the"
        " next player (a pick-up, a skip, a reverse) only names the suit.",
        "Jacks Twos and Eights' jack",
    ),
    Power(
        "cover",
        "Must cover",
        "cards their player must cover with another play, or draw",
        "{cards} must be covered by its player with another play, or he draws",
        "The same player must play again on it, or draw (and his turn ends).",
    ),
    Power(
        "suit_run",
        "Play the rest of the suit",
        "cards that let their player lay other cards of their suit",
        "{cards} lets its player lay the other cards of its suit with it",
        "The card may be followed, in the same play, by any of the player's other cards of"
        " its suit, in any order.",
        "Black Jack's seven",
    ),
    Power(
        "swap",
        "Swap hands",
        "cards that swap their player's hand with the player to his left",
        "{cards} swaps its player's hand with the hand of the player to his left",
        "After laying it, the player swaps hands with the player on his left; only the two of"
        " them see the hands they now hold.",
        "GameBot's black queen",
    ),
)

#: The powers by name.
POWERS_BY_NAME: dict[str, Power] = {p.name: p for p in POWERS}
#: Their names, in the order declared: each an option, a face's flag, a lookup attribute.
NAMES: tuple[str, ...] = tuple(POWERS_BY_NAME)


def markdown() -> str:
    """docs/rules.md's bullets of the declared powers, in the order declared."""
    return "\n".join(p.markdown() for p in POWERS) + "\n"
