"""Text mode says a thing once, in the words a person at ``nc`` reads: a seat taken is one
short line to the others (not the whole table again), the deal's view at your turn says
what you may do, a review's step is one line, ``rules`` prints a game's rules at 80
columns, and seats are typed and read from 1."""

from __future__ import annotations

import trio
from conftest import Running
from test_text_create import read_until, typist


async def lines_for(
    stream: trio.SocketStream, buf: bytearray, seconds: float = 0.8, joined: bool = True
) -> list[str]:
    """Every sentence that arrives until the connection is quiet for ``seconds`` (its
    continuation lines joined to it, unless not ``joined``)."""
    while True:
        with trio.move_on_after(seconds) as quiet:
            data = await stream.receive_some(65536)
            assert data, "the server closed the connection"
            buf += data
        if quiet.cancelled_caught:
            break
    text, _, rest = bytes(buf).rpartition(b"\n")
    buf[:] = rest
    out: list[str] = []
    for line in text.decode().splitlines() if text else []:
        if joined and line.startswith("  ") and out:  # a sentence over 80 columns goes on indented
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


async def test_a_seat_taken_is_one_short_line_and_the_deal_says_what_you_may_do(
    running: Running,
) -> None:
    ann, abuf = await typist(running, "name ann s3cret-ann", "create switch 3 turn_seconds=0")
    await read_until(ann, abuf, "view")
    bob, bbuf = await typist(running, "name bob s3cret-bob", "join 1 3")
    seated = await read_until(bob, bbuf, "seated")
    assert seated.startswith("seated 1 · you sit in seat 3 at table 1"), seated
    told = await lines_for(ann, abuf)
    assert told == ["view 1 · bob sits in seat 3"], told
    await ann.send_all(b"bot 2\n")
    assert "seat 2: bot" in await read_until(ann, abuf, "ok")
    await ann.send_all(b"start\n")
    said = {"ann": await lines_for(ann, abuf), "bob": await lines_for(bob, bbuf)}
    for who, lines in said.items():
        views = [line for line in lines if line.startswith("view 1 · table 1, switch, playing")]
        assert len(views) == 1, (who, lines)
        if " · your turn · " in views[0]:  # at our turn the view says what we may do...
            assert "you may: " in views[0], (who, lines)
            # ...and no turn line says it again
            assert not any(line.startswith("turn 1 · your turn") for line in lines), lines
    await ann.aclose()
    await bob.aclose()


async def test_seats_are_typed_from_1_and_seat_0_is_refused(running: Running) -> None:
    ann, buf = await typist(running, "name ann s3cret-ann", "create switch 2", "unseat 0")
    error = await read_until(ann, buf, "error")
    assert "seats are counted from 1" in error, error
    await ann.send_all(b"bot 3\n")
    assert "there is no seat 3" in await read_until(ann, buf, "error")
    await ann.send_all(b"bot 2\n")
    assert (await read_until(ann, buf, "ok")) == "ok · seat 2: bot heuristic"
    await ann.aclose()


async def test_a_review_step_is_one_line(running: Running) -> None:
    ann, buf = await typist(
        running, "name ann s3cret-ann", "create switch 2 turn_seconds=0", "start"
    )
    await lines_for(ann, buf)  # the deal
    await ann.send_all(b"end\n")
    await read_until(ann, buf, "notice")
    await lines_for(ann, buf)
    await ann.send_all(b"review 0\n")
    first = await lines_for(ann, buf)
    assert len(first) == 1 and first[0].startswith("ok · the deal (0 of "), first
    await ann.send_all(b"review 0\n")  # a later step: the reply says it, once
    again = await lines_for(ann, buf)
    assert len(again) == 1 and again[0].startswith("ok · the deal (0 of "), again
    await ann.aclose()


async def test_rules_prints_a_games_rules_at_80_columns(running: Running) -> None:
    ann, buf = await typist(running, "name ann s3cret-ann", "rules kilodney")
    lines = await lines_for(ann, buf, joined=False)
    text = " ".join(line for line in lines if line.startswith(("help", "  ")))
    assert "help kilodney: Crad Kilodney's Switch" in text, lines
    assert "KNOCK-OUTS." in text and "type an action" in text, lines
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    assert "help" not in [line.rstrip() for line in lines], lines  # no empty paragraphs
    await ann.send_all(b"create abbott 2\n")
    await read_until(ann, buf, "view")
    await ann.send_all(b"rules\n")  # no game named: the table's
    assert "Robert Abbott's Switch" in " ".join(await lines_for(ann, buf))
    await ann.send_all(b"rules chess\n")
    assert "no game called chess" in await read_until(ann, buf, "error")
    await ann.aclose()


async def test_standings_after_a_tournaments_end_are_its_final_ones() -> None:
    """``standings`` (no number) once the last round was over said "you play in no
    tournament": a player asking then wants the final standings of the one he played."""
    import dataclasses

    from e2e_client import TEST_CONFIG, Client
    from test_tournament_server import play_tournament

    from protocol import messages as m
    from server.app import Server
    from server.store.base import MemoryStore

    server = Server(dataclasses.replace(TEST_CONFIG, tournament_countdown_seconds=0.0),
                    MemoryStore())  # fmt: skip
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        clients = [await Client.connect(port, n) for n in ("sa", "sb")]
        host = await Client.connect(port, "host")
        create = m.CreateTournament(ruleset="switch", rounds=1, seats=2)
        await play_tournament(host, clients, create, 1, 60)
        final = await clients[0].request(m.GetTournament())
        assert isinstance(final, m.Tournament), final
        assert final.summary["state"] == "over" and len(final.standings) == 2, final
        nobody = await host.request(m.GetTournament())  # the host played in none
        assert isinstance(nobody, m.Error) and nobody.code == "no_tournament", nobody
        for client in [*clients, host]:
            await client.aclose()
        server.shutdown()
