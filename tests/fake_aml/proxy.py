"""An HTTP CONNECT proxy that tunnels ``<account>.blob.core.windows.net`` and ``<vault>.vault.azure.net`` to the
fake (and refuses everything else).

azure-ai-ml uploads a job's local folder inputs to the default datastore's own storage account URL, which no
setting points elsewhere; with HTTPS_PROXY set to this proxy, those uploads reach the fake's blob store. The
fake's certificate also names ``*.blob.core.windows.net``, so TLS is verified end to end as usual. The workspace's
key vault is reached the same way (keyvault.py).
"""

from __future__ import annotations

import select
import socket
import socketserver
import threading

BLOB_SUFFIX = ".blob.core.windows.net"
VAULT_SUFFIX = ".vault.azure.net"


class _Tunnel(socketserver.BaseRequestHandler):
    def handle(self):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.request.recv(4096)
            if not chunk:
                return
            head += chunk
        method, target = head.split(b" ", 2)[:2]
        host = target.decode().rsplit(":", 1)[0]
        if method != b"CONNECT" or not host.endswith((BLOB_SUFFIX, VAULT_SUFFIX)):
            self.request.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")  # no internet in tests
            return
        upstream = socket.create_connection(("127.0.0.1", self.server.fake_port))
        self.request.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        _pipe(self.request, upstream)


def _pipe(left: socket.socket, right: socket.socket) -> None:
    with right:
        sockets = [left, right]
        while True:
            ready, _, _ = select.select(sockets, [], [], 30)
            if not ready:
                return
            for sock in ready:
                data = sock.recv(65536)
                if not data:
                    return
                (right if sock is left else left).sendall(data)


class BlobProxy:
    """``BlobProxy(fake_port).start()``; ``url`` is what HTTPS_PROXY should hold."""

    def __init__(self, fake_port: int):
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Tunnel)
        self._server.daemon_threads = True
        self._server.fake_port = fake_port
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-blob-proxy", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "BlobProxy":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
