"""The declared payloads (``protocol.payloads``) hold to what the server really writes: mypy
checks every key a reader reads against these TypedDicts, so a key the server writes and
the type does not declare (or the reverse) would pass unseen."""

from __future__ import annotations

from typing import Any

import trio
from support import Member, settle

import engine
from engine.shedding.state import Awaiting, PendingKind
from protocol import messages as m
from protocol import payloads
from server.core.commands import Join, Watch
from server.core.config import ServerConfig
from server.players.profiles import game_map, rating_map
from server.store.base import MemoryStore, PlayedGame, Rating, StoredState
from server.tables.lobby import Lobby
from server.tables.room import people


def keys_of(typed: Any) -> tuple[set[str], set[str]]:
    """A TypedDict's required keys and every key it declares."""
    return set(typed.__required_keys__), set(typed.__required_keys__ | typed.__optional_keys__)


def holds(payload: dict[str, Any], typed: Any) -> None:
    required, declared = keys_of(typed)
    assert required <= set(payload) <= declared, (typed.__name__, sorted(payload))


def test_a_ruleset_and_its_options_are_described_as_declared() -> None:
    for rs in engine.all_rulesets():
        described = dict(rs.describe())
        holds(described, payloads.RulesetInfo)
        for option in described["options"]:
            holds(dict(option), payloads.OptionInfo)


def test_a_game_record_is_written_as_declared() -> None:
    for ruleset, seats in (("abbott", 2), ("switch", 3), ("kilodney", 4)):
        game = engine.new_game(ruleset, seats=seats, seed=2)
        game.apply(game.to_act, game.legal_actions(game.to_act)[0])
        holds(dict(game.record()), payloads.GameRecord)


def test_a_rating_and_a_history_line_are_written_as_declared() -> None:
    rating = rating_map(Rating("ann", "shedding", "Ann", 25.0, 8.3, 3))
    holds(dict(rating), payloads.Rating)
    line = game_map(PlayedGame(4, 2, "switch", True, 1.5e9, 0, ("Ann", "bob"), (30, 0), (0, 1)))
    holds(dict(line), payloads.PlayedGame)


async def test_a_table_and_the_people_at_it_are_listed_as_declared(nursery) -> None:
    config = ServerConfig(host="127.0.0.1", port=0, scrypt_n=2, bot_thinking="threads")
    lobby = Lobby(config, MemoryStore(), StoredState())
    await nursery.start(lobby.run)
    table = await lobby.create("switch", 4, {}, "ann", address=None)
    ann = Member("ann")
    await table.submit(Join(ann, 1, 0))
    await table.submit(Watch(Member("fan"), 2))
    await settle()
    (summary,) = lobby.summaries()
    holds(dict(summary), payloads.TableSummary)
    ann.tables = {table.id}  # what a connection at the table holds
    ann.last_message = trio.current_time()
    listed = people([ann], lobby, 10, trio.current_time())
    (person,) = listed.people
    holds(dict(person), payloads.Person)
    for place in person["tables"]:
        holds(dict(place), payloads.Place)


def test_a_shedding_view_off_the_wire_has_the_engine_kinds() -> None:
    game = engine.new_game("switch", seats=2, seed=1)
    view = {**game.view(0), "awaiting_kind": "suit"}
    view["pending"] = {"kind": "pickup", "count": 2, "cards": ["2C"]}
    wire = m.Snapshot(table="1", seq=1, state="playing", view=view).to_map()
    got = m.from_map({**wire, "view": {**view, "awaiting_kind": "suit"}})
    assert isinstance(got, m.Snapshot) and got.view
    assert got.view["awaiting_kind"] is Awaiting.SUIT
    assert got.view["pending"]["kind"] is PendingKind.PICKUP


def test_a_shedding_view_whose_power_is_no_map_is_refused_not_raised() -> None:
    """The decoder reads a shedding view's kinds: a pending power that is not a map with
    a kind is a bad message (``from_map`` never raises for a map)."""
    for pending in (3, {"count": 2}, {"kind": ["pickup"]}):
        view = {"family": "shedding", "pending": pending}
        got = m.from_map({"type": "snapshot", "table": "1", "seq": 1, "state": "playing",
                          "view": view})  # fmt: skip
        assert isinstance(got, m.InvalidMessage), (pending, got)
        assert got.code == "bad_message"


def test_a_game_view_keeps_its_keys_in_the_spec_order() -> None:
    """``ruleset`` then ``family`` then the other common keys, then the family's own."""
    for ruleset, seats in (("abbott", 2), ("switch", 2), ("kilodney", 4)):
        view = engine.new_game(ruleset, seats=seats, seed=3).view(None)
        keys = list(view)
        assert keys[:8] == [
            "ruleset", "family", "seats", "viewer", "to_act", "over", "scores", "options"
        ], keys  # fmt: skip
