"""A server bot's move at a table: chosen (a search away from the event loop), applied,
and played again rather than chosen again when the store refused it.

A table (``server.tables.table.Table``) owns one ``BotTurns``. A ``slow`` strategy (a
search: most of a second a move) thinks away from the event loop
(``server.tables.thinking``: a worker process), so that the server goes on serving
every other table meanwhile; the table waits for it (its commands queue), so the
game cannot change under the strategy. A close or a game master's command cancels
the thought (``cancel``), as a shutdown's freeze does: no move is made, and the
table takes its commands. A thought that fails (its worker died) plays the family's
fast heuristic instead. A fast strategy (milliseconds) chooses at once, which costs
less than a worker. A move the store refused is played again when the table
retries, not chosen again: while the disk is full, a retry costs no thought.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

import trio

from engine.events import Event
from engine.game import Game
from engine.strategies import Strategy
from server.tables import thinking

log = logging.getLogger("switchboard.table")

#: Which move of which game: (game number, actions taken, seat).
MoveKey = tuple[int, int, int]


class BotTurns:
    """The bots' moves of one table: where they think, the thought under way, and the
    move the store refused."""

    def __init__(self, table_id: int, family: str, thinker: thinking.Thinker) -> None:
        self.table_id = table_id
        self.family = family
        self.thinker = thinker  #: where its search bots think (the lobby gives the server's)
        self._thought: trio.CancelScope | None = None  #: a search bot's thought under way
        #: a bot's move the store refused, with its key: its retry plays it again instead
        #: of thinking again (the game is as it was when chosen)
        self._unstored: tuple[MoveKey, Any] | None = None

    def thinking(self) -> bool:
        """Whether a search bot's thought is under way."""
        return self._thought is not None

    def cancel(self) -> None:
        """Cancel the thought under way, if any: no move is made."""
        if self._thought is not None:
            self._thought.cancel()

    def unstored(self, key: MoveKey, action: Any) -> None:
        """The store refused the move ``action`` (taken back): the retry plays it again."""
        self._unstored = (key, action)

    async def play(
        self,
        game: Game,
        key: MoveKey,
        strategy_for: Callable[[], Strategy],
        rng: random.Random,
        frozen: Callable[[], bool],
    ) -> tuple[Any, list[Event]] | None:
        """The move of the seat ``key`` names, applied to ``game``: the action and its
        events (None: the thought was cancelled, or the server froze while it thought)."""
        seat = key[2]
        refused, self._unstored = self._unstored, None
        legal = game.legal_actions(seat)
        try:
            if refused is not None and refused[0] == key and refused[1] in legal:
                action = refused[1]
            elif getattr(strategy := strategy_for(), "slow", False):
                view = game.view(seat)
                scope = self._thought = trio.CancelScope()
                try:
                    with scope:
                        action = await self.thinker.choose(self.family, strategy, view, legal, rng)
                finally:
                    self._thought = None
                if scope.cancelled_caught or frozen():
                    return None  # closed, moved on or shutting down while it thought
            else:
                action = strategy.choose(game.view(seat), legal, rng)
            events = game.apply(seat, action)
        except Exception:
            log.exception(
                "table %s: the bot's choice failed; playing the first legal", self.table_id
            )
            action = legal[0]
            events = game.apply(seat, action)
        return action, events
