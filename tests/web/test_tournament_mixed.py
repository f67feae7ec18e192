"""The evening's tournament on every client: a Swiss tournament of 3 rounds with 7 people,
from the lobby to the final standings, server bots filling the gaps.

The people: two browsers at phone size (they enter from the lobby's card, sit down at
each round's table by themselves, and tap legal actions), the terminal client (it enters
by typing, sits down by itself, and types the first legal action), a player in text
mode over TCP as a person at ``nc`` is (it reads the sentences: told its table, it types
a bare ``look`` to sit there; on its turn it types the first action it may) and three
msgpack bots (each sits where ``your_table`` says). A host over msgpack creates and
starts it. Tables of 2 seats, so 7 people make three tables and one with a server bot
each round; hands of 3 cards keep the games short. At the end every client reads the
same standings, the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from conftest import Server, wait_for
from mpclient import MsgpackPlayer
from webpage import (
    MOVING,
    click,
    open_client,
    settle,
    table_state,
    take_name,
    tap_something,
    visible,
)

#: The whole evening, in CI too: three Swiss rounds (the third is where pairing by points
#: and the bounded search against repeat meetings both show).
ROUNDS = 3
CONFIG = (
    "tournament_countdown_seconds = 0.5\n"  # a round's tables start half a second after
    "tournament_cap_grace_seconds = 5.0\n"  # a capped game waits no longer for its hand
    "bot_delay_seconds = 0.0\n"
)


class SeatedBot(MsgpackPlayer):
    """A msgpack bot that sits down wherever ``your_table`` tells it, and plays there."""

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg.get("type") == "your_table":
            threading.Thread(target=self._sit, args=(str(msg["table"]),), daemon=True).start()

    def _sit(self, table: str) -> None:
        self.playing.clear()
        self.join(table)
        self.start_playing()


#: text mode's sentences the player reads (a person at ``nc`` reads the same)
TOLD = re.compile(r"^your table for (?:round (\d+)|the final) is (\w+)\b")
TURN = re.compile(r"^(?:turn|view) (\w+) · (?:.* · )?your turn\b.* · you may: ([^·]+)")
EVENT = re.compile(r"^event (\w+) · ")
STANDING = re.compile(r"^tournament (\d+) · (\d+)\. (\S+)(?: \([a-z, ]+\))? (\S+) points?\b")
SUMMARY = re.compile(r"^tournament (\d+) · \w+, \w+, (\w+) · ")


class TextPlayer:
    """A person at ``nc`` as a program: it reads text mode's sentences (the format a
    connection starts in) and answers with what a person types. Told ``your table for
    round 2 is 7``, it types a bare ``look`` (the told table is the current one: the held
    seat is taken); reading ``your turn · ... · you may: play 7C, draw`` at that table, it
    types the first of them, bare; ``standings 1`` it reads line by line."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.name = name
        self.table: str | None = None
        self.waiting = False  #: an action typed, its event not read yet
        self.rounds: list[int] = []  #: the rounds it was told a table for
        self.lines: list[str] = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.say(f"name {name} pw-{name}")

    def say(self, line: str) -> None:
        with contextlib.suppress(OSError):
            self.sock.sendall(line.encode() + b"\n")

    def _read(self) -> None:
        """Read the sentences as a person does: a long one is broken over lines, each
        after the first indented by two spaces, so a sentence is whole when the next one
        begins (or nothing more comes for a moment)."""
        buf, sentence = b"", ""
        self.sock.settimeout(0.05)
        with contextlib.suppress(OSError):
            while True:
                try:
                    chunk = self.sock.recv(65536)
                except TimeoutError:
                    if sentence:
                        self._heard(sentence)
                    sentence = ""
                    continue
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    line = raw.decode().rstrip("\r")
                    if line.startswith("  ") and sentence:
                        sentence += " " + line.strip()
                        continue
                    if sentence:
                        self._heard(sentence)
                    sentence = line if line.strip() else ""

    def _heard(self, line: str) -> None:
        with self.lock:
            self.lines.append(line)
            self.lock.notify_all()
        if told := TOLD.match(line):
            self.rounds.append(int(told.group(1) or 0))
            self.table, self.waiting = told.group(2), False
            self.say("look")  # no table named: the one just told
        elif (event := EVENT.match(line)) and event.group(1) == self.table:
            self.waiting = False  # someone acted: a turn read now is a new one
        elif line.startswith("error") and self.waiting:
            self.waiting = False
            self.say("look")  # refused: read the table again
        elif (turn := TURN.match(line)) and turn.group(1) == self.table and not self.waiting:
            self.waiting = True
            self.say(turn.group(2).split(", ")[0].strip())  # bare: at the current table

    def read_standings(self, number: int) -> list[tuple[int, str, str]] | None:
        """The standings of the last ``tournament N`` lines read whose summary says
        ``over`` (None: none yet)."""
        with self.lock:
            lines = list(self.lines)
        starts = [i for i, x in enumerate(lines) if (s := SUMMARY.match(x)) and
                  int(s.group(1)) == number and s.group(2) == "over"]  # fmt: skip
        if not starts:
            return None
        out = []
        for line in lines[starts[-1] + 1 :]:
            if not (got := STANDING.match(line)) or int(got.group(1)) != number:
                break
            out.append((int(got.group(2)), got.group(3), got.group(4)))
        return out

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
            self.sock.close()


