"""One voice: the server composes every sentence a player reads, once, and every client
says the same words.

An event's ``text`` names the seats' holders of the moment it happened, so a person who
sits down in a bot's seat after the game is never shown as having made the bot's plays,
live or in a catch-up; a turn's ``choices`` offer every legal action exactly once with
its label, and its ``must`` says what is owed in words; a table's ``options_text`` says
its options as a person reads them. Each event's sentence is composed once per distinct
presentation, however many connections are sent it.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import trio
from e2e_client import TEST_CONFIG, Client, serving_server
from hypothesis import given, settings
from hypothesis import strategies as st
from support import Member, settle

import engine
from protocol import messages as m
from protocol.describe import describe_text
from protocol.legal import choices, must, must_text
from server.app import Server
from server.core import wire
from server.core.commands import Act, Join, Start, Watch
from server.core.config import ServerConfig
from server.store.base import MemoryStore, TableCreated
from server.tables import delivery
from server.tables.table import Table


async def ok(client: Client, message: m.Message) -> Any:
    reply = await client.request(message)
    assert not isinstance(reply, m.Error), reply
    return reply


def texts(client: Client, table: str) -> dict[int, str]:
    """The events' sentences ``client`` was sent at ``table``, by sequence number."""
    out = {}
    for msg in client.inbox:
        if isinstance(msg, m.TableEvent) and msg.table == table:
            assert msg.text is not None, msg
            out[msg.seq] = msg.text
    return out


async def caught_up(client: Client, table: str, since: int, last: int) -> dict[int, str]:
    """The sentences of the events after ``since`` that a catch-up brought, up to ``last``."""
    with trio.fail_after(10):
        while max(texts(client, table), default=0) < last:
            await client.next()
    return {n: t for n, t in texts(client, table).items() if n > since}


async def test_the_log_names_who_played_then_after_the_seat_changes_hands() -> None:
    """ann plays a bot to the end while sam watches; then gus sits down in the bot's
    seat. Every sentence said the bot played the second seat ("bot 2 plays ..."), and so does
    every catch-up after gus took the seat: a spectator's from a ``last_seq`` and ann's
    ``resume`` on a new connection. Before, the words were composed by each client at
    display time with the names of now, and gus was shown as having made the bot's plays
    ("Game over: gus wins")."""
    server = Server(TEST_CONFIG, MemoryStore())
    async with serving_server(server) as (_server, port):
        ann = await Client.connect(port, "ann")
        sam = await Client.connect(port, "sam")
        table = (await ok(ann, m.CreateTable(ruleset="switch", seats=2))).table
        await ok(ann, m.Join(table=table, seat=0))
        await sam.request(m.Spectate(table=table))
        await ok(ann, m.StartGame(table=table))
        over = await ann.play(table, random.Random(3))
        await sam.wait_for(lambda x: isinstance(x, m.Snapshot) and x.state == "over")
        said = texts(sam, table)
        by_bot = [t for t in said.values() if t.startswith("bot 2 ")]
        assert by_bot and not any("gus" in t for t in said.values())

        gus = await Client.connect(port, "gus")
        await ok(gus, m.Join(table=table, seat=1))  # the bot's seat, at the finished table
        since = over.seq - 6
        late = await Client.connect(port, "late")
        await late.send(m.Spectate(table=table, last_seq=since, id=99))
        again = await caught_up(late, table, since, over.seq)
        assert again == {n: t for n, t in said.items() if n > since}
        assert not any("gus" in t for t in again.values())

        back = await Client.connect(port, "ann")  # ann's seat, resumed from a new connection
        token = ann.tokens[table]
        await back.send(m.Resume(table=table, token=token, last_seq=since, id=7))
        resumed = await caught_up(back, table, since, over.seq)
        assert resumed == {n: t for n, t in texts(ann, table).items() if n > since}
        assert not any("gus" in t for t in resumed.values())
        for client in (ann, sam, gus, late, back):
            await client.aclose()


CONFIG = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2)


