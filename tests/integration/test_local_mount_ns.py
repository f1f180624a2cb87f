"""The job's mount namespace on the spawning thread: binds made there only, the thread's own view back afterwards."""

from __future__ import annotations

import os
import subprocess
import threading

import pytest

from acpt_estimator.backends.local import mount_ns
from acpt_estimator.backends.local.inputs import Mount
from acpt_estimator.exceptions import ExperimentExecutionException

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(not mount_ns.available(), reason="needs root with CAP_SYS_ADMIN (mount namespaces)")]


def _on_a_thread(work):
    outcome = {}

    def run():
        try:
            outcome["value"] = work()
        except BaseException as err:  # noqa: BLE001 - handed to the test
            outcome["error"] = err

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _writes(path: str) -> int:
    """Exit code of a child process that tries to create a file in ``path``."""
    return subprocess.run(["/bin/sh", "-c", 'echo x >"$0/probe"', path], stderr=subprocess.DEVNULL).returncode


def test_a_child_spawned_inside_sees_the_binds_and_the_thread_gets_its_own_view_back(tmp_path):
    store, own = tmp_path / "store", tmp_path / "store" / "runs" / "r1"
    own.mkdir(parents=True)
    mounts = [Mount(str(own), str(own), writable=True), Mount(str(store), str(store), recursive=True)]
    before = os.readlink("/proc/thread-self/ns/mnt")

    def inside():
        cwd = os.getcwd()
        with mount_ns.entered(mounts):
            codes = (_writes(str(store)), _writes(str(own)))
        return codes, os.readlink("/proc/thread-self/ns/mnt"), os.getcwd() == cwd

    (store_code, own_code), namespace_after, same_cwd = _on_a_thread(inside)
    assert store_code != 0 and own_code == 0  # read-only store, writable own run folder
    assert namespace_after == before and same_cwd
    assert _writes(str(store)) == 0  # the driver's view was never changed


def test_a_bind_that_fails_names_itself_and_starts_nothing(tmp_path):
    missing = str(tmp_path / "gone")
    before = os.readlink("/proc/thread-self/ns/mnt")

    def inside():
        try:
            with mount_ns.entered([Mount(str(tmp_path), missing)]):
                raise AssertionError("the block must not run when a bind fails")
        finally:
            assert os.readlink("/proc/thread-self/ns/mnt") == before

    with pytest.raises(ExperimentExecutionException, match=f"bind of {tmp_path} at {missing}.*nothing was started"):
        _on_a_thread(inside)


def test_without_cap_sys_admin_no_view_is_offered_and_a_forced_one_is_refused_clearly(tmp_path):
    code = ("from acpt_estimator.backends.local import mount_ns\n"
            "from acpt_estimator.backends.local.inputs import Mount\n"
            "print(mount_ns.available())\n"
            "try:\n"
            f"    with mount_ns.entered([Mount({str(tmp_path)!r}, {str(tmp_path)!r})]):\n"
            "        print('ran')\n"
            "except Exception as err:\n"
            "    print(type(err).__name__, err)\n")
    import sys

    done = subprocess.run(["setpriv", "--inh-caps=-sys_admin", "--bounding-set=-sys_admin", "--", sys.executable,
                           "-c", code], capture_output=True, text=True, timeout=60)
    available, outcome = done.stdout.split("\n", 1)
    assert available == "False"
    # v1's exceptions print as a JSON error response: the message is inside.
    assert outcome.startswith("ExperimentExecutionException") and "unshare(CLONE_NEWNS)" in outcome, done.stdout
    assert "nothing was started" in outcome and "ran" not in outcome.split()


def _capabilities(text: str) -> dict:
    """CapInh/CapPrm/CapEff/CapBnd/CapAmb of a /proc/<pid>/status text, as integers."""
    return {line.split(":")[0]: int(line.split()[1], 16) for line in text.splitlines() if line.startswith("Cap")}


def test_a_thread_that_drops_the_jobs_capabilities_starts_processes_that_cannot_get_them_back():
    admin_and_ptrace = (1 << mount_ns.CAP_SYS_ADMIN) | (1 << mount_ns.CAP_SYS_PTRACE)
    child = ["/bin/cat", "/proc/self/status"]

    def dropped():
        mount_ns.drop_job_capabilities()
        with open("/proc/thread-self/status", encoding="ascii") as own:
            thread_caps = _capabilities(own.read())
        # What setpriv would re-raise from, and a root child: neither gets the two back (bounding, inheritable).
        return thread_caps, _capabilities(subprocess.run(child, capture_output=True, text=True).stdout)

    thread_caps, child_caps = _on_a_thread(dropped)
    assert thread_caps["CapEff"] & admin_and_ptrace == admin_and_ptrace  # the thread itself keeps using them
    for key in ("CapBnd", "CapInh", "CapAmb", "CapPrm", "CapEff"):
        assert child_caps[key] & admin_and_ptrace == 0, key
    assert child_caps["CapPrm"] != 0  # root's other capabilities stay: only the two are gone
    # The driver's other threads, and what they start, are untouched.
    unchanged = _capabilities(subprocess.run(child, capture_output=True, text=True).stdout)
    assert unchanged["CapBnd"] & admin_and_ptrace == admin_and_ptrace
