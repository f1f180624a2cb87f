"""Just enough of Azure Blob Storage (path-style, as for the storage emulator) for code-snapshot uploads."""

from __future__ import annotations

import base64
import hashlib
import re
from xml.sax.saxutils import escape

_RFC1123 = "Mon, 01 Jan 2026 00:00:00 GMT"


class BlobStore:
    """Blobs keyed by 'account/container/path', with metadata; block uploads are committed on blocklist."""

    def __init__(self):
        self.blobs: dict[str, bytes] = {}
        self.metadata: dict[str, dict] = {}
        self._blocks: dict[str, bytes] = {}

    def handle(self, method, path, query, headers, body):
        comp, restype = query.get("comp"), query.get("restype")
        if restype == "container":
            if method == "GET" and comp == "list":
                return self._list(path.strip("/"), query.get("prefix", ""))
            return 201 if method == "PUT" else 200, {}, None
        if method == "PUT" and comp == "block":
            self._blocks[path + "#" + query["blockid"]] = body
            return 201, {}, None
        if method == "PUT" and comp == "blocklist":
            ids = re.findall(rb"<(?:Latest|Uncommitted|Committed)>([^<]+)<", body)
            self.blobs[path] = b"".join(self._blocks.pop(path + "#" + i.decode(), b"") for i in ids)
            self.metadata[path] = _meta(headers)
            return 201, self._etag(path), None
        if method == "PUT" and comp == "metadata":
            if path not in self.blobs:
                return _missing()
            self.metadata[path] = _meta(headers)
            return 200, self._etag(path), None
        if method == "PUT":
            self.blobs[path] = body
            self.metadata[path] = _meta(headers)
            return 201, self._etag(path), None
        if method in ("GET", "HEAD"):
            if path not in self.blobs:
                return _missing()
            data = self.blobs[path]
            extra = {f"x-ms-meta-{k}": v for k, v in self.metadata.get(path, {}).items()}
            extra.update(self._etag(path), **{"x-ms-blob-type": "BlockBlob", "Content-Length": str(len(data)),
                                              "Content-Type": "application/octet-stream"})
            return 200, extra, data if method == "GET" else None
        if method == "DELETE":
            self.blobs.pop(path, None)
            return 202, {}, None
        return 400, {}, {"error": {"code": "UnsupportedByFake", "message": f"{method} {path} {query}"}}

    def _etag(self, path):
        digest = hashlib.md5(self.blobs.get(path, b"")).digest()
        return {"ETag": '"0x' + digest.hex()[:16].upper() + '"', "Last-Modified": _RFC1123,
                "Content-MD5": base64.b64encode(digest).decode(), "x-ms-request-server-encrypted": "true"}

    def _list(self, container_path, prefix):
        root = container_path + "/"
        names = sorted(p[len(root):] for p in self.blobs if p.startswith(root + prefix))
        def meta(name):
            return "".join(f"<{k}>{escape(v)}</{k}>" for k, v in self.metadata.get(root + name, {}).items())

        items = "".join(
            f"<Blob><Name>{escape(n)}</Name><Properties><Last-Modified>{_RFC1123}</Last-Modified>"
            f"<Content-Length>{len(self.blobs[root + n])}</Content-Length><BlobType>BlockBlob</BlobType>"
            f"<Content-MD5>{base64.b64encode(hashlib.md5(self.blobs[root + n]).digest()).decode()}</Content-MD5>"
            f"</Properties><Metadata>{meta(n)}</Metadata></Blob>" for n in names)
        xml = (f'<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="x" ContainerName="c">'
               f"<Prefix>{escape(prefix)}</Prefix><Blobs>{items}</Blobs><NextMarker /></EnumerationResults>")
        return 200, {"Content-Type": "application/xml"}, xml.encode()


def _meta(headers: dict) -> dict:
    return {k[len("x-ms-meta-"):]: v for k, v in headers.items() if k.startswith("x-ms-meta-")}


def _missing():
    return 404, {"x-ms-error-code": "BlobNotFound"}, None
