"""Completion for the command line: commands, the actions legal now, and card names.

The candidates come from what the client knows at the moment of the key press
(``ClientState`` and the table on screen), so the completion never offers an
action the server would refuse: after ``play`` it offers exactly the cards
that begin a legal play (the whole hand while it is not our turn), after
``move`` the squares the piece may reach, after ``join`` the tables.

>>> from client.net.state import ClientState, TableState
>>> st = ClientState(); t = st.table("t1")
>>> t.legal = ("play QH", "play QH QS", "draw"); t.view = {"hand": ["QH", "QS", "2C"]}
>>> [c for c, _ in candidates("pl", st, "t1")]
['play']
>>> [c for c, _ in candidates("play ", st, "t1")]
['QH']
>>> [c for c, _ in candidates("play QH ", st, "t1")]
['QS', 'last']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from client.net.state import ClientState, TableState
from client.terminal.commands import COMMANDS, MASTER_COMMANDS, TABLE_COMMANDS, summary
from engine.strategies import strategies
from engine.views import hand_of

SUITS = ("clubs", "diamonds", "hearts", "spades")


def _dedupe(items: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out = []
    for text, meta in items:
        if text.lower() not in seen:
            seen.add(text.lower())
            out.append((text, meta))
    return out


def candidates(before: str, state: ClientState, table: str | None) -> list[tuple[str, str]]:
    """(word, meta) pairs completing the last word of ``before`` (the text left of the cursor)."""
    words = before.split()
    prefix = words.pop() if before and not before[-1].isspace() else ""
    t = state.tables.get(table) if table else None
    if not words:
        out = _first_words(state, t)
    else:
        out = _legal_next(words, t)
        argument = _ARGUMENTS.get(words[0].lower())
        if argument is not None:
            out += argument(words, state, t, table)
    low = prefix.lower()
    return _dedupe((c, m) for c, m in out if c.lower().startswith(low))


def _first_words(state: ClientState, t: TableState | None) -> list[tuple[str, str]]:
    """The verbs legal now, then the commands this screen offers."""
    legal = list(t.legal) if t else []
    out = [(a.split()[0], "legal now") for a in legal if a.split()]
    names = [*TABLE_COMMANDS, *COMMANDS] if t else list(COMMANDS)
    if t and t.master is not None and t.master == state.name:
        names += MASTER_COMMANDS
    return out + [(c, summary(c)) for c in names]


def _legal_next(words: list[str], t: TableState | None) -> list[tuple[str, str]]:
    """The next word of each legal action that begins with ``words``."""
    verb = words[0].lower()
    done = [w.upper() if verb == "play" else w.lower() for w in words[1:]]
    out = []
    for action in t.legal if t else ():
        parts = action.split()
        if parts[0] != verb or len(parts) <= len(words):
            continue
        if [p.upper() if verb == "play" else p.lower() for p in parts[1 : len(words)]] == done:
            out.append((parts[len(words)], "legal now"))
    return out


Arguments = Callable[
    [list[str], ClientState, "TableState | None", "str | None"], list[tuple[str, str]]
]


def _play(
    words: list[str], state: ClientState, t: TableState | None, table: str | None
) -> list[tuple[str, str]]:
    if not (t and t.view):
        return []
    if len(words) > 1:
        return [("last", "announce last card")]
    if any(a.startswith("play ") for a in t.legal):
        return []
    # Not our turn: let a person type ahead from the hand.
    return [(c, "in hand") for c in hand_of(t.view) or []]


def _bot(
    words: list[str], state: ClientState, t: TableState | None, table: str | None
) -> list[tuple[str, str]]:
    if len(words) != 2 or not t:
        return []
    # Before the deal the view is empty: the lobby's row names the family.
    row = next((x for x in state.lobby if x["table"] == table), None)
    family = t.family or (row["family"] if row else None)
    return [(name, "strategy") for name in strategies(str(family))] if family else []


def _suit(
    words: list[str], state: ClientState, t: TableState | None, table: str | None
) -> list[tuple[str, str]]:
    return [(s, "") for s in SUITS] if len(words) == 1 else []


def _tables(
    words: list[str], state: ClientState, t: TableState | None, table: str | None
) -> list[tuple[str, str]]:
    if len(words) != 1:
        return []
    return [(x["table"], x["ruleset"]) for x in state.lobby]


def _create(
    words: list[str], state: ClientState, t: TableState | None, table: str | None
) -> list[tuple[str, str]]:
    """The games, then their seat counts, then their options."""
    if len(words) == 1:
        return [(r["name"], r["summary"][:40]) for r in state.rulesets]
    rs = next((r for r in state.rulesets if r["name"] == words[1]), None)
    if rs is None:
        return []
    if len(words) == 2:
        lo, hi = rs["min_seats"], rs["max_seats"]
        return [(str(n), "seats") for n in range(lo, hi + 1)]
    return [(f"{opt['name']}=", f"default {opt['default']}") for opt in rs["options"]]


def _help(
    words: list[str], state: ClientState, t: TableState | None, table: str | None
) -> list[tuple[str, str]]:
    if len(words) != 1:
        return []
    return [(c, "") for c in [*COMMANDS, *TABLE_COMMANDS, *MASTER_COMMANDS]]


#: What follows a command's name: its arguments, by what the client knows now.
_ARGUMENTS: dict[str, Arguments] = {
    "play": _play,
    "bot": _bot,
    "suit": _suit,
    "join": _tables,
    "watch": _tables,
    "record": _tables,
    "replay": _tables,
    "create": _create,
    "help": _help,
}


class CommandCompleter(Completer):
    """A prompt_toolkit completer over ``candidates`` for the table on screen."""

    def __init__(self, state: ClientState, current_table: Callable[[], str | None]) -> None:
        self.state = state
        self.current_table = current_table

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterator[Completion]:
        before = document.text_before_cursor
        word = "" if not before or before[-1].isspace() else before.split()[-1]
        for text, meta in candidates(before, self.state, self.current_table()):
            yield Completion(text, start_position=-len(word), display_meta=meta)
