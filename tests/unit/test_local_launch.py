"""The local launch plan is a pure function: MPI flavour -> flags, rank layout -> environment, argv, rank.sh."""

import os
import subprocess
import time

import pytest

from acpt_estimator import Gloo, Mpi, PyTorch
from acpt_estimator.backends.local import inputs as local_inputs, launch
from acpt_estimator.backends.local.gate import Gate
from acpt_estimator.backends.local.launch import (EXIT_NO_DRIVER, EXIT_UNTRACKED, LaunchContext,
                                                  interpreter_first_on_path, job_environment, log_name, mpiexec_argv,
                                                  plan_launch, rank_environment, render_rank_entry,
                                                  render_rank_script)
from acpt_estimator.backends.local.mpi import Launcher, candidate_paths, detect_flavour
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.exceptions import UserErrorException

MPICH_TEXT = "HYDRA build details:\n    Version:                                 5.0.2\n    Release Date: ..."
OMPI4_TEXT = "mpiexec (OpenRTE) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n"
OMPI5_TEXT = "mpirun (Open MPI) 5.0.11\n\nReport bugs to https://www.open-mpi.org/community/help/\n"
INTEL_TEXT = "Intel(R) MPI Library for Linux* OS, Version 2021.10 Build 20230619 (id: c2e19c2f3e)\n"
MPICH = Launcher("/venv/bin/mpiexec", "mpich", "5.0.2")
OMPI = Launcher("/usr/bin/mpirun", "openmpi", "4.1.4")


@pytest.mark.parametrize("text, flavour, version", [
    (MPICH_TEXT, "mpich", "5.0.2"), (OMPI4_TEXT, "openmpi", "4.1.4"), (OMPI5_TEXT, "openmpi", "5.0.11"),
    (INTEL_TEXT, "intel", "2021.10")])
def test_flavour_is_read_from_the_version_text(text, flavour, version):
    assert detect_flavour(text) == (flavour, version)


def test_missing_launcher_names_the_setting_and_the_fix(monkeypatch, tmp_path):
    from acpt_estimator.backends.local.mpi import find_launcher
    from acpt_estimator.exceptions import ExperimentExecutionException

    monkeypatch.setenv("ACPT_ESTIMATOR_MPIEXEC", str(tmp_path / "no-mpiexec"))
    with pytest.raises(ExperimentExecutionException) as err:
        find_launcher()
    assert "ACPT_ESTIMATOR_MPIEXEC=" in err.value.message and "pip install acpt-estimator[local]" in err.value.message


def test_a_launcher_s_version_probe_is_remembered_until_its_file_changes(monkeypatch, tmp_path):
    """A new driver reads what an earlier one's ``--version`` said of the same file; a changed file is asked again."""
    from acpt_estimator.backends.local import mpi

    calls = tmp_path / "calls"
    fake = tmp_path / "bin" / "mpiexec"
    fake.parent.mkdir()

    def install(text):
        fake.write_text(f"#!/bin/sh\necho probed >> {calls}\ncat <<'EOF'\n{text}EOF\n")
        fake.chmod(0o755)

    install(MPICH_TEXT)
    monkeypatch.setenv("ACPT_ESTIMATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ACPT_ESTIMATOR_MPIEXEC", str(fake))
    monkeypatch.setattr(mpi, "_cache", {})  # each call below stands for a new driver process
    first = mpi.find_launcher()
    monkeypatch.setattr(mpi, "_cache", {})
    again = mpi.find_launcher()
    assert first == again == Launcher(str(fake), "mpich", "5.0.2")
    assert calls.read_text().splitlines() == ["probed"]  # the second driver did not run it

    install(OMPI5_TEXT)  # an upgrade in place: another file at the same path
    monkeypatch.setattr(mpi, "_cache", {})
    assert mpi.find_launcher() == Launcher(str(fake), "openmpi", "5.0.11")
    assert calls.read_text().splitlines() == ["probed", "probed"]

    (tmp_path / "cache" / mpi.PROBES_FILE).write_text("{not json")  # damaged: asked again, and rewritten
    monkeypatch.setattr(mpi, "_cache", {})
    assert mpi.find_launcher().flavour == "openmpi"
    assert len(calls.read_text().splitlines()) == 3
    monkeypatch.setattr(mpi, "_cache", {})
    mpi.find_launcher()
    assert len(calls.read_text().splitlines()) == 3

    (tmp_path / "cache" / mpi.PROBES_FILE).chmod(0o666)  # others could have written it: not believed
    monkeypatch.setattr(mpi, "_cache", {})
    mpi.find_launcher()
    assert len(calls.read_text().splitlines()) == 4


