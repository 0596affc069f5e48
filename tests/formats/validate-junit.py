#!/usr/bin/env python3
"""Validates JUnit XML files against junit-10.xsd (beside this script) with
the `xmlschema` package, then checks what the schema cannot: each suite's
tests, failures and skipped counts are those of its test cases.
Usage: validate-junit.py FILE...  (exit 1 when one is not valid, naming it
and why)."""
import os
import sys
import xml.etree.ElementTree as ET

import xmlschema

schema = xmlschema.XMLSchema(os.path.join(os.path.dirname(os.path.abspath(__file__)), "junit-10.xsd"))
status = 0
for path in sys.argv[1:]:
    try:
        schema.validate(path)
    except (xmlschema.XMLSchemaException, SyntaxError) as e:  # ParseError is a SyntaxError
        print(f"{path}: not valid JUnit XML: {e}", file=sys.stderr)
        status = 1
        continue
    for suite in ET.parse(path).getroot().iter("testsuite"):
        cases = suite.findall("testcase")
        counted = {"tests": len(cases),
                   "failures": sum(1 for c in cases if c.find("failure") is not None),
                   "skipped": sum(1 for c in cases if c.find("skipped") is not None)}
        for key, n in counted.items():
            if suite.get(key) is not None and suite.get(key) != str(n):
                print(f"{path}: testsuite {suite.get('name')!r}: {key}={suite.get(key)} but {n} test cases say so", file=sys.stderr)
                status = 1
sys.exit(status)
