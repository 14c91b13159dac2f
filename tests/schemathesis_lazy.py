"""Schemathesis's tests of an operation, built when the test runs instead of when it is
collected (tests/http/test_app_contract.py).

`@schema.parametrize()` builds every operation's cases, its coverage phase's ~50,000 included,
while pytest collects the module: about 35 s of one core, paid again by every pytest-xdist
worker, before any test runs. Here the module's tests are parametrized by the operations'
labels alone (a cheap read of the document), and each test builds its own operation's
hypothesis test with schemathesis's own builder, the plugin's, with the same configuration
and generation feedback, so the same cases run, once, on the worker that runs the test."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from schemathesis.checks import load_all_checks
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source


class LazySchema:
    """A schema's operations by label (`POST /v1/resolve`, as the plugin names its tests) and
    the generation feedback the plugin reads once per schema (its constants, read-only while
    cases are drawn), for `run`."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.operations = {r.ok().label: r.ok() for r in schema.get_all_operations()}
        pool = make_constants_value_source(schema)
        self.feedback = FeedbackSources(constants_value_source=pool)

    def labels(self) -> list[str]:
        return sorted(self.operations)

    def run(self, label: str, test: Callable[[Any], None]) -> int:
        """Every case schemathesis makes for the operation `label` (its configured phases),
        each passed to `test`, as `@schema.parametrize()` would run them; the number run."""
        load_all_checks()
        seen = [0]

        def each(case: Any) -> None:
            seen[0] += 1
            test(case)

        build_operation_test(
            config=self.schema.config,
            operation=self.operations[label],
            test_func=each,
            given_kwargs={},
            feedback=self.feedback,
        )()
        return seen[0]
