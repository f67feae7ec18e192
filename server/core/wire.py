"""The server's side of the message model: how tables and the lobby say things.

Tables speak through these few functions so that they hold no wire details:
each builds a ``protocol.messages`` message, which the connection encodes with
its client's codec. Table ids are integers inside the server and words
(their decimal digits) on the wire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from protocol import messages as m
from protocol.legal import choices, must
from protocol.payloads import NoView, View
from protocol.table_lines import (
    START_WAITING,
    clock_warning_text,
    pile_text,
    presence_text,
    result_text,
    waiting_text,
    watcher_text,
)
from server.core.records import Page

Message = m.Message
# The makers of the messages made on every action, called straight (``trusted_maker``).
_ok = m.Ok.trusted_maker()
_event = m.TableEvent.trusted_maker()
_turn = m.Turn.trusted_maker()
#: the clock's warning, the same words every time: composed once
_WARNING = clock_warning_text()


def table_word(table: int) -> str:
    return str(table)


def ok(req: int | None, table: int | None = None, text: str = "") -> Message:
    if not text:  # an action's acknowledgement: nothing in it the server did not make
        return _ok(table=None if table is None else table_word(table), id=req)
    return m.Ok(table=None if table is None else table_word(table), text=text, id=req)


def error(req: int | None, code: str, text: str, table: int | None = None) -> Message:
    return m.Error(
        code=code,
        text=m.clean_text(text)[:1000],
        table=None if table is None else table_word(table),
        id=req,
    )


def seated(req: int | None, table: int, seat: int, token: str) -> Message:
    return m.Seated(table=table_word(table), seat=seat, token=token, id=req)


def snapshot(
    table: int,
    seq: int,
    seat: int | None,
    state: str,
    view: View | None,
    legal: list[str],
    players: list[str | None],
    master: str | None,
    req: int | None = None,
    clock: float | None = None,
    ruleset: str | None = None,
    again: tuple[int, ...] = (),
    names: Sequence[str | None] = (),
) -> Message:
    """What ``seat`` may see of the table, with its legal actions in words
    (``protocol.legal``: what it must answer, and the actions grouped and labelled) and
    the table's lines (``protocol.table_lines``), its seats named as ``names`` says."""
    to_act = view.get("to_act") if view else None
    if state == "waiting":
        said: str | None = START_WAITING
    else:
        said = waiting(seat, to_act, names) if view and not view.get("over") else None
    return m.Snapshot(
        table=table_word(table),
        seq=seq,
        state=state,
        view=view or NoView(),
        seat=seat,
        legal=tuple(legal),
        players=tuple(players),
        master=master,
        clock=clock,
        must=must(view, legal) if legal else None,
        choices=choices(legal),
        ruleset=ruleset,
        again=again,
        waiting=said,
        pending_text=pile_text(view) if view else None,
        clock_warning=warning(seat, to_act, clock),
        result_text=result_text(view, names, ended=state == "over") if view else None,
        id=req,
    )


def event(table: int, seq: int, presented: Mapping[str, Any], text: str | None = None) -> Message:
    """An engine event as presented to one audience, with its sentence for that audience
    (composed when it happened): built unchecked (``trusted``), as it is made for every
    seat on every action from what the engine and table made: a ``GameEvent`` of the
    table's family (``protocol.payloads``) as the family declares it, which
    ``Event.present`` makes as a plain map."""
    return _event(table=table_word(table), seq=seq, event=presented, text=text)


def worded_event(
    word: str, seq: int, presented: Mapping[str, Any], text: str | None = None
) -> Message:
    """``event`` at the table whose word (``table_word``) is ``word``: a table's delivery
    keeps its word, rather than writing its number out for every message of every
    action."""
    return _event(table=word, seq=seq, event=presented, text=text)


def turn(
    table: int,
    seq: int,
    seat: int | None,
    to_act: int | None,
    legal: list[str],
    clock: float | None = None,
    view: View | None = None,
    names: Sequence[str | None] = (),
) -> Message:
    """Whose turn it is, for ``seat`` (``None``: a spectator), with its view and its legal
    actions in words (``protocol.legal``) and the table's lines (``protocol.table_lines``:
    whom it waits for, named as ``names`` says, and what the pile asks): ``lined_turn``
    with the lines composed for this turn alone."""
    pile = pile_text(view) if view else None
    said = waiting(None, to_act, names)
    return lined_turn(table_word(table), seq, seat, to_act, legal, clock, view, said, pile)


