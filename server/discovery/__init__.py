"""Discovery: the addresses friends on the LAN can type, and multicast DNS service
advertisement so that clients find the server by themselves.

Imports only ``server.core``.
"""
