"""benchmarks/ab_rounds.py: how the A/B benchmarks order their runs and report checkouts run in several copies."""

from __future__ import annotations

import importlib.util
import itertools
import os

_PATH = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "benchmarks", "ab_rounds.py")
_spec = importlib.util.spec_from_file_location("ab_rounds", _PATH)
ab_rounds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab_rounds)


def test_every_run_is_timed_once_a_round_in_an_order_that_goes_through_every_permutation():
    calls = []
    runs = [lambda slot=slot: calls.append(slot) or float(slot) for slot in range(3)]
    rows = ab_rounds.interleave(runs, 12)
    assert rows == [{0: 0.0, 1: 1.0, 2: 2.0}] * 12
    orders = [tuple(calls[i:i + 3]) for i in range(0, len(calls), 3)]
    assert sorted(orders[:6]) == sorted(itertools.permutations(range(3))) and orders[6:] == orders[:6]


def test_copies_are_pooled_per_checkout_and_their_spread_is_said(capsys):
    # Slots: old's copies 0 and 1, new's copies 2 and 3, plain 4 (seconds; plain 10 ms throughout).
    rows = [{0: 0.0110, 1: 0.0112, 2: 0.0108, 3: 0.0109, 4: 0.0100}] * 5
    ab_rounds.report(rows, ["old", "new"], 4, "plain", "overhead", copies=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "plain: median 10.0 ms, 5 rounds, 2 workers per checkout"
    old, new = lines[1].split(), lines[2].split()
    assert old[0] == "old" and old[2] == "1.10" and old[5] == "1.110x" and old[7:] == ["1.00,", "1.20"]
    assert new[0] == "new" and new[2] == "0.85" and new[7:] == ["0.80,", "0.90"]
    assert lines[3].startswith("copies of one checkout lie up to 0.20 ms apart")


def test_one_copy_says_nothing_of_copies(capsys):
    """driver_ab.py's report: one worker (a fresh driver process) per checkout, nothing said of copies."""
    ab_rounds.report([{0: 0.012, 1: 0.010}], ["only"], 1, "plain", "overhead")
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["plain: median 10.0 ms, 1 rounds", f"{'only':30s} overhead    2.00 ms   ratio 1.200x"]
