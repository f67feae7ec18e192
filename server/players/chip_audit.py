"""The chip audit: what the ledger promises, checked straight from the SQLite file.

The ledger keeps its promises by construction (balanced transactions, one writer,
a game's end and its payout in one transaction); this module checks them from the
rows alone, without the server's memory, so an operator (``switchboard audit``)
and the crash soak can each ask the file itself. It reads inside one read
transaction, so it can run beside a live server and sees one consistent moment.

What it checks (each failure is one line of ``Audit.problems``):

- the file itself is sound (SQLite's ``quick_check``: a damaged file is restored
  from a backup, whatever else the audit finds);
- every transaction balances and moves chips; every account's balance is the sum
  of its entries; all accounts sum to zero;
- names' balances plus the prizes held equal the chips ever issued by the mint;
- the mint gives only welcomes, each to one name, once a name (again only after that
  name expired and was claimed anew), and takes back only an expired name's chips:
  a balanced grant of any other kind, or a second welcome, is chips from nowhere;
- each table's held account holds exactly its prize;
- every claimed name has an account;
- each game's prize is settled at most once, after its game ended, as its end
  says (a finished game's prize paid to winners, an abandoned game's returned),
  and a prize still held is for a game that has not ended;
- a payout goes only to the players on the game's winning seats (its result's
  places) or back to whoever put the prize up (a bot's share); a return only to
  whoever put it up;
- each finished game has its one result (what the profiles and ratings are built
  from) and an abandoned or unfinished one has none. Games dealt before results were
  kept (no ``lineups`` row) are not judged: no version wrote one for them.

Prizes kept by a version that did not record their game (``game`` NULL) are
counted, not judged: nothing in the file says which game they were for.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.core.limits import fold_name

#: Transactions that settle a prize (the held account goes to zero for its game).
PAID = "prize won"
RETURNED = "prize returned"
#: The mint's account, and the only transactions that may touch it.
MINT = "@mint"
WELCOME = "welcome"  #: a new name's chips, from the mint
EXPIRED = "name expired"  #: an expired name's chips, back to it


@dataclass(slots=True)
class Audit:
    """What an audit found: ``problems`` (empty: every promise kept) and its figures."""

    problems: list[str] = field(default_factory=list)
    figures: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def open_readonly(path: Path | str) -> sqlite3.Connection:
    """The database at ``path``, read-only (it must exist: an audit creates nothing)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no database at {path}")
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def audit_file(path: Path | str) -> Audit:
    """``audit`` of the database at ``path``."""
    conn = open_readonly(path)
    try:
        return audit(conn)
    finally:
        conn.close()


def audit(conn: sqlite3.Connection) -> Audit:
    """Check every promise of the ledger against the rows of ``conn`` (one read transaction)."""
    conn.execute("BEGIN")
    try:
        return _audit(conn)
    finally:
        conn.execute("COMMIT")


def _audit(conn: sqlite3.Connection) -> Audit:  # noqa: C901 (one check a promise)
    out = Audit()
    problems = out.problems
    damage = [row[0] for row in conn.execute("PRAGMA quick_check(5)")]
    if damage != ["ok"]:  # the rows below may be wrong or unreadable: say so first
        problems.append(
            f"the database file is damaged ({'; '.join(damage)}): restore it from a backup"
        )
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "chip_accounts" not in tables:
        out.figures = {"accounts": 0, "transactions": 0}
        return out
    balances: dict[str, int] = dict(conn.execute("SELECT account, balance FROM chip_accounts"))
    # transactions balance and move chips
    moved: dict[int, tuple[int, int]] = {
        txn: (total, n)
        for txn, total, n in conn.execute(
            "SELECT txn, SUM(delta), COUNT(*) FROM chip_entries GROUP BY txn"
        )
    }
    txns = conn.execute("SELECT id, reason, table_id, game FROM chip_txns ORDER BY id").fetchall()
    for txn, reason, _table, _game in txns:
        total, n = moved.get(txn, (0, 0))
        if n == 0:
            problems.append(f"transaction {txn} ({reason}) moves no chips")
        elif total != 0:
            problems.append(f"transaction {txn} ({reason}) does not balance: {total:+d}")
    # balances are their entries
    for account, summed in conn.execute(
        "SELECT account, SUM(delta) FROM chip_entries GROUP BY account"
    ):
        if balances.get(account, 0) != summed:
            problems.append(
                f"{account}: balance {balances.get(account, 0)} but its entries sum to {summed}"
            )
    total = sum(balances.values())
    if total != 0:
        problems.append(f"accounts sum to {total}, not 0")
    players = sum(b for a, b in balances.items() if not a.startswith("@"))
    prizes = {
        table: (funder, amount, game)
        for table, funder, amount, game in conn.execute(
            "SELECT table_id, funder, amount, game FROM chip_prizes"
        )
    }
    held = sum(amount for _, amount, _ in prizes.values())
    issued = -balances.get("@mint", 0)
    if players + held != issued:
        problems.append(f"balances {players} + held prizes {held} != chips issued {issued}")
    for account, balance in balances.items():
        if account.startswith("@table:"):
            table = int(account.split(":", 1)[1])
            want = prizes.get(table, (None, 0, None))[1]
            if balance != want:
                problems.append(f"table {table}'s held account has {balance}, its prize is {want}")
        elif balance < 0 and account != "@mint":
            problems.append(f"{account} has a negative balance {balance}")
    # every name has an account
    names = [display for (display,) in conn.execute("SELECT display FROM names")]
    missing = [n for n in names if n not in balances]
    if missing:
        shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
        problems.append(f"{len(missing)} names have no account: {shown}")
    _audit_mint(conn, txns, out)
    _audit_prizes(conn, txns, prizes, out)
    if "results" in tables and "lineups" in tables:
        _audit_results(conn, out)
        _audit_recipients(conn, txns, out)
    out.figures.update(
        names=len(names),
        accounts=len(balances),
        transactions=len(txns),
        chips_issued=issued,
        prizes_held=len(prizes),
        chips_held=held,
    )
    return out


