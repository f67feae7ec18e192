"""What the server does with each message a client sends: one handler per type.

Handlers are functions of the ``ClientSession`` that received the message; they
answer through ``session.deliver`` and hand table work to the table's task
(``table.submit``). ``HANDLERS`` is one table for every session (a per-session
dict of bound methods would cost 2 KB each); anything else a client sends gets
``not_allowed``. A handler never asks which binding the session speaks: what
differs per binding is a property of ``session.binding`` (``person``,
``page_budget``, ``focus``).

Grouped by what they serve: the connection itself, the lobby, a table, and the
players' and operators' requests (which ``server.operators.ops`` and
``server.players.profile_requests`` answer).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

import engine
from protocol import messages as m
from protocol.commands import Situation, help_lines
from protocol.fields import TableState
from protocol.state import negotiate
from server.core import commands as cmd
from server.core import wire
from server.core.limits import TokenBucket, Verdict, clean_text, fold_name
from server.operators.admin import ADMIN_TYPES
from server.store.base import StoreError
from server.tables import room
from server.tables.lobby import LobbyError
from server.transport import lookback, replays
from server.transport.errors import Closing, ConnectionLost
from server.transport.session import ClientSession
from server.transport.tournament_requests import TOURNAMENT_HANDLERS

if TYPE_CHECKING:
    from server.tables.table import Table

log = logging.getLogger("switchboard.connection")

Handler = Callable[[ClientSession, Any], Awaitable[None]]


async def handle(session: ClientSession, message: m.Received) -> None:
    """Admit, check and handle one message from the client: the shell calls this for
    each message, in order. ``Closing`` out of it: stop reading, close politely."""
    session.last_message = trio.current_time()
    ops = session.ops
    if ops is not None and (verdict := ops.admit(message)) is not Verdict.OK:
        if verdict is Verdict.DROP:  # flooding: told goodbye; stop reading
            raise Closing
        return  # over the request rate: refused
    refusal = session.protocol.receive(message)
    if refusal is not None:
        session.deliver(refusal)
        if session.awaiting_hello:
            session.handshake_refused()
        return
    # The session refused an unknown or invalid message above: ``message`` is a Message
    # here, which mypy does not narrow from ``m.Received`` through that call.
    handler = HANDLERS.get(type(message))  # type: ignore[arg-type]
    if handler is None:
        session.not_served(message)  # type: ignore[arg-type]
        return
    try:
        await handler(session, message)
    except (Closing, ConnectionLost, trio.Cancelled):
        raise
    # A Message (above), so it has an ``id``.
    except StoreError:  # disk full ...: nothing was done; the store logged it once
        text = "the server could not store that"
        session.deliver(wire.error(message.id, "store_failed", text))  # type: ignore[union-attr]
    except Exception:  # a bug must cost one reply, not the server
        log.exception("connection %s: %s failed", session.id, message.type)
        text = "the server failed on that request"
        session.deliver(wire.error(message.id, "internal", text))  # type: ignore[union-attr]


# ------------------------------------------------------------- the connection
async def hello(session: ClientSession, msg: m.Hello) -> None:
    reply = negotiate(msg, server="switchboard")
    session.deliver(reply)
    if isinstance(reply, m.Error):
        session.handshake_refused()


async def ping(session: ClientSession, msg: m.Ping) -> None:
    session.deliver(m.Pong(id=msg.id))


async def quit_(session: ClientSession, msg: m.Quit) -> None:
    session.deliver(wire.goodbye("quit", "goodbye", msg.id))
    raise Closing


async def help_(session: ClientSession, msg: m.Help) -> None:
    lines = help_lines(msg.topic, _situation(session))
    session.deliver(m.HelpText(lines=tuple(lines), topic=msg.topic, id=msg.id))


def _situation(session: ClientSession) -> Situation:
    """Where the session stands, for ``help``: its name, and the table it sits at (else
    one it watches), with its seat, the table's state, the master and its legal actions."""
    lobby = session.services.lobby
    best: tuple[Any, int | None] | None = None
    for table_id in sorted(session.tables):
        table = lobby.get(table_id)
        if table is None:
            continue
        seat = next((i for i, s in enumerate(table.seats) if s.member is session), None)
        if best is None or (best[1] is None and seat is not None):
            best = (table, seat)
    if best is None:
        return Situation(named=session.name is not None)
    table, seat = best
    legal: tuple[str, ...] = ()
    if seat is not None and table.game is not None and table.state == TableState.PLAYING:
        legal = tuple(str(a) for a in table.game.legal_actions(seat))
    master = session.name is not None and session.name == table.master
    return Situation(
        named=session.name is not None,
        table=wire.table_word(table.id),
        seat=seat,
        state=str(table.state),
        master=master,
        legal=legal,
    )


