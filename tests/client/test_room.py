"""The room in the terminal client: who is online (a panel in the lobby, `who` in full),
shouts in the lobby's log, and watchers coming and going at a table."""

from __future__ import annotations

import trio
from test_table_story import _app, _screen, _session, _snapshot

from client.net.state import ClientState
from protocol import messages as m

PEOPLE = m.People(
    people=(
        {"name": "ann", "state": "playing", "idle": 0,
         "tables": [{"table": "4", "seat": 0, "state": "playing"}]},
        {"name": "bob", "state": "watching", "idle": 0,
         "tables": [{"table": "4", "seat": None, "state": "playing"}]},
        {"name": "cy", "state": "idle", "tables": [], "idle": 300},
    ),
    total=3,
    guests=1,
)  # fmt: skip


def test_watchers_come_and_go_in_the_tables_log_and_panel() -> None:
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    st.handle(m.Watcher(table="1", what="came", name="zoe", watching=1))
    st.handle(m.Watcher(table="1", what="came", name=None, watching=2))
    screen = _screen(_app(st))
    assert "zoe came to watch (1 watcher)" in screen, screen
    assert "someone with no name came to watch (2 watchers)" in screen, screen
    panel = [line.split("│")[-1] for line in screen.splitlines() if "│" in line]
    assert "2 watchers" in panel, panel
    st.handle(m.Watcher(table="1", what="went", name="zoe", watching=1))
    assert "zoe stopped watching (1 watcher)" in _screen(_app(st))


def test_shouts_read_in_the_lobby_log_in_the_order_they_came() -> None:
    st = ClientState()
    st.name = "alice"
    app = _app(st, None)
    app.say("a line of the client's own")
    st.handle(m.Shouted(name="ann", text="switch at table 5, anyone?"))
    screen = _screen(app, 80, 24)
    assert "ann shouts: switch at table 5, anyone?" in screen, screen
    lines = screen.splitlines()
    own = next(i for i, line in enumerate(lines) if "of the client's own" in line)
    shout = next(i for i, line in enumerate(lines) if "ann shouts" in line)
    assert own < shout


def test_who_lists_the_room_in_the_lobby_panel_and_in_full() -> None:
    st = ClientState()
    st.name = "alice"
    st.handle(PEOPLE)
    lobby = _screen(_app(st, None), 80, 24)
    assert "Online (3)" in lobby, lobby
    panel = [line.split("│")[-1] for line in lobby.splitlines() if "│" in line]
    assert "ann        at 4" in panel and "bob        watching 4" in panel, panel
    assert "cy         lobby" in panel, panel
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    app = _app(st)
    trio.run(_session(app)._after, m.Who(), PEOPLE)
    screen = _screen(app, 80, 24)
    assert "3 people online, and 1 connection with no name yet:" in screen, screen
    assert "ann  playing at table 4" in screen and "bob  watching table 4" in screen, screen
    assert "cy   in the lobby, idle 5 min" in screen, screen


def test_the_lobby_panel_says_how_many_tables_the_list_left_out() -> None:
    """The server lists 8 of a name's tables and counts the rest in ``more``: the panel's
    short line shows the tables that fit and counts the rest, those left out included."""
    st = ClientState()
    st.name = "alice"
    spots = [{"table": str(n), "seat": 0, "state": "waiting"} for n in range(1, 9)]
    eve = {"name": "eve", "state": "seated", "tables": spots, "idle": 0, "more": 2}
    st.handle(m.People(people=(eve,), total=1))
    lobby = _screen(_app(st, None), 80, 24)
    panel = [line.split("│")[-1].rstrip() for line in lobby.splitlines() if "│" in line]
    assert "eve        at 1, at 2 +8" in panel, panel


def test_the_room_end_to_end(tmp_path, monkeypatch) -> None:
    """Against a real server: zoe comes to watch ann's table and ann's log says so; zoe
    shouts and ann's lobby reads it; `who` at the table lists who is on."""
    import asyncio

    from harness import Driver, run_client
    from test_app import other_client

    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        table, port = d.app.current, d.session.conn.port

        async def watch_shout_and_go(conn) -> None:
            await conn.watch(table)
            await conn.request(m.Shout(text="switch at table 9, anyone?"))
            await conn.request(m.Leave(table=table))

        await asyncio.to_thread(other_client, port, watch_shout_and_go)
        await d.until_screen("zoe came to watch (1 watcher)")
        await d.until_screen("zoe stopped watching (0 watchers)")
        d.line("who")
        page = await d.until_screen("┌─ who")
        assert "1 person online:" in page and "ann  playing at table" in page, page
        d.keys("\x1b")
        d.line("lobby")
        await d.until_screen("zoe shouts: switch at table 9, anyone?")
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", name="ann")) == 0