def _audit_mint(
    conn: sqlite3.Connection, txns: list[tuple[int, str, int | None, int | None]], out: Audit
) -> None:
    """The mint's transactions: a welcome from it to one name, once a name's life; an
    expired name's chips back to it; nothing else."""
    postings: dict[int, list[tuple[str, int]]] = {}
    for txn, account, delta in conn.execute(
        "SELECT txn, account, delta FROM chip_entries WHERE txn IN"
        f" (SELECT txn FROM chip_entries WHERE account = '{MINT}')"
    ):
        postings.setdefault(txn, []).append((account, delta))
    welcomed: set[str] = set()  #: names welcomed and not expired since
    for txn, reason, _table, _game in txns:
        moves = postings.get(txn)
        if moves is None:
            continue
        others = [(a, d) for a, d in moves if a != MINT]
        if reason == WELCOME:
            names = [a for a, d in others if d > 0 and not a.startswith("@")]
            if len(others) != 1 or len(names) != 1:
                out.problems.append(
                    f"transaction {txn} (welcome) is not the mint's grant to one name"
                )
                continue
            if names[0] in welcomed:
                out.problems.append(
                    f"{names[0]} was welcomed again (transaction {txn}) without having expired:"
                    " chips from the mint twice"
                )
            welcomed.add(names[0])
        elif reason == EXPIRED:
            welcomed.difference_update(a for a, _ in others)
        else:
            taken = sum(d for a, d in moves if a == MINT)  #: negative: chips it gave
            if taken < 0:
                why = f"gives {-taken} chips from the mint: only a welcome may"
            else:
                why = f"gives {taken} chips to the mint: only an expired name's go back"
            out.problems.append(f"transaction {txn} ({reason}) {why}")
    out.figures.update(welcomes=sum(1 for _, r, _, _ in txns if r == WELCOME))


def _audit_prizes(  # noqa: C901 (one check a way to settle)
    conn: sqlite3.Connection,
    txns: list[tuple[int, str, int | None, int | None]],
    prizes: dict[int, tuple[str, int, int | None]],
    out: Audit,
) -> None:
    """Each game's prize settled at most once, after its end, as its end says."""
    ends: dict[tuple[int, int], str | None] = {}
    for table, game, ended, outcome in conn.execute(
        "SELECT table_id, game, ended, outcome FROM games"
    ):
        if ended is not None:
            ends[(table, game)] = outcome or "ended"
    closed = {t for (t,) in conn.execute("SELECT id FROM tables WHERE closed = 1")}
    settled: Counter[tuple[int, int]] = Counter()
    legacy = 0
    for txn, reason, table, game in txns:
        if not (reason == PAID or reason.startswith(RETURNED)) or table is None:
            continue
        if game is None:
            legacy += 1
            continue
        key = (table, game)
        settled[key] += 1
        if settled[key] == 2:
            out.problems.append(f"table {table} game {game}: its prize was settled twice")
        end = ends.get(key)
        if reason == PAID:
            if end is None:
                out.problems.append(
                    f"table {table} game {game}: prize paid (transaction {txn})"
                    " but the game has not ended"
                )
            elif end == "abandoned":
                out.problems.append(
                    f"table {table} game {game}: prize paid (transaction {txn})"
                    " but the game was abandoned"
                )
        elif end == "finished":
            out.problems.append(
                f"table {table} game {game}: prize returned (transaction {txn})"
                " but the game finished: its winners were owed it"
            )
        elif end is None and table not in closed and reason == RETURNED:
            out.problems.append(
                f"table {table} game {game}: prize returned (transaction {txn})"
                " but the game has not ended"
            )
    for table, (_funder, amount, game) in prizes.items():
        if game is None:
            legacy += 1
        elif (table, game) in ends:
            out.problems.append(
                f"table {table} game {game}: a prize of {amount} is still held"
                f" though the game ended ({ends[(table, game)]})"
            )
        elif table in closed:
            out.problems.append(f"table {table} is closed but still holds a prize of {amount}")
    out.figures.update(prizes_settled=sum(settled.values()), legacy_prizes=legacy)


