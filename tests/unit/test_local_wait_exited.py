"""signals.wait_exited: a child's exit code as it exits, or None while it still runs at the timeout."""

import subprocess

from acpt_estimator.backends.local.signals import wait_exited


def test_the_exit_code_of_a_child_that_ended():
    child = subprocess.Popen(["/bin/sh", "-c", "exit 3"])
    assert wait_exited(child, timeout=30) == 3 and child.returncode == 3


def test_none_while_the_child_still_runs_at_the_timeout():
    child = subprocess.Popen(["/bin/sleep", "30"])
    try:
        assert wait_exited(child, timeout=0.05) is None and child.poll() is None
    finally:
        child.kill()
        child.wait()


def test_a_child_that_ended_before_the_wait_began():
    child = subprocess.Popen(["/bin/true"])
    child.wait()  # reaped here already: wait_exited answers what Popen knows, never looking up a reusable pid
    assert wait_exited(child, timeout=30) == 0
