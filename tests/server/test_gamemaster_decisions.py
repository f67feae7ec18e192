"""The game master decides; the table carries it out.

``MasterCommands`` reads a table through its ``GameMaster`` (the narrow ``Hosting``
protocol) and returns a ``Decision`` for each command: the store writes, the change to
the table, the reply.
Here it runs against a plain stand-in table (no table task, no store), which shows
that deciding changes nothing of the table's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engine
from protocol import messages as m
from protocol.fields import TableState
from server.core.commands import CloseTable, HandOver, PauseGame, SeatBot, SetOptions, Start, Unseat
from server.store.base import BotReserved, MasterSet, OptionsSet, PauseSet, SeatSet
from server.tables.gamemaster import PAUSED, GameMaster
from server.tables.master_commands import (
    CloseForGood,
    Decision,
    FreeSeat,
    MasterCommands,
    NewMaster,
    NewOptions,
    NewState,
)

RULESET = "abbott"


@dataclass
class Who:
    name: str | None
    operator: bool = False
    got: list[Any] = field(default_factory=list)

    def deliver(self, message: Any) -> None:
        self.got.append(message)


@dataclass
class SeatOf:
    name: str | None = None
    member: Who | None = None


@dataclass
class StandIn:
    """Just what ``gamemaster.Hosting`` names; commits are recorded, not stored."""

    master: str | None = "ann"
    id: int = 4
    ruleset: str = RULESET
    family: str = RULESET
    options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    game: Any = None
    game_no: int = 0
    outcome: str | None = None
    state: TableState = TableState.WAITING
    seats: list[SeatOf] = field(default_factory=lambda: [SeatOf() for _ in range(4)])
    committed: list[Any] = field(default_factory=list)

    def members(self) -> list[Any]:
        return [s.member for s in self.seats if s.member is not None]

    def notice_all(self, text: str) -> None:
        for member in self.members():
            member.deliver(text)

    async def commit(self, *writes: Any) -> None:
        self.committed.extend(writes)


ANN, BOB = Who("ann"), Who("bob")


def playing() -> StandIn:
    table = StandIn(game=engine.new_game(RULESET, 4, 1, {}), game_no=1, state=TableState.PLAYING)
    table.seats[0], table.seats[1] = SeatOf("ann", ANN), SeatOf("bob", BOB)
    return table


async def test_a_pause_is_decided_not_done() -> None:
    table = playing()
    gm = GameMaster(table)
    d = await MasterCommands(gm).decide(PauseGame(ANN, 7))
    assert isinstance(d, Decision) and d.member is ANN
    assert d.writes == (PauseSet(4, 1, True),) and d.change == NewState(PAUSED)
    assert isinstance(d.reply, m.Ok) and d.reply.id == 7 and d.snapshots
    assert d.notices == ("ann paused the game",)
    assert table.state == TableState.PLAYING and table.committed == []  # nothing done yet


async def test_a_tournaments_pause_names_the_tournament_as_a_person_reads_it() -> None:
    """A tournament's steward pauses its tables: the notice says ``tournament 3``, not the
    master's name on the wire (``tournament:3``)."""
    table = playing()
    table.master = "tournament:3"
    steward = Who("tournament:3")
    d = await MasterCommands(GameMaster(table)).decide(PauseGame(steward, 8))
    assert isinstance(d, Decision) and d.notices == ("tournament 3 paused the game",)


async def test_start_while_paused_is_a_resume() -> None:
    table = playing()
    table.state = PAUSED
    d = await MasterCommands(GameMaster(table)).decide(Start(ANN, 2))
    assert d is not None and d.change == NewState(TableState.PLAYING)
    assert d.writes == (PauseSet(4, 1, False),)


async def test_other_commands_are_the_tables() -> None:
    assert await MasterCommands(GameMaster(playing())).decide(Start(ANN, 2)) is None


async def test_refusals_write_nothing() -> None:
    gm = GameMaster(playing())
    refused = await MasterCommands(gm).decide(PauseGame(BOB, 3))
    assert refused is not None and refused.reply.code == "not_master"
    assert refused.writes == () and refused.change is None and not refused.snapshots
    taken = await MasterCommands(gm).decide(SeatBot(ANN, 4, seat=1))
    assert taken is not None and taken.reply.code == "seat_taken" and taken.writes == ()
    assert (await MasterCommands(gm).decide(Unseat(ANN, 5, seat=9))).reply.code == "no_seat"


async def test_seat_bot_and_unseat_decisions() -> None:
    table = playing()
    gm = GameMaster(table)
    d = await MasterCommands(gm).decide(SeatBot(ANN, 2, seat=2, strategy="random"))
    assert d is not None and d.writes == (BotReserved(4, 2, "random"),) and d.change is None
    assert gm.bots == {}  # reserved once the table has stored it
    assert d.then is not None
    d.then()
    assert gm.bots == {2: "random"}
    d = await MasterCommands(gm).decide(Unseat(ANN, 3, seat=1))
    assert d is not None and d.change == FreeSeat(1)
    assert d.writes == (SeatSet(4, 1, None, None),)
    assert table.seats[1].name == "bob"


async def test_options_master_and_close_are_changes_for_the_table() -> None:
    table = StandIn(seats=[SeatOf("ann", ANN), SeatOf("bob", BOB)])
    gm = GameMaster(table)
    d = await MasterCommands(gm).decide(
        SetOptions(ANN, 1, {"turn_seconds": 9, "start_when_full": True})
    )
    assert d is not None and d.change == NewOptions({"turn_seconds": 9}, {"start_when_full": True})
    assert d.writes == (OptionsSet(4, {"turn_seconds": 9}, {"start_when_full": True}),)
    assert table.options == {}
    d = await MasterCommands(gm).decide(HandOver(ANN, 2, "BOB"))
    assert d is not None and d.change == NewMaster("bob") and d.writes == (MasterSet(4, "bob"),)
    d = await MasterCommands(gm).decide(CloseTable(ANN, 3, " bedtime "))
    assert d is not None and d.change == CloseForGood("ann closed it: bedtime")
