"""The table's story told truly: each log line names who did it then, a player who comes back
is not shown as gone, and a many-line reply reads in full at a table as in the lobby."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import trio
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import engine
from client.net.state import ClientState
from client.terminal.app import ClientApp, render_text
from client.terminal.session import Session
from protocol import messages as m


def _app(state: ClientState, table: str | None = "1") -> ClientApp:
    with create_pipe_input() as pipe:
        app = ClientApp(state, lambda _line: None, input=pipe, output=DummyOutput())
    app.show_table(table)
    return app


def _screen(app: ClientApp, columns: int = 120, rows: int = 40) -> str:
    async def draw() -> str:
        render_text(app, columns, rows)  # a first drawing finds each window's width
        return render_text(app, columns, rows)

    return asyncio.run(draw())


def _snapshot(seq: int, players: tuple[str | None, ...], state: str = "playing") -> m.Snapshot:
    game = engine.new_game("switch", seats=3, seed=5)
    return m.Snapshot(table="1", seq=seq, state=state, view=game.view(0), seat=0, players=players)


def _event(seq: int, event: dict[str, Any]) -> m.TableEvent:
    return m.TableEvent(table="1", seq=seq, event=event)


def test_a_log_line_names_who_played_then_not_who_sits_now() -> None:
    """Before: after bob left and a bot took his seat, every old line of his said "bot 1",
    the finished game's scores too."""
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    st.handle(_event(2, {"kind": "play", "seat": 1, "cards": ["3C"]}))
    st.handle(_event(3, {"kind": "game_end", "scores": [0, 0, 222]}))
    st.handle(_snapshot(3, ("alice", "bob", None), state="over"))
    st.handle(_snapshot(3, ("alice", "bob", "bot:heuristic")))  # a new game, bob still here
    st.handle(_event(4, {"kind": "play", "seat": 1, "cards": ["4C"]}))
    st.handle(m.Presence(table="1", seat=1, name="bob", what="left"))
    st.handle(_snapshot(4, ("alice", "bot:heuristic", "bot:heuristic")))
    st.handle(_event(5, {"kind": "play", "seat": 1, "cards": ["5C"]}))
    screen = _screen(_app(st))
    assert "bob plays 3♣" in screen, screen
    assert "bob plays 4♣" in screen, screen
    assert "bob 0" in screen and "bot 2 0" not in screen, screen
    assert "bot 2 plays 5♣" in screen, screen  # the bot's own play is the bot's


def test_a_caught_up_line_names_the_players_of_its_time_as_far_as_known() -> None:
    """Events filed into the log by a catch-up (older than the board) are named by the
    seating that followed them, not by a seating that came later still."""
    st = ClientState()
    st.name = "alice"
    t = st.table("1")
    st.handle(_snapshot(6, ("alice", "bob", "bot:heuristic")))
    t.backfill_to = 6
    st.handle(_event(7, {"kind": "play", "seat": 1, "cards": ["7C"]}))
    st.handle(m.Presence(table="1", seat=1, name="bob", what="left"))
    st.handle(_snapshot(7, ("alice", "bot:heuristic", "bot:heuristic")))
    st.handle(_event(5, {"kind": "play", "seat": 1, "cards": ["5C"]}))  # the catch-up
    screen = _screen(_app(st))
    assert "bob plays 5♣" in screen and "bob plays 7♣" in screen, screen


def test_a_player_who_left_and_sat_again_is_not_gone() -> None:
    """Before: bob left table 13 and joined again; the panel kept "bob (gone)" while he
    played (the server says "back" only to a seat that stayed his)."""
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    st.handle(m.Presence(table="1", seat=1, name="bob", what="left"))
    st.handle(_snapshot(1, ("alice", None, "bot:heuristic")))
    assert "(gone)" not in _screen(_app(st))  # an empty seat is nobody's
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))  # bob joins again
    t = st.tables["1"]
    assert t.away(1) is None
    screen = _screen(_app(st))
    assert "bob" in screen and "(gone)" not in screen, screen
    assert "bob sits down (seat 2)" in screen, screen  # the log says he came back


