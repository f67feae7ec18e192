"""The store: what the server keeps across restarts, behind one interface (``base``), with
SQLite as the embedded default, restart snapshots, and the lock that keeps one server per
data directory.

Imports only ``server.core``.
"""