def _audit_results(conn: sqlite3.Connection, out: Audit) -> None:
    """One result per finished game, none per abandoned or unfinished one."""
    counts: Counter[tuple[int, int]] = Counter(
        (t, g) for t, g in conn.execute("SELECT table_id, game FROM results")
    )
    dealt = {(t, g) for t, g in conn.execute("SELECT table_id, game FROM lineups")}
    judged = 0
    for table, game, ended, outcome in conn.execute(
        "SELECT table_id, game, ended, outcome FROM games"
    ):
        key = (table, game)
        have = counts.pop(key, 0)
        if key not in dealt and not have:
            continue  # dealt by a version that kept no results
        judged += 1
        if ended is not None and outcome == "finished" and have != 1:
            what = "no result" if have == 0 else f"{have} results"
            out.problems.append(f"table {table} game {game}: finished but {what} stored")
        elif outcome == "abandoned" and have:
            out.problems.append(f"table {table} game {game}: abandoned but has a result")
        elif ended is None and have:
            out.problems.append(f"table {table} game {game}: a result but the game has not ended")
    for table, game in counts:
        out.problems.append(f"table {table} game {game}: a result for a game that was never dealt")
    out.figures.update(results=sum(1 for _ in conn.execute("SELECT 1 FROM results")),
                       games_judged=judged)  # fmt: skip


def _audit_recipients(  # noqa: C901 (one check a kind of transaction)
    conn: sqlite3.Connection, txns: list[tuple[int, str, int | None, int | None]], out: Audit
) -> None:
    """Payouts only to the winning seats' players or the funder; returns only to the funder."""
    postings: dict[int, list[tuple[str, int]]] = {}
    for txn, account, delta in conn.execute("SELECT txn, account, delta FROM chip_entries"):
        postings.setdefault(txn, []).append((account, delta))
    winners: dict[tuple[int, int], set[str]] = {}
    for table, game, players, shown, places in conn.execute(
        "SELECT table_id, game, players, shown, places FROM results"
    ):
        won = [s for s, place in enumerate(json.loads(places)) if place == 0]
        keys = json.loads(players), json.loads(shown)
        winners[(table, game)] = {str(k[s]) for k in keys for s in won if s < len(k)}
    funders: dict[tuple[int, int], str] = {}
    #: a table's prize put up with no game recorded (an older version), for the game it
    #: was then placed in: nothing names that game, so the newest such funder stands
    legacy: dict[int, str] = {}
    for txn, reason, table, game in txns:
        if table is None:
            continue
        people = [(a, d) for a, d in postings.get(txn, []) if not a.startswith("@")]
        if reason == "prize" or reason.startswith("prize withdrawn"):
            putting = [a for a, d in people if d < 0] or [a for a, _ in people]
            if putting and game is None:
                legacy[table] = putting[0]
            elif putting and game is not None:
                funders[(table, game)] = putting[0]
            continue
        if game is None:
            continue
        key = (table, game)
        if key not in funders and table in legacy:
            funders[key] = legacy[table]
        if reason == PAID:
            allowed = winners.get(key)
            if allowed is None:
                continue  # no result: reported above
            funder = funders.get(key)
            for account, delta in people:
                if delta > 0 and account != funder and not _one_of(account, allowed):
                    out.problems.append(
                        f"table {table} game {game}: {account} was paid {delta} (transaction"
                        f" {txn}) but neither won nor put the prize up"
                    )
        elif reason.startswith(RETURNED) and key in funders:
            for account, delta in people:
                if delta > 0 and account != funders[key]:
                    out.problems.append(
                        f"table {table} game {game}: the prize went back to {account}"
                        f" (transaction {txn}), not to {funders[key]} who put it up"
                    )


def _one_of(account: str, names: set[str]) -> bool:
    """Whether the ledger account ``account`` (a display name) is one of ``names`` (as a
    result keeps them: folded keys and shown names)."""
    return account in names or fold_name(account) in names or account.casefold() in names


def summary(result: Audit) -> dict[str, Any]:
    """The audit as a plain mapping (``switchboard audit --json``)."""
    return {"ok": result.ok, "problems": result.problems, **result.figures}
