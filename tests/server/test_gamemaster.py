"""The game master's commands, the turn clock and the away state, on a real table task.

The table runs in-process with fake members (no sockets) under trio's
``autojump_clock``, so a 60-second countdown takes no real time and every
timing is exact. One test at the end goes over real sockets to check that the
protocol's game-master messages reach the table.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import trio
import trio.testing
from support import Member, keep_chips

import engine
import engine.strategies
from engine.strategies import register_strategy
from protocol import messages as m
from protocol.words import action_words
from server.core.commands import MASTER_VERBS, Act, Join, Start, Watch
from server.core.config import ServerConfig
from server.players.ledger import Ledger
from server.store.base import MemoryStore, TableCreated
from server.tables.gamemaster import PAUSED
from server.tables.listing import summary
from server.tables.table import OVER, PLAYING, Table

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
RULESET = "abbott" if "abbott" in engine.rulesets() else engine.rulesets()[0]


class Setup:
    def __init__(self, table: Table, members: list[Member], store: MemoryStore) -> None:
        self.table, self.members, self.store = table, members, store
        self.req = 0

    async def send(self, command: Any) -> None:
        await self.table.submit(command)
        for _ in range(5):  # let the table take it and answer
            await trio.testing.wait_all_tasks_blocked()

    async def start(self, who: Member) -> None:
        """``who`` starts the game (or resumes a paused one), under a fresh request id."""
        self.req += 1
        await self.send(Start(who, self.req))

    async def master(self, who: Member, verb: str, **args: Any) -> Any:
        self.req += 1
        await self.send(MASTER_VERBS[verb](who, self.req, **args))
        return who.last_reply(self.req)


async def open_table(
    nursery: trio.Nursery,
    names: list[str],
    options: dict[str, Any] | None = None,
    seats: int = 4,
    ledger: Ledger | None = None,
) -> Setup:
    """A table created by ``names[0]``, with ``names`` seated in order."""
    store = MemoryStore()
    await store.commit(TableCreated(1, RULESET, seats, dict(options or {}), names[0], {}))
    table = Table(
        1, RULESET, seats, dict(options or {}), config=CONFIG, store=store, creator=names[0]
    )
    keep_chips(table, ledger)
    await nursery.start(table.run)
    members = [Member(n) for n in names]
    setup = Setup(table, members, store)
    for i, member in enumerate(members):
        setup.req += 1
        await setup.send(Join(member, setup.req, i))
        assert isinstance(member.last_reply(setup.req), m.Seated)
    return setup


ALL_VERBS = [
    ("pause", {}),
    ("resume", {}),
    ("seat_bot", {"seat": 3}),
    ("unseat", {"seat": 0}),
    ("set_options", {"options": {"turn_seconds": 5}}),
    ("set_prize", {"chips": 10}),
    ("hand_over", {"name": "bob"}),
    ("end_game", {}),
]


@pytest.mark.parametrize(("verb", "args"), ALL_VERBS, ids=[v for v, _ in ALL_VERBS])
async def test_only_the_game_master_may(nursery: trio.Nursery, verb: str, args: dict) -> None:
    s = await open_table(nursery, ["ann", "bob"], ledger=Ledger(MemoryStore()))
    bob = s.members[1]
    before = (s.table.state, s.table.master, dict(s.table.options), list(s.table.players()))
    reply = await s.master(bob, verb, **args)
    assert isinstance(reply, m.Error) and reply.code == "not_master", reply
    assert "ann" in reply.text
    assert (s.table.state, s.table.master, s.table.options, s.table.players()) == before
    stranger = Member("zed")  # not even at the table
    assert (await s.master(stranger, verb, **args)).code == "not_master"


async def test_an_operator_may_use_the_masters_commands(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"])
    op = Member("root", operator=True)
    reply = await s.master(op, "set_options", options={"turn_seconds": 7})
    assert isinstance(reply, m.Ok) and s.table.options["turn_seconds"] == 7


async def test_pause_and_resume_with_a_running_clock(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    s = await open_table(nursery, ["ann", "bob", "cy", "dee"], {"turn_seconds": 30})
    ann = s.members[0]
    await s.start(ann)
    table, game = s.table, s.table.game
    assert game is not None and table.state == PLAYING
    t0 = trio.current_time()
    await trio.sleep(10)
    assert (await s.master(ann, "pause")).text == "paused"
    assert table.state == PAUSED
    snap = [x for x in s.members[1].got if isinstance(x, m.Snapshot)][-1]
    assert snap.state == PAUSED and snap.clock == pytest.approx(20.0)
    # nobody acts while paused: a player is refused, and no timeout comes
    actor = s.members[game.to_act]
    s.req += 1
    await s.send(Act(actor, s.req, actor.token(), str(game.legal_actions(game.to_act)[0])))
    assert actor.last_reply(s.req).code == "bad_state"
    await trio.sleep(1000)
    assert game.actions_taken == 0 and table.gm.timeouts == 0
    assert isinstance(await s.master(ann, "pause"), m.Error)  # already paused
    # resume: the 20 s left run out 20 s later, and the seat gets an automatic move
    resumed_at = trio.current_time()
    assert (await s.master(ann, "resume")).text == "resumed"
    while game.actions_taken == 0:
        await trio.sleep(0.5)
    assert trio.current_time() - resumed_at == pytest.approx(20.0, abs=0.6)
    assert table.gm.timeouts == 1
    assert trio.current_time() - t0 > 1000


async def test_start_resumes_a_paused_game(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 0})
    ann = s.members[0]
    await s.start(ann)
    game = s.table.game
    await s.master(ann, "pause")
    await s.start(ann)  # "to resume a paused game, type !start"
    assert s.table.state == PLAYING and s.table.game is game


async def test_timeouts_play_automatically_and_two_in_a_row_mark_away(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    s = await open_table(nursery, ["ann", "bob", "cy", "dee"], {"turn_seconds": 30})
    ann = s.members[0]
    await s.start(ann)
    table, game = s.table, s.table.game
    assert game is not None
    first = game.to_act
    start = trio.current_time()
    # the first seat to act lets its countdown run out
    while game.actions_taken == 0:
        await trio.sleep(1)
    assert trio.current_time() - start == pytest.approx(30.0, abs=1.0)
    assert game.record()["actions"][0][0] == first
    assert not table.gm.away.is_away(first)
    # everyone stays idle; the first seat's second timeout in a row marks it away
    while not table.gm.away.is_away(first):
        await trio.sleep(1)
    notices = [x.text for x in s.members[1].got if isinstance(x, m.Notice)]
    assert any("away" in n for n in notices), notices
    timeouts = table.gm.timeouts
    # an away seat is played at once when its turn comes, without a countdown
    while game.to_act != first and not game.over:
        await trio.sleep(1)
    before = game.actions_taken
    t_turn = trio.current_time()
    await trio.sleep(0.01)
    if not game.over:
        assert game.actions_taken > before and trio.current_time() - t_turn < 1
    # the player acts again himself (even a refused action counts): he is back
    player = s.members[first]
    s.req += 1
    await s.send(Act(player, s.req, player.token(), "vote end"))
    assert not table.gm.away.is_away(first)
    assert table.gm.timeouts >= timeouts


async def test_the_clock_says_what_it_played_and_tells_the_player_he_is_away(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """Before, a timed-out move read in the log as if the player had made it."""
    s = await open_table(nursery, ["ann", "bob", "cy", "dee"], {"turn_seconds": 30})
    await s.start(s.members[0])
    table, game = s.table, s.table.game
    assert game is not None
    first = game.to_act
    while game.actions_taken == 0:
        await trio.sleep(1)
    seat, notation = game.record()["actions"][0]
    name = table.seats[seat].name
    await trio.sleep(0.1)
    got = s.members[(first + 1) % 4].got
    said = [x.text for x in got if isinstance(x, m.Notice)]
    notice = f"time's up at table {table.id}: the clock {action_words(notation)} for {name}"
    assert "play " not in notice  # the move in words, not in notation
    assert notice in said
    # the cause before the move: the notice heads the events of the move it made (it came
    # after them, so a log read "ann passes", then "time's up ... made ann's move")
    at = next(i for i, x in enumerate(got) if isinstance(x, m.Notice) and x.text == notice)
    move = next(
        i
        for i, x in enumerate(got)
        if isinstance(x, m.TableEvent)
        and x.event.get("seat") == seat
        and x.seq > table.out.game_base
    )
    assert at < move, got[at - 2 : move + 2]
    while not table.gm.away.is_away(first):
        await trio.sleep(1)
    told = [x.text for x in s.members[first].got if isinstance(x, m.Notice)]
    assert any(t.startswith("you are away at table") for t in told), told


async def test_turn_and_snapshot_messages_carry_the_clock(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 45})
    ann = s.members[0]
    await s.start(ann)
    snap = [x for x in ann.got if isinstance(x, m.Snapshot)][-1]
    assert snap.clock == pytest.approx(45.0)
    await trio.sleep(5)
    watcher = Member("w")
    await s.send(Watch(watcher, 99))
    assert [x for x in watcher.got if isinstance(x, m.Snapshot)][-1].clock == pytest.approx(40.0)


async def test_no_clock_when_turn_seconds_is_zero(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    s = await open_table(nursery, ["ann", "bob", "cy", "dee"], {"turn_seconds": 0})
    await s.start(s.members[0])
    await trio.sleep(100_000)
    assert s.table.game.actions_taken == 0 and s.table.gm.timeouts == 0  # type: ignore[union-attr]


async def test_seat_a_bot_then_unseat_it(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 0})
    ann = s.members[0]
    reply = await s.master(ann, "seat_bot", seat=2, strategy="random")
    assert isinstance(reply, m.Ok) and s.table.players()[2] == "bot:random"
    assert (await s.master(ann, "seat_bot", seat=1)).code == "seat_taken"
    assert (await s.master(ann, "seat_bot", seat=3, strategy="nope")).code == "bad_options"
    assert (await s.master(ann, "seat_bot", seat=9)).code == "no_seat"
    cy = Member("cy")
    s.req += 1
    await s.send(Join(cy, s.req, 2))
    assert cy.last_reply(s.req).code == "seat_taken"  # reserved for the bot
    s.req += 1
    await s.send(Join(cy, s.req, None))
    assert cy.last_reply(s.req).seat == 3  # any free seat skips the bot's
    assert isinstance(await s.master(ann, "unseat", seat=2), m.Ok)
    assert s.table.players()[2] is None


async def test_unseat_a_player_takes_his_seat_and_token(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 0})
    ann, bob = s.members
    token = bob.token()
    assert isinstance(await s.master(ann, "unseat", seat=1), m.Ok)
    assert s.table.seats[1].name is None
    assert s.store.state.tables[1].seat_names[1] is None  # stored
    assert any(isinstance(x, m.Notice) and "unseated" in x.text for x in bob.got)
    await s.start(ann)
    s.req += 1
    await s.send(Act(bob, s.req, token, "vote end"))
    assert bob.last_reply(s.req).code == "bad_token"
    assert (await s.master(ann, "unseat", seat=1)).code == "no_seat"


async def test_set_options_before_the_start_only(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"])
    ann = s.members[0]
    assert isinstance(await s.master(ann, "set_options", options={"turn_seconds": 12}), m.Ok)
    assert s.table.options["turn_seconds"] == 12
    assert s.store.state.tables[1].options["turn_seconds"] == 12  # survives a restart
    bad = await s.master(ann, "set_options", options={"turn_seconds": -4})
    assert bad.code == "bad_options" and "turn_seconds" in bad.text
    unknown = await s.master(ann, "set_options", options={"bogus": 1})
    assert unknown.code == "bad_options"
    await s.start(ann)
    assert s.table.gm.clock.seconds == 12
    late = await s.master(ann, "set_options", options={"turn_seconds": 3})
    assert late.code == "bad_state" and s.table.options["turn_seconds"] == 12


async def test_hand_the_master_role_on(nursery: trio.Nursery) -> None:
    s = await open_table(nursery, ["ann", "bob"])
    ann, bob = s.members
    assert (await s.master(ann, "hand_over", name="zed")).code == "bad_name"
    assert isinstance(await s.master(ann, "hand_over", name="BOB"), m.Ok)
    assert s.table.master == "bob" and s.store.state.tables[1].master == "bob"
    assert (await s.master(ann, "pause")).code == "not_master"
    assert isinstance(await s.master(bob, "set_options", options={"turn_seconds": 9}), m.Ok)


async def test_end_game_abandons_and_returns_the_prize(nursery: trio.Nursery) -> None:
    ledger = Ledger(MemoryStore())
    s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 0}, ledger=ledger)
    ann = s.members[0]
    await ledger.open_account("ann")
    assert isinstance(await s.master(ann, "set_prize", chips=250), m.Ok)
    assert ledger.balance("ann") == 750 and summary(s.table, s.table.gm.stakes)["prize"] == 250
    assert (await s.master(ann, "end_game")).code == "bad_state"  # no game yet
    await s.start(ann)
    assert (await s.master(ann, "set_prize", chips=5)).code == "bad_state"  # not mid-game
    assert isinstance(await s.master(ann, "end_game"), m.Ok)
    assert s.table.state == OVER
    assert s.store.state.tables[1].game.over  # type: ignore[union-attr]
    assert ledger.balance("ann") == 1000 and ledger.prize(1) is None
    ledger.check()


async def test_a_prize_beyond_the_balance_is_refused(nursery: trio.Nursery) -> None:
    ledger = Ledger(MemoryStore())
    s = await open_table(nursery, ["ann", "bob"], ledger=ledger)
    reply = await s.master(s.members[0], "set_prize", chips=5000)
    assert reply.code == "no_chips" and ledger.balance("ann") == 1000


# ------------------------------------------------------- over real sockets
async def test_game_master_messages_over_the_wire(nursery: trio.Nursery) -> None:
    from e2e_client import Client

    from server.app import Server

    server = Server(CONFIG)
    port = await nursery.start(server.serve)
    ann = await Client.connect(port, "ann")
    bob = await Client.connect(port, "bob")
    table = (await ann.request(m.CreateTable(ruleset=RULESET, seats=4))).table
    await ann.request(m.Join(table=table, seat=0))
    await bob.request(m.Join(table=table, seat=1))
    refused = await bob.request(m.SetPrize(table=table, chips=10))
    assert isinstance(refused, m.Error) and refused.code == "not_master"
    assert isinstance(await ann.request(m.SetPrize(table=table, chips=100)), m.Ok)
    chips = await ann.request(m.GetChips())
    assert isinstance(chips, m.Chips) and chips.balance == 900
    assert [e["reason"] for e in chips.entries] == ["prize", "welcome"]
    other = await bob.request(m.GetChips(name="ann"))
    assert other.balance == 900 and other.entries == ()  # a balance is public, entries not
    assert isinstance(await ann.request(m.StartGame(table=table)), m.Ok)
    assert isinstance(await ann.request(m.PauseGame(table=table)), m.Ok)
    paused = await bob.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "paused")
    assert paused.table == table
    assert (await bob.request(m.ResumeGame(table=table))).code == "not_master"
    assert isinstance(await ann.request(m.ResumeGame(table=table)), m.Ok)
    assert isinstance(await ann.request(m.EndGame(table=table)), m.Ok)
    assert (await ann.request(m.GetChips())).balance == 1000
    server.shutdown()


async def test_server_bots_remember_what_their_seat_was_shown(nursery: trio.Nursery) -> None:
    """Each bot seat has its own strategy, made when the game starts and shown
    every event its seat sees: kilodney's heuristic knows the cards played
    this hand exactly (from the opening deal on), as a player would."""
    store = MemoryStore()
    await store.commit(TableCreated(1, "kilodney", 4, {"turn_seconds": 0}, "ann", {}))
    table = Table(1, "kilodney", 4, {"turn_seconds": 0}, config=CONFIG, store=store, creator="ann")
    await nursery.start(table.run)
    s = Setup(table, [Member("ann")], store)
    ann = s.members[0]
    s.req += 1
    await s.send(Join(ann, s.req, 0))
    await s.start(ann)
    game = table.game
    assert game is not None and table.state == PLAYING
    seen_plays = 0
    for _ in range(40):
        if game.over:
            break
        if game.to_act == 0:  # ann plays her first legal card; the bots answer
            s.req += 1
            await s.send(Act(ann, s.req, ann.token(), str(game.legal_actions(0)[0])))
        for seat in (1, 2, 3):
            strategy = table.gm.strategies[seat][1]
            played = strategy.memory.played_for(game.view(seat))  # type: ignore[attr-defined]
            assert played == game.pile, seat
            seen_plays = max(seen_plays, len(played))
    assert seen_plays >= 4  # the test saw a hand under way, not only empty piles
    assert len({id(table.gm.strategies[seat][1]) for seat in range(4)}) == 4


class Sleepy:
    """A strategy that thinks for 0.3 s (blocking, as a search does) and says it is slow."""

    name = "sleepy"
    slow = True

    def choose(self, view: dict[str, Any], legal: Any, rng: Any) -> Any:
        time.sleep(0.3)
        return legal[0]


async def test_a_slow_bot_thinks_without_stopping_the_server(nursery: trio.Nursery) -> None:
    """While a slow server bot thinks (in a worker thread), the event loop runs:
    another task ticking every 10 ms keeps ticking."""
    register_strategy("sleepy", engine.ruleset(RULESET).family, Sleepy)
    try:
        s = await open_table(nursery, ["ann", "bob"], {"turn_seconds": 0})
        ann = s.members[0]
        assert isinstance(await s.master(ann, "seat_bot", seat=2, strategy="sleepy"), m.Ok)
        assert isinstance(await s.master(ann, "seat_bot", seat=3, strategy="sleepy"), m.Ok)
        await s.start(ann)
        game = s.table.game
        assert game is not None
        while game.to_act in (2, 3):  # bots first: let them move
            await trio.sleep(0.05)
        while game.to_act != 2:  # the people play until a bot's turn
            player = s.members[game.to_act]
            s.req += 1
            await s.send(
                Act(
                    player,
                    s.req,
                    player.token(),
                    str(game.legal_actions(player_seat := game.to_act)[0]),
                )
            )
            assert player_seat in (0, 1)
        before = game.actions_taken
        ticks = 0
        started = time.monotonic()
        while game.actions_taken == before:  # the bot at seat 2 thinks for 0.3 s
            await trio.sleep(0.01)
            ticks += 1
        assert time.monotonic() - started >= 0.1  # the bot really was thinking meanwhile
        assert ticks >= 5  # about 1 if the bot blocked the loop; ~30 when idle, fewer under load
    finally:
        engine.strategies._FACTORIES.pop(("sleepy", engine.ruleset(RULESET).family), None)


async def test_a_frozen_table_moves_no_more(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """A shutdown freezes every game where the players were told it was: bots and the
    clock stop, and an act is refused with ``shutdown`` (before, a table of bots could
    play on to the end during the shutdown's grace period)."""
    s = await open_table(nursery, ["ann"], {"turn_seconds": 5})
    ann = s.members[0]
    await s.start(ann)  # three bots and ann, whose clock runs
    table, game = s.table, s.table.game
    assert game is not None
    while game.to_act != 0:  # the bots play up to ann's turn
        await trio.sleep(0.1)
    taken = game.actions_taken
    table.freeze()
    await trio.sleep(60)  # long past ann's clock: no automatic move is made for her
    assert game.actions_taken == taken and table.gm.timeouts == 0
    s.req += 1
    await s.send(Act(ann, s.req, ann.token(), str(game.legal_actions(0)[0])))
    assert ann.last_reply(s.req).code == "shutdown"
    assert game.actions_taken == taken


async def test_an_away_seat_is_offered_nothing_and_told_after_the_move_that_made_it_away(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """Before, an away seat's turns offered legal actions with a full clock that the
    server had already played (``illegal_action``), and the away notices came before the
    clock's notice of the timeout that caused them."""
    s = await open_table(nursery, ["ann", "bob", "cy", "dee"], {"turn_seconds": 30})
    await s.start(s.members[0])
    table, game = s.table, s.table.game
    assert game is not None
    first = game.to_act
    assert first is not None
    while not table.gm.away.is_away(first):
        await trio.sleep(1)
    await trio.sleep(0.1)
    name = table.seats[first].name
    other = [x.text for x in s.members[(first + 1) % 4].got if isinstance(x, m.Notice)]
    away_at = next(i for i, t in enumerate(other) if t.startswith(f"{name} is away"))
    clocks = [i for i, t in enumerate(other) if t.startswith("time's up") and name in t]
    assert len(clocks) == 2 and clocks[1] < away_at  # the second timeout, then away
    mine = s.members[first]
    mark = len(mine.got)
    while len([x for x in mine.got[mark:] if isinstance(x, m.Turn) and x.to_act == first]) < 2:
        await trio.sleep(1)  # his turns come round while he is away
    for turn in [x for x in mine.got[mark:] if isinstance(x, m.Turn)]:
        assert turn.legal == () or turn.legal == [], turn  # the server plays his seat
        if turn.to_act == first:
            assert turn.clock is None  # no countdown runs for an away seat
    said = [x.text for x in mine.got if isinstance(x, m.Notice)]
    assert any(t.startswith("you are away at table") and "back" in t for t in said), said
    await s.send(Join(mine, 50, None))  # he takes his seat back
    assert not table.gm.away.is_away(first)
    snap = [x for x in mine.got if isinstance(x, m.Snapshot)][-1]
    assert snap.legal or game.to_act != first or game.over
