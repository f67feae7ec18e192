"""Tournaments: an evening of rounds above the tables.

Owns each tournament's log and its book (``book``: entries, rounds, tables, points,
standings, rebuilt from the log after a restart), the task that runs it (``service``:
it creates a round's tables through the lobby, starts them, hears each game's end
through the table layer's events and logs its points in the same transaction; the table
arena's task is ``arena_run``), the ``tournament`` message (``messages``), the record a
player saves (``record``) and the audit
of a data directory's tournaments against its stored games (``audit``). The seating,
points and tiebreaks are the engine's pure ``engine.tournament``.

Imports ``server.core``, ``server.store`` and ``server.tables``; the transport (the
players' requests) and ``server.app`` (the composition) import it.
"""
