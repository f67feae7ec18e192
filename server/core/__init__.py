"""What every subsystem shares: the configuration, structured logs, limits against abuse,
the normal form of names, and the server's side of the message model (commands queued to a
table, the words tables and the lobby reply with, records in pages).

Imports nothing of the server.
"""
