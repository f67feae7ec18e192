"""A seat a person holds is not shown every event by the server's strategy for it: that
strategy is made, and briefed by a replay of the game, only when first needed (the turn
clock plays for him, or he leaves). It must then play exactly as one that had watched
the whole game would, and from then on be shown every event like a bot's.

The table runs in-process with fake members under trio's ``autojump_clock``, so the
turn clock's 30 seconds take no real time."""

from __future__ import annotations

import random
from typing import Any

import trio
import trio.testing
from support import Member, settle

import engine
from engine.events import Event
from engine.strategies import default_strategy
from server.core.commands import Act, Join, Leave, Start
from server.core.config import ServerConfig
from server.store.base import MemoryStore, TableCreated
from server.tables.table import Table

CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)
NAMES = ["ann", "bob", "cy", "dee"]


async def people_table(nursery: trio.Nursery) -> tuple[Table, list[Member]]:
    """A kilodney table of four people with a 30-second clock, its game started."""
    options = {"turn_seconds": 30}
    store = MemoryStore()
    await store.commit(TableCreated(1, "kilodney", 4, options, "ann", {}))
    table = Table(1, "kilodney", 4, options, config=CONFIG, store=store, creator="ann")
    await nursery.start(table.run)
    members = [Member(name) for name in NAMES]
    for seat, member in enumerate(members):
        await table.submit(Join(member, seat + 1, seat))
    await table.submit(Start(members[0], 9))
    await settle()
    assert table.game is not None
    return table, members


async def play_by_hand(table: Table, members: list[Member], moves: int) -> None:
    """Each person to act plays his first legal action, ``moves`` times."""
    game = table.game
    assert game is not None
    for req in range(100, 100 + moves):
        seat = game.to_act
        assert seat is not None and not game.over
        action = str(game.legal_actions(seat)[0])
        await table.submit(Act(members[seat], req, members[seat].token(), action))
        await settle()


def eager(game: Any, seat: int) -> Any:
    """The family's default strategy shown every event of ``game`` as ``seat`` saw it."""
    strategy = default_strategy("kilodney")

    def shown(events: list[Event]) -> None:
        for event in events:
            strategy.observe(event.present(seat))  # type: ignore[attr-defined]

    engine.replay(game.record(), shown)
    return strategy


async def test_a_persons_seat_is_shown_nothing_while_he_plays(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    table, members = await people_table(nursery)
    await play_by_hand(table, members, 8)
    for seat in range(4):
        strategy = table.gm.strategies[seat][1]
        assert not strategy.memory.plays, seat  # type: ignore[attr-defined]


async def test_the_clock_plays_a_persons_seat_as_if_it_had_watched_the_game(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """The clock's move for a person's seat, made by a strategy briefed when first
    needed, is the move a strategy shown every event would make, from the same rng;
    its memory is that strategy's, and it follows the game from then on."""
    table, members = await people_table(nursery)
    await play_by_hand(table, members, 8)
    game = table.game
    assert game is not None
    seat, before = game.to_act, game.actions_taken
    assert seat is not None
    reference = eager(game, seat)
    assert reference.memory.plays  # type: ignore[attr-defined]  # it has something to remember
    rng = random.Random()
    rng.setstate(table._rng.getstate())
    expected = reference.choose(game.view(seat), game.legal_actions(seat), rng)
    while game.actions_taken == before:  # nobody acts: the clock plays for the seat
        await trio.sleep(1)
    await settle()  # its events are shown once the move is stored
    assert game.record()["actions"][before] == [seat, str(expected)]
    briefed = table.gm.strategies[seat][1]
    assert vars(briefed.memory) == vars(eager(game, seat).memory)  # type: ignore[attr-defined]
    await play_by_hand(table, members, 3)  # shown as it happens from now on
    assert vars(briefed.memory) == vars(eager(game, seat).memory)  # type: ignore[attr-defined]


async def test_the_bot_that_takes_a_left_seat_over_knows_the_game(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    table, members = await people_table(nursery)
    await play_by_hand(table, members, 8)
    game = table.game
    assert game is not None
    seat, left_at = (game.to_act + 1) % 4, game.actions_taken  # type: ignore[operator]
    await table.submit(Leave(members[seat], 50))
    await settle()
    # The others play by hand until the new bot has played the seat. Left to their clocks,
    # each is marked away after two timeouts and then played at once: on a deal where the
    # seat's next move came only after that (36 deals in 1,300, as when it was knocked out of
    # the hand), the rest of the game was played within one step of the mock clock.
    req = 200
    while all(s != seat for s, _ in game.record()["actions"][left_at:]):
        assert not game.over
        actor = game.to_act
        assert actor is not None
        if actor == seat:  # the bot's turn: it plays without a clock
            await trio.sleep(1)
            continue
        req += 1
        action = str(game.legal_actions(actor)[0])
        await table.submit(Act(members[actor], req, members[actor].token(), action))
        await settle()
    # The game stopped where it is: with the clocks and the bot still playing, the check
    # below could land between a move applied and its events shown to the strategies.
    table.freeze()
    await settle()
    assert not game.over
    bot = table.gm.strategies[seat][1]
    assert vars(bot.memory) == vars(eager(game, seat).memory)  # type: ignore[attr-defined]


async def test_naming_a_seats_bot_mid_action_briefs_nothing(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """The lobby names a seat's bot (``bot_name``) whenever it lists the table, which may
    be while an action is applied but its events not yet shown (the table awaits its
    commit). Naming must not brief the strategy then: a replay would show it that action,
    and the strategies' ``observe`` would show it again."""
    table, members = await people_table(nursery)
    await play_by_hand(table, members, 8)
    game = table.game
    assert game is not None
    seat = (game.to_act + 1) % 4  # type: ignore[operator]
    table.gm.bots[seat] = "heuristic"  # a bot named for the seat: not the one it holds
    actor = game.to_act
    assert actor is not None
    events = game.apply(actor, game.legal_actions(actor)[0])  # applied, not yet shown
    assert table.gm.bot_name(seat) == "bot:heuristic"
    table.gm.observe(events)  # the table shows the action once it is stored
    bot = table.gm.strategy_for(seat)
    assert vars(bot.memory) == vars(eager(game, seat).memory)  # type: ignore[attr-defined]
