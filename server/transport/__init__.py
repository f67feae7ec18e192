"""Transport: the accept loop and the connection shells that turn bytes into requests and
replies into bytes.

May import every subsystem beneath it: ``core``, ``store``, ``players``, ``tables``, ``operators``.

A connection is three parts, each with one job:

- a **shell** owns the transport: it reads bytes, feeds them to the framing, hands
  each whole message to the session, and runs the timers (``connection.Connection``
  for a TCP stream);
- a **framing** is the binding's sans-I/O codec: bytes in, messages out; messages
  in, bytes out, and what the session must know of the binding as data
  (``framing.MsgpackFraming``, ``framing.TextFraming``);
- a **session** is the client as tables and operators see it: its name, seats and
  limits (``session.ClientSession``); ``requests`` holds what each message does.
  It never asks which binding it speaks.

What a session says goes out through its ``outbox.Outbox`` (a bounded queue, a
writer task only while something is queued, backpressure on the reader), which
every shell shares and gives a ``Sink`` of its own.

How to add a binding: write its framing (``receive_data``, ``next_message``,
``buffered``, ``encode``, and ``kind``, ``person``, ``page_budget``, ``focus``:
see ``framing.Framing``). If it runs over the game port's TCP stream after an
opening of its own (a WebSocket after an HTTP upgrade), let the opening decide it
(``protocol.sniff`` names it) and continue with ``Connection.serve(framing,
leftover_bytes, deadline)``: the session, outbox, timers and backpressure come
with it. A transport of its own (another listener) is a new shell: make an
``Outbox`` over its sink, a ``ClientSession(services, outbox, peer)``, add the
session to ``services.connections``, call ``requests.handle(session, message)``
for each message, and ``session.detach()`` when it ends; no handler changes.
"""