def test_only_a_change_of_seat_is_told() -> None:
    """The first snapshot of a table, a bot taking a seat, our own seat and a snapshot that
    changes nobody say nothing; a newcomer sitting down is told."""
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", None), state="waiting"))
    st.handle(_snapshot(1, ("alice", "bob", "bot:random"), state="waiting"))
    st.handle(_snapshot(1, ("alice", "bob", "bot:random"), state="waiting"))
    assert [line.kind for line in st.tables["1"].log] == []
    st.handle(_snapshot(1, ("alice", "bob", "cy"), state="waiting"))
    assert "cy sits down (seat 3)" in _screen(_app(st))


def test_a_player_who_dropped_stays_gone_until_he_is_back() -> None:
    """A dropped player keeps his seat: he reads as gone until the server says "back"."""
    st = ClientState()
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    st.handle(m.Presence(table="1", seat=1, name="bob", what="dropped"))
    st.handle(_snapshot(2, ("alice", "bob", "bot:heuristic")))
    assert "bob (gone)" in _screen(_app(st))
    st.handle(m.Presence(table="1", seat=1, name="bob", what="back"))
    assert "(gone)" not in _screen(_app(st))


def _session(app: ClientApp) -> Session:
    conn = SimpleNamespace(state=app.state, on_each_message=lambda _hook: None)
    return Session(conn, app)  # type: ignore[arg-type]


def _top(n: int) -> m.Top:
    players = tuple(
        {"place": i + 1, "name": f"player{i + 1}", "rating": 1600 - i, "games": 10}
        for i in range(n)
    )
    return m.Top(family="shedding", players=players)


def test_top_finger_and_history_read_in_full_at_a_table() -> None:
    """Before: at a table, `top shedding` showed only its last line, "2. alice 1427"; in the
    lobby it printed in full."""
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    app = _app(st)
    session = _session(app)
    trio.run(session._after, m.GetTop(family="shedding"), _top(12))
    screen = _screen(app, 80, 24)
    for i in (1, 2, 12):
        assert f"{i}. player{i} {1600 - i + 1}" in screen, screen
    games = tuple(
        {
            "table": "4",
            "game": g,
            "ruleset": "switch",
            "rated": True,
            "time": 0.0,
            "seat": 0,
            "players": ["a", "b"],
            "scores": [0, 0],
            "places": [0, 1],
        }
        for g in range(1, 4)
    )
    history = m.History(name="alice", games=games, start=0, total=3)
    trio.run(session._after, m.GetHistory(name="alice"), history)
    screen = _screen(app, 80, 24)
    for g in (1, 2, 3):
        assert f"table 4 game {g}, switch, rated: a 1st, b 2nd" in screen, screen


def test_a_player_who_leaves_after_the_game_leaves_no_bot_behind() -> None:
    """Before: "bob left the table (a bot takes the seat)" once the game was over."""
    st = ClientState()
    st.handle(_snapshot(3, ("alice", "bob", None), state="over"))
    st.handle(m.Presence(table="1", seat=1, name="bob", what="left"))
    screen = _screen(_app(st))
    assert "bob left the table" in screen and "a bot takes" not in screen, screen
    st.handle(_snapshot(3, ("alice", None, None)))
    st.handle(_snapshot(4, ("alice", "bob", "bot:heuristic")))  # a new game, bob back
    st.handle(m.Presence(table="1", seat=1, name="bob", what="left"))
    assert "bob left the table (a bot takes the seat)" in _screen(_app(st))
    st.handle(_snapshot(4, ("alice", "bot:heuristic", "cy"), state="paused"))
    st.handle(m.Presence(table="1", seat=2, name="cy", what="left"))
    assert "cy left the table (a bot takes the seat)" in _screen(_app(st))  # paused: too


def test_a_long_log_line_wraps_between_words() -> None:
    """Before: the log broke a long line at the pane's last column, mid-word."""
    st = ClientState()
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    words = [f"word{i:02d}x" for i in range(40)]
    st.handle(m.Talk(table="1", name="bob", text=" ".join(words)))
    for columns in (80, 120):
        screen = _screen(_app(st), columns, 30)
        for word in words:
            assert word in screen, (columns, word, screen)
        continued = [line for line in screen.splitlines() if line.split("│")[-1][:6] == "  word"]
        assert continued, screen  # a wrapped line continues indented under itself


