"""Players: names claimed with a secret, profiles and ratings, the players' own requests
(finger, history, top), and chips: the double-entry ledger and its audit.

Imports ``server.core`` and ``server.store``.
"""
