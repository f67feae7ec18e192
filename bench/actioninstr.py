"""Instructions per action of the table, counted by valgrind: a figure that does not
depend on how busy the machine is, to compare two builds by.

    python bench/actioninstr.py --against TREE     # this tree and TREE, side by side
    python bench/actioninstr.py --actions 1000 --keep DIR

``bench/actioncpu.py`` times the table's work on an action (its tables, members that
encode everything they are sent, acting at once on their turn); on a machine other
work crowds, its CPU seconds still move by a tenth from run to run, which hides a
change of a few percent. This runs the same workload (``actioncpu.tables_pass``,
imported, not copied) under ``valgrind --tool=callgrind`` and counts the instructions
it executes. Instruction counts do not depend on load: the other processes on the
machine slow the run down, but do not change what it executes, so two runs of one
tree agree to a fraction of a percent and a few percent between two trees is real.

The workload is made repeatable: the deals' seeds (``secrets.randbits``) come from a
seeded generator, trio's scheduler is seeded, ``PYTHONHASHSEED`` is fixed, and the
store's commits always gather (``GATHER_SECONDS``, otherwise a matter of the clock). Start-up
(the interpreter, the imports, the tables made and seated) is removed by counting two
runs, of ``N`` and ``2N`` actions, and taking the difference: the instructions of the
last ``N`` actions, every cost an action brings with it (the games it ends, the next
ones started) included.

``--against TREE`` (another checkout, e.g. ``git worktree add ../before COMMIT``) counts
both trees in the same run and prints the two figures, their ratio (after / before),
the target (at most ``TARGET`` of before) and whether it is met. ``--keep DIR`` keeps
the callgrind profiles (``callgrind_annotate DIR/after-2N.out``) to see where the
instructions go. Under valgrind a run is some fifty times slower than without it:
the defaults (1,000 actions) take a few minutes a tree.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the instructions an action may cost after, as a share of before (``--against``)
TARGET = 1.05
VALGRIND = "valgrind"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _work(tables: int, actions: int) -> None:
    """The measured process: ``actioncpu``'s workload, made repeatable (run under
    valgrind; the tree is the one ``BENCH_ACTIONCPU_TREE`` names)."""
    import random
    import secrets

    seeds = random.Random(2026)
    secrets.randbits = seeds.getrandbits  # type: ignore[assignment]  # every deal's seed
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import actioncpu  # puts the measured tree first on the path
    import trio

    from server.store import sqlite

    trio._core._run._r.seed(2026)  # trio reverses a batch of tasks at random: seeded
    # A commit waits a tick for others to join it if the last began under a millisecond
    # before (``GATHER_SECONDS``): a matter of the clock, which valgrind slows down as
    # it likes; here it always waits, as on a busy server, so every run groups alike.
    sqlite.GATHER_SECONDS = math.inf
    tmp = Path(tempfile.mkdtemp(prefix="sb-actioninstr-"))
    try:
        trio.run(actioncpu.tables_pass, tables, actions, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def count(tree: str, tables: int, actions: int, out: Path) -> int:
    """The instructions a run of ``actions`` actions in ``tree`` executes, in all."""
    env = {**os.environ, "BENCH_ACTIONCPU_TREE": tree, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [VALGRIND, "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         __file__, "--worker", "--tables", str(tables), "--actions", str(actions)],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    found = _COLLECTED.findall(done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"valgrind failed on {tree} ({done.returncode}):\n{done.stderr[-3000:]}")
    return int(found[-1])


def per_action(tree: str, tables: int, actions: int, keep: Path, side: str) -> float:
    """Instructions per action in ``tree``: the runs of ``2N`` and ``N`` actions, the difference
    divided by ``N``."""
    once = count(tree, tables, actions, keep / f"{side}-N.out")
    twice = count(tree, tables, 2 * actions, keep / f"{side}-2N.out")
    return (twice - once) / actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--actions", type=int, default=1000, help="N: runs of N and 2N")
    parser.add_argument("--against", metavar="TREE", help="compare with another checkout")
    parser.add_argument("--keep", metavar="DIR", help="keep the callgrind profiles here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _work(args.tables, args.actions)
        return
    if shutil.which(VALGRIND) is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    keep = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="sb-callgrind-"))
    keep.mkdir(parents=True, exist_ok=True)
    trees = {"after": str(ROOT)}
    if args.against:
        trees = {"before": str(Path(args.against).resolve()), **trees}
    print(f"{args.tables} tables of 4 members, runs of {args.actions} and {2 * args.actions}"
          " actions under callgrind; the difference per action")  # fmt: skip
    got = {}
    for side, tree in trees.items():
        got[side] = per_action(tree, args.tables, args.actions, keep, side)
        print(f"   {side:<6} {got[side] / 1000:8.1f}k instructions an action  ({tree})")
    if args.keep is None:
        shutil.rmtree(keep, ignore_errors=True)
    if "before" in got:
        ratio = got["after"] / got["before"]
        met = "met" if ratio <= TARGET else "NOT met"
        print(f"   after / before {ratio:.3f}x; target <= {TARGET}x: {met}")


if __name__ == "__main__":
    main()