def over_in_browser(driver: Any) -> bool:
    return bool(
        driver.execute_script(
            "const h = window.switchboard.tour.heard.get(1);"
            "return !!(h && h.msg.summary.state === 'over');"
        )
    )


def browser_player(driver: Any, seed: int, errors: list[BaseException]) -> None:
    """Tap legal actions at whatever table the page is at, until the tournament is over."""
    rng = random.Random(seed)
    try:
        end = time.monotonic() + 240
        while not over_in_browser(driver) and time.monotonic() < end:
            state = table_state(driver) if visible(driver, "#table") else {}
            before = state.get("seq")
            if state and tap_something(driver, rng):
                settle(driver, before, wait=2.0)
            else:
                time.sleep(0.05)
    except BaseException as exc:  # said by the test's thread
        errors.append(exc)


def browser_standings(driver: Any) -> tuple[list[tuple[int, str, str]], str]:
    """The final standings as the tournament page shows them (its table's rows, read at
    one moment: pushes redraw the page), and the winner its podium names."""
    click(driver, "#lobby-btn")
    read = (
        "if (!document.querySelector('#podium')) return null;"
        "const rows = [...document.querySelectorAll('#standings tbody tr')]"
        ".map((r) => [...r.querySelectorAll('td')].map((td) => td.firstChild.textContent));"
        "return [rows, document.querySelector('#tour-winner').textContent];"
    )

    def step() -> Any:
        if visible(driver, "#tournament"):
            return driver.execute_script(read)
        card = visible(driver, '[data-open="1"]')
        if card is not None:
            with contextlib.suppress(*MOVING):
                card.click()  # the tournament's card in the lobby: its standings
        return None

    rows, winner = wait_for(step, what="the tournament page's podium")
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows], str(winner)


