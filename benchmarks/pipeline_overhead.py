"""A 3-step local pipeline of trivial scripts vs the same three steps submitted one after another as single jobs;
and the cost of a step skipped by reuse.

Both are timed side by side in this process, alternating: (a) ``exp.submit(Pipeline([a, b, c]))`` +
``wait_for_completion()`` where b reads a's PipelineData and c reads b's (allow_reuse=False, so every step runs),
(b) three ``ScriptRunConfig`` jobs submitted and waited one after another. Prints the medians and their ratio
(target: <= 1.2x), then the median wall time of the same pipeline when all three steps are reused, per step
(target: < 50 ms).

    python benchmarks/pipeline_overhead.py [--repeats 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

SCRIPT = ("import argparse, os\np = argparse.ArgumentParser(); p.add_argument('--out'); p.add_argument('--inp')\n"
          "a = p.parse_args()\nif a.out:\n    os.makedirs(a.out, exist_ok=True)\n"
          "    open(os.path.join(a.out, 'x.txt'), 'w').write('x')\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="acpt-bench-") as scratch:
        source = os.path.join(scratch, "src")
        os.makedirs(source)
        with open(os.path.join(source, "step.py"), "w", encoding="utf-8") as handle:
            handle.write(SCRIPT)
        os.environ["ACPT_ESTIMATOR_HOME"] = os.path.join(scratch, "store")
        os.environ["ACPT_ESTIMATOR_TARGET"] = "local"
        os.chdir(scratch)

        from acpt_estimator.v1.core.experiment import Experiment
        from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
        from acpt_estimator.v1.core.workspace import Workspace
        from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData
        from acpt_estimator.v1.pipeline.steps import PythonScriptStep

        ws = Workspace("sub", "rg", "ws")
        exp = Experiment(ws, "bench")

        def pipeline(reuse: bool):
            a, b = PipelineData("a"), PipelineData("b")
            s1 = PythonScriptStep("step.py", name="s1", arguments=["--out", a], outputs=[a], source_directory=source,
                                  compute_target="c", allow_reuse=reuse)
            s2 = PythonScriptStep("step.py", name="s2", arguments=["--inp", a, "--out", b], inputs=[a], outputs=[b],
                                  source_directory=source, compute_target="c", allow_reuse=reuse)
            s3 = PythonScriptStep("step.py", name="s3", arguments=["--inp", b], inputs=[b], source_directory=source,
                                  compute_target="c", allow_reuse=reuse)
            return Pipeline(ws, [s1, s2, s3])

        def run_pipeline(p):
            start = time.perf_counter()
            exp.submit(p).wait_for_completion(show_output=False)
            return time.perf_counter() - start

        def run_jobs():
            start = time.perf_counter()
            out = os.path.join(scratch, "out")
            for arguments in (["--out", out], ["--inp", out, "--out", out + "2"], ["--inp", out + "2"]):
                exp.submit(ScriptRunConfig(source, "step.py", arguments=arguments)).wait_for_completion()
            return time.perf_counter() - start

        fresh = pipeline(reuse=False)
        run_pipeline(fresh), run_jobs()  # warm-up: imports, MPI launcher lookup, page cache
        pipelines, jobs = [], []
        for _ in range(args.repeats):
            pipelines.append(run_pipeline(fresh))
            jobs.append(run_jobs())
        p, j = statistics.median(pipelines), statistics.median(jobs)
        print(f"3-step pipeline: median {p * 1000:.0f} ms; 3 single jobs: median {j * 1000:.0f} ms; "
              f"ratio {p / j:.3f}x (target <= 1.2x)")
        reused = pipeline(reuse=True)
        run_pipeline(reused)  # the first run records the steps' results
        skipped = [run_pipeline(reused) for _ in range(args.repeats)]
        s = statistics.median(skipped)
        print(f"all 3 steps reused: median {s * 1000:.0f} ms per pipeline, {s / 3 * 1000:.1f} ms per skipped step "
              "(target < 50 ms)")


if __name__ == "__main__":
    sys.exit(main())
