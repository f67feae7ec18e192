"""The trio server, grouped by subsystem; each subpackage says what it owns.

From the ground up, each may import only those beneath it (``tests/test_imports.py``
checks it):

- ``core``: configuration, structured logs, limits, name folding, and the server's side
  of the message model (what connections ask of a table, how tables say things).
- ``store``: what is kept across restarts: the interface, SQLite, snapshots, the data lock.
- ``players``: names and their secrets, profiles and ratings, the chip ledger and its audit.
- ``tables``: the table actor, seating, clocks, the game master, bots' thinking, the lobby.
- ``operators``: the operator's commands, and the glue that adds chips and limits to requests.
- ``transport``: the accept loop and the connection shells that turn bytes into requests.
- ``discovery``: the addresses to give friends, and multicast DNS on the LAN.

``server.app`` composes them into one server in one trio nursery.
"""