def terminal_player(port: int, seen: dict[str, Any]) -> None:
    """The terminal client, typed at: enter, then the first legal action at each turn of
    whatever table it sat down at by itself, until the tournament is over."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "client"))  # the client tests' Driver
    from harness import Driver, run_client

    async def script(d: Driver) -> None:
        await d.until_screen("lobby")
        d.line("enter 1")
        await d.until_screen("you are in tournament 1")
        seen["entered"] = True
        typed: dict[tuple[str, int], float] = {}

        def over() -> bool:
            t = d.state.tournaments.get(1)
            return bool(t is not None and t.summary.get("state") == "over")

        end = time.monotonic() + 240
        while not over() and time.monotonic() < end:
            t = d.table
            if t is not None and t.my_turn:
                key = (t.table, t.seq)
                if time.monotonic() - typed.get(key, 0.0) > 1.5:  # again: a confirmation
                    typed[key] = time.monotonic()
                    d.line(t.legal[0])
            await asyncio.sleep(0.03)
        seen["tables"] = len({table for table, _seq in typed})
        d.line("standings 1")
        await d.until_screen(" won · ", timeout=20)  # the page: "... · NAME won · ..."
        final = d.state.tournaments[1]
        seen["standings"] = [(s["rank"], s["name"], s["exact"]) for s in final.standings]
        seen["screen"] = d.screen()
        d.keys("\x04")

    seen["code"] = asyncio.run(run_client(script, 300, address=("127.0.0.1", port), name="tess"))


def test_a_swiss_evening_on_every_client(browsers: Any, tmp_path: Path) -> None:
    server = Server(tmp_path, CONFIG)
    players: list[Any] = []
    try:
        port = server.port
        host = MsgpackPlayer(port, "host")
        made = host.request({"type": "create_tournament", "ruleset": "switch",
                             "rounds": ROUNDS, "minutes": 1, "seats": 2, "bots": 1,
                             "options": {"hand_size": 3}})  # fmt: skip
        assert made["type"] == "ok", made
        bots = [SeatedBot(port, f"mo{i}") for i in (1, 2, 3)]
        players += [host, *bots]
        for bot in bots:
            assert bot.request({"type": "enter_tournament", "tournament": 1})["type"] == "ok"
        text = TextPlayer(port, "tex")
        players.append(text)
        text.say("enter 1")
        # the browsers, at phone size: a name, then Enter on the lobby's tournament card
        phones = [browsers(), browsers()]
        for name, driver in zip(("b1", "b2"), phones, strict=True):
            open_client(driver, server.url)
            take_name(driver, name)
            click(driver, '[data-enter="1"]', "the tournament card's Enter")
            wait_for(lambda d=driver: visible(d, "#tour-pause"), what="entered: Pause shows")
        # the terminal client, in this thread's own event loop, started in another thread
        seen: dict[str, Any] = {}
        terminal = threading.Thread(target=terminal_player, args=(port, seen), daemon=True)
        terminal.start()
        wait_for(lambda: seen.get("entered"), timeout=60, what="the terminal client entered")
        listed = host.request({"type": "get_tournament", "tournament": 1})
        entered = sorted(s["name"] for s in listed["standings"])
        assert entered == ["b1", "b2", "mo1", "mo2", "mo3", "tess", "tex"], entered
        errors: list[BaseException] = []
        tappers = [threading.Thread(target=browser_player, args=(d, i, errors), daemon=True)
                   for i, d in enumerate(phones)]  # fmt: skip
        for t in tappers:
            t.start()
        started = host.request({"type": "start_tournament", "tournament": 1})
        assert started["type"] == "ok", started
        over = host.wait(lambda x: x.get("type") == "notice" and "is over" in x.get("text", ""),
                         timeout=300)  # fmt: skip
        assert "all rounds played" in over["text"], over
        for t in tappers:
            t.join(30)
        assert not errors, errors
        terminal.join(60)
        assert seen.get("code") == 0, seen
        # The server's standings, and every client's
        final = host.request({"type": "get_tournament", "tournament": 1})
        truth = [(s["rank"], s["name"], s["exact"]) for s in final["standings"]]
        assert len(truth) == 7 and final["summary"]["round"] == ROUNDS
        assert final["summary"]["winner"] == truth[0][1]
        for driver in phones:
            assert browser_standings(driver) == (truth, truth[0][1])
        assert seen["standings"] == truth
        assert seen["tables"] == ROUNDS  # it sat down at each round's table by itself
        for bot in bots:
            pushed = [x for x in bot.seen("tournament") if x["summary"].get("state") == "over"]
            assert [(s["rank"], s["name"], s["exact"]) for s in pushed[-1]["standings"]] == truth
            assert len(bot.seen("your_table")) == ROUNDS
        text.say("standings 1")
        shown = wait_for(lambda: text.read_standings(1), what="text mode's standings")
        assert shown == truth
        assert text.rounds == list(range(1, ROUNDS + 1))
        # server bots filled the gaps: one table of each round had one
        record = host.request({"type": "get_tournament", "tournament": 1, "record": True})
        for r in record["record"]["rounds"]:
            assert [t["players"].count("bot") for t in r["tables"]].count(1) == 1, r
    finally:
        for p in players:
            p.close()
        server.stop()
        print("server log:", "".join(server.log[-40:]))
