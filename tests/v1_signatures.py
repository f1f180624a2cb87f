"""Where the exact v1 signatures live: a copy of shared/spec/v1-signatures.json (dumped from the v1 wheels),
kept in the repo so parity tests run in any clone."""

import os

PATH = os.path.join(os.path.dirname(__file__), "data", "v1-signatures.json")
