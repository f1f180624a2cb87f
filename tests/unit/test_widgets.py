"""RunDetails(run).show() outside Jupyter prints a status-and-metrics view at once (never blocks the driver)."""

from acpt_estimator.v1.widgets import RunDetails


class _FinishedRun:
    id = "exp_1_abc"

    def get_status(self):
        return "Completed"

    def get_metrics(self):
        return {"loss": [0.9, 0.5, 0.2], "lr": 0.01}


def test_text_view_shows_status_and_latest_metrics(capsys):
    assert RunDetails(_FinishedRun()).show() is None
    out = capsys.readouterr().out
    assert out.startswith("Run exp_1_abc: Completed")
    assert "loss" in out and "0.2  (last of 3)" in out and "lr" in out and "0.01" in out
