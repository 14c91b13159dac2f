"""The project's own schemathesis check, for the pytest runs (tests/http/test_app_contract.py imports
this module) and the CLI runs against a live service (docs/http.md: SCHEMATHESIS_HOOKS=
schemathesis_checks with tests/ on PYTHONPATH).

`documented_503_only`: the only server error the service may answer is a 503 that the
operation documents (the anti-rollback store, a busy or absent job queue...) and that tells the
client when to come back (`Retry-After`). Any other 5xx is a crash, and a 503 without
`Retry-After` leaves the client guessing (a condition no retry can help, such as a service
without a job store, is a 4xx)."""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def documented_503_only(ctx: Any, response: Any, case: Any) -> None:
    status = response.status_code
    if status < 500:
        return
    label = case.operation.label
    if status != 503:
        raise AssertionError(f"{label}: {status}; the only server error allowed is a 503")
    documented = {str(code).upper() for code in case.operation.definition.raw.get("responses", {})}
    if not documented & {"503", "5XX"}:
        raise AssertionError(f"{label}: 503, which the operation does not document")
    retry_after = any(response.headers.get("retry-after", []))  # lower-case keys, lists
    if not retry_after:
        raise AssertionError(f"{label}: 503 without Retry-After")
