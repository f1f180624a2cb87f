"""Pure launch planning for local runs: mpiexec argv, job and per-rank environment, argv, the rank script.

Nothing here touches processes or files, so the whole rank contract is unit-testable. A launch is planned in two
parts: the launcher's (plan_launcher: mpiexec's argv and environment, and what each rank runs first), known before
the run is prepared, so mpiexec starts first; the ranks' (plan_ranks: the job's variables, each rank's variables,
argv and log), written while mpiexec starts. mpiexec runs the C rank launcher per rank where it is built
(rank_exec.c), else ``bash rank.sh`` (``/bin/sh`` without bash): both wait at the gate, then read the ranks' part
(``rank.plan``, or ``rank.body`` for the shell), run the rank's command with its variables and log, and leave its exit
marker.
"""

from __future__ import annotations

import logging
import os
import shlex
import sys
from types import MappingProxyType
from typing import Mapping

import attrs

from ...arguments import expand_vars
from ...exceptions import ExperimentExecutionException
from ...job_runtime import RENDEZVOUS_PORT_VAR, RUNTIME_DIR, needs_job_runtime
from ...job_runtime.acpt_datasets import DEFINITION_VAR
from ...spec import InputRef, JobSpec, Literal, OutputRef
from ...tracking import RUN_DIR_VAR, RUN_ID_VAR
from .mpi import Launcher

# Variables the launcher sets itself; stale copies in the driver's environment (for example when the
# driver itself runs inside an MPI job) must not leak into the ranks.
_LAUNCHER_OWNED = ("OMPI_COMM_WORLD_", "PMI_", "PMIX_", "MPI_LOCALRANKID", "MPI_LOCALNRANKS", "HYDRA_", "HYDI_")
HOME_VAR = "ACPT_ESTIMATOR_HOME"
EXIT_NO_RANK = 97
EXIT_NO_WORKDIR = 96
EXIT_UNTRACKED = 95
EXIT_NO_DRIVER = 94  # the driver ended before the run was prepared: the rank never ran anything
GATE_NAME = "gate"  # the run folder's FIFO by which the driver wakes the ranks waiting at the gate (render_gate)
READY_NAME = "ready"  # made in the run folder once it is prepared and every process of the job is tracked
RANK_SCRIPT_NAME, RANK_PLAN_NAME = "rank.sh", "rank.plan"  # what each rank runs: the shell's, or rank_exec's
RANK_BODY_NAME = "rank.body"  # what rank.sh sources once the gate opens (render_rank_script)
RANK_PLAN_TAG = "acpt-rank-plan-2"  # rank_exec.c's TAG: the format of rank.plan
logger = logging.getLogger(__name__)
# Local ranks share this machine's cores; past these, a plan is a typo (node_count=1000) rather than a job.
RANKS_PER_CORE_WARNING = 4
MAX_LOCAL_RANKS = 256
MAX_LOCAL_RANKS_VAR = "ACPT_ESTIMATOR_MAX_LOCAL_RANKS"
RANK_SHELL = "/bin/bash"  # closes every inherited descriptor before the rank's command; /bin/sh if absent


def marker(run_id: str) -> tuple[str, str]:
    """The variable every process of the job inherits, by which /proc finds them all.

    One variable name per job (not one shared name), so processes of a local job started from inside
    another local job carry both markers, and ending the outer job ends the inner one too.
    """
    return f"ACPT_ESTIMATOR_JOB_{run_id.rsplit('_', 1)[-1]}", run_id


def environment() -> dict:
    """This process's environment as a new dict, as ``dict(os.environ)`` has it. Decoded from os.environ's own bytes
    where CPython keeps them: ``dict(os.environ)`` makes four Python calls per variable (a third of the submitting
    thread's work before a local launch, 17 us against 5 us here)."""
    raw = getattr(os.environ, "_data", None)
    if not isinstance(raw, dict) or os.name != "posix":
        return dict(os.environ)
    encoding = sys.getfilesystemencoding()
    try:
        return {key.decode(encoding, "surrogateescape"): value.decode(encoding, "surrogateescape")
                for key, value in raw.items()}
    except AttributeError:  # not bytes after all (another implementation's mapping)
        return dict(os.environ)


