"""The C rank launcher (rank_exec.c): does what rank.sh does for each rank, without a shell's start-up."""

from __future__ import annotations

from .native import NativeHelper

DISABLE_VAR = "ACPT_ESTIMATOR_RANK_EXEC"  # "0": ranks start through rank.sh (a shell) instead
# bash, as rank.sh needs it (closing every inherited descriptor), took about 3.5 ms more than no wrapper per
# 2-rank job here; this helper is one small static process.
_HELPER = NativeHelper("acpt-rank", "rank_exec.c", DISABLE_VAR, prefer_musl=True)  # started once per rank
_state = _HELPER.state
ready, build = _HELPER.ready, _HELPER.build
