"""Tables: the table actor that owns one game (``table``) and the collaborators it owns:
who is at it (``seating``), delivery to its members (``delivery``), a member's requests
(``member_requests``), its inbox, its way to the store (``store_gate``), the bots' moves
(``bot_turns``), a game rebuilt after a restart (``restoring``), the game master and
his turn clock (``gamemaster``, ``clock``) and the prize (``prize``); beside them, where
bots think, when a table ends by itself, how the lobby lists a table, and the lobby
that holds them all.

Imports ``server.core``, ``server.store`` and ``server.players``.
"""