def _frozen(value) -> Mapping[str, str]:
    if isinstance(value, MappingProxyType):  # frozen already (attrs.evolve converts every field again)
        return value
    return MappingProxyType(dict(value or {}))


@attrs.frozen
class LaunchContext:
    """Everything about this machine and this run that the plan depends on."""

    run_id: str
    experiment_name: str
    run_dir: str
    workdir: str
    user_logs: str
    status_dir: str
    store_home: str
    python: str
    launcher: Launcher
    master_port: int
    base_env: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)
    input_paths: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)
    output_paths: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)
    workspace: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)
    mlflow_tracking_uri: str = ""
    mlflow_run_id: str = ""  # MLflow's id of the job's run, when the job uses MLflow (mlflow_sqlite)
    is_root: bool = False
    cores: int = 1
    master_addr: str = "127.0.0.1"
    rendezvous_port: int = 0  # a second free port, for Horovod's Gloo rendezvous (0: the job does not need one)
    mounts: tuple = ()  # inputs.Mount: read-only bind mounts made in the job's own mount namespace
    cgroup: str = ""  # the job's cgroup as /proc/self/cgroup names it (cgroup tracking): ranks check they are inside
    driver_pid: int = 0  # the supervising driver: ranks waiting at the gate give up when it is gone
    rank_exec: str = ""  # the built C rank launcher (rank_exec.ready()); "" : rank.sh through a shell


@attrs.frozen
class RankPlan:
    """One rank: where it sits (simulated node), what it adds to the job environment, what it runs."""

    rank: int
    node_rank: int
    local_rank: int
    env: Mapping[str, str] = attrs.field(converter=_frozen)
    argv: tuple
    log_file: str


@attrs.frozen
class LauncherPlan:
    """What mpiexec is started with, before the run is prepared (plan_launcher)."""

    argv: tuple  # the mpiexec command line
    env: Mapping[str, str] = attrs.field(converter=_frozen)  # mpiexec's environment, inherited by every rank
    rank_command: tuple  # what mpiexec runs per rank (the end of argv)
    entry_path: str = ""  # <run>/rank.sh: written with the launcher's plan, before mpiexec starts ("": rank_exec)
    entry_script: str = ""


@attrs.frozen
class RanksPlan:
    """What the ranks run once the gate opens (plan_ranks): written while mpiexec starts, before the gate opens."""

    ranks: tuple
    script: str | bytes  # rank.body (text), or rank.plan (rank_exec's NUL-separated fields)
    script_path: str  # where it is written: <run>/rank.body or <run>/rank.plan
    job_env: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)  # what every rank sees (its own aside)


@attrs.frozen
class LaunchPlan:
    argv: tuple  # the mpiexec command line
    env: Mapping[str, str] = attrs.field(converter=_frozen)  # mpiexec's environment, inherited by every rank
    ranks: tuple
    script: str | bytes  # rank.body (text), or rank.plan (rank_exec's NUL-separated fields)
    script_path: str  # where it is written: <run>/rank.body or <run>/rank.plan
    rank_command: tuple = ()  # what mpiexec runs per rank
    entry_path: str = ""  # <run>/rank.sh, which sources rank.body once the gate opens ("": rank_exec)
    entry_script: str = ""
    mounts: tuple = ()  # inputs.Mount: made in a new mount namespace on the thread that spawns argv (mount_ns)
    # With read-only binds, mpiexec and every rank run without CAP_SYS_ADMIN and CAP_SYS_PTRACE: the spawning
    # thread drops them from its bounding and inheritable sets first (mount_ns.drop_job_capabilities), so no process
    # of the job, root or not, can get them back to remount an input writable (and write through to the datastore)
    # or reach the driver's writable view through /proc/<pid>/root.
    drop_capabilities: bool = False
    job_env: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen)  # what every rank sees (its own aside)


def drops_capabilities(mounts) -> bool:
    """Whether a launch with ``mounts`` runs without CAP_SYS_ADMIN and CAP_SYS_PTRACE (LaunchPlan.drop_capabilities):
    exactly when it has read-only binds to protect."""
    return bool(mounts)


