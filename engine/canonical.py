"""Canonical JSON: one byte string per value, so hashes and 'byte-identical' are meaningful."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return "sha256:" + hashlib.sha256(dumps(value).encode("utf-8")).hexdigest()
