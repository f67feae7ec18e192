"""The terminal client's trio side: typed lines to the server, messages to the screen.

``Session.run(lines)`` reads the lines the UI hands over (``client.terminal.guest``),
turns each into a message with the shared command parser
(``protocol.commands.parse_command``, the same language as the text
protocol), sends it and puts the answer on the screen; meanwhile it folds
every message from the server into the state and asks the UI to redraw.
Lines are carried out one at a time, in the order typed.
"""

from __future__ import annotations

import functools
import json
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import trio

from client.bots.advice import analysis_lines, compute_hint, hint_refusal, shown_events
from client.net.config import records_dir, remember_name, secret_for
from client.net.connection import LATEST, Connection, ConnectionLost, ServerError
from client.net.records import RecordError, fetch_record
from client.net.seats import SeatBook
from client.net.state import LogLine, TableState
from client.net.talk_book import TALK_FILE, TalkBook
from client.terminal import players
from client.terminal.app import ClientApp
from client.terminal.moves import blunder_penalty, draw_alias, spelled_out, square_problem
from client.terminal.review import Reviewer
from client.terminal.tournament import Desk
from protocol import fields
from protocol import messages as m
from protocol.commands import CommandError, as_listed, parse_command
from protocol.errors import ProtocolError
from protocol.words import plural

LOBBY_REFRESH = 5.0
#: events of a game in progress shown in the log of a table joined or watched mid-game
#: (the server sends as many of them as it still holds; see docs/protocol.md, resume)
LOG_CATCH_UP = 40


