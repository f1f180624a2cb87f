"""The fake's HTTP plumbing: a TLS ThreadingHTTPServer that records requests and injects transient failures."""

from __future__ import annotations

import base64
import json
import re
import ssl
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import attrs

from .certs import make_certificates
from .proxy import BLOB_SUFFIX, VAULT_SUFFIX, BlobProxy
from .state import FakeState, JobScript


@attrs.define
class Recorded:
    """One request as the fake saw it."""

    method: str
    path: str
    query: dict
    headers: dict
    body: bytes
    status: int = 0

    def json(self):
        return json.loads(self.body or b"null")


class FakeCredential:
    """An azure-core TokenCredential whose token is an unsigned JWT (the SDK reads its ``tid``); counts calls."""

    def __init__(self, tenant_id: str = "fake-tenant"):
        self.tenant_id = tenant_id
        self.calls = 0

    @property
    def token(self) -> str:
        return self._token()

    def _token(self, audience: str | None = None) -> str:
        def part(data: dict) -> str:
            return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

        claims = {"tid": self.tenant_id, "oid": "fake-user", "exp": int(time.time()) + 3600}
        if audience:  # as AAD: the audience is the scope's resource (pipeline submits check it is Azure ML's)
            claims["aud"] = audience
        return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.ZmFrZS1zaWduYXR1cmU"

    def get_token(self, *scopes, **kwargs):
        from azure.core.credentials import AccessToken

        self.calls += 1
        audience = scopes[0].rsplit("/.default", 1)[0] if scopes and scopes[0].endswith("/.default") else None
        return AccessToken(self._token(audience), int(time.time()) + 3600)


