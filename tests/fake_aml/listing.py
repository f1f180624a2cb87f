"""The fake's run-history listings: an experiment's runs (``runs:query``), the experiments (``experiments:query``) and
a compute's runs (``computes/{name}/runs``), filtered and paged as the service does.

Shapes: azure-ai-ml 1.35's generated run-history client (QueryParams {filter, continuationToken, orderBy, top} ->
PaginatedRunList; ExperimentQueryParams {viewType, ...} -> PaginatedExperimentList; list_by_compute with ``$filter``
and ``$continuationtoken``). The filter grammar understood is the one azureml-core 1.61 sent
(azureml/_restclient/_odata/constants.py): Status, Tags/<k>, Properties/<k>, ParentRunId eq null, RunType. No
recording of these routes exists (UNVERIFIED.md).
"""

from __future__ import annotations

import re

from .history import CREATED_BY, _compute_name, _experiment_id

_CLAUSE = re.compile(r'(Status|RunType|ParentRunId|Target|Tags/[^ ]+|Properties/[^ ]+) (eq|ne) ("(?:[^"\\]|\\.)*"|null)')


def _value(text: str):
    return None if text == "null" else text[1:-1].replace('\\"', '"')


class ListingMixin:
    """Handlers over ``self.jobs``; mixed into FakeState."""

    list_page_size = 100

    def _record(self, job) -> dict:
        props = job.body.get("properties") or {}
        sweep = props.get("jobType") == "Sweep"
        return {"runId": job.name, "parentRunId": job.parent, "status": job.current_status(),
                "experimentId": _experiment_id(job.body), "displayName": props.get("displayName") or job.name,
                "runType": "hyperdrive" if sweep else "azureml.scriptrun", "target": _compute_name(job.body),
                "tags": props.get("tags") or {}, "properties": props.get("properties") or {},
                "createdBy": CREATED_BY, "createdUtc": "2026-01-01T00:00:00Z"}

    def _field(self, record: dict, field: str):
        if field.startswith(("Tags/", "Properties/")):
            group, _, key = field.partition("/")
            return record[group.lower()].get(key, _MISSING)
        return {"Status": record["status"], "RunType": record["runType"], "ParentRunId": record["parentRunId"],
                "Target": record["target"]}[field]

    def _matches(self, record: dict, expression: str | None) -> bool:
        """``and`` of groups, each an ``or`` of ``<field> eq|ne <value>`` (the grammar azureml-core sent)."""
        if not expression:
            return True
        for group in re.split(r"\) and \(", expression.strip("()")):
            results = []
            for field, op, raw in _CLAUSE.findall(group):
                found, wanted = self._field(record, field), _value(raw)
                if wanted is None:  # "ne null": set; "eq null": null (a missing tag is neither)
                    results.append(found is not _MISSING and found is not None if op == "ne" else found is None)
                else:
                    results.append((found == wanted) == (op == "eq"))
            if not any(results):
                return False
        return True

    def _page(self, items: list, token):
        start = int(token or 0)
        end = start + self.list_page_size
        return {"value": items[start:end], "continuationToken": str(end) if end < len(items) else None,
                "nextLink": None}

    def query_runs(self, experiment, body, **_):
        body = body or {}
        records = [self._record(j) for j in reversed(list(self.jobs.values()))
                   if (j.body.get("properties") or {}).get("experimentName") == experiment]
        found = [r for r in records if self._matches(r, body.get("filter"))]
        return 200, {}, self._page(found, body.get("continuationToken"))

    def query_experiments(self, body, **_):
        names = list(dict.fromkeys((j.body.get("properties") or {}).get("experimentName") for j in self.jobs.values()))
        items = [{"experimentId": _experiment_id({"properties": {"experimentName": n}}), "name": n,
                  "createdUtc": "2026-01-01T00:00:00Z", "tags": {}} for n in names if n]
        return 200, {}, self._page(items, (body or {}).get("continuationToken"))

    def compute_runs(self, compute, query, **_):
        records = [self._record(j) for j in self.jobs.values() if _compute_name(j.body) == compute]
        found = [r for r in records if self._matches(r, query.get("$filter"))]
        return 200, {}, self._page(found, query.get("$continuationtoken"))


_MISSING = object()