async def claim_name(session: ClientSession, msg: m.ClaimName) -> None:
    ops = session.ops
    if ops is not None and (why := ops.refuse_name(msg.name)) is not None:
        session.deliver(wire.error(msg.id, "banned", why))
        raise Closing
    renaming = session.name is None or fold_name(msg.name) != fold_name(session.name)
    if renaming and session.holds_a_seat() and not session.seats_are(msg.name):
        # Every message to this session goes to the name it has: a seat's hand must
        # not flow on to a second name (one hand to a person, server.tables.seating).
        # A connection that resumed its seats before claiming a name may claim theirs.
        why = "leave your seat before you claim another name"
        session.deliver(wire.error(msg.id, "not_allowed", why))
        return
    result = await session.services.accounts.claim(msg.name, msg.secret, session.peer)
    if not result.ok:
        session.deliver(wire.error(msg.id, result.code, result.reason))
        return
    if ops is not None:
        await ops.named(result.name)  # a new name's chips
    session.name = result.name
    session.deliver(m.Named(name=result.name, id=msg.id))
    _tell_seats_held(session)


def _seats_held(session: ClientSession) -> list[tuple[Table, int]]:
    """The tables where the session's name holds a seat another connection of his (or
    none: he was gone) sits in, with the seat, by table."""
    lobby, name = session.services.lobby, session.name
    return [
        (table, i)
        for _id, table in sorted(lobby.tables.items())
        for i, seat in enumerate(table.seats)
        if name is not None and seat.name == name and seat.member is not session
    ]


def _tell_seats_held(session: ClientSession) -> None:
    """A person at ``nc`` who claims back his name (after a lost connection, a server
    restart) is told where it sits, and the first such table becomes his current one, so
    ``back`` (or ``look``) sits him there again. A program asks the lobby's list."""
    binding = session.binding
    held = _seats_held(session)
    if binding is None or not binding.person or not held:
        return
    binding.focus(held[0][0].id)
    places = ", ".join(f"table {t.id} ({t.ruleset}, {t.state})" for t, _seat in held)
    if len(held) == 1:
        text = f"your name holds a seat at {places}: back sits you there again"
    else:
        back = f"back {held[0][0].id} (or back TABLE)"
        text = f"your name holds seats at {places}: {back} sits you there again"
    session.deliver(wire.notice(text))


# ------------------------------------------------------------------ the lobby
async def list_rulesets(session: ClientSession, msg: m.ListRulesets) -> None:
    described = [rs.describe() for rs in engine.all_rulesets()]
    session.deliver(m.Rulesets(rulesets=tuple(described), id=msg.id))


async def list_tables(session: ClientSession, msg: m.ListTables) -> None:
    """A page of the lobby's listing (``lobby_page`` tables at most, the waiting ones
    first; each page built, checked and packed once, shared until a table changes), so
    that what a crowd of askers costs grows with a page, not with the lobby; rationed:
    ``lobby_burst`` then ``lobby_per_second`` a connection, within its address's lobby
    budget (``lobby_address_*``, a token for each 100 tables listed; trusted addresses
    have none)."""
    lobby, config, now = session.services.lobby, session.config, trio.current_time()
    count = config.lobby_page if msg.count is None else min(msg.count, config.lobby_page)
    if session.listings is None:
        session.listings = TokenBucket(config.lobby_per_second, config.lobby_burst)
    if not session.listings.take(now):
        wait = session.listings.wait_time(now)
        text = f"you are asking for the lobby too fast; wait {wait:.1f} s"
    elif not lobby.budgets.lobby.take(session.peer, now, cost := lobby.listing_cost(count)):
        wait = lobby.budgets.lobby.wait_time(session.peer, now, cost)
        text = f"too many lobby listings from your address; wait {wait:.1f} s"
    else:
        page, total = lobby.page(msg.start, count)
        after = msg.start + len(page)
        more = after if after < total and page else None
        reply = m.Tables.trusted(tables=page, start=msg.start, next=more, total=total, id=msg.id)
        session.deliver(reply)
        return
    session.deliver(wire.error(msg.id, "rate_limited", text))