def test_unknown_launcher_is_refused():
    with pytest.raises(ValueError, match="unrecognised MPI launcher"):
        detect_flavour("srun: slurm 23.02")


def test_mpich_needs_no_root_or_oversubscribe_flags_but_uses_fork_and_pmi_port():
    argv = mpiexec_argv(MPICH, 4, ["/bin/sh", "/run/rank.sh"], is_root=True, cores=2)
    assert argv == ["/venv/bin/mpiexec", "-launcher", "fork", "-pmi-port", "-n", "4", "/bin/sh", "/run/rank.sh"]


@pytest.mark.parametrize("is_root, ranks, cores, expected", [
    (True, 2, 2, ["--allow-run-as-root"]),
    (False, 2, 2, []),
    (True, 4, 2, ["--allow-run-as-root", "--oversubscribe"]),
    (False, 3, 2, ["--oversubscribe"]),
])
def test_open_mpi_flags_follow_root_and_cores(is_root, ranks, cores, expected):
    argv = mpiexec_argv(OMPI, ranks, ["/bin/sh", "/r.sh"], is_root=is_root, cores=cores)
    assert argv == ["/usr/bin/mpirun", *expected, "-n", str(ranks), "/bin/sh", "/r.sh"]


def test_intel_mpi_gets_fork_launcher_without_pmi_port():
    argv = mpiexec_argv(Launcher("/opt/intel/mpiexec", "intel"), 2, ["/bin/sh", "/r.sh"], is_root=True, cores=8)
    assert "-pmi-port" not in argv and argv[1:3] == ["-launcher", "fork"]


def test_launcher_search_order_override_then_interpreter_bin_then_path(tmp_path):
    venv_bin, system_bin = tmp_path / "venv", tmp_path / "usr"
    venv_bin.mkdir(), system_bin.mkdir()
    for folder, name in ((venv_bin, "mpiexec"), (system_bin, "mpirun")):
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    assert candidate_paths("/x/mpiexec", str(venv_bin), str(system_bin)) == ["/x/mpiexec"]
    assert candidate_paths(None, str(venv_bin), str(system_bin)) == [str(venv_bin / "mpiexec"),
                                                                     str(system_bin / "mpirun")]
    assert candidate_paths(None, str(tmp_path / "none"), "") == []


def test_simulated_nodes_place_rank_r_on_node_r_div_processes_per_node():
    layout = [rank_environment(r, 2) for r in range(4)]
    assert [(e["NODE_RANK"], e["LOCAL_RANK"]) for e in layout] == [("0", "0"), ("0", "1"), ("1", "0"), ("1", "1")]
    assert [e["OMPI_COMM_WORLD_RANK"] for e in layout] == ["0", "1", "2", "3"]
    assert [e["OMPI_COMM_WORLD_LOCAL_RANK"] for e in layout] == ["0", "1", "0", "1"]
    assert [e["AZ_BATCHAI_TASK_INDEX"] for e in layout] == ["0", "1", "2", "3"]


def _context(tmp_path, launcher=MPICH, **overrides):
    values = dict(run_id="exp_1_abcdef12", experiment_name="exp", run_dir=f"{tmp_path}/run",
                  workdir=f"{tmp_path}/run/snapshot", user_logs=f"{tmp_path}/run/files/user_logs",
                  status_dir=f"{tmp_path}/run/status", store_home=str(tmp_path), python="/venv/bin/python",
                  launcher=launcher, master_port=29123,
                  base_env={"PATH": "/usr/bin", "HOME": "/root", "PMI_RANK": "7", "OMPI_COMM_WORLD_RANK": "7"},
                  mlflow_tracking_uri="sqlite:////store/mlflow.db", mlflow_run_id="0f1e2d3c4b5a69788796a5b4c3d2e1f0",
                  cores=2)
    values.update(overrides)
    return LaunchContext(**values)


