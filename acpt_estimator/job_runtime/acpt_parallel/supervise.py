"""Worker processes of a ParallelRunStep: start, feed, time out, restart; retries and v1's failure thresholds."""

from __future__ import annotations

import collections
import csv
import json
import os
import pickle
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from .worker import STATUS_FD_VAR

INIT_TRIES = 3  # v1 gave up on a worker whose init() kept failing after 3 tries


class Worker:
    """One worker process (v1's ``processNNN`` on node ``node``) and the task it is running."""

    def __init__(self, slot: int, node: int, name: str, proc: subprocess.Popen):
        self.slot, self.node, self.name, self.proc = slot, node, name, proc
        self.state = "starting"  # starting | idle | busy | gone
        self.task: int | None = None
        self.deadline: float | None = None
        self.started = time.monotonic()


class Job:
    def __init__(self, args, tasks: list[dict], logs: str):
        self.args, self.tasks, self.logs = args, tasks, logs
        self.scratch = tempfile.mkdtemp(prefix="acpt-prs-")
        self.queue: queue.Queue = queue.Queue()
        self.pending = collections.deque(range(len(tasks)))
        self.attempts = [0] * len(tasks)
        self.records: list[dict] = [{"index": t["index"], "input": t.get("input"), "items": t["items"],
                                     "status": "pending", "succeeded": 0, "attempts": 0, "node": "", "process": "",
                                     "elapsed_seconds": "", "error": ""} for t in tasks]
        self.errors: list[str] = []
        self.failed_items = self.failed_batches = self.succeeded_items = 0
        self.per_node = max(1, args.process_count_per_node or os.cpu_count() or 1)
        self.started_per_node: collections.Counter = collections.Counter()
        self.init_failures: collections.Counter = collections.Counter()
        self.workers: dict[int, Worker] = {}
        os.makedirs(os.path.join(self.scratch, "tasks"))
        os.makedirs(os.path.join(self.scratch, "results"))
        os.makedirs(os.path.join(self.scratch, "working"))
        for task in tasks:
            with open(self._task_file(task["index"]), "wb") as handle:
                pickle.dump(task, handle, protocol=pickle.HIGHEST_PROTOCOL)

    def _task_file(self, index: int) -> str:
        return os.path.join(self.scratch, "tasks", f"{index}.pkl")

    def _result_file(self, index: int) -> str:
        return os.path.join(self.scratch, "results", f"{index}.txt")

    # ---- workers ---------------------------------------------------------------------------------------------
    def _start(self, slot: int) -> None:
        node = slot // self.per_node
        name = f"process{self.started_per_node[node]:03d}"  # a restarted worker gets a new name, as in v1
        self.started_per_node[node] += 1
        for kind in ("stdout", "stderr", "entry_script_log"):
            os.makedirs(os.path.join(self.logs, "user", kind, str(node)), exist_ok=True)
        read_fd, write_fd = os.pipe()
        runtime = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ, **{
            STATUS_FD_VAR: str(write_fd), "ACPT_PRS_LOG_DIR": self.logs, "ACPT_PRS_NODE_ID": str(node),
            "ACPT_PRS_AGENT_NAME": name, "ACPT_PRS_LOGGING_LEVEL": self.args.logging_level,
            "ACPT_PRS_OUTPUT_DIR": self.output_dir, "ACPT_PRS_WORKING_DIR": os.path.join(self.scratch, "working"),
            "PYTHONPATH": os.pathsep.join([runtime] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH")
                                                       else []))})
        with open(os.path.join(self.logs, "user", "stdout", str(node), f"{name}.stdout.txt"), "ab") as out, \
                open(os.path.join(self.logs, "user", "stderr", str(node), f"{name}.stderr.txt"), "ab") as err:
            proc = subprocess.Popen([sys.executable, "-m", "acpt_parallel.worker", self.args.entry_script,
                                     *self.args.user_args], stdin=subprocess.PIPE, stdout=out, stderr=err,
                                    pass_fds=(write_fd,), env=env, text=True)
        os.close(write_fd)
        worker = Worker(slot, node, name, proc)
        worker.deadline = time.monotonic() + 3 * self.args.run_invocation_timeout + 30  # v1's limit for init()
        self.workers[slot] = worker
        threading.Thread(target=self._read, args=(worker, read_fd), daemon=True).start()

    def _read(self, worker: Worker, fd: int) -> None:
        with os.fdopen(fd, "r") as status:
            for line in status:
                self.queue.put((worker, json.loads(line)))
        self.queue.put((worker, None))

    def _stop(self, worker: Worker, kill: bool) -> None:
        self._signal_stop(worker, kill)
        self._reap(worker)

    @staticmethod
    def _signal_stop(worker: Worker, kill: bool) -> None:
        """Kill the worker, or ask it to end once its init() (if still running) and current task are over."""
        try:
            if kill:
                worker.proc.kill()
            else:
                worker.proc.stdin.write(json.dumps({"stop": True}) + "\n")
                worker.proc.stdin.flush()
            worker.proc.stdin.close()
        except OSError:
            pass  # it already ended

    @staticmethod
    def _reap(worker: Worker) -> None:
        # a worker still in init() may take up to its init deadline; any other gets 10 s to end
        grace = max(10.0, worker.deadline - time.monotonic()) if worker.state == "starting" and worker.deadline \
            else 10.0
        worker.state = "gone"
        try:
            worker.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            worker.proc.kill()
            worker.proc.wait()

    # ---- the loop --------------------------------------------------------------------------------------------
    @property
    def output_dir(self) -> str:
        return os.path.abspath(self.args.output or "outputs")

    def run(self) -> str | None:
        """Run every mini-batch; the reason the step failed, or None."""
        previous = signal.signal(signal.SIGTERM, _terminate)
        finished = False
        try:
            reason = self._loop()
            finished = reason is None
            return reason
        finally:
            # after a successful step, a worker still in init() finishes it (v1 ran init() once in every worker:
            # its logs and side effects are whole); a failed or ended step kills all but idle workers
            ending = [w for w in self.workers.values() if w.state != "gone"]
            for worker in ending:
                self._signal_stop(worker, kill=not (worker.state == "idle" or finished and worker.state == "starting"))
            try:
                for worker in ending:
                    self._reap(worker)
            except BaseException:  # a SIGTERM while a worker finishes init(): none may outlive the driver
                signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut this short (it is quick)
                for worker in ending:
                    worker.proc.kill()  # (a no-op for one reaped already)
                    worker.proc.wait()
                raise
            finally:
                signal.signal(signal.SIGTERM, previous)

    def _loop(self) -> str | None:
        total = self.args.node_count * self.per_node
        for slot in range(min(total, len(self.tasks))):
            self._start(slot)
        while self.pending or any(w.state == "busy" for w in self.workers.values()):
            live = [w for w in self.workers.values() if w.state != "gone"]
            if not live:
                return (f"init() failed {INIT_TRIES} times in every worker; the last error:\n"
                        f"{self.errors[-1] if self.errors else '(none)'}")
            for worker in live:
                if worker.state == "idle" and self.pending:
                    self._dispatch(worker, self.pending.popleft())
            deadlines = [w.deadline for w in live if w.deadline is not None]
            try:
                worker, message = self.queue.get(timeout=max(0.0, min(deadlines) - time.monotonic())
                                                 if deadlines else None)
            except queue.Empty:
                for worker in live:
                    if worker.deadline is not None and worker.deadline <= time.monotonic():
                        self._timed_out(worker)
                continue
            reason = self._handle(worker, message)
            if reason:
                return reason
        percent = self.args.allowed_failed_percent
        if percent is not None and self.tasks and 100.0 * self.failed_batches / len(self.tasks) > percent:
            return (f"{self.failed_batches} of {len(self.tasks)} mini-batches failed, more than "
                    f"allowed_failed_percent={percent}.")
        return None

    def _dispatch(self, worker: Worker, index: int) -> None:
        self.attempts[index] += 1
        record = self.records[index]
        record.update(status="running", attempts=self.attempts[index], node=worker.node, process=worker.name)
        worker.state, worker.task, worker.started = "busy", index, time.monotonic()
        worker.deadline = worker.started + self.args.run_invocation_timeout
        result = self._result_file(index) if self.args.output_action == "append_row" else None
        worker.proc.stdin.write(json.dumps({"task": self._task_file(index), "result": result}) + "\n")
        worker.proc.stdin.flush()

    def _timed_out(self, worker: Worker) -> None:
        index, starting = worker.task, worker.state == "starting"
        self._stop(worker, kill=True)  # its reader then reports the end; the slot is restarted there
        if starting:
            self.init_failures[worker.slot] += 1
            self.errors.append(f"{worker.name} on node {worker.node}: init() did not finish within "
                               f"{3 * self.args.run_invocation_timeout + 30:g} s.")
        elif index is not None:
            self._attempt_failed(index, f"run() did not return within run_invocation_timeout="
                                        f"{self.args.run_invocation_timeout:g} s; the worker was ended.")
        worker.task = None

    def _handle(self, worker: Worker, message: dict | None) -> str | None:
        if message is None:  # the worker ended
            code = worker.proc.wait()
            if worker.state == "busy" and worker.task is not None:
                self._attempt_failed(worker.task, f"the worker process exited with code {code} during run().")
            elif worker.state == "starting":
                self.init_failures[worker.slot] += 1
            worker.state, worker.task = "gone", None
            if self.pending and self.init_failures[worker.slot] < INIT_TRIES and self.workers[worker.slot] is worker:
                self._start(worker.slot)
            return self._check()
        if "ready" in message:
            worker.state, worker.deadline = "idle", None
        elif "init_error" in message:
            self.errors.append(f"{worker.name} on node {worker.node}: init() failed:\n{message['init_error']}")
            worker.state = "starting"  # the end of the process follows; counted there
        elif "done" in message:
            index, succeeded = message["done"], message["succeeded"]
            items = self.tasks[index]["items"]
            self.succeeded_items += min(succeeded, items)
            self.failed_items += max(0, items - succeeded)  # v1: one returned element per input item handled
            self.records[index].update(status="succeeded", succeeded=succeeded,
                                       elapsed_seconds=round(time.monotonic() - worker.started, 3))
            worker.state, worker.task, worker.deadline = "idle", None, None
        elif "failed" in message:
            worker.state, worker.deadline = "idle", None
            index, worker.task = message["failed"], None
            self._attempt_failed(index, message["error"])
        return self._check()

    def _attempt_failed(self, index: int, error: str) -> None:
        record = self.records[index]
        self.errors.append(f"mini-batch {index} (attempt {self.attempts[index]} of {self.args.run_max_try}, "
                           f"{record['process']} on node {record['node']}):\n{error}")
        record["error"] = error.strip().splitlines()[-1] if error.strip() else error
        if self.attempts[index] < self.args.run_max_try:
            record["status"] = "retrying"
            self.pending.append(index)
        else:
            record["status"] = "failed"
            self.failed_batches += 1
            self.failed_items += self.tasks[index]["items"]

    def _check(self) -> str | None:
        threshold, allowed = self.args.error_threshold, self.args.allowed_failed_count
        if threshold != -1 and self.failed_items > threshold:
            return f"{self.failed_items} items failed, more than error_threshold={threshold}."
        if allowed is not None and allowed != -1 and self.failed_batches > allowed:
            return f"{self.failed_batches} mini-batches failed, more than allowed_failed_count={allowed}."
        return None

    # ---- results ---------------------------------------------------------------------------------------------
    def write_output(self) -> None:
        """append_row: every successful mini-batch's rows in one file, in mini-batch order."""
        os.makedirs(self.output_dir, exist_ok=True)
        target = os.path.join(self.output_dir, self.args.append_row_file_name)
        with open(target + ".tmp", "w", encoding="utf-8") as out:
            for record in self.records:
                if record["status"] == "succeeded":
                    with open(self._result_file(record["index"]), encoding="utf-8") as part:
                        shutil.copyfileobj(part, out)
        os.replace(target + ".tmp", target)

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)


