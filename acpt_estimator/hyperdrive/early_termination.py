"""When a local trial should stop: v1/v2 Bandit, MedianStopping and TruncationSelection semantics.

Each trial's *reports* are the primary-metric values it logged, in order. A policy acts at report ``n`` (1-based)
when ``n > delay_evaluation`` and ``n % evaluation_interval == 0``, comparing trials at that same report.
"""

from __future__ import annotations

import statistics



def _due(policy, n: int) -> bool:
    return n > policy.delay_evaluation and n % policy.evaluation_interval == 0


def policy_name(policy) -> str | None:
    """v1's name of a termination policy (``POLICY_NAME``: Bandit, MedianStopping, TruncationSelection, Default)."""
    return getattr(policy, "POLICY_NAME", None)


def _better(a: float, b: float, maximize: bool) -> bool:
    return a > b if maximize else a < b


def should_stop(policy, trial: list, others: list[list], maximize: bool, after: int = 0) -> int | None:
    """The report number at which ``trial`` is found losing (None: keep running). ``others`` are all other trials.

    Only reports after ``after`` are judged: a decision is made when a report arrives, against the peers that
    have reached that report by then, never retroactively.
    """
    check = {"Bandit": _bandit, "MedianStopping": _median, "TruncationSelection": _truncation}.get(policy_name(policy))
    if check is None:
        return None
    for n in range(after + 1, len(trial) + 1):
        if _due(policy, n) and check(policy, n, trial, [o for o in others if len(o) >= n], maximize):
            return n
    return None


def _bandit(policy, n, trial, peers, maximize) -> bool:
    """Out of slack with respect to the best value any trial reported at report n."""
    if not peers:
        return False
    values = [p[n - 1] for p in peers] + [trial[n - 1]]
    best = max(values) if maximize else min(values)
    value = trial[n - 1]
    if policy.slack_factor is not None:
        limit = best / (1 + policy.slack_factor) if maximize else best * (1 + policy.slack_factor)
    else:
        limit = best - policy.slack_amount if maximize else best + policy.slack_amount
    return value < limit if maximize else value > limit


def _median(policy, n, trial, peers, maximize) -> bool:
    """Best value so far worse than the median of all trials' running averages at report n."""
    if not peers:
        return False
    averages = [statistics.fmean(p[:n]) for p in peers] + [statistics.fmean(trial[:n])]
    best_so_far = max(trial[:n]) if maximize else min(trial[:n])
    return _better(statistics.median(averages), best_so_far, maximize)


def _truncation(policy, n, trial, peers, maximize) -> bool:
    """In the worst truncation_percentage % of trials at report n (finished trials count too)."""
    if not peers:
        return False
    values = sorted([p[n - 1] for p in peers] + [trial[n - 1]], reverse=maximize)  # best first
    cut = int(len(values) * policy.truncation_percentage / 100)
    if cut == 0:
        return False
    threshold = values[-cut]  # the best of the worst `cut` values
    value = trial[n - 1]
    return value <= threshold if maximize else value >= threshold
