"""A member's requests at a table: sit down (``join``), act (``act``: the table stores
what it takes), watch, look, resume a seat by its token, leave, talk, start the game, and
read its record.

A table (``server.tables.table.Table``) owns one ``MemberRequests`` and hands it these
commands from its loop, one at a time (``handle``). It decides who may sit where (one hand to a
person: ``server.tables.seating.Witnesses``), stores each change before it is
acknowledged, and keeps the result in the table's ``Seating``. It reaches the table
through ``Host`` (a protocol): the commit, the game master, the delivery, and the
table's own moves a request may lead to (a start when the table fills, an abandon or a
close when its last player leaves).
"""

from __future__ import annotations

from typing import Any, Protocol

import engine
from engine.described import GameRecord
from engine.events import Event
from engine.game import Game
from protocol.describe import seat_words
from protocol.fields import TableState
from server.core import records, wire
from server.core.commands import (
    Act,
    Again,
    Command,
    Detach,
    Export,
    Join,
    Leave,
    Look,
    Member,
    Resume,
    Start,
    Talk,
    Watch,
)
from server.core.config import ServerConfig
from server.players.accounts import new_token, token_hash
from server.store.base import HandShown, SeatSet, StoreError, TalkSaid, now
from server.tables import again
from server.tables.delivery import Delivery
from server.tables.events import SeatChanged, TableEvents
from server.tables.gamemaster import GameMaster
from server.tables.seating import Seating

NO_TOKEN = "that token holds no seat at this table"


class Host(Protocol):
    """The table as its seat requests see it (``server.tables.table.Table``)."""

    id: int
    family: str
    creator: str | None
    master: str | None
    game: Game | None
    game_no: int
    options: dict[str, Any]
    settings: dict[str, Any]
    seating: Seating
    gm: GameMaster
    out: Delivery
    events: TableEvents

    @property
    def state(self) -> TableState: ...

    @property
    def config(self) -> ServerConfig: ...

    def fill_unreplayed(self, since: int | None = None) -> None: ...

    def final_record(self) -> GameRecord: ...

    async def commit(self, *writes: Any) -> None: ...

    def touched(self) -> None: ...

    async def start(self, seed: int | None = None, ack: Any = None) -> None: ...

    async def abandon(self) -> None: ...

    async def close(self, reason: str) -> None: ...


Acted = tuple[int, list[Event]]