def _terminate(signum, frame):
    raise SystemExit(128 + signum)  # the finally blocks end the workers


def write_logs(logs: str, result: str, records: list[dict], errors: list[str] | None) -> None:
    """v1's summary files: job_result.txt, job_error.txt, job_progress_overview.txt and
    sys/job_report/processed_mini-batches.csv."""
    os.makedirs(os.path.join(logs, "sys", "job_report"), exist_ok=True)
    with open(os.path.join(logs, "job_result.txt"), "w", encoding="utf-8") as out:
        out.write(result + "\n")
    with open(os.path.join(logs, "job_error.txt"), "w", encoding="utf-8") as out:
        out.write("\n".join(errors or []) + ("\n" if errors else ""))
    counts = collections.Counter(r["status"] for r in records)
    with open(os.path.join(logs, "job_progress_overview.txt"), "w", encoding="utf-8") as out:
        out.write(f"{len(records)} mini-batches created; {counts['succeeded']} succeeded, {counts['failed']} "
                  f"failed, {len(records) - counts['succeeded'] - counts['failed']} not processed.\n{result}\n")
    fields = ["index", "input", "status", "node", "process", "attempts", "items", "succeeded", "elapsed_seconds",
              "error"]
    with open(os.path.join(logs, "sys", "job_report", "processed_mini-batches.csv"), "w", newline="",
              encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows(records)