def test_a_bot_has_one_name_in_the_lobby_and_at_the_table() -> None:
    """Before: "bot 1" at the table and "search (bot)" in the lobby."""
    st = ClientState()
    st.name = "alice"
    st.lobby = [
        {
            "table": "1",
            "ruleset": "switch",
            "seats": 3,
            "state": "playing",
            "players": ["alice", "bot:search", "bot:search"],
            "ratings": [],
        }
    ]
    lobby = _screen(_app(st, None), 80, 24)
    row = next(line for line in lobby.splitlines() if line.startswith("1 "))
    assert "alice, bot 2, bot 3" in row and "(bot)" not in row, row
    st.handle(_snapshot(1, ("alice", "bot:search", "bot:search")))
    assert "bot 2" in _screen(_app(st), 80, 24)


def test_an_event_before_any_seating_is_named_when_the_seating_comes() -> None:
    """An event that arrives before the table's first snapshot (a resumed seat's missed
    events) keeps no empty seating: it is named by the seating that comes after it."""
    st = ClientState()
    st.handle(m.Seated(table="1", seat=0, token="t"))
    st.handle(_event(4, {"kind": "play", "seat": 1, "cards": ["4C"]}))
    st.handle(_snapshot(4, ("alice", "bob", "bot:heuristic")))
    screen = _screen(_app(st))
    assert "bob plays 4♣" in screen and "seat 2" not in screen, screen


def test_a_long_top_reads_whole_in_the_lobby_too() -> None:
    """At 80x24 the lobby's log has about a dozen rows: a top of 20 lost its first lines."""
    st = ClientState()
    st.name = "alice"
    app = _app(st, None)
    trio.run(_session(app)._after, m.GetTop(family="shedding"), _top(20))
    screen = _screen(app, 80, 24)
    for i in (1, 2, 19):
        assert f"{i}. player{i} {1600 - i + 1}" in screen, screen
    app.page.scroll(10)  # type: ignore[union-attr]
    assert "20. player20 1581" in _screen(app, 80, 24)


def test_an_abbott_bot_has_the_lobbys_name_at_the_table_too() -> None:
    """Before: an abbott bot was "West (bot)" at the table and "bot 1" in the lobby and
    in text mode; a server bot is ``bot N`` (N its seat) wherever it is named."""
    game = engine.new_game("abbott", seats=4, seed=3)
    players = ("alice", "bot:search", "bot:heuristic", "bot:search")
    st = ClientState()
    st.name = "alice"
    st.lobby = [{"table": "1", "ruleset": "abbott", "seats": 4, "state": "playing",
                 "players": list(players), "ratings": []}]  # fmt: skip
    st.handle(
        m.Snapshot(table="1", seq=1, state="playing", view=game.view(0), seat=0, players=players)
    )
    assert st.tables["1"].names == ["alice", "bot 2", "bot 3", "bot 4"]
    screen = _screen(_app(st))
    assert "bot 2" in screen and "bot 4" in screen, screen
    assert "(bot)" not in screen, screen
    said = " ".join(_app(st).help_lines()) + " ".join(_app(st, None).help_lines())
    assert said.count("A server bot is named bot N, N its seat") == 2, said


def test_a_notice_goes_to_the_log_of_the_table_it_names() -> None:
    """Before: the client found the table in the notice's English (``at table N``), so a
    notice worded otherwise ("unseated you from table 1") missed the table's log; now the
    notice's ``table`` field says it."""
    st = ClientState()
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    st.handle(m.Notice(text="the game master unseated you from table 1", table="1"))
    st.handle(m.Notice(text="a word at table 1, about no table"))  # server-wide
    notes = [line.data["text"] for line in st.tables["1"].log if line.kind == "note"]
    assert notes == ["the game master unseated you from table 1"]
    assert len(st.notice_lines) == 2  # the lobby's log has both