def check_world_size(dist, cores: int) -> None:
    """Refuse absurd local rank counts (before a giant rank.sh is written), warn when ranks crowd the cores."""
    world = dist.world_size
    limit = int(os.environ.get(MAX_LOCAL_RANKS_VAR) or MAX_LOCAL_RANKS)
    if world > limit:
        raise ExperimentExecutionException(
            f"This local run would start {world} ranks (node_count={dist.node_count} x "
            f"{dist.process_count_per_node} per node) on a machine with {cores} core(s); local runs allow at most "
            f"{limit}. Lower node_count / process_count_per_node for local runs (every simulated node runs on this "
            f"machine), submit to a cluster with compute_target='<cluster>', or raise the limit with "
            f"{MAX_LOCAL_RANKS_VAR}.")
    if world > RANKS_PER_CORE_WARNING * cores:
        logger.warning("This local run starts %d ranks on %d core(s) (node_count=%d x %d per node): every simulated "
                       "node runs on this machine, so it will be slow. Lower node_count for local runs.",
                       world, cores, dist.node_count, dist.process_count_per_node)


def rank_shell() -> str:
    return RANK_SHELL if os.access(RANK_SHELL, os.X_OK) else "/bin/sh"


def close_inherited_fds(shell: str) -> str:
    """Shell line closing what the launcher's proxy left open (its pipes, at fds up to 255).

    A background child of a rank (``nohup tensorboard &``) that kept them would keep mpiexec waiting
    forever. bash can close any fd by number; dash only 3-9, and its own script is on fd 10.
    """
    if shell.endswith("bash"):
        return ('for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && [ "$n" -lt 255 ] && '
                'eval "exec $n>&-"; done 2>/dev/null')
    return "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-"


def mpiexec_argv(launcher: Launcher, world_size: int, rank_command, *, is_root: bool, cores: int) -> list[str]:
    """The launcher command line running ``rank_command`` per rank; flags depend on the flavour, so detect it
    first."""
    argv = [launcher.path]
    if launcher.flavour in ("mpich", "intel"):
        # fork: every rank is on this machine, never ssh (also ignores a SLURM/PBS allocation around us).
        argv += ["-launcher", "fork"]
        if launcher.flavour == "mpich":
            # PMI_PORT model: with the default PMI_FD model, hydra's proxy spins a core on the closed PMI
            # socket of every rank that exits without MPI_Finalize (any non-MPI script) until all ranks end.
            argv.append("-pmi-port")
    else:
        if is_root:
            argv.append("--allow-run-as-root")  # Open MPI refuses root otherwise; MPICH does not care
        if world_size > cores:
            argv.append("--oversubscribe")  # Open MPI refuses more ranks than cores otherwise
    argv += ["-n", str(world_size), *rank_command]
    return argv


def rank_variables(flavour: str) -> tuple[str, ...]:
    """The variables naming this process's rank, the first set one wins: hydra sets PMI_RANK (PMI_ID with
    -pmi-port)."""
    if flavour == "openmpi":
        return ("OMPI_COMM_WORLD_RANK",)
    if flavour == "intel":
        return ("PMI_RANK",)
    return ("PMI_RANK", "PMI_ID")


def rank_variable(flavour: str) -> str:
    """Shell expression for this process's rank."""
    names = rank_variables(flavour)
    return "".join(f"${{{name}:-" for name in names) + "}" * len(names)


def log_name(rank: int, world_size: int) -> str:
    """Azure's layout: std_log.txt for a single process, std_log_process_<rank>.txt otherwise."""
    return "std_log.txt" if world_size == 1 else f"std_log_process_{rank}.txt"


def launcher_environment(spec: JobSpec, ctx: LaunchContext) -> dict[str, str]:
    """mpiexec's environment, known before the run is prepared: the driver's, the job's own variables (which may
    configure the launcher too: OMPI_MCA_*, HYDRA_*), and the marker by which every process of the job is found.
    The rest of job_environment reaches the ranks through their plan."""
    env = {k: v for k, v in ctx.base_env.items() if not k.startswith(_LAUNCHER_OWNED)}
    env.update(spec.environment_variables)
    env[marker(ctx.run_id)[0]] = ctx.run_id
    return env