async def test_each_sentence_is_composed_once_for_every_connection(nursery, monkeypatch) -> None:
    """Four seats and two spectators: an event shown alike to all is composed once; a
    draw, which shows its cards to the drawer only, twice (the drawer's, everyone
    else's); a catch-up composes nothing again."""
    made: Counter[str] = Counter()

    def counting(ev: dict[str, Any], names: Any, ascii_only: bool = False) -> str:
        text = describe_text(ev, names, ascii_only)
        made[text] += 1
        return text

    monkeypatch.setattr(delivery, "describe_text", counting)
    options = {"turn_seconds": 0, "target": 500}
    store = MemoryStore()
    await store.commit(TableCreated(1, "switch", 4, dict(options), "p0", {}))
    table = Table(1, "switch", 4, dict(options), config=CONFIG, store=store, creator="p0")
    await nursery.start(table.run)
    seats = [Member(f"p{i}") for i in range(4)]
    for i, member in enumerate(seats):
        await table.submit(Join(member, i, i))
    for fan in (Member("fan1"), Member("fan2")):
        await table.submit(Watch(fan, 9))
    await table.submit(Start(seats[0], 10))
    await settle()
    assert table.game is not None
    for req in range(100, 130):
        seat = table.game.to_act
        if seat is None:
            break
        legal = [str(a) for a in table.game.legal_actions(seat)]
        token = next(x.token for x in seats[seat].got if isinstance(x, m.Seated))
        await table.submit(Act(seats[seat], req, token, "draw" if "draw" in legal else legal[0]))
        await settle()
    kept = list(table.out.ring)
    audiences = sum(1 + len(told.event.private) for _n, told in kept)
    assert sum(made.values()) <= audiences  # once per presentation, not per connection
    before = sum(made.values())
    late = Member("late")
    await table.submit(Watch(late, 200, kept[0][0]))
    await settle()
    events = [x for x in late.got if isinstance(x, m.TableEvent)]
    assert events and all(x.text for x in events)
    assert sum(made.values()) == before  # the catch-up says what was said


@pytest.mark.parametrize("ruleset", ["switch", "kilodney"])
async def test_a_deal_is_said_once_to_every_seat_each_shown_its_hand(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch, ruleset: str
) -> None:
    """A deal shows each seat its own hand, which its sentence does not name: the
    sentence is composed once, and each seat is sent what its own presentation says."""
    made: Counter[str] = Counter()

    def counting(ev: dict[str, Any], names: Any, ascii_only: bool = False) -> str:
        text = describe_text(ev, names, ascii_only)
        made[str(ev.get("kind"))] += 1
        return text

    monkeypatch.setattr(delivery, "describe_text", counting)
    store = MemoryStore()
    await store.commit(TableCreated(1, ruleset, 4, {"turn_seconds": 0}, "p0", {}))
    table = Table(1, ruleset, 4, {"turn_seconds": 0}, config=CONFIG, store=store, creator="p0")
    await nursery.start(table.run)
    seats = [Member(f"p{i}") for i in range(4)]
    for i, member in enumerate(seats):
        await table.submit(Join(member, i, i))
    await table.submit(Start(seats[0], 10))
    await settle()
    names = ["p0", "p1", "p2", "p3"]
    for i, member in enumerate(seats):
        deals = [x for x in member.got if isinstance(x, m.TableEvent)
                 and x.event["kind"] == "deal"]  # fmt: skip
        assert len(deals) == 1 and deals[0].event != table.out.ring[0][1].public
        assert deals[0].text == describe_text(deals[0].event, names), i
    assert made["deal"] == 1


