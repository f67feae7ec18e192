"""Transport: the accept loop and the connection shells that turn bytes into requests and
replies into bytes.

May import every subsystem beneath it: ``core``, ``store``, ``players``, ``tables``, ``operators``.
"""