def job_environment(spec: JobSpec, ctx: LaunchContext) -> dict[str, str]:
    """What every rank sees: the driver's environment, the estimator's variables, the Azure job contract."""
    env = {k: v for k, v in ctx.base_env.items() if not k.startswith(_LAUNCHER_OWNED)}
    env.setdefault("PYTHONUNBUFFERED", "1")  # rank output goes to files; keep it live for show_output
    env.update(spec.environment_variables)
    env["PATH"] = interpreter_first_on_path(ctx.python, env.get("PATH", ""))
    dist = spec.distribution
    master = f"{ctx.master_addr}:{ctx.master_port}"
    workspace = ctx.workspace
    env.update({
        "AZUREML_RUN_ID": ctx.run_id,
        "AZUREML_ARM_PROJECT_NAME": ctx.experiment_name,
        "AZUREML_ARM_WORKSPACE_NAME": workspace.get("name", "local"),
        "AZUREML_ARM_SUBSCRIPTION": workspace.get("subscription_id", "local"),
        "AZUREML_ARM_RESOURCEGROUP": workspace.get("resource_group", "local"),
        "AZUREML_OUTPUT_DIRECTORY": "./outputs",
        "AZUREML_NODE_COUNT": str(dist.node_count),
        "WORLD_SIZE": str(dist.world_size),
        "LOCAL_WORLD_SIZE": str(dist.process_count_per_node),
        "MASTER_ADDR": ctx.master_addr,
        "MASTER_PORT": str(ctx.master_port),
        "OMPI_COMM_WORLD_SIZE": str(dist.world_size),
        "AZ_BATCHAI_PYTORCH_INIT_METHOD": f"tcp://{master}",
        "AZ_BATCHAI_MPI_MASTER_NODE": ctx.master_addr,
        "AZ_BATCH_MASTER_NODE": master,
        RUN_ID_VAR: ctx.run_id,
        RUN_DIR_VAR: ctx.run_dir,
        marker(ctx.run_id)[0]: ctx.run_id,
        HOME_VAR: ctx.store_home,  # a job that submits jobs uses the same store, not one in its snapshot
    })
    if ctx.mlflow_tracking_uri:
        # The local store's MLflow database; mlflow.start_run() lands in the job's run when it has one, else
        # (MLflow used without the sources naming it) in a new run of the job's experiment.
        env.update({"MLFLOW_TRACKING_URI": ctx.mlflow_tracking_uri, "MLFLOW_EXPERIMENT_NAME": ctx.experiment_name})
        if ctx.mlflow_run_id:
            env["MLFLOW_RUN_ID"] = ctx.mlflow_run_id
    if needs_job_runtime(spec):
        # `import horovod` then serves a real Horovod if installed (guarded against N x 1 jobs), else the layer.
        env["PYTHONPATH"] = os.pathsep.join([RUNTIME_DIR] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        if ctx.rendezvous_port:
            env[RENDEZVOUS_PORT_VAR] = str(ctx.rendezvous_port)
    for item in spec.inputs:
        path = ctx.input_paths[item.name]
        env[f"AZUREML_DATAREFERENCE_{item.reference_name}"] = path
        env[f"AZURE_ML_INPUT_{item.name}"] = path
        if item.kind == "dataset":
            env[item.reference_name] = path  # v1: os.environ['<input name>'] holds a dataset's path
        if item.definition:  # run.input_datasets / Dataset.get_by_id rebuild the dataset from it in the job
            env[DEFINITION_VAR + item.reference_name] = item.definition
    for item in spec.outputs:
        path = ctx.output_paths[item.name]
        env[f"AZUREML_DATAREFERENCE_{item.reference_name}"] = path
        env[f"AZURE_ML_OUTPUT_{item.name}"] = path
    return env


def interpreter_first_on_path(python: str, path: str) -> str:
    """``python`` and ``pip`` in a job's commands and scripts are the driver's interpreter, as in an activated
    environment (on Azure they are the job environment's own): its folder goes first on PATH. Not resolved through
    links: a virtualenv's ``bin/python`` links to the base interpreter, whose folder lacks the venv's packages."""
    folder = os.path.dirname(python)
    rest = [entry for entry in path.split(os.pathsep) if entry and entry != folder]
    return os.pathsep.join([folder, *rest])


def rank_environment(rank: int, process_count_per_node: int) -> dict[str, str]:
    """The rank-specific part. Simulated nodes: rank r sits on node r // process_count_per_node."""
    node_rank, local_rank = divmod(rank, process_count_per_node)
    return {
        "RANK": str(rank),
        "LOCAL_RANK": str(local_rank),
        "NODE_RANK": str(node_rank),
        "GROUP_RANK": str(node_rank),
        # Set for every flavour: MPICH has only PMI_*, and Open MPI's own LOCAL_* ignore simulated nodes.
        "OMPI_COMM_WORLD_RANK": str(rank),
        "OMPI_COMM_WORLD_LOCAL_RANK": str(local_rank),
        "OMPI_COMM_WORLD_NODE_RANK": str(node_rank),
        "OMPI_COMM_WORLD_LOCAL_SIZE": str(process_count_per_node),  # per rank: Open MPI sets its own
        "AZ_BATCHAI_TASK_INDEX": str(rank),
    }


def rank_argv(spec: JobSpec, environ: Mapping[str, str], ctx: LaunchContext) -> list[str]:
    """The user's command for one rank: $VARs expanded with that rank's environment, inputs as paths."""
    if spec.command:
        # ScriptRunConfig(command=...) is a shell command on Azure too; the shell expands its $VARs.
        return ["/bin/sh", "-c", spec.command]
    if not spec.entry_script:
        raise ExperimentExecutionException("The job has neither an entry script nor a command; pass "
                                           "entry_script='train.py' to the estimator.")
    argv = [ctx.python, spec.entry_script]
    for token in spec.arguments:
        if isinstance(token, Literal):
            argv.append(expand_vars(token.value, environ) if token.expand else token.value)
        elif isinstance(token, InputRef):
            argv.append(ctx.input_paths[token.name])
        elif isinstance(token, OutputRef):
            argv.append(ctx.output_paths[token.name])
        else:
            raise ExperimentExecutionException(
                f"Argument {token!r} cannot run locally: a HyperDrive search value must be filled in by the "
                "sweep before a trial is launched.")
    return argv


def plan_launcher(spec: JobSpec, ctx: LaunchContext) -> LauncherPlan:
    """mpiexec's command line and environment, and rank.sh's gate for the shell: what the launch needs of ``ctx``
    is known before the run is prepared (its run folder, driver, launcher and the driver's environment)."""
    world = spec.distribution.world_size
    if ctx.rank_exec:
        command = (ctx.rank_exec, f"{ctx.run_dir}/{RANK_PLAN_NAME}", str(ctx.driver_pid))
        entry_path = entry_script = ""
    else:
        shell = rank_shell()
        entry_path = f"{ctx.run_dir}/{RANK_SCRIPT_NAME}"
        entry_script = render_rank_entry(ctx, shell)
        command = (shell, entry_path)
    argv = mpiexec_argv(ctx.launcher, world, command, is_root=ctx.is_root, cores=ctx.cores)
    return LauncherPlan(argv=tuple(argv), env=launcher_environment(spec, ctx), rank_command=command,
                        entry_path=entry_path, entry_script=entry_script)


def plan_ranks(spec: JobSpec, ctx: LaunchContext, launcher_env: Mapping[str, str]) -> RanksPlan:
    """Every rank's variables, argv and log, as rank.plan (rank_exec) or rank.body (the shell): the job's variables
    that mpiexec's environment (``launcher_env``) lacks or has otherwise, then each rank's own."""
    dist = spec.distribution
    env = job_environment(spec, ctx)
    ranks = []
    for rank in range(dist.world_size):
        own = rank_environment(rank, dist.process_count_per_node)
        ranks.append(RankPlan(
            rank=rank, node_rank=int(own["NODE_RANK"]), local_rank=int(own["LOCAL_RANK"]), env=own,
            argv=tuple(rank_argv(spec, {**env, **own}, ctx)),
            log_file=f"{ctx.user_logs}/{log_name(rank, dist.world_size)}"))
    # What the job's environment drops of the launcher's could not be taken back per rank; by construction it
    # drops nothing (launcher_environment is a part of job_environment).
    assert set(launcher_env) <= set(env), sorted(set(launcher_env) - set(env))
    job_vars = {k: v for k, v in env.items() if launcher_env.get(k) != v}
    if ctx.rank_exec:
        return RanksPlan(ranks=tuple(ranks), script=render_rank_plan(ranks, ctx.launcher.flavour, ctx, job_vars),
                         script_path=f"{ctx.run_dir}/{RANK_PLAN_NAME}", job_env=env)
    return RanksPlan(ranks=tuple(ranks), script=render_rank_script(ranks, ctx.launcher.flavour, ctx, rank_shell(),
                                                                   job_vars),
                     script_path=f"{ctx.run_dir}/{RANK_BODY_NAME}", job_env=env)


def plan_launch(spec: JobSpec, ctx: LaunchContext) -> LaunchPlan:
    """The complete, deterministic launch of ``spec`` in ``ctx``: both parts at once."""
    launcher = plan_launcher(spec, ctx)
    ranks = plan_ranks(spec, ctx, launcher.env)
    # mpiexec and every rank live in a private mount namespace where the inputs are read-only binds.
    return LaunchPlan(argv=launcher.argv, env=launcher.env, ranks=ranks.ranks, script=ranks.script,
                      script_path=ranks.script_path, rank_command=launcher.rank_command,
                      entry_path=launcher.entry_path, entry_script=launcher.entry_script, mounts=tuple(ctx.mounts),
                      drop_capabilities=drops_capabilities(ctx.mounts), job_env=ranks.job_env)


def render_gate(ctx: LaunchContext, shell: str) -> list[str]:
    """Shell lines that hold a rank until the driver opens the run's gate (``ready`` appears in the run folder).

    mpiexec starts before the run is prepared: the snapshot copy, the ranks' plan and the rest of the run's
    preparation happen while it starts its proxy and the ranks' shells (about 6 ms), and where the launcher could
    not be started inside the job's cgroup, while the driver moves it in (the kernel's first move waits for an RCU
    grace period, 6-13 ms). The driver then makes ``ready`` and writes a line per rank into the run's ``gate``
    FIFO, which wakes the waiting shells (builtins only; dash's read has no timeout, so it polls). A rank whose
    driver is gone gives up: nothing of the user's starts in a run that was never prepared (whose log folder does
    not exist yet: the message goes to the launcher's log).
    """
    q = shlex.quote
    if shell.endswith("bash"):  # the FIFO is opened read-write, so open never blocks and read never sees EOF
        wait = f"read -r -t 0.05 _ 0<>{q(ctx.run_dir + '/' + GATE_NAME)} || :"
    else:
        wait = "sleep 0.01"
    lines = [f"until [ -e {q(ctx.run_dir + '/' + READY_NAME)} ]; do", f"  {wait}"]
    if ctx.driver_pid:
        lines += [f"  kill -0 {ctx.driver_pid} 2>/dev/null || {{ echo \"acpt-estimator: rank $r: its driver ended "
                  f"before the run was prepared, so its command was not started\" >&2; exit {EXIT_NO_DRIVER}; }}"]
    return lines + ["done"]


def render_rank_entry(ctx: LaunchContext, shell: str) -> str:
    """rank.sh: what mpiexec runs per rank through the shell, written before it starts: wait at the gate, then
    source rank.body (render_rank_script), written meanwhile."""
    return "\n".join([
        "#!/bin/sh",
        f"# Rank launcher of local run {ctx.run_id}, written by acpt-estimator (backends/local/launch.py).",
        "# Waits at the run's gate until the driver has prepared the run, then runs rank.body.",
        f"r={rank_variable(ctx.launcher.flavour)}",
        *render_gate(ctx, shell),
        f". {shlex.quote(ctx.run_dir + '/' + RANK_BODY_NAME)}",
        "",
    ])


def render_cgroup_check(cgroup: str, ctx: LaunchContext) -> list[str]:
    """Shell lines that refuse to run the rank's command outside the job's cgroup (``cgroup``, as /proc/self/cgroup
    names it). The driver opens the gate only once the launcher and all it started are inside (started there, or
    moved in), and what they start later is born inside, so this holds; the check keeps the rule that nothing of
    the user's starts outside even if a move went wrong."""
    q = shlex.quote
    name = q(f"0::{cgroup}")
    return [
        "while read -r g; do case $g in 0::*) break ;; esac; done </proc/self/cgroup",
        f"case $g in {name}|{name}/*) ;; *)",
        '  echo "acpt-estimator: rank $r is not inside the job\'s cgroup ($g), so its command was not started" '
        '>>"$log"',
        f"  : >{q(ctx.status_dir)}/rank_\"$r\"_exit_{EXIT_UNTRACKED}; exit {EXIT_UNTRACKED} ;;",
        "esac",
    ]


def render_rank_script(ranks, flavour: str, ctx: LaunchContext, shell: str = "/bin/sh", job_vars=None) -> str:
    """rank.body, which rank.sh sources once the gate opens. Every value is pre-expanded and single-quoted: the
    shell only dispatches. ``job_vars``: what every rank exports (the job's variables mpiexec's environment lacks)."""
    q = shlex.quote
    lines = [
        f"# Ranks of local run {ctx.run_id}, written by acpt-estimator (backends/local/launch.py), sourced by rank.sh.",
        "# Picks this rank's variables and argv, runs it with stdout+stderr in user_logs/, then leaves",
        "# status/rank_<rank>_exit_<code> so the supervisor learns which rank failed first.",
        f"r={rank_variable(flavour)}",
    ]
    if job_vars:
        lines.append("export " + " ".join(f"{k}={q(v)}" for k, v in job_vars.items()))
    lines.append('case "$r" in')
    for plan in ranks:
        exports = " ".join(f"{k}={q(v)}" for k, v in plan.env.items())
        lines += [
            f"{plan.rank})",
            f"  export {exports}",
            f"  log={q(plan.log_file)}",
            f"  set -- {' '.join(q(a) for a in plan.argv)} ;;",
        ]
    lines += [
        '*) echo "acpt-estimator: no MPI rank in this process (rank=\'$r\'); was rank.sh started by mpiexec?" >&2',
        f"   exit {EXIT_NO_RANK} ;;",
        "esac",
        *(render_cgroup_check(ctx.cgroup, ctx) if ctx.cgroup else ()),
        f"cd {q(ctx.workdir)} || exit {EXIT_NO_WORKDIR}",
        close_inherited_fds(shell),
        '"$@" </dev/null >>"$log" 2>&1',
        "c=$?",
        f': >{q(ctx.status_dir)}/rank_"$r"_exit_"$c"',
        'exit "$c"',
        "",
    ]
    return "\n".join(lines)


GATE_LINES_MAX = 4096  # a FIFO holds 64 KiB: up to this many ranks, each takes a line (no ready file)


def gate_by_lines(rank_launcher: str, world_size: int) -> bool:
    """Whether the ranks pass the gate by its FIFO's lines alone (rank_exec.c), without a ready file: where they start
    through the C rank launcher (``rank_launcher``, its path; known before the launch's context) and are few enough."""
    return bool(rank_launcher) and world_size <= GATE_LINES_MAX


def render_rank_plan(ranks, flavour: str, ctx: LaunchContext, job_vars=None) -> bytes:
    """rank.plan for rank_exec.c: rank.body's content as NUL-terminated fields (its header comment gives the order).
    Nothing is quoted or expanded: every value reaches the rank as it is here."""
    job_vars = job_vars or {}
    fields = [RANK_PLAN_TAG, " ".join(rank_variables(flavour)), ctx.cgroup, ctx.workdir, ctx.status_dir,
              str(len(job_vars)), *(f"{k}={v}" for k, v in job_vars.items()), str(len(ranks))]
    for plan in ranks:
        fields += [str(plan.rank), plan.log_file, str(len(plan.env)), *(f"{k}={v}" for k, v in plan.env.items()),
                   str(len(plan.argv)), *plan.argv]
    # No value holds a NUL (the field separator): job_checks refuses them in arguments and variables, as exec would.
    return os.fsencode("\0".join(fields) + "\0")
