"""The launcher's C helpers in the cache folder: each source version builds its own, and builds no driver has used
for two weeks are removed when another is made (they would pile up, one per package version)."""

import os
import shutil
import time

import pytest

from acpt_estimator.backends.local.native import NativeHelper

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="needs a C compiler")]
DAY = 24 * 3600


def _helper(tmp_path, monkeypatch, body: str) -> NativeHelper:
    monkeypatch.setenv("ACPT_ESTIMATOR_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "tool.c"
    source.write_text(f"int main(void) {{ return {body}; }}\n")
    return NativeHelper("acpt-tool", str(source), "ACPT_TOOL_HELPER")


def _aged(path, days: float) -> None:
    stamp = time.time() - days * DAY
    os.utime(path, (stamp, stamp))


def test_a_new_build_removes_this_helpers_builds_unused_for_two_weeks(tmp_path, monkeypatch):
    helper = _helper(tmp_path, monkeypatch, "0")
    folder = tmp_path / "cache" / "bin"
    folder.mkdir(parents=True)
    old, recent, other = folder / "acpt-tool-0123456789abcdef", folder / "acpt-tool-fedcba9876543210", \
        folder / "acpt-other-0123456789abcdef"
    for path, days in ((old, 15), (recent, 13), (other, 30)):
        path.write_bytes(b"\x7fELF")
        _aged(path, days)
    built = helper.build()
    assert built and os.path.dirname(built) == str(folder) and os.access(built, os.X_OK)
    assert not old.exists()  # another source version's build, unused for 15 days
    assert recent.exists() and other.exists()  # used within two weeks; another helper's


def test_using_a_build_marks_it_as_used_at_most_once_a_day(tmp_path, monkeypatch):
    built = _helper(tmp_path, monkeypatch, "0").build()
    _aged(built, 20)
    assert _helper(tmp_path, monkeypatch, "0").ready() == built  # a later driver finds it and refreshes its time
    assert time.time() - os.stat(built).st_mtime < 60
    _aged(built, 0.5)
    before = os.stat(built).st_mtime
    assert _helper(tmp_path, monkeypatch, "0").ready() == built
    assert os.stat(built).st_mtime == before  # used half a day ago: not written again
    # a driver that keeps running marks its build again once a day
    helper = _helper(tmp_path, monkeypatch, "0")
    assert helper.ready() == built
    _aged(built, 3)
    assert helper.ready() == built and os.stat(built).st_mtime == pytest.approx(time.time() - 3 * DAY, abs=60)
    helper.state["mark_due"] = time.monotonic()  # (a day later)
    assert helper.ready() == built and time.time() - os.stat(built).st_mtime < 60
    # the next version's build keeps it: it was used within STALE_SECONDS
    assert _helper(tmp_path, monkeypatch, "1").build() != built and os.path.exists(built)
