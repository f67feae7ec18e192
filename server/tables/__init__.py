"""Tables: the table actor that owns one game (``table``) and the collaborators it owns:
who is at it (``seating``), delivery to its members (``delivery``), a member's requests
(``member_requests``), its inbox, its way to the store (``store_gate``), the bots' moves
(``bot_turns``), a game rebuilt after a restart (``restoring``), the game master, his
commands and his turn clock (``gamemaster``, ``master_commands``, ``clock``), and a
game's start and end (``course``). What a table announces to the layers above it
(``events``: a game started, a hand ended, a game ended, a seat changed hands, the
table closed) is heard by the prize (``prize``), the players' results and ratings
(``results``) and the lobby's listing (``listing``); beside them, where bots think,
when a table ends by itself, and the lobby that holds them all.

Imports ``server.core``, ``server.store`` and ``server.players``.
"""
