"""Programs that play: the bot runner, the arena, and the engine's advice run for a client.

Owns the bot runner (``bot``: a named strategy at a server, through the connection library,
``switchboard bot``), the in-process arena where strategies play each other on the engine
alone (``arena``, ``switchboard arena``), and the search's advice off the event loop
(``advice``: a hint, a finished game's analysis; ``analysis_workers``: the worker processes).

May import ``engine``, ``protocol`` and ``client.net``; never ``client.terminal``.
"""