class TurnLines:
    """The table's lines of one batch of turns (every seat's and the spectators', on one
    action), composed once for them all: whom the table waits for (``waiting``: the same
    words to everyone but the seat to act, ``waiting(None, ...)``) and what the pile asks
    (``pile``, set by ``set_pile`` from the first view of the batch: it reads only the
    view's public fields, ``protocol.table_lines.PILE_FIELDS``, on which every seat's
    view and the spectators' agree)."""

    __slots__ = ("pile", "piled", "waiting")

    def __init__(self, waiting_line: str | None) -> None:
        self.waiting = waiting_line  #: whom the table waits for (``None``: nobody)
        self.pile: str | None = None  #: what the pile asks, once ``piled``
        self.piled = False

    def set_pile(self, view: View | None) -> str | None:
        """The pile's line, from ``view`` (``None``: no game), kept for the batch."""
        self.pile = pile_text(view) if view else None
        self.piled = True
        return self.pile


def lined_turn(
    word: str,
    seq: int,
    seat: int | None,
    to_act: int | None,
    legal: list[str],
    clock: float | None,
    view: View | None,
    waiting_line: str | None,
    pile: str | None,
) -> Message:
    """``turn`` at the table whose word is ``word`` (``table_word``, kept by its delivery),
    with the table's lines already composed (``TurnLines``): ``waiting_line``, said to
    every seat but the one to act, and ``pile``. Built unchecked (``trusted``),
    as it is made for every seat on every action from what the engine and the table
    made."""
    said = None if seat == to_act else waiting_line
    if not legal:  # most turns: a seat waiting, a spectator
        return _turn(
            table=word,
            seq=seq,
            seat=seat,
            to_act=to_act,
            clock=clock,
            view=view,
            waiting=said,
            pending_text=pile,
        )
    return _turn(
        table=word,
        seq=seq,
        seat=seat,
        to_act=to_act,
        legal=tuple(legal),
        clock=clock,
        view=view,
        must=must(view, legal),
        choices=choices(legal),
        waiting=said,
        pending_text=pile,
        clock_warning=_WARNING
        if clock is not None and seat is not None and seat == to_act
        else None,
    )


def waiting(seat: int | None, to_act: int | None, names: Sequence[str | None]) -> str | None:
    """Whom the table waits for, said to all but him (``None``: nobody, or him)."""
    if to_act is None or to_act == seat or not 0 <= to_act < len(names):
        return None
    name = names[to_act]
    return None if name is None else waiting_text(name)


def warning(seat: int | None, to_act: int | None, clock: float | None) -> str | None:
    """The clock's warning, for the seat to act while its clock runs."""
    return _WARNING if clock is not None and seat is not None and seat == to_act else None


def talk(table: int, name: str, text: str) -> Message:
    return m.Talk(table=table_word(table), name=name, text=text)


def presence(table: int, seat: int, name: str, what: str, *, playing: bool) -> Message:
    """A seated player's coming or going, in words for a table whose game runs or not."""
    text = presence_text(name, what, playing=playing)
    return m.Presence(table=table_word(table), seat=seat, name=name, what=what, text=text)


def watcher(table: int, what: str, name: str | None, watching: int) -> Message:
    text = watcher_text(name, what, watching)
    return m.Watcher(table=table_word(table), what=what, name=name, watching=watching, text=text)


def record(req: int | None, table: int, page: Page, game: int) -> Message:
    return m.Record(
        table=table_word(table),
        record=page.record,
        full=page.full,
        start=page.start,
        next=page.next,
        total=page.total,
        game=game,
        id=req,
    )


def notice(text: str, shutdown_in: int | None = None, *, table: int | None = None) -> Message:
    """A notice; ``table`` is the table it is about (None: the whole server's)."""
    return m.Notice(
        text=m.clean_text(text),
        shutdown_in=shutdown_in,
        table=None if table is None else table_word(table),
    )


def goodbye(code: str, text: str = "", req: int | None = None) -> Message:
    """The last message; ``req`` is the id of the ``quit`` it answers, if any."""
    return m.Goodbye(code=code, text=m.clean_text(text), id=req)
