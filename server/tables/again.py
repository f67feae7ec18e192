"""Play again: at a finished game each seated player may ask for the next one (``again``).

Who asked is kept in the table's ``Seating.again`` (a seat that changes hands, or a new
deal, forgets it) and shown in every snapshot (``Snapshot.again``); everyone at the table
is told each time someone asks. The next game starts by itself once every seated person
has asked. The game master need not wait: his ``start`` (which counts as his own asking)
then unseats whoever did not ask, and their seats, as his ``start`` says (``absent``):

- ``free``, the default: the seat is free, played by a server bot until someone sits
  down. A friend who was only slow to answer can take it back at once, mid-game, and
  nobody has to undo a reservation for him; the game is the same either way, since a
  free seat is a bot's until someone takes it.
- ``bot``: the seat is reserved for the family's default bot (nobody may join it).

While nobody has asked, ``start`` deals to everyone seated, as it always has. Who asked is
not stored: a moment's wish, it is asked again after a server restart. A
tournament's table plays its round's one game: nobody may ask for another there.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.strategies import default_strategy
from protocol.fields import TableState
from server.core import wire
from server.core.commands import Again, Start
from server.store.base import BotReserved, SeatSet
from server.tables.delivery import Delivery
from server.tables.events import SeatChanged, TableEvents
from server.tables.gamemaster import GameMaster
from server.tables.seating import Seating


class Host(Protocol):
    """The table as playing again sees it (``server.tables.table.Table``)."""

    id: int
    family: str
    settings: dict[str, Any]
    seating: Seating
    gm: GameMaster
    out: Delivery
    events: TableEvents

    @property
    def state(self) -> TableState: ...

    async def commit(self, *writes: Any) -> None: ...

    def touched(self) -> None: ...

    async def start(self, seed: int | None = None, ack: Any = None) -> None: ...


#: What becomes of a seat whose player did not ask to play again (``StartGame.absent``).
FREE, BOT = "free", "bot"


def _people(t: Host) -> list[int]:
    """The seats a person holds."""
    return [i for i, s in enumerate(t.seating.seats) if s.name is not None]


async def ask(t: Host, c: Again) -> None:
    """``c.member`` asks to play the next game: told to everyone; the last to ask starts it."""
    seating = t.seating
    seat = seating.seat_of(c.member)
    if seat is None:
        text = "only a seated player may ask to play again (join first)"
        c.member.deliver(wire.error(c.req, "no_seat", text, t.id))
        return
    if t.state != TableState.OVER or t.settings.get("tournament") is not None:
        text = f"the table is {t.state}: there is no finished game to play again"
        c.member.deliver(wire.error(c.req, "bad_state", text, t.id))
        return
    people = _people(t)
    if seat in seating.again:
        c.member.deliver(wire.ok(c.req, t.id, "you asked already"))
        return
    seating.again.add(seat)
    ready = len(seating.again & set(people))
    name = seating.seats[seat].name
    seating.notice_all(f"{name} will play again ({ready} of {len(people)} ready)")
    if ready == len(people):
        await t.start()  # sends everyone a snapshot (refused by the store: he is told so)
    else:
        t.out.send_snapshots()
    c.member.deliver(wire.ok(c.req, t.id, "you will play the next game"))


def refusal(c: Start) -> str | None:
    """Why ``c``'s ``absent`` is refused (None: it is not)."""
    if c.absent in (None, FREE, BOT):
        return None
    return f"absent: {FREE} or {BOT}, not {c.absent!r}"


async def unseat_absent(t: Host, c: Start) -> None:
    """Before the master's ``start`` at a finished game some asked to play again at:
    unseat those who did not (stored first), their seats free or reserved for a bot."""
    seating = t.seating
    mine = seating.seat_of(c.member)
    if t.state != TableState.OVER or not seating.again:
        return  # nobody asked: everyone seated plays, as before
    ready = seating.again | ({mine} if mine is not None else set())
    absent = [i for i in _people(t) if i not in ready]
    if not absent:
        return
    bot = default_strategy(t.family).name if c.absent == BOT else None
    writes: list[Any] = []
    for seat in absent:
        writes += [SeatSet(t.id, seat, None, None), *t.gm.back_writes(seat)]
        if bot is not None:
            writes.append(BotReserved(t.id, seat, bot))
    await t.commit(*writes)
    for seat in absent:
        was = seating.seats[seat].name
        t.gm.back(seat)
        seating.unseat(seat)  # told so, he may keep watching
        if bot is not None:
            t.gm.bots[seat] = bot
        t.events.announce(SeatChanged(t.id, seat, None, was))
    t.touched()
