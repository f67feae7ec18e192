"""finger, history and top over the wire (msgpack and text), the lobby's ratings, and
what a hostile request gets: a clear error or a bounded reply."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
from e2e_client import TEST_CONFIG, Client, serving_server
from test_profile_ratings import FAMILY, RULESET, ok, play_out, table_of

from protocol import messages as m
from protocol.limits import DEFAULT_LIMITS
from protocol.profile_lines import game_line
from server.app import Server
from server.store.base import GameResult, MemoryStore, Rating

CONFIG = TEST_CONFIG.replace(close_grace_seconds=0.5)


def serving(data: Path | None = None, store: Any = None, **settings: Any) -> Any:
    return serving_server(Server(CONFIG.replace(data_dir=data, **settings), store))


async def error(client: Client, message: m.Message) -> str:
    reply = await client.request(message)
    assert isinstance(reply, m.Error), reply
    return reply.code


async def test_finger_history_and_top_after_a_rated_game_and_a_restart(tmp_path: Path) -> None:
    async with serving(tmp_path) as (server, port):
        ann, bob = await Client.connect(port, "Ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        profile = await ok(bob, m.GetProfile(name="ANN"))  # matched by the normal form
        assert isinstance(profile, m.Profile) and profile.name == "Ann"
        [rating] = profile.ratings
        assert rating["family"] == FAMILY and rating["games"] == 1
        assert rating["rating"] != 1500  # it moved
        [tally] = profile.tallies
        assert tally["ruleset"] == RULESET and tally["played"] == 1
        assert profile.games == 1 and profile.chips == 1000
        [game] = profile.recent
        assert game["players"] == ["Ann", "bob"] and game["seat"] == 0 and game["rated"]
        assert profile.lines == ("1 game finished · 1000 chips",
                                 f"{FAMILY} {rating['rating']} (1 rated game)",
                                 f"{RULESET}: {tally['won']} won of 1",
                                 game_line(game))  # fmt: skip
        own = await ok(ann, m.GetProfile())
        assert own == m.Profile(**{**_fields(profile), "id": own.id})
        history = await ok(ann, m.GetHistory(name="bob"))
        assert history.total == 1 and history.next is None and history.games[0]["seat"] == 1
        top = await ok(ann, m.GetTop(family=RULESET))  # a ruleset means its family
        assert top.family == FAMILY and [p["place"] for p in top.players] == [1, 2]
        winner = "Ann" if game["places"][0] == 0 else "bob"
        assert top.players[0]["name"] == winner
        assert top.players[0]["rating"] > top.players[1]["rating"]
        tables = (await ok(ann, m.ListTables())).tables
        listed = next(t for t in tables if t["table"] == table)
        assert listed["ratings"] == [p["rating"] for p in sorted(top.players,
                                     key=lambda p: p["name"] != "Ann")]  # fmt: skip
    async with serving(tmp_path) as (_server, port):
        ann = await Client.connect(port, "Ann")
        again = await ok(ann, m.GetProfile(name="ann"))
        assert again.ratings == profile.ratings and again.games == 1


def _fields(message: m.Message) -> dict[str, Any]:
    return {name: getattr(message, name) for name, _r, _d in message._wire}


async def test_the_same_requests_in_text_mode() -> None:
    async with serving(store=MemoryStore()) as (server, port):
        ann, bob = await Client.connect(port, "ann"), await Client.connect(port, "bob")
        table = await table_of(ann, bob)
        await play_out(server, table, {0: ann, 1: bob})
        cy = await Client.connect(port, "cy", text=True)
        profile = await ok(cy, m.GetProfile(name="bob"))
        assert isinstance(profile, m.Profile) and profile.ratings[0]["family"] == FAMILY
        assert profile.chips == 1000 and profile.games == 1
        history = await ok(cy, m.GetHistory(name="ann"))
        assert isinstance(history, m.History) and history.total == 1
        top = await ok(cy, m.GetTop(family=FAMILY, count=1))
        assert isinstance(top, m.Top) and len(top.players) == 1
        assert await error(cy, m.GetProfile(name="nobody")) == "no_player"
        assert (await ok(cy, m.GetHistory())).total == 0  # claimed, nothing played yet
        lines = bytes(cy.raw).decode().splitlines()
        assert any(x.startswith("profile #") and x.split()[2] == "bob" for x in lines)
        assert any(x.startswith("top #") and x.split()[2] == FAMILY for x in lines)
        assert any(x.startswith("error #") and x.split()[2] == "no_player" for x in lines)


async def test_unknown_names_and_families_get_clear_errors() -> None:
    async with serving(store=MemoryStore()) as (_server, port):
        anon = await Client.connect(port)
        assert await error(anon, m.GetProfile()) == "need_name"
        assert await error(anon, m.GetProfile(name="ghost")) == "no_player"
        assert await error(anon, m.GetHistory(name="bot:nosuch")) == "no_player"
        assert await error(anon, m.GetTop(family="chess")) == "bad_options"
        ann = await Client.connect(port, "ann")  # claimed, never played: an empty profile
        profile = await ok(anon, m.GetProfile(name="ann"))
        assert profile.games == 0 and profile.ratings == () and profile.chips == 1000
        assert (await ok(ann, m.GetTop(family="abbott"))).players == ()


def results(count: int) -> list[GameResult]:
    """``count`` finished rated kilodney games of ann against five long-named players."""
    others = [f"{'x' * 20}{i:04d}" for i in range(5)]
    players = ("ann", *others)
    ratings = tuple(Rating(p, "kilodney", p, 25.0 + i, 8.0, count) for i, p in enumerate(players))
    return [
        GameResult(1, g, "kilodney", "kilodney", True, 1.0e9 + g, players, players,
                   (10, 20, 30, 40, 50, 60), (5, 4, 3, 2, 1, 0), ratings if g == count else ())
        for g in range(1, count + 1)
    ]  # fmt: skip


async def test_replies_are_bounded_however_much_is_asked() -> None:
    store = MemoryStore()
    store.submit_nowait(*results(60))
    async with serving(store=store, history_page=40, top_max=3) as (_server, port):
        ann = await Client.connect(port, "ann")
        page = await ok(ann, m.GetHistory(start=0))
        assert len(page.games) == 40 and page.next == 40 and page.total == 60
        assert page.games[0]["game"] == 60  # newest first
        last = await ok(ann, m.GetHistory(start=40))
        assert len(last.games) == 20 and last.next is None
        beyond = await ok(ann, m.GetHistory(start=10**9))
        assert beyond.games == () and beyond.next is None and beyond.total == 60
        top = await ok(ann, m.GetTop(family="kilodney", count=10**9))
        assert len(top.players) == 3 and top.players[0]["name"].startswith("x")
        assert (await ok(ann, m.GetTop(family="kilodney", count=0))).players == ()
        assert len((await ok(ann, m.GetProfile())).recent) == 5
        text = await Client.connect(port, "bo", text=True)
        page = await ok(text, m.GetHistory(name="ann"))
        assert 0 < len(page.games) < 40 and page.next == len(page.games)  # one line's worth
        lines = bytes(text.raw).split(b"\n")
        assert max(len(line) + 1 for line in lines) <= DEFAULT_LIMITS.max_line


async def test_a_profile_on_a_text_line_holds_the_newest_games_that_fit() -> None:
    """Its lines say each recent game again, so a text line holds fewer of them."""
    store = MemoryStore()
    store.submit_nowait(*results(60))
    async with serving(store=store, profile_recent=60) as (_server, port):
        whole = await ok(await Client.connect(port, "bo"), m.GetProfile(name="ann"))
        assert len(whole.recent) == 60  # msgpack: no line to fit in
        text = await Client.connect(port, "cy", text=True)
        fitted = await ok(text, m.GetProfile(name="ann"))
        assert 0 < len(fitted.recent) < 60 and fitted.recent == whole.recent[: len(fitted.recent)]
        assert fitted.lines[-len(fitted.recent) :] == whole.lines[-60 : -60 + len(fitted.recent)]
        lines = bytes(text.raw).split(b"\n")
        assert max(len(line) + 1 for line in lines) <= DEFAULT_LIMITS.max_line


async def test_a_thousand_requests_get_a_thousand_bounded_replies() -> None:
    async with serving(store=MemoryStore(), profile_burst=20, profile_per_second=5.0) as (
        _server,
        port,
    ):
        ann = await Client.connect(port, "ann")
        for i in range(1000):
            await ann.send(m.GetProfile(name="ann", id=10_000 + i))
        replies = []
        with trio.fail_after(60):
            while len(replies) < 1000:
                msg = await ann.next()
                if getattr(msg, "id", None) is not None and msg.id >= 10_000:
                    replies.append(msg)
        answered = [r for r in replies if isinstance(r, m.Profile)]
        refused = [r for r in replies if isinstance(r, m.Error)]
        assert len(answered) + len(refused) == 1000
        assert {r.code for r in refused} == {"rate_limited"}
        assert 20 <= len(answered) < 1000
        bob = await Client.connect(port, "bob")  # everyone else is still served
        assert isinstance(await bob.request(m.GetProfile(name="ann")), m.Profile)
