"""The server's configuration: one frozen dataclass, every limit in one place.

Every field can come from the command line or from a TOML file (``[server]``
table or top level); ``from_mapping`` refuses unknown keys so that a typo in a
config file is an error at start, not a silently ignored setting.

>>> cfg = ServerConfig.from_mapping({"port": 0, "talk_max_chars": 80})
>>> cfg.port, cfg.talk_max_chars, cfg.send_queue
(0, 80, 512)
>>> ServerConfig.from_mapping({"prot": 1})
Traceback (most recent call last):
...
ValueError: unknown setting 'prot'; known: ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

#: The port a server listens on unless told otherwise ("SW" on a phone pad is 79; 7373 is
#: unassigned by IANA and easy to type).
DEFAULT_PORT = 7373


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Where to listen, where to keep data, and every limit where input enters."""

    # ------------------------------------------------------------ where
    host: str | None = None  #: None: every interface
    port: int = DEFAULT_PORT
    data_dir: Path | None = None  #: None: keep nothing (tests); serve fills in a default
    #: advertise on the LAN by multicast DNS (``_switchboard._tcp``) so that ``switchboard
    #: play`` lists the server; never when listening on loopback only
    discovery: bool = True
    server_name: str | None = None  #: the name LAN players see (None: "Switchboard on HOST")

    # ------------------------------------------------------ connections
    send_queue: int = 512  #: messages queued to one client before it is dropped
    #: bytes one client may hold unsent (queued, or being written) before it is dropped;
    #: its own replies stop its reading at half of this
    send_queue_bytes: int = 1024 * 1024
    send_address_bytes: int = 8 * 1024 * 1024  #: all of one address's clients together...
    send_server_bytes: int = 128 * 1024 * 1024  #: ...and every client (0: no limit)
    handshake_seconds: float = 15.0  #: time to say hello before the connection is closed
    handshake_errors: int = 3  #: refused messages before welcome, then goodbye need_hello
    message_seconds: float = 30.0  #: time a message may take to arrive whole, once begun
    close_grace_seconds: float = 2.0  #: time to flush a goodbye before a socket is closed
    max_connections: int = 20_000
    max_frame_bytes: int = 64 * 1024  #: largest msgpack frame from a client (lines: 4 KiB)

    # ------------------------------------------- HTTP and WebSocket (the web client)
    http_max_header_bytes: int = 8192  #: a request line and its headers; more: 431
    http_header_seconds: float = 10.0  #: a request's headers whole after its first byte
    http_idle_seconds: float = 15.0  #: a kept-alive HTTP connection waits this for a request
    http_max_requests: int = 100  #: requests on one HTTP connection, then it is closed
    ws_max_frame_bytes: int = 64 * 1024  #: a WebSocket frame's payload (a message: max_frame_bytes)
    #: origins besides the server's own whose pages may open its WebSocket ("*": any)
    ws_allowed_origins: tuple[str, ...] = ()
    #: names (besides localhost and IP literals) a request from loopback or a proxy may
    #: give as its Host; any other is refused (421: DNS rebinding)
    http_hosts: tuple[str, ...] = ()
    #: reverse proxies whose X-Forwarded-For names the client (its last address)
    http_proxies: tuple[str, ...] = ()
    http_address_burst: int = 100  #: HTTP requests all of one address's connections may make...
    http_address_per_second: float = 20.0  #: ...then this many a second (trusted: no limit)

    # ------------------------------------------------------- names, talk
    name_max_chars: int = 24
    talk_max_chars: int = 400
    talk_burst: int = 5  #: lines a connection may say at once...
    talk_per_second: float = 0.5  #: ...refilled at this rate (a token bucket)
    #: the room's channel (``shout``): on, or off for a server that wants no talk outside
    #: its tables. A shout draws on its connection's talk allowance, as a ``say`` does...
    shout: bool = True
    shout_burst: int = 10  #: ...and the whole server relays this many shouts at once...
    shout_per_second: float = 1.0  #: ...then this many a second (a token bucket)
    shout_address_burst: int = 5  #: shouts all of one address's connections may relay at once...
    shout_address_per_second: float = 0.2  #: ...then this many a second (trusted: no limit)
    who_max: int = 200  #: people listed in one ``who`` reply at most (the rest are counted)
    tables_at_per_connection: int = 32  #: tables one connection is at (seated or watching)...
    tables_at_per_address: int = 256  #: ...and all of one address's together (trusted: no limit)
    #: a name's coming to watch a table, or going, is announced at most once in this long
    watch_notice_seconds: float = 30.0
    scrypt_n: int = 2**14  #: scrypt cost of a name's secret (tests lower it)
    claim_free_failures: int = 5  #: wrong secrets an address may send before back-off...
    claim_backoff_seconds: float = 1.0  #: ...then it waits this long, doubling each time...
    claim_backoff_max_seconds: float = 60.0  #: ...up to this
    claim_forget_seconds: float = 600.0  #: no wrong secret this long: the address starts afresh
    new_names_burst: int = 5  #: new names one address may claim at once...
    new_names_per_hour: float = 20.0  #: ...then this many an hour (trusted addresses: no limit)
    new_names_server_burst: int = 100  #: new names all addresses together may claim at once...
    new_names_server_per_hour: float = 600.0  #: ...then this many an hour
    #: of those, kept for an address that claimed no new name lately (its own ration whole)
    new_names_server_reserve: int = 25
    #: a name that never finished a game and was not used for this many days is removed,
    #: its chips returned to the mint (0: names never expire)
    unplayed_name_days: float = 30.0

    # ----------------------------------------------------------- tables
    max_tables: int = 2_000  #: open tables of untrusted creators, all together
    #: of those, kept for an address's first table: the rest is shared, each address
    #: holding tables at most an equal share of it (and ``tables_per_address``)
    tables_reserve: int = 100
    crowded_tables: float = 0.9  #: this share of ``max_tables`` open: the server is crowded...
    crowded_empty_seconds: float = 60.0  #: ...and an untrusted creator's empty table closes then
    #: a table whose game is over and where nobody is seated closes after this (0: never)
    finished_table_seconds: float = 120.0
    #: tables a lobby listing (a ``tables`` page) holds at most, and by default
    lobby_page: int = 50
    lobby_per_second: float = 2.0  #: lobby listings (list_tables) one connection may ask...
    lobby_burst: int = 10  #: ...after a burst of this many (a token bucket)
    lobby_address_per_second: float = 10.0  #: listings for all of one address's connections...
    lobby_address_burst: int = 30  #: ...after a burst of this many (trusted: no limit)
    event_ring: int = 64  #: events kept per table for reconnect catch-up (beyond: a snapshot)
    bot_delay_seconds: float = 0.0  #: pause before a server bot acts (a clock hooks here too)
    table_inbox: int = 64  #: commands queued to one table
    #: Where search bots think: "processes" (a pool of worker processes, off the event
    #: loop) or "threads" (in the server, holding the GIL; a tiny machine, a test)
    bot_thinking: str = "processes"
    bot_workers: int = 0  #: worker processes at most (0: one fewer than the cores, at least 1)
    #: a worker thought longer than this is cancelled and the bot plays its fallback (0: never)
    bot_think_seconds: float = 30.0
    open_tables: tuple[str, ...] = ()  #: rulesets that always have one waiting table
    #: Mid-game, a free seat is refused to an address already shown another seat's hand
    #: (off: only names and connections count; for a LAN of strangers behind one address).
    one_hand_per_address: bool = True

    # ---------------------------------------------------------- records
    record_page: int = 250  #: actions or events in one record reply at most (then pages)
    record_per_second: float = 5.0  #: record pages one connection may ask for, sustained...
    record_burst: int = 20  #: ...after a burst of this many (a token bucket)
    record_address_per_second: float = 20.0  #: pages for all of one address's connections...
    record_address_burst: int = 40  #: ...after a burst of this many (trusted: no limit)

    # ------------------------------------------------- looking back at a game
    #: after-game analyses judged at once, server-wide (each in the bots' thinking
    #: workers, behind their turns); more asked for are refused until one ends (0: none)
    analysis_running: int = 2
    analysis_address_burst: int = 3  #: analyses one address may start at once...
    analysis_address_per_hour: float = 6.0  #: ...then this many an hour (trusted: no limit)
    analysis_worlds: int = 24  #: sampled worlds a decision (``engine.analysis.Settings``)
    hint_address_per_minute: float = 10.0  #: hints all of one address's connections may ask...
    hint_address_burst: int = 5  #: ...after a burst of this many (trusted: no limit)
    review_steps_per_second: float = 10.0  #: review steps one connection may lead, sustained...
    review_steps_burst: int = 20  #: ...after a burst of this many (then refused)

    # ------------------------------------------------------------ store
    sqlite_synchronous: str = "NORMAL"  #: NORMAL survives a crashed process; FULL a power cut
    commit_batch: int = 1024  #: most writes one group commit carries
    #: a table whose write the store refused (disk full ...) waits this long before its
    #: bots and clocks try again; a player's request tries at once
    store_retry_seconds: float = 5.0
    #: a running game is stored as it stands every this many actions, so that a restart
    #: replays fewer than this many actions a table (0: never; a restart replays all)
    snapshot_every: int = 16

    # ------------------------------------------------- abuse limits, operators
    commands_per_second: float = 50.0  #: requests one connection may send, sustained...
    commands_burst: int = 100  #: ...after a burst of this many (a token bucket)
    flood_penalty_seconds: float = 2.0  #: over the rate: every request refused this long
    flood_drop_after: int = 50  #: refused requests before a flooder is disconnected
    flood_cooloff_seconds: float = 10.0  #: then its address may not reconnect for this long
    connections_per_address: int = 64  #: open connections from one address (0: no limit)
    #: an IPv6 peer is counted as its network of this many bits in every per-address
    #: limit and budget (one host may hold a whole /64); 128: each address alone
    ipv6_prefix: int = 64
    trusted_addresses: tuple[str, ...] = ("127.0.0.1", "::1")  #: skip the two limits above
    tables_per_name: int = 4  #: open tables one name may have created (0: no limit)
    tables_per_address: int = 8  #: open tables created from one address (0: no limit)
    empty_table_seconds: float = 600.0  #: a table nobody is at closes after this (0: never)
    absent_game_seconds: float = 900.0  #: a game no player is at is abandoned after this
    #: a tournament round's tables start this long after its seating is announced
    tournament_countdown_seconds: float = 10.0
    #: a game past its round's time cap may finish its hand this long, then ends as it stands
    tournament_cap_grace_seconds: float = 300.0
    idle_seconds: float = 1800.0  #: silent this long and at no table: closed (0: never)
    operator_secret: str | None = None  #: unlocks admin commands; None: no operator at all
    operator_secret_file: str | None = None  #: read the operator secret from this file instead
    auth_attempts: int = 3  #: wrong operator secrets before the connection is dropped
    auth_backoff_seconds: float = 1.0  #: an address's wait after a wrong secret, doubling...
    auth_backoff_max_seconds: float = 600.0  #: ...with each further one up to this
    auth_forget_seconds: float = 3600.0  #: an address's wrong secrets forgotten after this
    auth_overall_allowance: int = 20  #: wrong secrets from anywhere before everyone waits...
    #: ...except these addresses, which only ever wait for their own wrong secrets
    operator_addresses: tuple[str, ...] = ("127.0.0.1", "::1")
    start_chips: int = 1000  #: a new name's chip balance
    history_page: int = 20  #: finished games in one history reply at most (then pages)
    profile_recent: int = 5  #: a profile's recent games
    top_max: int = 20  #: players in one leaderboard reply at most (a larger count is cut)
    profile_per_second: float = 5.0  #: profiles, history pages, leaderboards, sustained...
    profile_burst: int = 20  #: ...after a burst of this many (a token bucket, per connection)
    profile_address_per_second: float = 10.0  #: the same for all of one address's connections...
    profile_address_burst: int = 40  #: ...after a burst of this many (trusted: no limit)
    log_level: str = "info"  #: debug, info or warning

    extra: dict[str, Any] = field(default_factory=dict)  #: settings for later layers

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> ServerConfig:
        """A config from a mapping (a parsed TOML file, or flags); unknown keys refused."""
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in values.items():
            name = key.replace("-", "_")
            if name not in known:
                raise ValueError(f"unknown setting {key!r}; known: {', '.join(sorted(known))}")
            if name == "data_dir" and value is not None:
                value = Path(value).expanduser()
            if name in (
                "open_tables",
                "trusted_addresses",
                "operator_addresses",
                "ws_allowed_origins",
                "http_hosts",
                "http_proxies",
            ):
                value = tuple(value)
            kwargs[name] = value
        return cls(**kwargs)

    def replace(self, **changes: Any) -> ServerConfig:
        """A copy with ``changes`` (a frozen dataclass cannot be edited in place)."""
        return dataclasses.replace(self, **changes)
