"""A shared review in the terminal client: the board at the step its leader is at.

The server only relays steps (``review``, ``follow``, ``reviewing``); the client holds
the finished game's record (fetched once a game, every page) and draws the position at a
step itself, into the table's log: its own steps as it leads, and the steps of the
leader it follows. ``review STEP`` leads, ``follow NAME`` follows, ``follow`` steps away.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from client.net.records import RecordError, fetch_record
from client.net.state import ClientState
from client.terminal.replay import Replay
from protocol import messages as m

#: The width the board is drawn at in the log.
WIDTH = 72


class Reviewer:
    """Each table's finished game, as a replay, and who is followed there."""

    def __init__(
        self,
        state: ClientState,
        request: Callable[[m.Message], Awaitable[Any]],
        say: Callable[[str, str], None],
        changed: Callable[[], None] = lambda: None,
        ascii_only: Callable[[], bool] = lambda: False,
    ) -> None:
        self.state = state
        self.request = request
        self.say = say
        #: redraw: a step's board lands in the log after the record was fetched, with no
        #: message behind it to redraw the screen
        self.changed = changed
        #: whether the screen draws cards in ASCII now (``--ascii``, or toggled)
        self.ascii_only = ascii_only
        self.replays: dict[str, tuple[int | None, Replay]] = {}

    def answered(self, msg: m.Message, reply: Any) -> bool:
        """Note what a reply to ``review`` or ``follow`` means; whether it was one."""
        if not isinstance(reply, m.Ok) or not isinstance(msg, m.Review | m.Follow):
            return False
        t = self.state.tables.get(msg.table)
        if isinstance(msg, m.Follow):
            if t is not None:
                t.following = msg.name
            self.say(reply.text or "ok", "class:ok")
        else:
            self.say(f"you lead the review: step {msg.step}", "class:ok")
        return True

    def follows(self, msg: m.Reviewing) -> bool:
        """Whether ``msg`` is a step of the leader we follow at its table."""
        t = self.state.tables.get(msg.table)
        return t is not None and (t.following or "").casefold() == msg.leader.casefold()

    async def draw(self, table: str, step: int, game: int | None = None) -> None:
        """The position at ``step`` of ``table``'s finished game, into its log."""
        held = self.replays.get(table)
        if held is None or (game is not None and held[0] not in (None, game)):
            try:
                record = await fetch_record(self.request, table)
            except RecordError as exc:
                self.say(f"review: {exc}", "class:error")
                return
            if not record.get("full"):
                self.say("review: the game is not over yet", "class:error")
                return
            t = self.state.tables.get(table)
            if t is not None and not record.get("names"):
                record = {**record, "names": list(t.names)}
            held = self.replays[table] = (game, Replay(record))
        replay = held[1]
        step = max(0, min(step, replay.steps - 1))
        for line in replay.text(step, WIDTH, self.ascii_only()).splitlines():
            self.state.note(table, line)
        self.changed()
