"""The fake answers like the real service did: recorded exchanges (tests/recordings) replayed against it, recorded
bodies served verbatim to the real client behind the public v1 API, and every fake route either recorded or listed
in tests/recordings/UNVERIFIED.md with the source of its shape."""

from __future__ import annotations

import re

import pytest
import requests

from acpt_estimator.exceptions import WebserviceException
from acpt_estimator.v1.core.model import Model
from tests.fake_aml.fixtures import *  # noqa: F401,F403
from tests.fake_aml.state import FakeState
from tests.recordings import replay

pytestmark = pytest.mark.integration

EXCERPTS = replay.excerpts()


def _replay(fake_aml, recorded):
    request = recorded["request"]
    answer = requests.request(request["method"], fake_aml.url + replay.request_path(recorded, fake_aml.state.ws_id),
                              params=request.get("query") or None, json=request.get("body"),
                              verify=fake_aml.ca_path, timeout=30)
    body = answer.json() if answer.content and "json" in answer.headers.get("Content-Type", "") else None
    return answer.status_code, dict(answer.headers), body


@pytest.mark.parametrize("recorded", EXCERPTS, ids=[e["id"] for e in EXCERPTS])
def test_the_fake_answers_as_the_recording(fake_aml, recorded):
    assert replay.differences(recorded, *_replay(fake_aml, recorded)) == []


def test_every_excerpt_is_pinned_by_the_lock_file():
    pinned = replay.lock()
    assert sorted(pinned) == sorted(e["id"] for e in EXCERPTS)
    for recorded in EXCERPTS:
        entry = pinned[recorded["id"]]
        assert recorded["provenance"] == {k: entry[k] for k in ("repository", "commit", "path", "entry")}


def _unverified_handlers() -> set:
    with open(replay.UNVERIFIED, encoding="utf-8") as handle:
        return set(re.findall(r"^\| `(\w+)` \|", handle.read(), flags=re.M))


def test_every_fake_route_is_recorded_or_listed_as_unverified():
    state = FakeState("00000000-0000-0000-0000-000000000001", "rg-fake", "ws-fake")
    recorded = {(e["request"]["method"], replay.request_path(e, state.ws_id)) for e in EXCERPTS}
    listed = _unverified_handlers()
    routes = [(method, re.compile(pattern + "$"), handler.__name__) for method, pattern, handler in state._route_table()]
    covered = {name for method, pattern, name in routes if any(m == method and pattern.match(p) for m, p in recorded)}
    names = {name for _, _, name in routes}
    assert sorted(names - covered - listed) == [], "fake routes neither recorded nor listed in UNVERIFIED.md"
    assert sorted(listed - names) == [], "UNVERIFIED.md lists handlers the fake no longer has"


# ---- recorded bodies served verbatim to the real client, through the public v1 API --------------------------------
def _serve(fake_aml, name):
    recorded = replay.excerpt(name)
    response = recorded["response"]
    headers = {k: v for k, v in response["headers"].items() if k.lower() != "content-type"}
    path = re.escape(recorded["request"]["path"]).replace(re.escape("{workspace}"), ".*")
    path = re.sub(r"test_907403507619", "[^/]+", path)
    fake_aml.answer_next(recorded["request"]["method"], path + "$", response["status"], response["body"], headers)


def test_model_list_of_an_unknown_name_is_empty_under_the_recorded_404(fake_aml, cloud_workspace):
    _serve(fake_aml, "model-versions-404")
    assert Model.list(cloud_workspace, name="nope") == []
    assert fake_aml.calls("GET", r"/models/nope/versions$")[0].status == 404


def test_an_unknown_model_raises_v1s_model_not_found_under_the_recorded_404(fake_aml, cloud_workspace):
    _serve(fake_aml, "model-versions-404")
    with pytest.raises(WebserviceException, match="ModelNotFound: Model with name nope not found"):
        Model(cloud_workspace, name="nope")
    _serve(fake_aml, "model-versions-404")
    with pytest.raises(WebserviceException, match="ModelNotFound: Model with name nope, version 3 not found"):
        Model(cloud_workspace, name="nope", version=3)
