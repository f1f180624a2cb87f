"""A local job's ``python`` and ``pip`` are the driver's interpreter, as in an activated environment.

The driver runs from this virtualenv's interpreter with a PATH that does not contain its folder (an unactivated
venv): the command's ``python``/``pip`` and the ``python`` an entry script starts must still be that interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration

DRIVER = textwrap.dedent("""
    from azureml.core import Experiment, ScriptRunConfig, Workspace

    experiment = Experiment(Workspace.from_config(), "interpreter")
    command = ScriptRunConfig("src", compute_target="local",
                              command="python -c 'import sys; print(\\"command python:\\", sys.prefix)' && "
                                      "pip --version && python show.py")
    script = ScriptRunConfig("src", script="child.py", compute_target="local")
    for config in (command, script):
        run = experiment.submit(config)
        print("status:", run.wait_for_completion(show_output=True, raise_on_error=False)["status"])
""")
SHOW = "import acpt_estimator, sys\nprint('show.py prefix:', sys.prefix)\n"
CHILD = textwrap.dedent("""
    import shutil, subprocess
    out = subprocess.run(["python", "-c", "import sys, acpt_estimator; print(sys.prefix)"], capture_output=True,
                         text=True, check=True).stdout.strip()
    print("child python prefix:", out)
    print("pip on PATH:", shutil.which("pip"))
""")


def test_job_python_and_pip_are_the_drivers_interpreter_when_its_folder_is_not_on_path(tmp_path):
    folder = os.path.dirname(sys.executable)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "show.py").write_text(SHOW)
    (tmp_path / "src" / "child.py").write_text(CHILD)
    (tmp_path / "driver.py").write_text(DRIVER)
    path = os.pathsep.join(p for p in ("/usr/local/bin", "/usr/bin", "/bin") if p != folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACPT_ESTIMATOR_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(PATH=path, ACPT_ESTIMATOR_TARGET="local", ACPT_ESTIMATOR_HOME=str(tmp_path / "store"))
    done = subprocess.run([sys.executable, "driver.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=240)
    out = done.stdout
    assert done.returncode == 0 and out.count("status: Completed") == 2, out + done.stderr
    assert f"command python: {sys.prefix}" in out
    assert f"show.py prefix: {sys.prefix}" in out
    assert f"from {os.path.join(sys.prefix, 'lib')}" in out  # pip --version names the venv's site-packages
    assert f"child python prefix: {sys.prefix}" in out
    assert f"pip on PATH: {os.path.join(folder, 'pip')}" in out
