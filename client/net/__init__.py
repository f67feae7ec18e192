"""The connection library: everything a program needs to talk to a Switchboard server.

Owns the trio connection kept alive (``connection``: hello, the name's secret, request ids,
reconnect and resume), what a client knows folded from the server's messages (``state``: no
I/O), fetching a whole game record page by page (``records``), finding servers on the LAN
(``discovery``), and what a client keeps per server in the user's config directory: the
secret behind each name (``config``), the seats held (``seats``), the recent talk
(``talk_book``).

May import ``engine`` and ``protocol`` only: never ``client.terminal`` nor ``client.bots``,
which are built on it, so a bot or a stranger's program takes the library without a screen.
"""