async def create_table(session: ClientSession, msg: m.CreateTable) -> None:
    if session.name is None:
        session.deliver(wire.error(msg.id, "need_name", "claim a name to create a table"))
        return
    if session.ops is not None and (why := session.ops.refuse_table()) is not None:
        session.deliver(wire.error(msg.id, "too_many_tables", why))
        return
    try:
        table = await session.services.lobby.create(
            msg.ruleset, msg.seats, dict(msg.options), session.name, address=session.peer
        )
    except LobbyError as exc:
        session.deliver(wire.error(msg.id, exc.code, str(exc)))
        return
    binding = session.binding
    if binding is None or not binding.person:
        session.deliver(wire.ok(msg.id, table.id, f"table {table.id} is open: {msg.ruleset}"))
        return
    # A person who types "create switch 4" then "start" means the new table, and sits
    # at it, as the terminal client's create does: the new table becomes the current
    # one, and its creator takes a seat.
    binding.focus(table.id)
    text = f"table {table.id} is open: {msg.ruleset}; you sit down at it"
    session.deliver(wire.ok(msg.id, table.id, text))
    session.tables.add(table.id)
    await table.submit(cmd.Join(session, None, None))


# ------------------------------------------------------------------- a table
def _table(session: ClientSession, msg: Any) -> Table | None:
    """The table ``msg`` names, or None (the client is told there is none)."""
    table = session.services.lobby.get(msg.table)
    if table is None:
        session.deliver(wire.error(msg.id, "no_table", f"there is no table {msg.table}"))
    return table


def _enter(session: ClientSession, msg: Any) -> Table | None:
    """The table ``msg`` names, if the session may be at it as well as where it is
    (``tables_at_per_connection``, ``tables_at_per_address``: ``room.At``), else None (the
    client is told why)."""
    if (table := _table(session, msg)) is None:
        return None
    services = session.services
    why = services.room.at.refuse(session, table.id, services.config, services.lobby)
    if why is not None:
        session.deliver(wire.error(msg.id, "too_many_tables", why, table.id))
        return None
    session.tables.add(table.id)
    return table


async def join(session: ClientSession, msg: m.Join) -> None:
    if (table := _enter(session, msg)) is not None:
        await table.submit(cmd.Join(session, msg.id, msg.seat))


async def spectate(session: ClientSession, msg: m.Spectate) -> None:
    if (table := _enter(session, msg)) is not None:
        if not any(seat.member is session for seat in table.seats):
            session.tokens.pop(table.id, None)  # seated there, he stays seated (the table)
        await table.submit(cmd.Watch(session, msg.id, msg.last_seq))


async def look(session: ClientSession, msg: m.Look) -> None:
    """The table again; at a table where the name holds a seat nobody sits in (he lost
    the connection, the server restarted), that seat again, as ``join`` takes it."""
    if (table := _table(session, msg)) is None:
        return
    name = session.name
    if name is not None and any(s.name == name and s.member is None for s in table.seats):
        await join(session, m.Join(table=msg.table, id=msg.id))
        return
    await table.submit(cmd.Look(session, msg.id))


async def resume(session: ClientSession, msg: m.Resume) -> None:
    if (table := _enter(session, msg)) is not None:
        await table.submit(cmd.Resume(session, msg.id, msg.token, msg.last_seq))


async def leave(session: ClientSession, msg: m.Leave) -> None:
    if (table := _table(session, msg)) is not None:
        session.tables.discard(table.id)
        session.tokens.pop(table.id, None)
        await table.submit(cmd.Leave(session, msg.id))


async def act(session: ClientSession, msg: m.Act) -> None:
    if (table := _table(session, msg)) is not None:
        token = session.tokens.get(table.id)
        if token is None:
            session.deliver(wire.error(msg.id, "no_seat", "you hold no seat there", table.id))
            return
        await table.submit(cmd.Act(session, msg.id, token, msg.action))


async def say(session: ClientSession, msg: m.Say) -> None:
    if (table := _table(session, msg)) is None:
        return
    text = clean_text(msg.text, session.config.talk_max_chars)
    if not text:
        session.deliver(wire.error(msg.id, "bad_message", "say something", table.id))
        return
    if not session.talk.take(trio.current_time()):
        session.deliver(wire.error(msg.id, "rate_limited", "you are talking too fast", table.id))
        return
    await table.submit(cmd.Talk(session, msg.id, text))


# ------------------------------------------------------------------- the room
async def who(session: ClientSession, msg: m.Who) -> None:
    """Who is online. A reply walks every connection on the event loop, so it is rationed
    as a lobby listing is: ``lobby_burst`` then ``lobby_per_second`` a connection, within
    its address's lobby budget (``lobby_address_*``; trusted addresses have none)."""
    services = session.services
    config, now = services.config, trio.current_time()
    if session.who is None:
        session.who = TokenBucket(config.lobby_per_second, config.lobby_burst)
    if not session.who.take(now) or not services.lobby.budgets.lobby.take(session.peer, now):
        session.deliver(wire.error(msg.id, "rate_limited", "you are asking who too fast"))
        return
    limit = config.who_max
    # a connection still before its hello (a browser fetching a page) is nobody yet
    present = [s for s in services.connections if not s.awaiting_hello]
    session.deliver(room.people(present, services.lobby, limit, now, msg.id))


