"""JUnit XML for `test` and `eval` (`--format junit`): one <testsuite> per suite, one
<testcase> per case; a failed case has a <failure>, an eval case that is inconclusive
(no verdict: too few answered runs, or bounds that hold the bar) an <error>. CI
services (GitLab, Jenkins, GitHub's test reporters) read this format."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from .output import printable_lines

# characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/FFFF)
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    """Text as XML can hold it, and as a terminal or a CI page can show it: control,
    bidi and invisible characters escaped (output.printable_lines; a report is read
    in CI logs), then what XML 1.0 cannot hold."""
    return _INVALID.sub(lambda m: f"\\x{ord(m.group(0)):02x}", printable_lines(text))


@dataclass(slots=True)
class JunitCase:
    name: str
    classname: str
    failure: str | None = None  # the failure's message
    error: str | None = None  # why the case could not be run
    skipped: str | None = None  # why the case is not judged here (an eval-only case in test)
    output: str = ""  # <system-out>: what the case saw


@dataclass(slots=True)
class JunitSuite:
    name: str
    cases: list[JunitCase] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)


def junit_xml(suites: list[JunitSuite], name: str = "skillstudio") -> str:
    root = ET.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in suites:
        failures = sum(c.failure is not None and c.error is None for c in suite.cases)
        errors = sum(c.error is not None for c in suite.cases)
        skipped = sum(
            c.skipped is not None and c.error is None and c.failure is None for c in suite.cases
        )
        node = ET.SubElement(
            root,
            "testsuite",
            name=_clean(suite.name),
            tests=str(len(suite.cases)),
            failures=str(failures),
            errors=str(errors),
            skipped=str(skipped),
        )
        if suite.properties:
            props = ET.SubElement(node, "properties")
            for prop, text in suite.properties.items():
                ET.SubElement(props, "property", name=_clean(prop), value=_clean(text))
        for case in suite.cases:
            item = ET.SubElement(
                node, "testcase", name=_clean(case.name), classname=_clean(case.classname)
            )
            if case.error is not None:
                ET.SubElement(item, "error", message=_clean(case.error)).text = _clean(case.error)
            elif case.failure is not None:
                failure = ET.SubElement(item, "failure", message=_clean(case.failure))
                failure.text = _clean(case.failure)
            elif case.skipped is not None:
                ET.SubElement(item, "skipped", message=_clean(case.skipped))
            if case.output:
                ET.SubElement(item, "system-out").text = _clean(case.output)
        totals["tests"] += len(suite.cases)
        totals["failures"] += failures
        totals["errors"] += errors
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
