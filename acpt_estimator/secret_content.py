"""Credentials recognised by their content in any file of a snapshot (notebook outputs included), with the line."""

from __future__ import annotations

import os
import re
import stat

_TEXT_SCAN_BYTES = 16 * 1024 * 1024  # a text file is read whole up to this (a notebook's outputs can be large)
_BINARY_SCAN_BYTES = 64 * 1024  # a binary file's head: keys and credential files are small
_B64 = rb"[A-Za-z0-9+/]"
# (pattern, what): formats a person cannot write by accident; each names what to rotate.
PATTERNS = (
    (re.compile(rb"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----"), "private key (PEM)"),
    (re.compile(rb"(?im)^\s*aws_secret_access_key\s*="), "AWS credentials file"),
    (re.compile(rb"(?m)^\s*machine\s+\S+\s+(login\s+\S+\s+)?password\s+\S+"), "netrc login file"),
    (re.compile(rb"AccountKey=" + _B64 + rb"{40,}={0,2}"), "Azure storage connection string with an account key"),
    (re.compile(rb"SharedAccessKey=" + _B64 + rb"{30,}={0,2}"), "Azure connection string with a shared access key"),
    (re.compile(rb"(?i)(?:account|storage|access)_?key\W{0,4}[:=]\W{0,3}" + _B64 + rb"{86}=="),
     "Azure storage account key"),
    (re.compile(rb"(?i)[?&;\"' ]sig=[A-Za-z0-9%+/]{30,}"), "Azure shared access signature (SAS) with its sig="),
    (re.compile(rb"(?<![\w~.-])[\w~.-]{2,3}\dQ~[\w~.-]{31,34}(?![\w~.-])"), "Azure AD (Entra ID) client secret"),
    (re.compile(rb"(?i)bearer\s+[A-Za-z0-9_.~+/-]{30,}=*"), "bearer token"),
    (re.compile(rb"eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]{10,}"), "access token (JWT)"),
)


def find_in_file(path: str) -> str | None:
    """'what (line N)' for the first credential found in ``path``, else None. Reads regular files only, never
    blocking (a FIFO swapped in after the listing is not waited on)."""
    head = read_regular(path, _TEXT_SCAN_BYTES)
    if b"\0" in head[:8192]:
        head = head[:_BINARY_SCAN_BYTES]
    found = [(m.start(), order, what) for order, (pattern, what) in enumerate(PATTERNS)
             for m in [pattern.search(head)] if m]
    if not found:
        return None
    start, _, what = min(found)
    line = head.count(b"\n", 0, start) + 1
    return f"{what} (line {line})"


def read_regular(path: str, size: int) -> bytes:
    """Up to ``size`` bytes of ``path`` if it is a regular file; b'' otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return b""
        # No more than the file holds (+1: one that grew meanwhile is read on): read(n) sets n bytes aside first.
        return handle.read(min(size, info.st_size + 1))
