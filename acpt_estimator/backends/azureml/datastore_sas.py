"""A datastore's blob container whose SAS is renewed: Azure ML answers ``listSecrets`` with a SAS valid for an hour
(``expirableSecret``, recorded even for account-key datastores), so long uploads and downloads fetch a fresh one
before it expires, and once more when the storage account refuses an expired one (``AuthenticationFailed``)."""

from __future__ import annotations

import calendar
import time
import urllib.parse

MARGIN_SECONDS = 300  # renew this long before the SAS's own expiry (``se=``)


def sas_expiry(url_or_token: str | None):
    """Seconds since the epoch at which a SAS expires (its ``se`` field), or None for no SAS."""
    query = urllib.parse.urlsplit(url_or_token or "").query or (url_or_token or "").lstrip("?")
    expiry = urllib.parse.parse_qs(query).get("se")
    if not expiry:
        return None
    try:
        return calendar.timegm(time.strptime(expiry[0][:19], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None


class RenewingContainer:
    """Stands for a ``ContainerClient``: each call goes to a client whose SAS is fresh (``make()`` builds one)."""

    def __init__(self, make):
        self._make = make
        self._client = make()

    def _fresh(self):
        expiry = sas_expiry(getattr(self._client, "url", None))
        if expiry is not None and time.time() > expiry - MARGIN_SECONDS:
            self._client = self._make()
        return self._client

    def __getattr__(self, name):
        attribute = getattr(self._fresh(), name)
        if not callable(attribute):
            return attribute

        def call(*args, **kwargs):
            from azure.core.exceptions import HttpResponseError

            try:
                return attribute(*args, **kwargs)
            except HttpResponseError as err:
                if getattr(err, "error_code", None) != "AuthenticationFailed" or sas_expiry(self._client.url) is None:
                    raise
                self._client = self._make()  # the SAS expired (or was revoked) while we worked: one more try
                for value in list(args) + list(kwargs.values()):
                    if hasattr(value, "seek"):
                        value.seek(0)
                return getattr(self._client, name)(*args, **kwargs)

        return call