def _gloo_estimator(tmp_path, **kw):
    return PyTorch(str(tmp_path), entry_script="train.py", compute_target="local", node_count=2,
                   process_count_per_node=2, distributed_training=Gloo(),
                   environment_variables={"MY_VAR": "x y"}, **kw)


def test_job_environment_carries_the_azure_and_torch_contract(tmp_path):
    spec = _gloo_estimator(tmp_path).to_job_spec(experiment_name="exp")
    env = job_environment(spec, _context(tmp_path))
    assert env["MASTER_ADDR"] == "127.0.0.1" and env["MASTER_PORT"] == "29123"
    assert env["WORLD_SIZE"] == "4" and env["LOCAL_WORLD_SIZE"] == "2" and env["OMPI_COMM_WORLD_SIZE"] == "4"
    assert env["AZ_BATCHAI_PYTORCH_INIT_METHOD"] == "tcp://127.0.0.1:29123"
    assert env["AZ_BATCH_MASTER_NODE"] == "127.0.0.1:29123" and env["AZ_BATCHAI_MPI_MASTER_NODE"] == "127.0.0.1"
    assert env["AZUREML_RUN_ID"] == env["ACPT_ESTIMATOR_RUN_ID"] == "exp_1_abcdef12"
    assert env["MLFLOW_RUN_ID"] == "0f1e2d3c4b5a69788796a5b4c3d2e1f0"  # MLflow's id of the job's run
    assert env["ACPT_ESTIMATOR_JOB_abcdef12"] == "exp_1_abcdef12"  # the /proc marker of this job
    assert env["NCCL_TREE_THRESHOLD"] == "0" and env["MY_VAR"] == "x y"
    assert env["MLFLOW_TRACKING_URI"] == "sqlite:////store/mlflow.db" and env["MLFLOW_EXPERIMENT_NAME"] == "exp"
    assert "MLFLOW_ALLOW_FILE_STORE" not in env  # MLflow's default store: no setting needed
    assert env["PATH"] == "/venv/bin:/usr/bin"  # the driver's interpreter first, as in an activated venv
    # Rank variables of an MPI job around the driver must not leak into this job's ranks.
    assert "PMI_RANK" not in env and "OMPI_COMM_WORLD_RANK" not in env


def test_rank_argv_expands_vars_per_rank_and_inputs_become_paths(tmp_path):
    ds = Datastore(object(), "workspaceblobstore")
    est = _gloo_estimator(tmp_path, script_params={
        "--rank": "$AZ_BATCHAI_TASK_INDEX", "--dist-url": "${AZ_BATCHAI_PYTORCH_INIT_METHOD}",
        "--data": ds.path("mnist").as_mount(), "--home": "$HOME/x", "--unset": "a$NOT_SET_ANYWHERE"})
    spec = est.to_job_spec(experiment_name="exp")
    name = spec.inputs[0].name
    plan = plan_launch(spec, _context(tmp_path, input_paths={name: "/data/mnist"}))
    argvs = [list(r.argv) for r in plan.ranks]
    assert [a[a.index("--rank") + 1] for a in argvs] == ["0", "1", "2", "3"]
    assert all(a[:2] == ["/venv/bin/python", "train.py"] for a in argvs)
    assert argvs[3][argvs[3].index("--dist-url") + 1] == "tcp://127.0.0.1:29123"
    assert argvs[0][argvs[0].index("--data") + 1] == "/data/mnist"
    assert argvs[0][argvs[0].index("--home") + 1] == "/root/x"
    assert argvs[0][argvs[0].index("--unset") + 1] == "a"  # like bash: an unset variable is empty
    ref = spec.inputs[0].reference_name
    assert plan.job_env[f"AZUREML_DATAREFERENCE_{ref}"] == "/data/mnist"
    assert [r.log_file.rsplit("/", 1)[1] for r in plan.ranks] == [f"std_log_process_{i}.txt" for i in range(4)]


