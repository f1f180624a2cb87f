"""How /proc/<pid>/cgroup names a job's cgroup folder: what each rank launcher checks it is inside."""

from __future__ import annotations

import pytest

from acpt_estimator.backends.local import cgroup


@pytest.fixture
def mounted(monkeypatch):
    """Two cgroup folders as _own_cgroup() found them: the hierarchy's root and a container's own cgroup."""
    monkeypatch.setattr(cgroup, "_named", {"/sys/fs/cgroup/": "/", "/sys/fs/cgroup/pod": "/pod"})


@pytest.mark.parametrize("folder, named", [
    ("/sys/fs/cgroup/pod", "/pod"),  # the folder itself
    ("/sys/fs/cgroup/pod/acpt-driver-7/exp_1_abcdef12", "/pod/acpt-driver-7/exp_1_abcdef12"),
    ("/sys/fs/cgroup/pods/x", "/pods/x"),  # not below /sys/fs/cgroup/pod: below the root
    ("/sys/fs/cgroup/", "/"),
    ("/elsewhere/x", None),
])
def test_a_job_folder_is_named_as_proc_names_it_below_the_longest_known_folder(mounted, folder, named):
    assert cgroup.proc_name(folder) == named
