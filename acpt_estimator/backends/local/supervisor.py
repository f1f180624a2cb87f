"""Run one job's mpiexec and watch it: the first failing rank, a timeout, cancel or Ctrl-C end every rank."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import select
import signal
import sys
import threading
import time

import attrs

from . import cgroup_spawn, driver_events, driver_priority, mount_ns

logger = logging.getLogger(__name__)
POLL_SECONDS = 0.1  # how often rank exits, the cancel flag and the deadline are checked
GRACE_SECONDS = 3.0  # SIGTERM first, so scripts can clean up; SIGKILL after this
# Once every rank has reported its exit, mpiexec normally returns within milliseconds; one that has not
# after this long waits on something a rank left behind (a daemon holding its pipes), and is ended.
ALL_REPORTED_SECONDS = 1.0
_STATUS = re.compile(r"^rank_(\d+)_exit_(\d+)$")
_UNASKED = object()  # (Supervisor.prepare: the caller did not ask for the launcher's process itself)


@attrs.frozen
class RankExit:
    rank: int
    code: int
    time_ns: int  # when the rank's launcher recorded it (file mtime; or when the driver's watch saw it, for
    # successes): orders failures across ranks


@attrs.frozen
class Outcome:
    """How a job ended. ``reason``: completed | failed | canceled | interrupted | timeout | driver ended."""

    reason: str
    launcher_code: int | None
    exits: tuple = ()  # RankExit, in the order the ranks ended
    first_failure: RankExit | None = None
    started: float = 0.0
    ended: float = 0.0
    note: str = ""  # for "driver ended": what happened to the driver and the job
    stragglers: bool = False  # processes of the job were still there after the launcher exited (ended then)


def read_exits(status_dir: str) -> list[RankExit]:
    """The exit markers ranks have written so far, oldest first."""
    exits = []
    try:
        names = os.listdir(status_dir)
    except FileNotFoundError:
        return exits
    for name in names:
        match = _STATUS.match(name)
        if match:
            try:
                stamp = os.stat(os.path.join(status_dir, name)).st_mtime_ns
            except FileNotFoundError:
                continue
            exits.append(RankExit(int(match[1]), int(match[2]), stamp))
    exits.sort(key=lambda e: (e.time_ns, e.rank))
    return exits


class Supervisor:
    """Starts mpiexec in its own session and, on a thread, waits for it and ends it when needed.

    The thread is not a daemon: a driver script that submits and returns still sees its job finish
    (and cleaned up) before the interpreter exits. Where the job's cgroup can be entered at birth (cgroup_spawn),
    the submitting thread starts mpiexec through that helper, which also makes the job's mount namespace, and the
    watcher thread starts after it (a thread handing the launch over costs its start and a GIL hand-off: ~0.2 ms
    of a 20 ms job, A/B over 1500 rounds); elsewhere the watcher starts mpiexec, after making the namespace on itself.
    """

    def __init__(self, *, run_id, status_dir, cancel_flag, launcher_log, world_size=1, max_seconds=None,
                 on_finished=None, on_ranks_done=None, after_done=None, grace=GRACE_SECONDS):
        self.run_id, self.status_dir, self.cancel_flag, self.launcher_log = run_id, status_dir, cancel_flag, launcher_log
        self.world_size, self.max_seconds, self.grace = world_size, max_seconds, grace
        self.tracker = None  # procs.new_tracker() (set by launch): how every process of the job is found
        self._namespace = None  # whether mpiexec starts in a mount namespace of the job's own (prepare)
        self._keep_batch = False  # mpiexec keeps the spawn server's SCHED_BATCH (prepare: its ranks start via rank_exec)
        # The descriptor of the job's namespace, held until the run's record is final: the last process leaving a
        # namespace waits out its teardown (an RCU grace period) before it counts as exited, and that process would be
        # mpiexec, which the waiting driver waits for.
        self._held_namespace: int | None = None
        self._binds = None  # its binds (bind()), made once mpiexec runs there; None: the launch is abandoned
        self._binds_given = threading.Event()
        self._preparing = threading.Event()  # set by prepare() or launch(): the watcher begins
        self._request = None  # (argv, env): for the watcher thread, which starts mpiexec
        self._on_tracked = None  # called on the watcher thread once the tracker holds the launcher (launch)
        self._spawn_error: BaseException | None = None
        self._spawning: cgroup_spawn.Spawning | None = None  # the helper starting mpiexec (launch, direct)
        self._waiting: cgroup_spawn.Waiting | None = None  # mpiexec's process made ahead by the server (prepare)
        self._spawn_done = threading.Event()
        # Set once the launcher's process exists (or its spawn failed): launch() waits for it before running its
        # ``meanwhile``, which otherwise keeps the GIL from the watcher for milliseconds and delays the spawn.
        self._spawn_begun = threading.Event()
        self._all_reported_at = None
        self._all_reported: tuple | None = None  # the exit markers as read when every rank had reported success
        self._on_finished = on_finished  # the run's final record, before ``done``
        # Called once when every rank has reported exit code 0 (on driver_events' thread, or the watcher's where it saw
        # that first), while the launcher is still ending (about 0.3 ms): the run's final record can be made meanwhile
        # (LocalJob), on_finished then commits it, so the two may overlap: LocalJob orders them.
        self._on_ranks_done = on_ranks_done
        self._after_done = after_done  # tidying no reader of the run waits for: on the watcher, once ``done`` is set
        self._exit_watch: int | None = None  # driver_events' watch of the status folder (watch_exits)
        self._succeeded: set = set()  # the ranks whose exit marker said 0, as the watch saw them (_rank_exited)
        self._seen_exits: list = []  # their RankExits, timed when seen: _check_exits' once every rank has succeeded
        self._stragglers = False
        self._reason: str | None = None
        # Non-blocking: a full pipe already wakes the watcher, so writers never wait; and the watcher reads it only
        # when select() says it holds something. (One system call for both: the pipe is made before mpiexec starts.)
        self._wake_r, self._wake_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._pipe_lock = threading.RLock()
        self.done = threading.Event()
        self._spawned = threading.Event()
        self.outcome: Outcome | None = None
        self.process: _Process | None = None
        self.started = 0.0
        # Made and started by prepare() or launch(): a thread in its first moments makes a posix_spawn next to it
        # about 1 ms slower, and Thread.start() itself waits for the new thread. Made only then, since where
        # mpiexec is started by the caller's thread, that is after mpiexec's command (a Thread object costs ~20 us).
        self._thread: threading.Thread | None = None
        self._direct = False  # mpiexec is started by the caller's thread, through cgroup_spawn (prepare)

    def _start_watcher(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name=f"acpt-local-{self.run_id}", daemon=False)
            self._thread.start()

    def _watcher_started(self) -> bool:
        return self._thread is not None and self._thread.ident is not None

    # ---- control, from any thread (and from signal handlers) -----------------------------------------
    def prepare(self, namespace: bool = False, tracker=None, keep_batch: bool = False, waiting=_UNASKED) -> None:
        """Get the launch ready while the caller still plans it. ``namespace``: mpiexec starts in a mount namespace
        of the job's own, whose binds (mount_ns) bind() hands over later, and runs with all it starts without
        CAP_SYS_ADMIN and CAP_SYS_PTRACE. Where ``tracker`` (the job's, procs.new_tracker) has a cgroup to start
        mpiexec in and the helper for that is built, launch() starts it on the caller's thread (the helper makes the
        namespace); elsewhere the watcher thread starts now and makes the namespace on itself, dropping those
        capabilities from its own bounding set, which is why it serves one job and starts nothing else.
        ``keep_batch``: mpiexec stays at the spawn server's SCHED_BATCH (cgroup_spawn.launch); only for a launch
        whose ranks start through the C rank launcher. ``waiting``: what request_launcher gave the caller, who asked
        for the launcher's process already (None where it could not be had), with the same ``namespace`` and
        ``keep_batch``; this supervisor then starts it."""
        self._namespace, self._keep_batch = namespace, keep_batch
        self._direct = direct_launch(tracker)
        if waiting is _UNASKED:
            waiting = request_launcher(tracker, namespace, keep_batch)
        self._waiting = waiting
        unmade = tracker is not None and not tracker.made
        if unmade:  # no server to ask: the launch below needs it
            tracker.make()
        self._preparing.set()
        if not self._direct:
            self._start_watcher()

    def bind(self, mounts) -> None:
        """The binds of the job's namespace (prepare(namespace=True)). mpiexec may run there already: they are made
        on the watcher thread, which counts the launcher as tracked (on_tracked, so the gate opens) only after; a
        bind that fails ends the launch (launch() raises why). Nothing of the user's runs before: the ranks wait at
        the gate, and each enters its working directory by its path once through it."""
        self._binds = tuple(mounts)
        self._binds_given.set()

    def launch(self, argv, env, tracker, meanwhile=None, on_tracked=None) -> None:
        """Start mpiexec (in the namespace prepare() asked for: from this thread through the helper where prepare()
        found it usable, else from the watcher thread); raises if it could not be started. ``meanwhile`` runs in the
        calling thread once mpiexec is being started. ``on_tracked``: called on the watcher thread once the tracker
        holds mpiexec and all it started."""
        _register(self)  # first: a Ctrl-C arriving just after the spawn must already reach this job
        self.tracker = tracker
        self._on_tracked = on_tracked
        self._request = (argv, env)
        self._preparing.set()
        self._spawned.set()
        if self._direct:
            waiting, self._waiting = self._waiting, None
            if waiting is not None:
                self._spawning = waiting.go(list(argv), env, self.launcher_log)
                if self._spawning is None:  # (canceled: whether the server made the cgroup first is not known)
                    self.tracker.make()
            helper = cgroup_spawn.ready()
            if self._spawning is None and helper:  # else the watcher starts it (the helper was found unusable)
                self._spawning = cgroup_spawn.launch(helper, tracker.birth_cgroup(), list(argv), env,
                                                     self.launcher_log, bool(self._namespace), self._keep_batch)
            if self._spawning is not None:
                self._spawn_begun.set()
        self._start_watcher()  # (started by prepare() unless direct)
        try:
            self._spawn_begun.wait()
            if meanwhile is not None and self._spawn_error is None:
                meanwhile()
        finally:
            if not self._binds_given.is_set():  # ``meanwhile`` failed before its binds: the gate never opens
                self._binds_given.set()
            self._spawn_done.wait()
        if self._spawn_error is not None:
            raise self._spawn_error

    def _spawn(self) -> None:
        """Runs on the watcher thread: the launch the caller's thread began through the helper finished (its pid
        tracked, the namespace's binds made), or the launch itself. The parent-death signal fires when the thread
        that started a process ends, and this thread lives exactly as long as the job is supervised."""
        try:
            spawning = self._spawning
            pid = self._finish_direct() if spawning is not None else None
            if pid is not None:
                self.process = _Process(pid, born_inside=True)
                self.started = time.time()
                self._held_namespace = spawning.namespace  # closed once the record is final (_watch)
                self._track(joined=spawning.namespace)
                return
            driver_priority.stop_yielding()  # the helper could not start it after all: this thread does
            with mount_ns.entered(namespace=bool(self._namespace)):
                if self._namespace:
                    mount_ns.drop_job_capabilities()
                self._spawned.wait()  # the namespace is made while the caller plans; now the launch itself
                if self._request is None:  # abandoned
                    return
                argv, env = self._request
                self.process = _Process.spawn(self.tracker.launch_prefix() + list(argv), env, self.launcher_log,
                                              cgroup_dir=self.tracker.birth_cgroup(), on_spawned=self._spawn_begun.set)
                self.started = time.time()
                self._track(joined=None)
        except BaseException as err:  # noqa: BLE001 - handed to launch(), in the submitting thread
            self._spawn_error = err
        finally:
            self._spawn_begun.set()
            self._spawn_done.set()

    def _finish_direct(self) -> int | None:
        """mpiexec's pid from the helper the caller started; None when it could not (the watcher starts it then)."""
        spawning, self._spawning = self._spawning, None
        try:
            return spawning.finish()
        except cgroup_spawn.NamespaceRefused as err:
            raise mount_ns.namespace_refused(err.where, err) from None
        except cgroup_spawn.CgroupNotMade as err:  # nothing ran: made here, the launch goes the usual way
            logger.debug("The spawn server could not make local run %s's cgroup: %s", self.run_id, err)
            self.tracker.make()
            return None

    def _track(self, joined: int | None) -> None:
        """The launcher tracked with all it started, then (in its namespace: entered by this thread, or ``joined``
        by the descriptor of it the helper sent) the binds made, then on_tracked; else it ends, as nothing of the
        user's may run."""
        tracked = False
        try:
            self.tracker.started(self.process.pid, born_inside=self.process.born_inside)
            tracked = True
            if self._namespace:
                self._binds_given.wait()
                if self._binds is None:  # the caller's planning failed: it ends the job (job._discard)
                    return
                with mount_ns.joined(joined) if joined is not None else contextlib.nullcontext():
                    mount_ns.bind(self._binds)
            if self._on_tracked is not None:
                self._on_tracked()
        except BaseException:  # untracked, or without its view: the job must not run at all
            self._abort_launch(tracked)
            raise

    def _abort_launch(self, tracked: bool) -> None:
        """End a launch whose ranks are still held at the gate: every process of the job where it is tracked (its
        proxies and ranks too), else mpiexec."""
        if tracked:
            with contextlib.suppress(Exception):
                self.tracker.end(grace=0.5)
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process = None

    def watch_exits(self) -> None:
        """The status folder exists now: wake the watcher at each rank's exit marker, not at its next poll (a
        failing rank ends the job at once; a completing job's record is made while its launcher ends)."""
        with self._pipe_lock:
            if self._wake_w is None:  # the watcher has ended already (mpiexec died early)
                return
            try:
                self._exit_watch = driver_events.watch_creations(self.status_dir, self._rank_exited)
            except OSError:  # no inotify here (or the user's limit of instances reached): polled, as they are anyway
                self._exit_watch = None

    def _rank_exited(self, name: str) -> None:
        """On driver_events' thread: at a failure (or a name it does not know), wake the watcher, which reads the
        folder itself. Once every rank has reported success, on_ranks_done runs here, on this thread: waking the
        watcher for it cost a thread hand-off (~0.08 ms) while the launcher ends, which is the time on_ranks_done
        has. The other successes change nothing (a missed event: the watcher's poll)."""
        match = _STATUS.match(name)
        with self._pipe_lock:
            if self._wake_w is None:  # the watcher has ended
                return
            if match and match[2] == "0":
                if match[1] not in self._succeeded:
                    self._seen_exits.append(RankExit(int(match[1]), 0, time.time_ns()))
                self._succeeded.add(match[1])
                if len(self._succeeded) < self.world_size:
                    return
                exits = tuple(self._seen_exits)
                if not self._claim_all_reported(exits):
                    return
            else:
                with contextlib.suppress(BlockingIOError):
                    os.write(self._wake_w, b"e")
                return
        if self._on_ranks_done is not None:
            self._ranks_done(exits)

    def abandon(self) -> None:
        """The job will not be launched after all: let the watcher thread end (one never started ends here)."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting.cancel()
        self._preparing.set()
        self._spawned.set()
        self._spawn_begun.set()
        self._spawn_done.set()
        if not self._watcher_started():
            _unregister(self)
            self._close_wake_pipe()
            self.done.set()

    def request_end(self, reason: str = "canceled") -> None:
        """Ask the watcher to end every rank; returns at once (safe inside a signal handler)."""
        with self._pipe_lock:  # reentrant: a signal handler may interrupt a cancel() in the same thread
            if self.done.is_set() or self._wake_w is None:
                return
            if self._reason is None:
                self._reason = reason
            with contextlib.suppress(BlockingIOError):
                os.write(self._wake_w, b"x")

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)

    def wait_ended(self) -> None:
        """``done``, and what the watcher tidies after it too (the job's emptied cgroup is removed only then): for a
        run discarded as its submission fails, which must have left nothing behind once that raises."""
        self.done.wait()
        if self._watcher_started() and self._thread is not threading.current_thread():
            self._thread.join()

    # ---- the watcher thread -------------------------------------------------------------------------
    def _watch(self) -> None:
        if self._direct:  # (elsewhere this thread starts mpiexec itself, which would inherit the policy)
            driver_priority.yield_to_jobs()
        self._preparing.wait()
        reaped = False
        try:
            if self._request is not None or self._namespace is not None:
                self._spawn()
            if self.process is None:  # abandoned, or mpiexec could not be started (launch() raised why)
                return
            try:
                self._loop()
            except BaseException:
                self._reason = self._reason or "failed"
                self._end_all()  # the watcher may fail, the job must still not outlive it
                self.tracker.release()
                raise
            self._reap()
            reaped = True
            if not self.tracker.release_after_done:
                self.tracker.release()
            self.outcome = self._outcome()
            if self._on_finished:
                self._on_finished(self.outcome)
        finally:
            _unregister(self)
            self.done.set()
            # A waiting driver goes on meanwhile: nothing below changes what it sees (request_end and the exit
            # markers' wake-ups are no-ops once done is set). It is woken now but needs the GIL, which this thread
            # would keep through the tidying below (system calls only let go of it briefly): yielding here lets it
            # return first (done -> wait_for_completion returned: ~0.11 -> ~0.07 ms here).
            os.sched_yield()
            if self._held_namespace is not None:
                os.close(self._held_namespace)
                self._held_namespace = None
            self._close_wake_pipe()
            if reaped and self.tracker.release_after_done:
                self.tracker.release()
            if self._after_done is not None:
                try:
                    self._after_done()
                except Exception:  # noqa: BLE001 - tidying only: the run's record is final already
                    logger.debug("Tidying up after local run %s failed", self.run_id, exc_info=True)

    def _close_wake_pipe(self) -> None:
        with self._pipe_lock:
            if self._exit_watch is not None:
                driver_events.unwatch(self._exit_watch)
                self._exit_watch = None
            if self._wake_w is not None:
                os.close(self._wake_r)
                os.close(self._wake_w)
                self._wake_w = None

    def _loop(self) -> None:
        proc = self.process
        try:
            pidfd = os.pidfd_open(proc.pid)  # wakes us the moment mpiexec exits, no polling latency
        except (AttributeError, OSError):
            pidfd = None
        deadline = self.started + self.max_seconds if self.max_seconds else None
        try:
            while True:
                timeout = POLL_SECONDS if pidfd is not None else 0.02
                watched = [self._wake_r] + ([pidfd] if pidfd is not None else [])
                ready, _, _ = select.select(watched, [], [], timeout)
                if self._wake_r in ready:
                    os.read(self._wake_r, 64)
                if proc.poll() is not None:
                    return
                if self._reason is None:
                    if deadline is not None and time.time() >= deadline:
                        self._reason = "timeout"
                    elif os.path.exists(self.cancel_flag):
                        self._reason = "canceled"
                    else:
                        self._check_exits()
                if self._reason is not None or self._all_reported_overdue():
                    self._end_all()
                    return
        finally:
            if pidfd is not None:
                os.close(pidfd)

    def _check_exits(self) -> None:
        # Once the watch has seen every rank's marker say 0 (one per rank), they are all the folder holds: the
        # folder is not read again just as the run's final record is to be made (~0.06 ms then).
        with self._pipe_lock:
            seen = tuple(self._seen_exits) if len(self._succeeded) >= self.world_size else None
        exits = seen if seen is not None else read_exits(self.status_dir)
        if any(e.code != 0 for e in exits):
            self._reason = "failed"
        elif len({e.rank for e in exits}) >= self.world_size:
            with self._pipe_lock:
                claimed = self._claim_all_reported(tuple(exits))
            if claimed and self._on_ranks_done is not None:
                self._ranks_done(tuple(exits))

    def _claim_all_reported(self, exits: tuple) -> bool:
        """(``_pipe_lock`` held.) Record that every rank has reported, as ``exits``; True for the one caller (the
        watcher or driver_events' thread) that does so first, which then runs on_ranks_done."""
        if self._all_reported_at is not None:
            return False
        self._all_reported_at = time.monotonic()
        self._all_reported = exits
        return True

    def _ranks_done(self, exits: tuple) -> None:
        expected = Outcome(reason="completed", launcher_code=0, exits=exits, started=self.started, ended=time.time())
        try:
            self._on_ranks_done(expected)
        except Exception:  # noqa: BLE001 - only a head start: on_finished does it all once the launcher is reaped
            logger.debug("Preparing the final record of local run %s early failed", self.run_id, exc_info=True)

    def _all_reported_overdue(self) -> bool:
        return self._all_reported_at is not None and time.monotonic() - self._all_reported_at > ALL_REPORTED_SECONDS

    def _end_all(self) -> None:
        # SIGTERM to every process of the job at once (hydra forwards it too), SIGKILL after the grace.
        self.tracker.end(self.grace)
        self.process.wait()

    def _reap(self) -> None:
        """After mpiexec is gone, nothing of the job may remain: daemons a rank left behind included (the tracker
        is released once the run's record is final: _watch)."""
        self.process.wait()
        if self.tracker.pids():
            self._stragglers = True
            self.tracker.end(grace=0.5)

    def _outcome(self) -> Outcome:
        # Each rank's launcher leaves one marker: once every rank has reported, the folder holds no news (reading it
        # again cost ~0.05 ms after mpiexec's exit, before the run could end).
        exits = self._all_reported if self._all_reported is not None else tuple(read_exits(self.status_dir))
        failures = [e for e in exits if e.code != 0]
        reason = self._reason
        if reason in (None, "failed"):
            every_rank = len({e.rank for e in exits}) >= self.world_size
            # Ended by us after every rank reported: the launcher's own exit code says nothing about the job.
            launcher_ok = self.process.returncode == 0 or (every_rank and self._all_reported_at is not None)
            reason = "failed" if failures or not every_rank or not launcher_ok else "completed"
        return Outcome(reason=reason, launcher_code=self.process.returncode, exits=exits,
                       first_failure=failures[0] if failures else None, started=self.started, ended=time.time(),
                       stragglers=self._stragglers)


def direct_launch(tracker) -> bool:
    """Whether the job's launcher can start inside its cgroup from the submitting thread, through the spawn server
    (Supervisor.prepare)."""
    return bool(tracker is not None and tracker.birth_cgroup() and not tracker.launch_prefix() and cgroup_spawn.ready())


def request_launcher(tracker, namespace: bool, keep_batch: bool):
    """Where the launch can be direct: the launcher's process asked of the spawn server now (cgroup_spawn.Waiting),
    for the Supervisor to start (prepare's ``waiting``), else None. The server makes the job's cgroup (where the
    tracker left that to it), clones the process there and makes its namespace, on its CPU while the caller plans
    the launch. That takes the server about as long as the rest of the planning (~0.25 ms here), so the sooner it is
    asked, the sooner mpiexec can start: asked by job.start before the run's record and its LocalJob are made, a
    trivial job ended 0.03-0.15 ms sooner (issue 24's A/Bs). The caller cancels it where the job is not started
    after all."""
    if not direct_launch(tracker):
        return None
    unmade = not tracker.made
    waiting = cgroup_spawn.prepare(cgroup_spawn.ready(), tracker.birth_cgroup(), bool(namespace), keep_batch,
                                   make_cgroup=unmade)
    if waiting is not None and unmade:
        tracker.made = True  # asked of the server: its report says if it could not (CgroupNotMade)
    return waiting


class _Process:
    """mpiexec, our child: started with posix_spawn in a new session, or inside ``cgroup_dir`` from birth where the
    helper for that is built (cgroup_spawn; ``born_inside`` says which).

    posix_spawn (vfork-like) costs the same whatever the driver's size, where subprocess.Popen forks the
    whole driver (about 3 ms for a driver that imported torch). The new session means Ctrl-C at a terminal
    reaches only the driver, which then ends the job in order, with a status. mpiexec's working directory
    does not matter: each rank's launcher (rank_exec or rank.sh) changes into the snapshot itself.
    """

    def __init__(self, pid: int, born_inside: bool):
        self.pid, self.born_inside = pid, born_inside
        self.returncode: int | None = None

    @classmethod
    def spawn(cls, argv, env, log_path, cgroup_dir=None, on_spawned=None) -> "_Process":
        actions = cgroup_spawn.file_actions(log_path)
        helper = cgroup_spawn.ready() if cgroup_dir else None
        pid = cgroup_spawn.spawn(helper, cgroup_dir, list(argv), env, actions, on_spawned) if helper else None
        born_inside = pid is not None
        if pid is None:
            pid = os.posix_spawn(argv[0], list(argv), env, file_actions=actions, setsid=True,
                                 setsigdef=cgroup_spawn.DEFAULT_SIGNALS)
        if on_spawned is not None:
            on_spawned()
        return cls(pid, born_inside)

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)


# ---- Ctrl-C and SIGTERM on the driver end every job it supervises -----------------------------------
_active: set = set()
_lock = threading.Lock()
# Set when the driver is interrupted (Ctrl-C, SIGTERM, SIGHUP, an uncaught exception): schedulers that
# submit jobs (local HyperDrive) stop starting new ones.
interrupted = threading.Event()
_previous: dict = {}
_hooked = False
_INTERRUPTS = (int(signal.SIGINT), int(signal.SIGTERM), int(signal.SIGHUP))  # SIGHUP: the driver's terminal closed
# Each job installs these handlers and its wait gives the driver's back (12 calls). signal.getsignal and signal.signal
# wrap the C module's in enum conversions, a failed Handlers(...) lookup for every callable: ~4 us a call where the
# C module's take 0.1-0.3 us. The same functions and results otherwise (SIG_DFL and SIG_IGN as ints).
try:
    import _signal as _handlers
except ImportError:  # not CPython
    _handlers = signal


def _register(supervisor: Supervisor) -> None:
    global _hooked
    with _lock:
        _active.add(supervisor)
        if not _hooked and hasattr(threading, "_register_atexit"):
            # Runs when the main thread is done, before non-daemon threads (our watchers) are joined.
            try:
                threading._register_atexit(_at_shutdown)
            except RuntimeError:  # already shutting down: a sweep's scheduler submitting after the main thread ended
                pass
            _hooked = True
    _install_handlers()


def _at_shutdown() -> None:
    """A driver that ends by an uncaught exception (Ctrl-C included) takes its running jobs down.

    This also covers jobs submitted from other threads (local HyperDrive trials), where no signal handler
    could be installed. A driver that ends normally waits for its jobs, like a v1 driver's cloud jobs run on.
    """
    if isinstance(getattr(sys, "last_value", None), BaseException):
        interrupted.set()
        for supervisor in active():
            supervisor.request_end("interrupted")


def _unregister(supervisor: Supervisor) -> None:
    with _lock:
        _active.discard(supervisor)


def active() -> list:
    with _lock:
        return list(_active)


def install_interrupt_handlers() -> None:
    """Make Ctrl-C/SIGTERM/SIGHUP end every running local job first; idempotent, chains to earlier handlers.

    Called on each submission from the main thread. Code that submits from worker threads (a scheduler)
    should call it once from the main thread; without it, Ctrl-C is still caught at interpreter exit.
    """
    _install_handlers()


def restore_interrupt_handlers() -> None:
    """Give the driver its own Ctrl-C/SIGTERM/SIGHUP handlers back once none of its jobs or schedulers (sweeps,
    pipelines) runs; from the main thread only (signal.signal works nowhere else). The next job installs ours again."""
    # (A thread's name first: is_alive() of each of the driver's threads cost ~15 us here, as the job's waiter returns.)
    if threading.current_thread() is not threading.main_thread() or active() or any(
            t.name.startswith(("hyperdrive-", "pipeline-")) and t.is_alive() for t in threading.enumerate()):
        return
    for signum, previous in list(_previous.items()):
        if _handlers.getsignal(signum) is _on_signal:
            _handlers.signal(signum, previous)
        del _previous[signum]


def _install_handlers() -> None:
    if threading.current_thread() is not threading.main_thread():
        return  # signal.signal only works there
    for signum in _INTERRUPTS:
        current = _handlers.getsignal(signum)
        if current is _on_signal or current == signal.SIG_IGN or current is None:
            continue
        _previous[signum] = current
        _handlers.signal(signum, _on_signal)


def _busy_threads() -> bool:
    """Whether non-daemon threads other than the main one still run (the interpreter waits for them)."""
    return any(t is not threading.main_thread() and not t.daemon and t.is_alive() for t in threading.enumerate())


def _on_signal(signum, frame):
    interrupted.set()
    running = active()
    for supervisor in running:
        supervisor.request_end("interrupted")
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        return previous(signum, frame)
    if not threading.main_thread().is_alive() and _busy_threads():
        # The driver's main code has returned and the interpreter is waiting for its threads (a sweep's
        # scheduler, job watchers): an exception here would abandon them half-way (a sweep left Failed). They
        # saw `interrupted` and end their jobs as Canceled; the interpreter exits when they are done.
        return None
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    if not running:  # nothing to wait for: die exactly as the default handler would
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return None
    # SIGTERM's default is to die on the spot, which would leave the watcher no time to end the ranks:
    # exit through SystemExit instead, so the (non-daemon) watcher finishes first.
    raise SystemExit(128 + signum)