async def shout(session: ClientSession, msg: m.Shout) -> None:
    config = session.config
    if not config.shout:
        session.deliver(wire.error(msg.id, "not_allowed", "shouts are off on this server"))
        return
    if session.name is None:  # the state table asks for a name first; this is its guard
        session.deliver(wire.error(msg.id, "need_name", "claim a name to shout"))
        return
    text = clean_text(msg.text, config.talk_max_chars)
    if not text:
        session.deliver(wire.error(msg.id, "bad_message", "shout something"))
        return
    now = trio.current_time()
    if session.talk.wait_time(now) > 0:
        session.deliver(wire.error(msg.id, "rate_limited", "you are talking too fast"))
        return
    # the room first: a shout it refuses (its address's budget, or the server's) costs
    # the sender none of his talk
    if (busy := session.services.room.refuse_shout(config, session.peer, now)) is not None:
        session.deliver(wire.error(msg.id, "rate_limited", busy))
        return
    session.talk.take(now)
    session.deliver(wire.ok(msg.id))
    session.services.room.relay(session.services.connections, session.name, text)


async def hear_shouts(session: ClientSession, msg: m.HearShouts) -> None:
    session.hears_shouts = msg.on
    said = "you hear the room's shouts" if msg.on else "you hear no shouts (shouts on: again)"
    session.deliver(wire.ok(msg.id, None, said))


async def start_game(session: ClientSession, msg: m.StartGame) -> None:
    if (table := _table(session, msg)) is not None:
        await table.submit(cmd.Start(session, msg.id, msg.absent))


async def play_again(session: ClientSession, msg: m.PlayAgain) -> None:
    if (table := _table(session, msg)) is not None:
        await table.submit(cmd.Again(session, msg.id))


async def get_record(session: ClientSession, msg: m.GetRecord) -> None:
    if (table := _table(session, msg)) is None:
        return
    if session.records is None:
        config = session.config
        session.records = TokenBucket(config.record_per_second, config.record_burst)
    now, shared = trio.current_time(), session.services.lobby.budgets.records
    if not session.records.take(now):
        text = "you are asking for records too fast"
        session.deliver(wire.error(msg.id, "rate_limited", text, table.id))
        return
    if not shared.take(session.peer, now):  # all of its address's connections together
        wait = shared.wait_time(session.peer, now)
        text = f"too many records asked for from your address; wait {wait:.1f} s"
        session.deliver(wire.error(msg.id, "rate_limited", text, table.id))
        return
    budget = None if session.binding is None else session.binding.page_budget
    await table.submit(cmd.Export(session, msg.id, msg.start, budget))


async def master(session: ClientSession, msg: Any) -> None:
    """A game-master command (``server.core.commands.MasterCommand``), for the table."""
    if (table := _table(session, msg)) is not None:
        await table.submit(cmd.master_command(session, msg))


# ---------------------------------------------------- players and operators
async def chips(session: ClientSession, msg: m.GetChips) -> None:
    if session.ops is None:  # a server without chips
        session.not_served(msg)
    else:
        await session.ops.chips(msg)


async def admin(session: ClientSession, msg: m.Message) -> None:
    if session.ops is None:  # a server without operators
        session.not_served(msg)
    else:
        await session.ops.admin(msg)


async def players(session: ClientSession, msg: m.Message) -> None:
    """A profile, a history page or the leaderboard (``server.players.profile_requests``)."""
    if session.ops is None:  # a server without profiles
        session.not_served(msg)
    else:
        await session.ops.profile_requests.handlers()[type(msg)](msg)


#: The handler of each message type a client may send.
HANDLERS: dict[type[m.Message], Handler] = {
    m.Hello: hello,
    m.Ping: ping,
    m.Quit: quit_,
    m.Help: help_,
    m.ClaimName: claim_name,
    m.ListRulesets: list_rulesets,
    m.ListTables: list_tables,
    m.CreateTable: create_table,
    m.Join: join,
    m.Spectate: spectate,
    m.Leave: leave,
    m.Resume: resume,
    m.Act: act,
    m.Say: say,
    m.Look: look,
    m.Who: who,
    m.Shout: shout,
    m.HearShouts: hear_shouts,
    m.StartGame: start_game,
    m.PlayAgain: play_again,
    m.GetRecord: get_record,
    **dict.fromkeys(cmd.MASTER_MESSAGES, master),
    m.GetChips: chips,
    **dict.fromkeys(ADMIN_TYPES, admin),
    **dict.fromkeys((m.GetProfile, m.GetHistory, m.GetTop), players),
    **TOURNAMENT_HANDLERS,
    **lookback.HANDLERS,
    **replays.HANDLERS,
}