class MemberRequests:
    """What a table does for a member's ``join``, ``watch``, ``look``, ``resume``,
    ``leave``, ``talk``, ``start`` and ``export``, and for his connection's end."""

    def __init__(self, table: Host) -> None:
        self.table = table

    async def handle(self, command: Command) -> None:
        """Carry out ``command`` if it is one of a member's requests (else nothing)."""
        match command:
            case Join():
                await self.join(command)
            case Watch():
                self.watch(command)
            case Look():
                self.look(command)
            case Resume():
                self.resume(command)
            case Leave():
                await self.leave(command)
            case Detach():
                self.table.seating.dropped(command.member)
            case Talk():
                await self.talk(command)
            case Start():
                await self.start(command)
            case Again():
                await again.ask(self.table, command)
            case Export():
                self.export(command)

    def _choose(self, c: Join) -> tuple[int, None] | tuple[None, tuple[str, str]]:
        """The seat ``c`` may take, or the error code and text that say why none."""
        t, name = self.table, c.member.name
        seats, gm, witnesses = t.seating.seats, t.gm, t.seating.witnesses
        mine = [i for i, s in enumerate(seats) if s.name == name]
        free = [i for i, s in enumerate(seats) if s.name is None and not gm.reserved(i)]
        dealt = gm.running()  # one hand to a person from the deal on
        if name is None:
            return None, ("need_name", "claim a name before taking a seat")
        if mine:
            seat = mine[0]  # your name holds a seat here already: take it back, fresh token
        elif c.seat is None:
            if dealt:  # the seat this name was shown, else one it may be shown
                shown = witnesses.seat_for(c.member)
                free.sort(key=lambda i: i != shown)
                free = [i for i in free if witnesses.refusal(c.member, i, by_token=False)
                        is None] or free  # fmt: skip
            if not free:
                return None, ("table_full", "every seat is taken")
            seat = free[0]
        elif not 0 <= c.seat < len(seats):
            return None, ("no_seat", f"there is no {seat_words(c.seat)}")
        elif seats[c.seat].name is not None or gm.reserved(c.seat):
            return None, ("seat_taken", f"{seat_words(c.seat)} is taken")
        else:
            seat = c.seat
        if dealt:
            why = witnesses.refusal(c.member, seat, by_token=False)
            if why is not None:
                return None, ("other_hand", f"{why}; you may watch, or play in the next game")
        return seat, None

    async def join(self, c: Join) -> None:
        t = self.table
        seat, err = self._choose(c)
        if seat is None:
            assert err is not None
            c.member.deliver(wire.error(c.req, *err, table=t.id))
            return
        name = c.member.name
        assert name is not None
        seating, gm = t.seating, t.gm
        dealt = gm.running()
        mine = seating.seats[seat].name == name
        token = new_token()
        th = token_hash(token)
        # whoever sits down is not away; once dealt, he is shown the seat's hand for good
        shown = [HandShown(t.id, t.game_no, seat, name)] if dealt else []
        await t.commit(SeatSet(t.id, seat, name, th), *shown, *gm.back_writes(seat))
        gm.back(seat)
        old = seating.seats[seat].member
        if old is not None and old is not c.member:
            text = f"your seat at table {t.id} was taken up elsewhere"
            old.deliver(wire.notice(text, table=t.id))
        came_back = mine and old is None  # his own seat, while he was gone
        was = seating.seats[seat].name
        seating.sit(seat, name, th, c.member)
        if was != name:
            t.events.announce(SeatChanged(t.id, seat, name, was))
        if dealt:
            seating.witnesses.shown(c.member, seat)
        c.member.deliver(wire.seated(c.req, t.id, seat, token))
        if came_back:
            seating.presence(seat, "back")
        t.touched()
        if (
            t.settings.get("start_when_full")
            and t.state != TableState.PLAYING
            and (seating.all_named())
        ):
            await t.start()  # sends everyone a snapshot
        else:
            t.out.send_snapshots()

    def watch(self, c: Watch) -> None:
        """``c.member`` watches the table from now on. A seated player who asks to watch
        his own table stays in his seat (he is not made a spectator of his own game,
        whose seat token would stop working): he is told so and shown his seat."""
        t = self.table
        seat = t.seating.seat_of(c.member)
        if seat is not None:
            text = f"you sit in {seat_words(seat)} here: this is your seat (leave first to watch)"
            c.member.deliver_many([wire.ok(c.req, t.id, text), t.out.snapshot(seat)])
            return
        came = t.seating.watch(c.member)
        self._catch_up(c.member, None, c.since, c.req, answer=True)
        if came:
            t.seating.watcher(c.member, "came")

    def _catch_up(
        self,
        member: Member,
        seat: int | None,
        since: int | None,
        req: int | None = None,
        *,
        answer: bool = False,
    ) -> None:
        """Events after ``since`` from the ring if it still holds them all, else a snapshot
        (``Delivery.catch_up``); a restored game's events before its snapshot are made
        first if the ring would then reach back to ``since``."""
        if since is not None:
            try:
                self.table.fill_unreplayed(since)
            except StoreError:  # not readable now: a snapshot serves as well
                since = None
        self.table.out.catch_up(member, seat, since, req, answer=answer)

    def look(self, c: Look) -> None:
        """The table again, as ``c.member`` may see it: his seat's snapshot, or the
        spectators' (a person at ``nc`` who lost the position in his scrollback)."""
        t = self.table
        seat = t.seating.seat_of(c.member)
        if seat is None and c.member not in t.seating.spectators:
            text = f"you are not at table {t.id}: watch {t.id} shows it, join sits you"
            c.member.deliver(wire.error(c.req, "not_member", text, t.id))
            return
        c.member.deliver(t.out.snapshot(seat, c.req))

    def resume(self, c: Resume) -> None:
        t = self.table
        seating = t.seating
        seat = seating.seat_for_token(c.token)
        if seat is None:
            c.member.deliver(wire.error(c.req, "bad_token", NO_TOKEN, t.id))
            return
        if t.gm.running():
            why = seating.witnesses.refusal(c.member, seat, by_token=True)
            if why is not None:
                c.member.deliver(wire.error(c.req, "other_hand", why, t.id))
                return
            seating.witnesses.shown(c.member, seat)
        old = seating.seats[seat].member
        if old is not None and old is not c.member:
            text = f"your seat at table {t.id} was resumed elsewhere"
            old.deliver(wire.notice(text, table=t.id))
        seating.connect(seat, c.member)
        c.member.deliver(wire.seated(c.req, t.id, seat, c.token))
        self._catch_up(c.member, seat, c.since)
        if old is None:  # he came back
            seating.presence(seat, "back")

    async def act(self, c: Act) -> Acted | None:
        """A seat's action applied to the game: the seat and the events (the table stores
        them before anyone is told); None when refused, and he was told why."""
        t = self.table
        seating = t.seating
        seat = seating.seat_for_token(c.token)
        if seat is None:
            c.member.deliver(wire.error(c.req, "bad_token", NO_TOKEN, t.id))
            return None
        if seating.seats[seat].member is not c.member:  # one seat, one connection
            why = f"{seat_words(seat)} was resumed elsewhere; resume it here with its token to act"
            c.member.deliver(wire.error(c.req, "bad_token", why, t.id))
            return None
        back = await t.gm.player_acted(seat)  # back from away, even if refused
        if t.state != TableState.PLAYING or t.game is None:
            c.member.deliver(wire.error(c.req, "bad_state", f"the table is {t.state}", t.id))
            return None
        try:
            return seat, t.game.apply(seat, c.action)
        except engine.InvalidActionError as exc:
            c.member.deliver(wire.error(c.req, "bad_action", str(exc), t.id))
        except engine.IllegalActionError as exc:
            why = exc.reason + ("; you are back, and play from your next turn" if back else "")
            c.member.deliver(wire.error(c.req, "illegal_action", why, t.id))
        return None

    async def leave(self, c: Leave) -> None:
        t = self.table
        seating = t.seating
        seat = seating.seat_of(c.member)
        if seat is not None:
            # an empty seat is a bot's, not away
            await t.commit(SeatSet(t.id, seat, None, None), *t.gm.back_writes(seat))
            seating.presence(seat, "left")  # once stored: a refused leave leaves him seated
            t.gm.back(seat)
            was = seating.seats[seat].name
            seating.free(seat)
            t.touched()
            t.events.announce(SeatChanged(t.id, seat, None, was))
        elif seating.stop_watching(c.member):
            seating.watcher(c.member, "went")
        else:
            c.member.deliver(wire.error(c.req, "no_seat", "you are not at this table", t.id))
            return
        c.member.deliver(wire.ok(c.req, t.id))
        if seat is not None and seating.none_named():
            if t.creator is None:  # a house table: abandon the game, wait for people
                await t.abandon()
            else:
                await t.close("everyone left")
                return
        t.out.send_snapshots()

    async def talk(self, c: Talk) -> None:
        t = self.table
        name = c.member.name
        if name is None:
            c.member.deliver(wire.error(c.req, "need_name", "claim a name to talk", t.id))
            return
        if not t.seating.is_member(c.member):
            text = "join or watch the table to talk"
            c.member.deliver(wire.error(c.req, "not_allowed", text, t.id))
            return
        # stored before anyone hears it, as every write is: refused (store_failed) if not
        await t.commit(TalkSaid(t.id, name, c.text, now()))
        c.member.deliver(wire.ok(c.req, t.id))
        msg = wire.talk(t.id, name, c.text)
        for m in t.seating.members():
            m.deliver(msg)

    async def start(self, c: Start) -> None:
        """Start the game: the game master may, or, at a table without one, anyone seated."""
        t = self.table
        name = c.member.name
        seated = t.seating.seat_of(c.member) is not None
        if not (name is not None and (name == t.master or (t.master is None and seated))):
            text = "only the game master starts the game"
            c.member.deliver(wire.error(c.req, "not_master", text, t.id))
            return
        if t.state == TableState.PLAYING:
            c.member.deliver(wire.error(c.req, "bad_state", "the game is already running", t.id))
            return
        if (why := again.refusal(c)) is not None:
            c.member.deliver(wire.error(c.req, "bad_options", why, t.id))
            return
        await again.unseat_absent(t, c)  # at a finished game some asked to play again at
        await t.start(ack=c)

    def export(self, c: Export) -> None:
        """A page of the current (or last) game's record (``server.core.records``): a running
        game's public log to its members, a finished game's full record to anyone."""
        t = self.table
        game = t.game
        if game is None:
            c.member.deliver(wire.error(c.req, "no_record", "no game has started here", t.id))
            return
        size = t.config.record_page
        if t.gm.running():
            if not (c.member.operator or t.seating.is_member(c.member)):
                text = "a running game's record is for the table's members (join or watch it)"
                c.member.deliver(wire.error(c.req, "not_member", text, t.id))
                return
            t.fill_unreplayed()  # a restored game's log before its snapshot
            page = records.public_page(game, t.options, t.out.game_events, c.start, size, c.budget)
        else:
            page = records.full_page(t.final_record(), c.start, size, c.budget)
        c.member.deliver(wire.record(c.req, t.id, page, t.game_no))