def test_a_notice_reads_once_in_the_lobby_in_its_place() -> None:
    """Before: a notice that came while the lobby was on screen read twice there (once as
    the server's notice, once as the reply), and every notice read above every other line,
    whenever it came."""
    st = ClientState()
    st.name = "alice"
    app = _app(st, None)
    session = _session(app)
    st.handle(m.Shouted(name="ann", text="first"))
    notice = m.Notice(text="the server restarts in 5 minutes")
    st.handle(notice)
    session._show_notice(notice)
    screen = _screen(app, 80, 24)
    assert screen.count("the server restarts in 5 minutes") == 1, screen
    lines = screen.splitlines()
    first = next(i for i, line in enumerate(lines) if "ann shouts: first" in line)
    later = next(i for i, line in enumerate(lines) if "restarts in 5" in line)
    assert first < later, screen


def test_talk_or_a_watcher_after_leaving_makes_no_ghost_table() -> None:
    """A line in flight when we left (talk, presence, a watcher) is dropped: it does not
    bring the table back into "Your tables" as one we watch."""
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    st.tables.pop("1")  # what leaving does
    assert st.handle(m.Talk(table="1", name="bob", text="bye")) is None
    assert st.handle(m.Watcher(table="1", what="went", name="zoe", watching=0)) is None
    assert st.handle(m.Presence(table="1", seat=1, name="bob", what="left")) is None
    assert "1" not in st.tables
    assert "none yet" in _screen(_app(st, None), 80, 24)


def test_a_shout_reaches_a_player_at_a_table_on_the_reply_line() -> None:
    """The lobby's log keeps shouts; at a table one shows on the reply line, not in the
    table's own log."""
    st = ClientState()
    st.name = "alice"
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    app = _app(st)
    shout = m.Shouted(name="zoe", text="kilodney at 9, anyone?")
    st.handle(shout)
    _session(app)._show_shout(shout)
    screen = _screen(app, 80, 24)
    assert screen.count("zoe shouts: kilodney at 9, anyone?") == 1, screen
    assert not any(line.kind == "shout" for line in st.tables["1"].log)


def test_the_panel_counts_watchers_from_the_table_list_too() -> None:
    """A client that came back to its seat was told of no watcher yet: the table list's
    count serves until a watcher comes or goes."""
    st = ClientState()
    st.name = "bob"
    st.handle(_snapshot(1, ("bob", "bot:heuristic", None)))
    st.handle(m.Tables(tables=({"table": "1", "ruleset": "switch", "spectators": 2},)))
    panel = [line.split("│")[-1] for line in _screen(_app(st), 80, 24).splitlines()]
    assert "2 watchers" in panel, panel


def test_back_in_the_lobby_the_table_list_is_fresh(tmp_path, monkeypatch) -> None:
    """Before: `lobby` showed the list kept from the last time the lobby was on screen (a
    closed table still listed, a new one missing) until the periodic refresh came; here
    that refresh never comes, so only the return to the lobby can fetch the new table."""
    import asyncio

    from harness import Driver, run_client
    from test_app import other_client

    import client.terminal.session

    monkeypatch.setenv("SWITCHBOARD_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(client.terminal.session, "LOBBY_REFRESH", 3600.0)

    def listed(d: Driver) -> str:
        return d.screen(100, 30).split("games:")[0]

    async def script(d: Driver) -> None:
        await d.until(lambda: d.table is not None and d.table.view, what="the board")
        port = d.session.conn.port

        async def open_a_table(conn) -> None:
            await conn.request(m.CreateTable(ruleset="kilodney", seats=4))

        await asyncio.to_thread(other_client, port, open_a_table)
        d.line("lobby")
        await d.until(lambda: "kilodney" in listed(d), what="the new table in the lobby")
        d.line("quit")

    assert asyncio.run(run_client(script, game="switch", name="ann")) == 0


def test_a_finished_table_reads_over_not_waiting_in_the_panel_and_in_who() -> None:
    """A player still seated at a table whose game has ended is not "waiting" there."""
    over = m.People(
        people=({"name": "dan", "state": "seated", "idle": 0,
                 "tables": [{"table": "7", "seat": 1, "state": "over"}]},),
        total=1,
        guests=0,
    )  # fmt: skip
    st = ClientState()
    st.name = "alice"
    st.handle(over)
    panel = [line.split("│")[-1] for line in _screen(_app(st, None), 80, 24).splitlines()]
    assert any("dan" in line and "at 7 (over)" in line for line in panel), panel
    st.handle(_snapshot(1, ("alice", "bob", "bot:heuristic")))
    app = _app(st)
    trio.run(_session(app)._after, m.Who(), over)
    screen = _screen(app, 80, 24)
    assert "dan  seated at table 7, game over" in screen and "waiting" not in screen, screen
