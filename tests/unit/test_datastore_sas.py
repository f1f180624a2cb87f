"""The datastore SAS renewal of backends/azureml/datastore_sas.py: expiry read from ``se``, renewal before it."""

from __future__ import annotations

import time

from acpt_estimator.backends.azureml.datastore_sas import MARGIN_SECONDS, RenewingContainer, sas_expiry


class _Client:
    def __init__(self, expires_in: float):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + expires_in))
        self.url = f"https://acct.blob.core.windows.net/c?sv=2026-02-06&se={stamp}&sig=x"

    def name(self):
        return self.url


def test_the_expiry_is_read_from_a_sas_url_or_token():
    assert sas_expiry("?sv=1&se=2026-03-27T05:21:49Z&sig=x") == 1774588909
    assert sas_expiry("https://a.blob.core.windows.net/c?se=2026-03-27T05%3A21%3A49Z") == 1774588909
    assert sas_expiry("https://a.blob.core.windows.net/c") is None and sas_expiry(None) is None


def test_a_sas_near_its_expiry_is_renewed_before_the_next_call():
    made = []

    def make():
        made.append(_Client(MARGIN_SECONDS / 2 if not made else 3600))
        return made[-1]

    container = RenewingContainer(make)
    assert container.name() == made[1].url and len(made) == 2  # the first SAS was too close to its expiry
    assert container.name() == made[1].url and len(made) == 2  # the fresh one is kept
