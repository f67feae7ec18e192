"""The prompt_toolkit terminal client (``switchboard play``) and the replay viewer.

Owns the screens and what composes them (``app``, ``lobby_screen``, ``table_screen``,
``log_pane``, ``pages``, ``page``, ``widgets``, ``style``, ``keys``, ``completion``,
``commands``, ``screen_commands``), the trio side that runs as asyncio's guest (``session``,
``guest``), what a typed move means (``moves``), the players' replies in words
(``players``), the three boards (``boards``), the rules pages (``rules``), the log's word
wrapping (``wrap``), and stepping through a finished game (``replay``, ``public_board``).

May import ``engine``, ``protocol``, ``client.net`` (the connection and the state it draws)
and ``client.bots`` (the advice behind ``hint`` and ``analyze``); neither imports it.
"""
