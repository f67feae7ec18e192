"""Operators: the operator secret and admin commands, and the glue that adds chips,
limits and operators to what a connection asks.

Imports ``server.core``, ``server.store``, ``server.players`` and ``server.tables``.
"""
