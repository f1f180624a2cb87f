"""Import cost of acpt_estimator (and its estimator path) as a ratio to importing azure.ai.ml, same run."""

import statistics
import subprocess
import sys

REPEATS = 5
CASES = {
    "acpt_estimator": "import acpt_estimator",
    "estimator path": "from acpt_estimator import PyTorch, Mpi; from acpt_estimator.v1.core.experiment import Experiment; "
                      "from acpt_estimator.v1.core.workspace import Workspace",
    "azure.ai.ml (baseline)": "import azure.ai.ml",
}
HEAVY = ("azure.ai.ml", "torch", "mlflow")
PROBE = "import sys, time; t = time.perf_counter(); {code}; print(time.perf_counter() - t); " \
        "print(','.join(m for m in {heavy!r} if m in sys.modules))"


def measure(code: str) -> tuple[float, str]:
    """Median wall time of the import in fresh interpreters, and which heavy modules it pulled in."""
    times, pulled = [], ""
    for _ in range(REPEATS):
        out = subprocess.run([sys.executable, "-c", PROBE.format(code=code, heavy=HEAVY)],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        times.append(float(out[0]))
        pulled = out[1]
    return statistics.median(times), pulled


def main() -> None:
    results = {name: measure(code) for name, code in CASES.items()}
    baseline = results["azure.ai.ml (baseline)"][0]
    print(f"{'import':<26}{'median s':>10}{'ratio to azure.ai.ml':>22}  heavy modules pulled")
    for name, (seconds, pulled) in results.items():
        print(f"{name:<26}{seconds:>10.3f}{seconds / baseline:>22.3f}  {pulled or '-'}")


if __name__ == "__main__":
    main()
