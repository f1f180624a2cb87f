"""Just enough of Azure Blob Storage (path-style, as for the storage emulator) for code and datastore uploads.

Shapes follow the Blob service REST reference (learn.microsoft.com/rest/api/storageservices): Put Blob stores the
Content-MD5 it computes (or the client's x-ms-blob-content-md5); Put Block List stores only the client's
x-ms-blob-content-md5, so a blob uploaded in blocks (azure-storage-blob does above 64 MiB) has no Content-MD5 unless
the client sent one. List Blobs and Get Blob Properties report Content-MD5 only when the blob has one.
"""

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
        self.md5: dict[str, str] = {}  # base64 Content-MD5 of blobs that have one
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
            self._set_md5(path, headers.get("x-ms-blob-content-md5"))
            return 201, self._etag(path), None
        if method == "PUT" and comp == "metadata":
            if path not in self.blobs:
                return _missing()
            self.metadata[path] = _meta(headers)
            return 200, self._etag(path), None
        if method == "PUT":
            self.blobs[path] = body
            self.metadata[path] = _meta(headers)
            self._set_md5(path, headers.get("x-ms-blob-content-md5") or _b64md5(body))
            return 201, self._etag(path), None
        if method in ("GET", "HEAD"):
            if path not in self.blobs:
                return _missing()
            data = self.blobs[path]
            extra = {f"x-ms-meta-{k}": v for k, v in self.metadata.get(path, {}).items()}
            extra.update(self._etag(path), **{"x-ms-blob-type": "BlockBlob", "Content-Length": str(len(data)),
                                              "Content-Type": "application/octet-stream"})
            # Ranged Get Blob (x-ms-range or Range: bytes=a-b) answers 206 with Content-Range "bytes a-b/total"
            # (learn.microsoft.com: "Specify the range header for Blob service operations"); the SDK reads the
            # size from it.
            wanted = re.match(r"bytes=(\d+)-(\d*)", headers.get("x-ms-range") or headers.get("range") or "")
            if method == "GET" and wanted and not data:  # an empty blob has no range: 416, as the service
                return 416, {"x-ms-error-code": "InvalidRange", "Content-Range": "bytes */0"}, None
            if method == "GET" and wanted:
                start = int(wanted[1])
                end = min(int(wanted[2]) if wanted[2] else len(data) - 1, len(data) - 1)
                extra["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
                return 206, extra, data[start:end + 1]
            return 200, extra, data if method == "GET" else None
        if method == "DELETE":
            self.blobs.pop(path, None)
            self.md5.pop(path, None)
            return 202, {}, None
        return 400, {}, {"error": {"code": "UnsupportedByFake", "message": f"{method} {path} {query}"}}

    def _set_md5(self, path, value):
        if value:
            self.md5[path] = value
        else:
            self.md5.pop(path, None)

    def _etag(self, path):
        digest = hashlib.md5(self.blobs.get(path, b"")).digest()
        headers = {"ETag": '"0x' + digest.hex()[:16].upper() + '"', "Last-Modified": _RFC1123,
                   "x-ms-request-server-encrypted": "true"}
        if path in self.md5:
            headers["Content-MD5"] = self.md5[path]
        return headers

    def _list(self, container_path, prefix):
        root = container_path + "/"
        names = sorted(p[len(root):] for p in self.blobs if p.startswith(root + prefix))
        def meta(name):
            return "".join(f"<{k}>{escape(v)}</{k}>" for k, v in self.metadata.get(root + name, {}).items())

        items = "".join(
            f"<Blob><Name>{escape(n)}</Name><Properties><Last-Modified>{_RFC1123}</Last-Modified>"
            f"<Content-Length>{len(self.blobs[root + n])}</Content-Length><BlobType>BlockBlob</BlobType>"
            + (f"<Content-MD5>{self.md5[root + n]}</Content-MD5>" if root + n in self.md5 else "<Content-MD5 />") +
            f"</Properties><Metadata>{meta(n)}</Metadata></Blob>" for n in names)
        xml = (f'<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="x" ContainerName="c">'
               f"<Prefix>{escape(prefix)}</Prefix><Blobs>{items}</Blobs><NextMarker /></EnumerationResults>")
        return 200, {"Content-Type": "application/xml"}, xml.encode()


def _b64md5(data: bytes) -> str:
    return base64.b64encode(hashlib.md5(data).digest()).decode()


def _meta(headers: dict) -> dict:
    return {k[len("x-ms-meta-"):]: v for k, v in headers.items() if k.startswith("x-ms-meta-")}


def _missing():
    return 404, {"x-ms-error-code": "BlobNotFound"}, None
