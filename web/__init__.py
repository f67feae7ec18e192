"""The browser client: the page, its JavaScript modules and stylesheet, under ``static/``.

This package holds no Python code. It is data that the game port serves over HTTP: the
server finds ``static/`` through ``importlib.resources`` (``server.transport.web``) and
never imports anything from here, so the layers stay as they are (the browser client is a
client like the terminal one; it speaks only the protocol, over the WebSocket binding).

Beside ``static/`` sit the browser client's development files, which are not served and not
installed: ``package.json`` (TypeScript, pinned, to check the JSDoc types), ``tsconfig.json``
and ``tests/`` (unit tests run with ``node --test``).
"""