def test_a_miss_of_one_turn_is_one_turn() -> None:
    """j28's eights make the next player miss a turn per card laid: with one laid, the
    words say "the miss of 1 turn" (the browser's own copy said "1 turns")."""
    found = None
    for seed in range(400):
        game = engine.new_game("j28", seats=3, seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if game.over:
                break
            seat = game.to_act
            view = game.view(seat)
            pending = view.get("pending")
            if pending and pending["kind"] == "miss" and pending["count"] == 1:
                found = view, [str(a) for a in game.legal_actions(seat)]
                break
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if found:
            break
    assert found, "no j28 game reached a miss of one turn"
    view, legal = found
    said = must(view, legal)
    assert said == must_text(view, legal)
    assert said in (
        "You must pass the miss of 1 turn on with one of these plays, or pass",
        "You must pass",
    )
    if any(a.startswith("play ") for a in legal):
        assert "miss of 1 turn on" in said
    turn = wire.turn(1, 5, view["viewer"], view["to_act"], legal, None, view)
    assert isinstance(turn, m.Turn) and turn.must == said


def test_no_sentence_says_one_turns() -> None:
    view = {"family": "shedding", "pending": {"kind": "miss", "count": 1, "cards": ["8S"]}}
    assert must(view, ["play 8H", "pass"]) == (
        "You must pass the miss of 1 turn on with one of these plays, or pass"
    )
    assert "2 turns" in str(must({**view, "pending": {**view["pending"], "count": 2}}, ["play 8H"]))


RULESETS = sorted(engine.rulesets())


@settings(max_examples=60, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_choices_offer_every_legal_action_exactly_once(ruleset: str, seed: int, steps: int) -> None:
    """At a random position of a random game of any ruleset, the turn's ``choices`` hold
    each legal action once (and nothing else), each labelled, under a heading; ``must``
    speaks only where something is owed."""
    rs = engine.ruleset(ruleset)
    seats = random.Random(seed).choice([rs.min_seats, rs.max_seats])  # (abbott: 2 or 4)
    game = engine.new_game(ruleset, seats=seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over or game.to_act is None:
            break
        game.apply(game.to_act, rng.choice(game.legal_actions(game.to_act)))
    for seat in range(seats):
        legal = [str(a) for a in game.legal_actions(seat)] if not game.over else []
        view = game.view(seat)
        turn = wire.turn(1, 9, seat, game.to_act, legal, None, view)
        assert isinstance(turn, m.Turn)
        offered = [action for _heading, items in turn.choices for action, _label in items]
        assert Counter(offered) == Counter(legal)
        assert all(heading and items for heading, items in turn.choices)
        assert all(label.strip() for _h, items in turn.choices for _a, label in items)
        assert turn.choices == choices(legal)
        if not legal:
            assert turn.must is None and turn.choices == ()
        elif view.get("family") != "shedding":
            assert turn.must is None
        # and the wire carries them back as they were sent
        assert m.from_map(turn.to_map()) == turn


async def test_a_table_lists_its_options_in_words() -> None:
    server = Server(TEST_CONFIG, MemoryStore())
    async with serving_server(server) as (_server, port):
        ann = await Client.connect(port, "ann")
        options = {"target": 20, "turn_seconds": 20, "skip": "7", "play_drawn": True}
        made = await ok(ann, m.CreateTable(ruleset="switch", seats=2, options=options))
        plain = await ok(ann, m.CreateTable(ruleset="switch", seats=2))
        tables = {t["table"]: t for t in (await ok(ann, m.ListTables())).tables}
        said = tables[made.table]["options_text"]
        assert "target 20" in said and "20 seconds a turn" in said
        assert "a seven makes the next player miss his turn" in said
        assert "a player may play a card he has just drawn" in said
        assert len(said) == 4 and not any("=" in s for s in said)
        assert tables[plain.table]["options_text"] == []
        await ann.aclose()


def test_choices_group_alike_in_one_group_or_many() -> None:
    """One group (the usual turn) and mixed groups are worded alike: a verb's case does
    not split a group, and the groups keep their order whatever the actions' order."""
    assert choices(["play 2H", "PLAY 3S"]) == (
        ("You may play", (("play 2H", "2H"), ("PLAY 3S", "PLAY 3S"))),
    )
    assert choices(["draw", "Suit hearts", "play 2H"]) == (
        ("You may play", (("play 2H", "2H"),)),
        ("Name a suit", (("Suit hearts", "Suit hearts"),)),
        ("or", (("draw", "draw"),)),
    )
    assert choices(["pass"]) == (("You may", (("pass", "pass"),)),)
