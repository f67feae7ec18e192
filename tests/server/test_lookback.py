"""Looking back at a finished game on the server: its analysis (made once, kept, within
an address's budget; a running game refused), the shared review's relay, and the hint in
a game against bots."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import trio
from conftest import Running
from e2e_client import TEST_CONFIG, Client

from protocol import messages as m
from server.app import Server
from server.store.base import MemoryStore

#: Threads, few worlds, no trusted address: small work, and every budget applies (but
#: the request rate, which several games in a row would meet).
CONFIG = TEST_CONFIG.replace(
    bot_thinking="threads",
    analysis_worlds=2,
    trusted_addresses=(),
    analysis_running=8,
    commands_per_second=1000.0,
    commands_burst=10_000,
)


@pytest.fixture
async def served(nursery: trio.Nursery) -> AsyncIterator[Running]:
    store = MemoryStore()
    server = Server(CONFIG, store)
    port = await nursery.start(server.serve)
    yield Running(server, port, store, nursery)
    server.shutdown()


async def finished_game(c: Client) -> str:
    """A 2-player ``switch`` game ``c`` plays against a bot to its end: the table."""
    made = await c.request(m.CreateTable(ruleset="switch", seats=2))
    assert isinstance(made, m.Ok), made
    await c.request(m.Join(table=made.table, seat=0))
    await c.request(m.StartGame(table=made.table))
    with trio.fail_after(60):
        await c.play(made.table)
    return made.table


async def test_a_second_analysis_of_a_game_starts_no_work(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    table = await finished_game(ann)
    bob = await Client.connect(served.port, "bob")
    await bob.request(m.Spectate(table=table))
    desk = served.server.lobby.analyses
    asked = await ann.request(m.Analyse(table=table))
    assert isinstance(asked, m.Ok), asked
    progress = await bob.wait_for(lambda x: isinstance(x, m.AnalysisProgress), timeout=60)
    assert isinstance(progress, m.AnalysisProgress) and progress.total > 0
    done = await ann.wait_for(lambda x: isinstance(x, m.Analysis), timeout=120)
    assert isinstance(done, m.Analysis) and done.game == 1
    seen = await bob.wait_for(lambda x: isinstance(x, m.Analysis), timeout=30)
    assert isinstance(seen, m.Analysis) and seen.analysis == done.analysis
    assert done.analysis["players"][0]["name"] == "ann"
    assert desk.started == 1 and not desk.running
    again = await bob.request(m.Analyse(table=table, game=1))
    assert isinstance(again, m.Analysis) and again.analysis == done.analysis  # at once
    assert desk.started == 1  # and no work started
    assert await served.store.analysis(int(table), 1) is not None


async def test_a_running_game_is_not_analysed(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    none = await ann.request(m.Analyse(table=made.table))
    assert isinstance(none, m.Error) and none.code == "no_record"
    await ann.request(m.Join(table=made.table, seat=0))
    await ann.request(m.StartGame(table=made.table))
    refused = await ann.request(m.Analyse(table=made.table))
    assert isinstance(refused, m.Error) and refused.code == "bad_state", refused
    assert served.server.lobby.analyses.started == 0


async def test_the_address_budget_refuses_a_flood_of_analyses(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    tables = [await finished_game(ann) for _ in range(CONFIG.analysis_address_burst + 1)]
    replies = [await ann.request(m.Analyse(table=t)) for t in tables]
    assert all(isinstance(r, m.Ok) for r in replies[:-1]), replies
    last = replies[-1]
    assert isinstance(last, m.Error) and last.code == "rate_limited", last
    assert "your address" in last.text
    assert served.server.lobby.analyses.started == CONFIG.analysis_address_burst


async def test_the_server_wide_cap_refuses_more_analyses_at_once(served: Running) -> None:
    desk = served.server.lobby.analyses
    desk.config = desk.config.replace(analysis_running=1)
    ann = await Client.connect(served.port, "ann")
    first, second = await finished_game(ann), await finished_game(ann)
    assert isinstance(await ann.request(m.Analyse(table=first)), m.Ok)
    busy = await ann.request(m.Analyse(table=second))
    assert isinstance(busy, m.Error) and busy.code == "rate_limited" and "already" in busy.text


async def test_followers_receive_the_leaders_step(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    table = await finished_game(ann)
    bob = await Client.connect(served.port, "bob")
    await bob.request(m.Spectate(table=table))
    assert isinstance(await ann.request(m.Review(table=table, step=3)), m.Ok)
    first = await bob.wait_for(lambda x: isinstance(x, m.Reviewing))
    assert isinstance(first, m.Reviewing) and (first.leader, first.step) == ("ann", 3)
    assert first.said.startswith("step 3: ")
    # told as what was done, cards as a person reads them (K♥), never the notation typed (KH)
    done = (
        r"step 3: (ann|bot 2) (played|drew|named|passed|called|conceded)\b"
        r"(?!.*\b[2-9TJQKA][CDHS]\b).*"
    )
    assert re.fullmatch(done, first.said), first.said
    assert isinstance(await bob.request(m.Follow(table=table, name="ANN")), m.Ok)
    now = await bob.wait_for(lambda x: isinstance(x, m.Reviewing))
    assert isinstance(now, m.Reviewing) and now.step == 3  # the leader's step, at once
    await ann.request(m.Review(table=table, step=5))
    moved = await bob.wait_for(lambda x: isinstance(x, m.Reviewing))
    assert isinstance(moved, m.Reviewing) and moved.step == 5 and moved.total > 5
    # stepping away: the leader's next steps are not sent
    assert isinstance(await bob.request(m.Follow(table=table)), m.Ok)
    await ann.request(m.Review(table=table, step=6))
    await bob.request(m.Ping())
    assert not any(isinstance(x, m.Reviewing) and x.step == 6 for x in bob.inbox)
    too_far = await ann.request(m.Review(table=table, step=10_000))
    assert isinstance(too_far, m.Error) and too_far.code == "bad_message"
    nobody = await bob.request(m.Follow(table=table, name="cy"))
    assert isinstance(nobody, m.Error) and nobody.code == "no_player"


async def test_a_review_needs_a_finished_game_and_a_member(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    await ann.request(m.Join(table=made.table, seat=0))
    await ann.request(m.StartGame(table=made.table))
    running = await ann.request(m.Review(table=made.table, step=1))
    assert isinstance(running, m.Error) and running.code == "bad_state"
    cy = await Client.connect(served.port, "cy")
    outside = await cy.request(m.Review(table=made.table, step=1))
    assert isinstance(outside, m.Error) and outside.code == "not_member"


async def test_a_leaders_steps_are_bounded(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    table = await finished_game(ann)
    replies = [await ann.request(m.Review(table=table, step=1))
               for _ in range(CONFIG.review_steps_burst + 5)]  # fmt: skip
    assert any(isinstance(r, m.Error) and r.code == "rate_limited" for r in replies)


async def test_a_hint_against_bots_names_a_legal_action(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    await ann.request(m.Join(table=made.table, seat=0))
    await ann.request(m.StartGame(table=made.table))

    def deciding(x: m.Message) -> bool:
        """Ann's decision: a turn, or the snapshot the deal sends when she is the first
        to play (no turn follows it until she acts)."""
        if isinstance(x, m.Turn):
            return x.to_act == x.seat and bool(x.legal)
        if isinstance(x, m.Snapshot):
            return x.view.get("to_act") == x.seat and bool(x.legal)
        return False

    while True:  # a decision with a choice in it: one with only a draw is simply taken
        turn = await ann.wait_for(deciding, timeout=30)
        assert isinstance(turn, m.Turn | m.Snapshot)
        if len(turn.legal) > 1:
            break
        await ann.send(m.Act(table=made.table, action=turn.legal[0], id=None))
    hinted = await ann.request(m.Hint(table=made.table), timeout=60)
    assert isinstance(hinted, m.Hinted), hinted
    assert hinted.best in turn.legal and hinted.text.startswith("hint: ")


async def test_no_hint_at_a_table_with_other_people(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    bob = await Client.connect(served.port, "bob")
    made = await ann.request(m.CreateTable(ruleset="switch", seats=2))
    await ann.request(m.Join(table=made.table, seat=0))
    await bob.request(m.Join(table=made.table, seat=1))
    await ann.request(m.StartGame(table=made.table))
    mine = await ann.wait_for(lambda x: isinstance(x, m.Turn | m.Snapshot))
    me = ann if getattr(mine, "to_act", None) == 0 else bob
    refused = await me.request(m.Hint(table=made.table))
    assert isinstance(refused, m.Error) and refused.code == "not_allowed", refused


async def test_text_mode_says_the_review_step_in_words(served: Running) -> None:
    ann = await Client.connect(served.port, "ann")
    table = await finished_game(ann)
    stream = await trio.open_tcp_stream("127.0.0.1", served.port)
    await stream.send_all(f"name cy\nwatch {table}\n#7 ping\n".encode())
    seen = b""
    with trio.fail_after(20):
        while b"pong #7" not in seen:  # watching by now: the replies come in order
            seen += await stream.receive_some(65536)
    await ann.request(m.Review(table=table, step=2))
    with trio.fail_after(20):
        while b"leads the review" not in seen or not seen.endswith(b"\n"):
            seen += await stream.receive_some(65536)
    line = next(ln for ln in seen.decode().splitlines() if "leads the review" in ln)
    assert line.startswith(f"reviewing {table} · ann leads the review of game 1: step 2: ")
    await stream.aclose()