def test_single_process_job_logs_to_std_log_txt():
    assert log_name(0, 1) == "std_log.txt" and log_name(1, 2) == "std_log_process_1.txt"


def test_rank_script_dispatches_on_the_flavours_rank_variable(tmp_path):
    spec = PyTorch(str(tmp_path), entry_script="t.py", compute_target="local",
                   distributed_training=Mpi(2)).to_job_spec(experiment_name="exp")
    assert "${PMI_RANK:-${PMI_ID:-}}" in plan_launch(spec, _context(tmp_path)).script
    assert "${OMPI_COMM_WORLD_RANK:-}" in plan_launch(spec, _context(tmp_path, launcher=OMPI)).script


def test_rank_script_passes_arguments_verbatim_through_the_shell(tmp_path):
    """Values are expanded in Python and single-quoted: the shell must not re-expand or split them."""
    tricky = ["it's", "a b", "`id`", "$(id)", '"q"', "*", "x;y", "\\n", "--flag=$HOME", "${NOPE}"]
    # printf stands in for python and "%s|" for the entry script, so the log shows the argv exactly.
    spec = PyTorch(str(tmp_path), entry_script="%s|", compute_target="local", distributed_training=Mpi(2),
                   script_params=tricky).to_job_spec(experiment_name="exp")
    run = tmp_path / "run"
    for sub in ("snapshot", "status", "files/user_logs"):
        (run / sub).mkdir(parents=True)
    plan = _written(plan_launch(spec, _context(tmp_path, python="/usr/bin/printf")))
    (run / "ready").touch()  # the driver opened the gate
    done = subprocess.run(list(plan.rank_command), env={"PATH": os.environ["PATH"], "PMI_ID": "1"},
                          capture_output=True, text=True, timeout=10)
    assert done.returncode == 0, done.stderr
    log = (run / "files/user_logs/std_log_process_1.txt").read_text()
    # $(id) and `id` are not shell-expanded; $HOME/${NOPE} are expanded once, by Python, like v1's shell.
    assert log.split("|")[:-1] == tricky[:-2] + ["--flag=/root", ""]
    assert os.listdir(run / "status") == ["rank_1_exit_0"]