class FakeAzureML:
    """``with FakeAzureML(tmpdir) as fake:`` serves Azure ML's REST API on https://127.0.0.1:<port>."""

    def __init__(self, cert_dir: str, subscription_id="00000000-0000-0000-0000-000000000001",
                 resource_group="rg-fake", workspace_name="ws-fake"):
        self.cert_dir = cert_dir
        self.ca_path = None
        self.state = FakeState(subscription_id, resource_group, workspace_name)
        self.requests: list[Recorded] = []
        self._faults: list[list] = []  # [method, regex, [status or (status, headers, body), ...]]
        self._lock = threading.Lock()
        self._server = None
        self._thread = None
        self._proxy = None

    # ---- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> "FakeAzureML":
        self.ca_path, cert, key = make_certificates(self.cert_dir)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.state.base_url = self.url
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-azureml", daemon=True)
        self._thread.start()
        self._proxy = BlobProxy(self._server.server_address[1]).start()
        return self

    def stop(self) -> None:
        if self._proxy is not None:
            self._proxy.stop()
            self._proxy = None
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def reset(self) -> None:
        """Forget every job, asset, request and fault; keep the port and certificate."""
        with self._lock:
            self.requests.clear()
            self._faults.clear()
            base = self.state.base_url
            self.state = FakeState(self.state.subscription_id, self.state.resource_group, self.state.workspace_name)
            self.state.base_url = base

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self._server.server_address[1]}"

    @property
    def proxy_url(self) -> str:
        """For HTTPS_PROXY: datastore-account uploads (local job inputs) reach the fake through it."""
        return self._proxy.url

    # ---- test helpers -------------------------------------------------------------------------------
    def fail_next(self, method: str, path_regex: str, *statuses: int) -> None:
        """The next len(statuses) matching requests get these statuses (with Retry-After) before any succeeds."""
        with self._lock:
            self._faults.append([method.upper(), re.compile(path_regex), list(statuses)])

    def answer_next(self, method: str, path_regex: str, status: int, body, headers: dict | None = None) -> None:
        """The next matching request gets this answer verbatim (a recorded exchange served to the real client)."""
        with self._lock:
            self._faults.append([method.upper(), re.compile(path_regex), [(status, dict(headers or {}), body)]])

    def lose_answer_next(self, method: str, path_regex: str) -> None:
        """The next matching request is carried out, but its answer is lost: the client sees a 503 and retries."""
        with self._lock:
            self._faults.append([method.upper(), re.compile(path_regex), ["lose"]])

    def calls(self, method: str | None = None, path_regex: str | None = None) -> list[Recorded]:
        pattern = re.compile(path_regex) if path_regex else None
        with self._lock:
            return [r for r in self.requests if (method is None or r.method == method.upper())
                    and (pattern is None or pattern.search(r.path))]

    def script_next_job(self, script: JobScript) -> None:
        """How the next created job behaves (states, logs, metrics, output files)."""
        self.state.next_script = script

    # ---- request handling ---------------------------------------------------------------------------
    def _fault_for(self, method: str, path: str) -> int | None:
        with self._lock:
            for fault in self._faults:
                if fault[0] == method and fault[1].search(path) and fault[2]:
                    return fault[2].pop(0)
        return None

    def _handle(self, handler: "BaseHTTPRequestHandler") -> None:
        parsed = urllib.parse.urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        path = urllib.parse.unquote(parsed.path)
        host = (handler.headers.get("Host") or "").split(":")[0]
        if host.endswith(BLOB_SUFFIX):  # a datastore account's URL, tunnelled by proxy.py: same blob store
            path = f"/blob/{host.split('.')[0]}{path}"
        elif host.endswith(VAULT_SUFFIX):  # the workspace's key vault, tunnelled the same way
            path = f"/keyvault/{host.split('.')[0]}{path}"
        query = {k: v[-1] for k, v in urllib.parse.parse_qs(parsed.query, keep_blank_values=True).items()}
        record = Recorded(handler.command, path, query, {k.lower(): v for k, v in handler.headers.items()}, body)
        with self._lock:
            self.requests.append(record)
        fault = self._fault_for(handler.command, path)
        if fault == "lose":  # lose_answer_next: done, but the answer never reaches the client
            self.state.dispatch(handler.command, path, query, record.headers, body)
            status, headers, payload = 503, {"Retry-After": "0.01"}, {"error": {"code": "ServiceUnavailable",
                                                                                "message": "connection reset"}}
        elif isinstance(fault, tuple):  # answer_next: a whole answer
            status, headers, payload = fault[0], dict(fault[1]), fault[2]
        elif fault is not None:
            status, headers, payload = fault, {"Retry-After": "0.01"}, {"error": {"code": "Transient",
                                                                                  "message": "try again"}}
        else:
            try:
                status, headers, payload = self.state.dispatch(handler.command, path, query, record.headers, body)
            except Exception as err:  # a bug in the fake must show up in the test, not hang the client
                status, headers, payload = 500, {}, {"error": {"code": "FakeBug", "message": repr(err)}}
        record.status = status
        _respond(handler, status, headers, payload)


def _respond(handler, status: int, headers: dict, payload) -> None:
    if isinstance(payload, (bytes, bytearray)):
        data = bytes(payload)
        content_type = headers.pop("Content-Type", "application/octet-stream")
    elif payload is None:
        data, content_type = b"", headers.pop("Content-Type", "application/json")
    elif isinstance(payload, str):
        data, content_type = payload.encode(), headers.pop("Content-Type", "text/plain; charset=utf-8")
    else:
        data, content_type = json.dumps(payload).encode(), "application/json"
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    given = headers.pop("Content-Length", None)  # a blob's size: what HEAD reports; GET sends the body's length
    handler.send_header("Content-Length", (given or "0") if handler.command == "HEAD" else str(len(data)))
    handler.send_header("x-ms-request-id", "fake")
    for key, value in headers.items():
        handler.send_header(key, value)
    handler.end_headers()
    if handler.command != "HEAD" and data:
        handler.wfile.write(data)


def _handler_for(fake: FakeAzureML):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _any(self):
            fake._handle(self)

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = do_PATCH = _any

        def log_message(self, format, *args):  # keep pytest output clean
            return None

    return Handler