class Session:
    """One person's session: a connection and the screens drawing it."""

    def __init__(
        self,
        conn: Connection,
        ui: ClientApp,
        *,
        records_dir: Path | None = None,
        seats: SeatBook | None = None,
    ):
        self.conn = conn
        self.ui = ui
        self.records_dir = records_dir
        #: where this person's seats are kept between runs (None: not kept, as for the
        #: private server of a `switchboard play` without an address)
        self.seats = seats
        #: the talk at those seats, kept beside them (the server never replays talk)
        self.talk = None if seats is None else TalkBook(seats.path.with_name(TALK_FILE))
        if self.talk is not None:
            conn.state.on_talk = self._keep_talk
        conn.on_each_message(ui.arrived)
        #: a penalised play typed once and not yet confirmed: (table, the line)
        self.confirming: tuple[str, str] | None = None
        self._nursery: trio.Nursery | None = None
        #: tables joined or watched whose first snapshot has not come yet
        self._arriving: set[str] = set()
        #: seats taken back at start whose kept talk goes back into the log on arrival
        self._talk_back: set[str] = set()
        #: the analysis running in the background (set it to stop the workers)
        self._analysing: threading.Event | None = None
        #: the shared review: the board at the step led or followed (``review``, ``follow``)
        self.reviewer = Reviewer(conn.state, self._quiet, ui.say, ui.changed, lambda: ui.ascii_only)
        #: the tournaments heard of; a round's table is sat at by itself
        self.desk = Desk(
            lambda title, lines: ui.show_lines(title, lines, "class:ok"),
            ui.pages.show_lines,
            lambda: ui.pages.title,
            self.sit_told,
            lambda text: ui.say(text, "class:ok"),
            self.save_record,
        )

    async def run(self, lines: trio.MemoryReceiveChannel[str]) -> None:
        """Until the lines end (the UI quit) or the connection is gone for good."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._pump)
            nursery.start_soon(self._refresh_lobby)
            await self._quiet(m.ListRulesets())
            await self._quiet(m.ListTables())
            await self._quiet(m.Who())
            self._greet()
            await self.sit_down_again()
            async for line in lines:
                await self.run_line(line)
            nursery.cancel_scope.cancel()

    @property
    def _who(self) -> str:
        """The key of this person's seats: ``name@host:port``."""
        return f"{self.conn.state.name or self.conn.name}@{self.conn.host}:{self.conn.port}"

    def _greet(self) -> None:
        """Keep the name this client came in as for next time, or, with none, say how to
        take one (the server never hands one out: a person chooses his name)."""
        name = self.conn.state.name
        if name is None:
            self.ui.say("you have no name here yet: name YOURNAME to play (kept for next time)")
        elif self.seats is not None:
            remember_name(f"{self.conn.host}:{self.conn.port}", name, self.seats.path.parent)

    async def sit_down_again(self) -> None:
        """Take back every seat held when the client last ran: by its kept token
        (``resume``), else, where the server's table list shows our name seated, by
        ``join`` (which gives a name its own seat back). The log is caught up as for a
        table joined mid-game. The first table taken back is shown."""
        if self.seats is None or self.conn.state.name is None:
            return
        back: list[str] = []
        for table, token in self.seats.held(self._who).items():
            self._arriving.add(table)
            self._talk_back.add(table)
            reply = await self._quiet(m.Resume(table=table, token=token, last_seq=LATEST))
            if isinstance(reply, m.Seated):
                back.append(table)
            else:  # the table closed, or the seat is no longer this token's
                self._arriving.discard(table)
                self._talk_back.discard(table)
                self._forget_seat(table)
        name = self.conn.state.name
        for info in self.conn.state.lobby:
            table = info["table"]
            if name and name in info["players"] and table not in back:
                self._arriving.add(table)
                if isinstance(await self._quiet(m.Join(table=table)), m.Seated):
                    back.append(table)
                else:
                    self._arriving.discard(table)
        if back:
            self.ui.show_table(back[0])
            where = ", ".join(back)
            self.ui.say(f"back in your seat at table {where}", "class:ok")
            await self._quiet(m.ListTables())

    async def _pump(self) -> None:
        async for msg in self.conn.events():
            if isinstance(msg, m.Notice):
                self._show_notice(msg)
            elif isinstance(msg, m.Shouted):
                self._show_shout(msg)
            elif isinstance(msg, m.Snapshot) and self._nursery is not None:
                # A deal or a change of seats: the table's options (what a blunder costs)
                # and players come from the table list, so it is fetched again.
                self._nursery.start_soon(self._quiet, m.ListTables())
                if msg.table in self._talk_back and self.talk is not None:
                    self._talk_back.discard(msg.table)  # said before this run, in its place
                    self.conn.state.restore_talk(msg.table, self.talk.lines(self._who, msg.table))
                if msg.table in self._arriving:
                    self._arriving.discard(msg.table)
                    if msg.state in fields.RUNNING and msg.seq > 0:
                        # Joined or watching mid-game: the log shows how the board came about.
                        self._nursery.start_soon(self.conn.catch_up_log, msg.table, LOG_CATCH_UP)
            elif isinstance(msg, m.Seated) and self.seats is not None:
                self.seats.remember(self._who, msg.table, msg.token)
            elif isinstance(msg, m.Goodbye):
                self.ui.say(f"the server said goodbye: {msg.text or msg.code}", "class:error")
            elif isinstance(msg, m.Reviewing) and self._nursery is not None:
                if self.reviewer.follows(msg):
                    self._nursery.start_soon(self.reviewer.draw, msg.table, msg.step, msg.game)
            elif isinstance(msg, m.Tournament):
                self.desk.pushed(msg)
            elif isinstance(msg, m.YourTable) and self._nursery is not None:
                self._nursery.start_soon(self.desk.told, msg)
            elif isinstance(msg, m.AnalysisProgress):
                self.ui.say(f"analysing table {msg.table}: {msg.done}/{msg.total} decisions")
            self.ui.ring_on_turn()
            self.ui.changed()
        self.ui.say("the connection is closed", "class:error")

    async def sit_told(self, table: str) -> None:
        """Sit at the table a tournament's round gives us (the seat is held for our name)
        and show it, as typing ``join TABLE`` would."""
        self._arriving.add(table)
        reply = await self._quiet(m.Join(table=table))
        if isinstance(reply, m.Seated):
            self.ui.pages.close()
            self.ui.show_table(table)
        else:
            self._arriving.discard(table)
            why = getattr(reply, "text", "") or "the connection is gone"
            self.ui.say(f"could not sit at table {table}: {why}", "class:error")
        self.ui.changed()

    def _show_notice(self, msg: m.Notice) -> None:
        """A notice on the reply line at a table, unless it is that table's own: its log has
        it already, in order with the moves, where the reply line would keep it below what
        came after (the clock's move shown under the game's end). The lobby's log has
        every notice already, in its place."""
        if self.ui.current is not None and msg.table != self.ui.current:
            self.ui.say(msg.text, "class:log.event")

    def _show_shout(self, msg: m.Shouted) -> None:
        """A shout on the reply line at a table (the table's log is the table's alone); the
        lobby's log has every shout."""
        if self.ui.current is not None:
            self.ui.say(f"{msg.name} shouts: {msg.text}", "class:talk.name")

    def _keep_talk(self, table: str, line: LogLine) -> None:
        """Keep talk heard at a seat we hold, for the log of the next run."""
        t = self.conn.state.tables.get(table)
        if self.talk is not None and t is not None and t.token is not None:
            self.talk.keep(self._who, table, line)

    def _forget_seat(self, table: str) -> None:
        """The seat at ``table`` is given up or gone: forget its token and its talk."""
        if self.seats is not None:
            self.seats.forget(self._who, table)
        if self.talk is not None:
            self.talk.forget(self._who, table)

    async def _refresh_lobby(self) -> None:
        """The lobby's table list, and who is online, are fetched while the lobby is on
        screen (a server too old for ``who`` answers it with an error, which is ignored)."""
        while True:
            await trio.sleep(LOBBY_REFRESH)
            if self.ui.current is None and self.conn.connected:
                await self._quiet(m.ListTables())
                await self._quiet(m.Who())

    async def _quiet(self, msg: m.Message) -> Any:
        try:
            return await self.conn.request(msg, check=False)
        except ConnectionLost:
            return None

    async def run_line(self, line: str) -> None:
        """Carry out one typed line and show the outcome on the reply line."""
        table = self.ui.current
        t = self.conn.state.tables.get(table) if table else None
        if t is not None:
            spelled = spelled_out(line)
            if spelled != line:  # a short form plays the card as the legal list offers it
                spelled = as_listed(spelled, t.legal)
            line = draw_alias(spelled, t.view)
            problem = square_problem(line, t.view)
            if problem:
                self.ui.say(problem, "class:error")
                return
            if not self._confirmed(t, line):
                return
        words = line.split()
        if words and words[0].lower() == "hint":
            await self.hint(t)
            return
        if words and words[0].lower() in ("analyze", "analyse"):
            self.analyze(words[1] if len(words) > 1 else table)
            return
        try:
            if words[0].lower() == "name" and len(words) == 2:
                server = f"{self.conn.host}:{self.conn.port}"
                msg: m.Message = m.ClaimName(name=words[1], secret=secret_for(words[1], server))
            else:
                msg = parse_command(line, table=table)
        except (CommandError, ProtocolError, ValueError) as exc:
            self.ui.say(str(exc), "class:error")
            return
        if isinstance(msg, m.Quit):
            self.ui.exit()
            return
        if isinstance(msg, (m.Join, m.Spectate)) and msg.table not in self.conn.state.tables:
            self._arriving.add(msg.table)
        try:
            reply = await self.conn.request(msg)
        except ServerError as exc:
            self.ui.say(f"{exc.text or exc.code}", "class:error")
            return
        except ConnectionLost as exc:
            self.ui.say(f"not sent: {exc}", "class:error")
            return
        await self._after(msg, reply)
        self.ui.changed()

    async def hint(self, t: TableState | None) -> None:
        """The search's advice for this move, from this seat's knowledge (in a thread)."""
        refused = hint_refusal(t)
        if refused is not None or t is None or t.view is None:
            self.ui.say(refused or "hint: only at a table", "class:error")
            return
        self.ui.say("thinking...")
        think = functools.partial(compute_hint, t.view.copy(), shown_events(t), list(t.legal))
        self.ui.say(await trio.to_thread.run_sync(think, abandon_on_cancel=True), "class:ok")

    def analyze(self, table: str | None) -> None:
        """Start the analysis of ``table``'s finished game in the background: the person
        plays on meanwhile; the result goes into the table's log."""
        if table is None:
            self.ui.say("analyze TABLE: the finished game of a table you are at", "class:error")
        elif self._analysing is not None:
            self.ui.say(
                "analyze: one analysis at a time (the first is still running)", "class:error"
            )
        elif self._nursery is not None:
            self._analysing = threading.Event()
            self._nursery.start_soon(self._analyze, table, self._analysing)

    async def _analyze(self, table: str, stop: threading.Event) -> None:
        def progress(done: int, total: int) -> None:
            text = f"analysing table {table}: {done}/{total} decisions"
            trio.from_thread.run_sync(self.ui.say, text)

        try:
            try:
                record = await fetch_record(self._quiet, table)
            except RecordError as exc:
                self.ui.say(f"analyze: {exc}", "class:error")
                return
            if not record.get("full") or "seed" not in record:
                self.ui.say(
                    f"analyze: table {table}'s game is not over yet (its deal is secret"
                    " until it ends)",
                    "class:error",
                )
                return
            t = self.conn.state.tables.get(table)
            if t is not None and not record.get("names"):
                record = {**record, "names": list(t.names)}
            work = functools.partial(analysis_lines, record, progress, stop)
            lines = await trio.to_thread.run_sync(work, abandon_on_cancel=True)
        except ValueError as exc:  # a family with no analysis, a record that does not replay
            self.ui.say(f"analyze: {exc}", "class:error")
            return
        finally:
            stop.set()  # the person quit, or it is done: the workers end either way
            self._analysing = None
        for text in lines:
            self.conn.state.note(table, text)
        self.ui.say(f"the analysis of table {table} is in its log", "class:ok")
        self.ui.changed()

    def _confirmed(self, t: TableState, line: str) -> bool:
        """Whether ``line`` may go: any line but a play the table penalises, which goes
        only when typed twice running (the first time, the player is told the cost)."""
        asked, self.confirming = self.confirming, None
        penalty = blunder_penalty(self.conn.state, t, line)
        if not penalty or asked == (t.table, line.strip().lower()):
            return True
        self.confirming = (t.table, line.strip().lower())
        self.ui.say(
            f"not legal: {line.strip()} costs you {plural(penalty, 'card')} here;"
            " type it again to play it anyway",
            "class:warn",
        )
        return False

    async def _after(self, msg: m.Message, reply: Any) -> None:
        """What a successful reply means for the screen: a request that moves us (to a
        table, back to the lobby) says so; any other shows its reply."""
        if self.reviewer.answered(msg, reply):
            if isinstance(msg, m.Review) and self._nursery is not None:
                self._nursery.start_soon(self.reviewer.draw, msg.table, msg.step)
        elif not await self._moved(msg, reply):
            await self._show_reply(msg, reply)

    async def _moved(self, msg: m.Message, reply: Any) -> bool:
        """The screen after a request that moves us or starts a game; False for others."""
        if isinstance(msg, (m.Join, m.Spectate)):
            self.ui.show_table(msg.table)
            what = "watching" if isinstance(msg, m.Spectate) else "seated at"
            # (watching your own table keeps you seated: the server's reply says so)
            said = reply.text if isinstance(reply, m.Ok) and reply.text else ""
            self.ui.say(said or f"{what} table {msg.table}", "class:ok")
        elif isinstance(msg, m.Look):
            self.ui.show_table(msg.table)
            self.ui.say(f"table {msg.table} as it is now", "class:ok")
        elif isinstance(msg, m.CreateTable):
            table = getattr(reply, "table", None)
            await self._quiet(m.ListTables())
            if table:
                self.ui.say(f"table {table} is open; joining it", "class:ok")
                await self.run_line(f"join {table}")
        elif isinstance(msg, m.Leave):
            self.conn.state.forget(msg.table)
            self._forget_seat(msg.table)
            self.ui.show_table(None)
            await self._quiet(m.ListTables())
            self.ui.say(f"left table {msg.table}", "class:ok")
        elif isinstance(msg, m.StartGame):
            self.ui.say("the game has started", "class:ok")
        elif isinstance(msg, m.ClaimName) and isinstance(reply, m.Named):
            # A reconnect and the next start come back as this name, and its seats are ours.
            self.conn.claimed(reply.name, msg.secret)
            self.ui.say(f"you are {reply.name}", "class:ok")
            self._greet()
            await self.sit_down_again()
        else:
            return False
        return True

    async def _show_reply(self, msg: m.Message, reply: Any) -> None:
        """A reply on the screen: a record saved, a page of lines, or a word on the
        reply line (an action, talk and a shout answer with nothing to say)."""
        if isinstance(reply, m.Record):
            await self._save_reply(reply)
        elif isinstance(reply, m.Chips):
            self.ui.say(f"{reply.name} has {plural(reply.balance, 'chip')}", "class:ok")
        elif isinstance(reply, (m.Profile, m.History, m.Top, m.People)):
            self.ui.show_lines(players.title(reply), players.describe(reply), "class:ok")
        elif isinstance(reply, (m.Tournament, m.Tournaments)):
            self.desk.reply(reply)
        elif isinstance(reply, m.Named):
            self.ui.say(f"you are {reply.name}", "class:ok")
        elif isinstance(reply, m.HelpText):
            self.ui.say(" / ".join(reply.lines)[:200])
        elif isinstance(reply, m.Ok):
            self._say_ok(msg, reply)

    def _say_ok(self, msg: m.Message, reply: m.Ok) -> None:
        if reply.text:
            self.ui.say(reply.text, "class:ok")
        elif isinstance(msg, m.HearShouts):
            self.ui.say("you hear shouts" if msg.on else "shouts are off for you", "class:ok")
        elif not isinstance(msg, (m.Act, m.Say, m.Shout)):
            self.ui.say("ok", "class:ok")

    async def _save_reply(self, reply: m.Record) -> None:
        """A record asked for: every page of it fetched, and kept as a file."""
        record = {**dict(reply.record), "full": reply.full}
        if reply.next is not None or reply.start:  # a long game: fetch every page
            try:
                record = await fetch_record(self._quiet, reply.table)
            except RecordError as exc:
                self.ui.say(f"record: {exc}", "class:error")
                return
        self.ui.say(f"record saved to {self.save_record(reply.table, record)}", "class:ok")

    def save_record(self, table: str, record: dict[str, Any]) -> Path:
        """Keep a fetched record (every page joined, with ``full``) as JSON
        (``switchboard replay FILE`` steps through it), named for its game, day, time and
        table so that no record overwrites another (a private game is always table 1);
        with the players' names, which the record itself does not hold."""
        t = self.conn.state.tables.get(table)
        if t is not None and not record.get("names"):
            record = {**record, "names": t.names}
        directory = self.records_dir or records_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / record_file_name(str(record.get("ruleset", "game")), table)
        n = 2
        while path.exists():  # two records of one table in one second
            path = path.with_name(f"{path.stem.rsplit('~', 1)[0]}~{n}.json")
            n += 1
        path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        return path


def record_file_name(ruleset: str, table: str, when: datetime | None = None) -> str:
    """``<ruleset>-<date>-<time>-<table>.json``, in local time, to the second (a second
    record of one table within the same second is saved with ``~2`` after it).

    >>> record_file_name("switch", "1", datetime(2026, 11, 23, 16, 5, 9))
    'switch-2026-11-23-160509-1.json'
    """
    when = when or datetime.now()
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in f"{ruleset}")
    table_word = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in table)
    return f"{safe}-{when:%Y-%m-%d-%H%M%S}-{table_word}.json"