def test_rank_script_refuses_a_process_without_rank(tmp_path):
    spec = PyTorch(str(tmp_path), entry_script="t.py", compute_target="local").to_job_spec(experiment_name="e")
    (tmp_path / "run").mkdir()
    plan = _written(plan_launch(spec, _context(tmp_path)))
    (tmp_path / "run/ready").touch()
    done = subprocess.run(list(plan.rank_command), env={"PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=10)
    assert done.returncode == 97 and "no MPI rank" in done.stderr


def _written(plan):
    """``plan`` with rank.sh and rank.body in its run folder, as the driver writes them (before and after mpiexec
    starts)."""
    with open(plan.entry_path, "w", encoding="utf-8") as handle:
        handle.write(plan.entry_script)
    with open(plan.script_path, "w", encoding="utf-8") as handle:
        handle.write(plan.script)
    return plan


def _own_cgroup_name() -> str:
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        return next(line.strip()[3:] for line in handle if line.startswith("0::"))


def _gated_rank(tmp_path, shell, cgroup, ready=True, driver_pid=0, wait=False):
    """rank.sh of a 1-rank job with cgroup tracking, run by ``shell`` as rank 0; printf stands in for python.
    ``ready``: the driver has opened the gate before the rank starts; ``wait``: it opens it while the rank waits."""
    spec = PyTorch(str(tmp_path), entry_script="ran|", compute_target="local").to_job_spec(experiment_name="e")
    run = tmp_path / "run"
    for sub in ("snapshot", "status", "files/user_logs"):
        (run / sub).mkdir(parents=True)
    gate = Gate(str(run), 1, parties=1)
    if ready:
        gate.arrive()
    ctx = _context(tmp_path, python="/usr/bin/printf", cgroup=cgroup, driver_pid=driver_pid)
    (run / "rank.sh").write_text(render_rank_entry(ctx, shell))
    (run / "rank.body").write_text(render_rank_script(plan_launch(spec, ctx).ranks, "mpich", ctx, shell))
    rank = subprocess.Popen([shell, str(run / "rank.sh")], env={"PATH": "/usr/bin:/bin", "PMI_RANK": "0"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if wait:
        time.sleep(0.3)
        assert rank.poll() is None and not (run / "files/user_logs/std_log.txt").exists()  # held at the gate
        gate.arrive()
    out, err = rank.communicate(timeout=30)
    gate.close()
    return subprocess.CompletedProcess(rank.args, rank.returncode, out, err), run


@pytest.mark.parametrize("shell", ["/bin/bash", "/bin/sh"])
def test_a_rank_inside_the_jobs_cgroup_runs_its_command_once_the_gate_opens(tmp_path, shell):
    done, run = _gated_rank(tmp_path, shell, _own_cgroup_name())  # the test's own cgroup: the rank is inside
    assert done.returncode == 0, done.stderr
    assert (run / "files/user_logs/std_log.txt").read_text() == "ran|"
    assert os.listdir(run / "status") == ["rank_0_exit_0"]


@pytest.mark.parametrize("shell", ["/bin/bash", "/bin/sh"])
def test_a_rank_waits_at_the_gate_until_the_driver_opens_it(tmp_path, shell):
    done, run = _gated_rank(tmp_path, shell, _own_cgroup_name(), ready=False, driver_pid=os.getpid(), wait=True)
    assert done.returncode == 0, done.stderr
    assert (run / "files/user_logs/std_log.txt").read_text() == "ran|"


@pytest.mark.parametrize("shell", ["/bin/bash", "/bin/sh"])
def test_a_rank_whose_driver_ended_before_the_run_was_prepared_never_runs_its_command(tmp_path, shell):
    gone = subprocess.Popen(["/bin/true"])
    gone.wait()  # a pid no process has any more
    done, run = _gated_rank(tmp_path, shell, _own_cgroup_name(), ready=False, driver_pid=gone.pid)
    assert done.returncode == EXIT_NO_DRIVER
    # Before the run is prepared there is no log folder: the message is in the launcher's log (the rank's stderr).
    assert not (run / "files/user_logs/std_log.txt").exists()
    assert "rank 0: its driver ended before the run was prepared" in done.stderr


@pytest.mark.parametrize("shell", ["/bin/bash", "/bin/sh"])
def test_a_rank_never_moved_into_the_jobs_cgroup_never_runs_its_command(tmp_path, shell):
    done, run = _gated_rank(tmp_path, shell, "/acpt-driver-1/elsewhere")
    assert done.returncode == EXIT_UNTRACKED
    log = (run / "files/user_logs/std_log.txt").read_text()
    assert "ran|" not in log and "not inside the job's cgroup" in log
    assert os.listdir(run / "status") == [f"rank_0_exit_{EXIT_UNTRACKED}"]  # the supervisor learns which rank


def test_missing_datastore_copy_names_the_path_it_expected(tmp_path):
    ds = Datastore(object(), "blobs")
    spec = PyTorch(str(tmp_path), entry_script="t.py", compute_target="local",
                   inputs=[ds.path("train/images").as_download()]).to_job_spec(experiment_name="e")
    with pytest.raises(UserErrorException) as err:
        local_inputs.resolve(spec, str(tmp_path))
    expected = os.path.join(str(tmp_path), "datastores", "blobs", "train", "images")
    assert expected in err.value.message and "azureml://datastores/blobs/paths/train/images" in err.value.message
    os.makedirs(expected)
    paths = local_inputs.resolve(spec, str(tmp_path))
    assert list(paths.values()) == [expected]


def test_local_path_inputs_are_handed_over_and_registered_datasets_are_refused(tmp_path):
    from acpt_estimator.spec import DataInput

    folder = tmp_path / "data"
    folder.mkdir()
    local = DataInput(name="train", reference_name="train", kind="local", mode="mount", uri_type="uri_folder",
                      uri=str(folder))
    as_uri = DataInput(name="t2", reference_name="t2", kind="dataset", mode="download", uri_type="uri_folder",
                       uri=folder.as_uri())
    assert local_inputs.input_path(local, str(tmp_path)) == str(folder)
    assert local_inputs.input_path(as_uri, str(tmp_path)) == str(folder)
    missing = DataInput(name="m", reference_name="m", kind="local", mode="mount", uri_type="uri_folder",
                        uri=str(tmp_path / "nope"))
    with pytest.raises(UserErrorException, match="does not exist"):
        local_inputs.input_path(missing, str(tmp_path))
    registered = DataInput(name="mnist", reference_name="mnist", kind="dataset", mode="mount",
                           uri_type="uri_folder", uri="azureml:mnist:1", dataset_name="mnist", dataset_version="1")
    with pytest.raises(UserErrorException, match="registered dataset"):
        local_inputs.input_path(registered, str(tmp_path))


def test_read_only_binds_are_bound_then_remounted_and_the_launcher_runs_without_cap_sys_admin(tmp_path):
    from acpt_estimator.backends.local import mount_ns
    from acpt_estimator.backends.local.inputs import Mount

    calls = mount_ns.bind_calls([Mount("/store/ds/my data", "/run/inputs/x")])
    assert [(c.source, c.target, c.flags) for c in calls] == [
        ("/store/ds/my data", "/run/inputs/x", mount_ns.MS_BIND),
        (None, "/run/inputs/x", mount_ns.MS_REMOUNT | mount_ns.MS_BIND | mount_ns.MS_RDONLY)]
    assert calls[1].description == "remount /run/inputs/x read-only"
    # CAP_SYS_ADMIN (remounting) and CAP_SYS_PTRACE (the driver's writable view through /proc/<pid>/root) both go,
    # dropped by the spawning thread (no setpriv in the launcher's argv); a plan without binds keeps them.
    assert mount_ns._JOB_DROPS == (mount_ns.CAP_SYS_ADMIN, mount_ns.CAP_SYS_PTRACE) == (21, 19)
    spec = PyTorch(str(tmp_path), entry_script="t.py", compute_target="local").to_job_spec(experiment_name="e")
    with_binds = plan_launch(spec, _context(tmp_path, mounts=(Mount("/a", "/b"),)))
    assert with_binds.drop_capabilities and with_binds.argv[0] == MPICH.path
    assert not plan_launch(spec, _context(tmp_path)).drop_capabilities


def test_the_store_is_bound_read_only_over_what_the_job_may_write(tmp_path):
    from acpt_estimator.backends.local.mount_ns import MS_BIND, MS_RDONLY, MS_REC, MS_REMOUNT, bind_calls
    from acpt_estimator.backends.local.store_view import mounts

    store = str(tmp_path / "store")
    own, out = f"{store}/runs/r1", f"{store}/datastores/ds/out"
    (tmp_path / "store" / "models").mkdir(parents=True)
    (tmp_path / "store" / "mlflow.db").write_text("")
    (tmp_path / "store" / ".datastores.json.1.abcdefgh.tmp").write_text("")
    calls = [(c.source, c.target, c.flags) for c in bind_calls(mounts(store, own, [out, "/elsewhere/out",
                                                                                  f"{own}/output_data/x"], False))]
    # Writable binds first, then the store over them: recursive, so they show through; read-only at its top only.
    assert calls == [(own, own, MS_BIND), (out, out, MS_BIND), (store, store, MS_BIND | MS_REC),
                     (None, store, MS_REMOUNT | MS_BIND | MS_RDONLY)]  # nothing outside the store or inside the run
    # A job that uses MLflow: the top folder stays writable for SQLite's journal, every record folder is not.
    calls = bind_calls(mounts(store, own, [], True))
    read_only = [c.target for c in calls if c.flags & MS_REMOUNT]
    assert f"{store}/models" in read_only and f"{store}/runs" in read_only and f"{store}/datastores.json" in read_only
    assert store not in read_only and f"{store}/mlflow.db" not in read_only
    assert not any("/." in path for path in read_only)  # writers' temporaries are no records
    targets = [c.target for c in calls]
    assert targets.index(own) < targets.index(f"{store}/runs")


def test_inputs_without_bind_mounts_are_read_only_copies(tmp_path):
    import stat

    import attrs

    from acpt_estimator.backends.local.inputs import materialize
    from acpt_estimator.spec import DataInput, JobSpec

    source = tmp_path / "store" / "mnist"
    source.mkdir(parents=True)
    (source / "a.txt").write_text("a")
    mount = DataInput(name="m", reference_name="m", kind="datastore", mode="mount", uri_type="uri_folder",
                      uri="azureml://datastores/ws/paths/mnist/", datastore="ws", path_on_datastore="mnist")
    spec = JobSpec(source_directory=str(tmp_path), entry_script="x.py",
                   inputs=(mount, attrs.evolve(mount, name="d", reference_name="d", mode="download")))
    paths, mounts = materialize(spec, {"m": str(source), "d": str(source)}, str(tmp_path / "run"), bind=False)
    assert mounts == ()
    copied = os.path.join(paths["m"], "a.txt")
    assert open(copied).read() == "a" and not os.stat(copied).st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    assert os.stat(os.path.join(paths["d"], "a.txt")).st_mode & stat.S_IWUSR  # a download is writable
    _, mounts = materialize(spec, {"m": str(source), "d": str(source)}, str(tmp_path / "run2"), bind=True)
    assert [m.source for m in mounts] == [str(source)]


def test_rank_counts_warn_past_the_cores_and_refuse_absurd_plans(caplog, monkeypatch):
    from acpt_estimator.backends.local.launch import check_world_size
    from acpt_estimator.exceptions import ExperimentExecutionException

    dist = lambda nodes, per: PyTorch(".", entry_script="t.py", compute_target="local", node_count=nodes,
                                      distributed_training=Mpi(per)).to_job_spec(experiment_name="e").distribution
    check_world_size(dist(2, 4), cores=2)
    assert not caplog.records
    check_world_size(dist(4, 4), cores=2)
    assert "starts 16 ranks on 2 core(s)" in caplog.text
    with pytest.raises(ExperimentExecutionException, match=r"8000 ranks \(node_count=1000 x 8 per node\)"):
        check_world_size(dist(1000, 8), cores=2)
    monkeypatch.setenv("ACPT_ESTIMATOR_MAX_LOCAL_RANKS", "10000")
    check_world_size(dist(1000, 8), cores=2)  # the limit is the user's to raise


def test_the_drivers_interpreter_folder_goes_first_on_path_once(tmp_path):
    assert interpreter_first_on_path("/venv/bin/python", "/usr/bin:/venv/bin:/bin") == "/venv/bin:/usr/bin:/bin"
    assert interpreter_first_on_path("/venv/bin/python", "") == "/venv/bin"
    # A PATH the estimator sets (environment_variables) keeps its order behind the interpreter's folder.
    est = PyTorch(str(tmp_path), entry_script="train.py", compute_target="local",
                  environment_variables={"PATH": "/opt/tools/bin:/usr/bin"})
    env = job_environment(est.to_job_spec(experiment_name="exp"), _context(tmp_path))
    assert env["PATH"] == "/venv/bin:/opt/tools/bin:/usr/bin"


def test_the_launch_s_environment_is_this_process_s_as_dict_os_environ_has_it(monkeypatch):
    """launch.environment() decodes os.environ's own bytes (faster than dict(os.environ)); the same dict, also for
    values that are not valid UTF-8 and after variables are set and removed, and a copy the caller may change."""
    import os

    from acpt_estimator.backends.local.launch import environment

    monkeypatch.setenv("ACPT_TEST_ACCENT", "é")
    monkeypatch.setenv("ACPT_TEST_RAW\udcff", "bytes \udcfe")
    monkeypatch.delenv("ACPT_TEST_ACCENT")
    monkeypatch.setenv("ACPT_TEST_LATER", "1")
    snapshot = environment()
    assert snapshot == dict(os.environ) and "ACPT_TEST_ACCENT" not in snapshot
    snapshot["ACPT_TEST_LATER"] = "changed"
    assert os.environ["ACPT_TEST_LATER"] == "1"
