"""v1 ``RunDetails(run).show()``: a live widget in Jupyter when ipywidgets is present, a text view otherwise."""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from acpt_estimator._lazy import lazy_names


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    ip = shell.get_ipython() if hasattr(shell, "get_ipython") else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def format_metrics(metrics: dict) -> str:
    lines = []
    for name, value in sorted(metrics.items()):
        shown = value[-1] if isinstance(value, list) and value else value
        suffix = f"  (last of {len(value)})" if isinstance(value, list) else ""
        lines.append(f"  {name:<24} {shown}{suffix}")
    return "\n".join(lines) or "  (no metrics yet)"


class RunDetails:
    """Shows a run's status and latest metrics; never blocks the driver."""

    def __init__(self, run_instance):
        self.run = run_instance

    def text(self) -> str:
        status = self.run.get_status()
        metrics = self.run.get_metrics() if hasattr(self.run, "get_metrics") else {}
        return f"Run {self.run.id}: {status}\n{format_metrics(metrics)}"

    def show(self, render_lib=None, widget_settings=None):
        if _in_notebook() and importlib.util.find_spec("ipywidgets") is not None:
            return self._show_widget()
        print(self.text())
        return None

    def _show_widget(self):
        import ipywidgets
        from IPython.display import display

        box = ipywidgets.HTML(value=f"<pre>{self.text()}</pre>")
        display(box)

        def refresh():
            # Poll until the run ends; the widget updates in place while the notebook stays usable.
            while True:
                box.value = f"<pre>{self.text()}</pre>"
                if self.run.get_status() in ("Completed", "Failed", "Canceled"):
                    return
                time.sleep(2)

        threading.Thread(target=refresh, daemon=True).start()
        return box

    def get_widget_data(self, widget_settings=None) -> dict:
        return {"status": self.run.get_status(), "metrics": self.run.get_metrics()}


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "ParallelRunStepDetails": "acpt_estimator.v1.widgets.parallel_run_step_details",
})
