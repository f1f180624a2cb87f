"""Rounds of an A/B benchmark: each round times every run once, in an order that rotates, then reports per checkout."""

from __future__ import annotations

import argparse
import itertools
import os
import statistics


def parse_checkouts(description: str, what: str, rounds: int, settle: bool = False,
                    copies: int = 0) -> argparse.Namespace:
    """``checkouts`` (``what`` they hold) and ``--rounds`` (with ``settle``: ``--settle-ms``; with ``copies``:
    ``--copies``, that many by default); prints the load the benchmark begins at."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("checkouts", nargs="+", help=f"folders holding {what}")
    parser.add_argument("--rounds", type=int, default=rounds)
    if copies:
        parser.add_argument("--copies", type=int, default=copies,
                            help="worker processes per checkout, each with a store of its own: the spread between "
                                 "copies of one checkout is what separate processes differ by with the same code")
    if settle:
        parser.add_argument("--settle-ms", type=float, default=0.0,
                            help="a pause after each timed run, not timed: work a run leaves running after its end "
                                 "(tidying, a spare run folder) then finishes before the next run is timed instead "
                                 "of slowing whichever run comes next")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores")
    return args


def interleave(runs, rounds: int) -> list[dict]:
    """``rounds`` rows of {slot: seconds}, each run of ``runs`` (callables) timed once a round; the order of the runs
    goes through every permutation in turn, so a drifting machine favours none."""
    orders = list(itertools.permutations(range(len(runs))))
    return [{slot: runs[slot]() for slot in orders[round_ % len(orders)]} for round_ in range(rounds)]


def report(rows: list, checkouts, plain: int, plain_label: str, overhead_label: str, copies: int = 1) -> None:
    """Plain's median, then each checkout's overhead over it (median of per-round differences) and the median of the
    per-round ratios; slot ``plain`` of a row is plain's. Each checkout ran in ``copies`` workers (slot
    ``i * copies + k``: checkout ``i``'s copy ``k``): its figures pool them, and with more than one, each copy's
    overhead and how far copies of one checkout lie apart are printed too (a difference between checkouts smaller
    than that is no difference)."""
    workers = f", {copies} workers per checkout" if copies > 1 else ""
    print(f"{plain_label}: median {statistics.median(r[plain] for r in rows) * 1000:.1f} ms, {len(rows)} rounds"
          + workers)
    spread = 0.0
    for index, checkout in enumerate(checkouts):
        slots = range(index * copies, (index + 1) * copies)
        overhead = statistics.median(r[k] - r[plain] for r in rows for k in slots) * 1000
        ratio = statistics.median(r[k] / r[plain] for r in rows for k in slots)
        line = f"{checkout:30s} {overhead_label} {overhead:7.2f} ms   ratio {ratio:.3f}x"
        if copies > 1:
            each = [statistics.median(r[k] - r[plain] for r in rows) * 1000 for k in slots]
            spread = max(spread, max(each) - min(each))
            line += "   copies: " + ", ".join(f"{e:.2f}" for e in each)
        print(line)
    if copies > 1:
        print(f"copies of one checkout lie up to {spread:.2f} ms apart (the same code in separate processes): "
              "a smaller difference between checkouts is not one")
