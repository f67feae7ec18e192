"""Tables: the table actor that owns one game, seating, the turn clock, the game master,
where bots think, when a table ends by itself, and the lobby that holds them all.

Imports ``server.core``, ``server.store`` and ``server.players``.
"""
