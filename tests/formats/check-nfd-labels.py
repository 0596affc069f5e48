#!/usr/bin/env python3
"""Checks Node Feature Discovery feature files (nfd-worker's local source)
against NFD's rules, written here independently of gpucheck's C++:

- the file is at most 64 kB (larger files are ignored by nfd-worker:
  docs/usage/customization-guide.md, "Input format");
- every line is a comment ('#'), empty, or <name>[=<value>];
- the name has a namespace prefix (nfd-master refuses unprefixed names,
  pkg/utils/validate: ErrUnprefixedKeysNotAllowed) that is a DNS-1123
  subdomain of at most 253 characters, and not kubernetes.io or under it
  but for feature.node.kubernetes.io, profile.node.kubernetes.io and their
  subdomains (validate.Label);
- the name after the prefix is a Kubernetes qualified name: at most 63
  characters, [A-Za-z0-9] at both ends, [-A-Za-z0-9_.] between
  (k8s.io/apimachinery IsQualifiedName);
- the value is a Kubernetes label value: at most 63 characters, empty or
  of the same form (IsValidLabelValue);
- no name is given twice.

Usage: check-nfd-labels.py FILE...   (exit 1 on the first broken rule)
       check-nfd-labels.py --self-test
"""
import re
import sys

NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
MAX_FILE = 64 * 1024


def namespace_problem(ns):
    if not ns:
        return "no namespace prefix"
    if len(ns) > 253 or not all(DNS_LABEL.match(p) and len(p) <= 63 for p in ns.split(".")):
        return f"prefix {ns!r} is not a DNS-1123 subdomain"
    if ns == "kubernetes.io" or ns.endswith(".kubernetes.io"):
        allowed = ("feature.node.kubernetes.io", "profile.node.kubernetes.io")
        if ns not in allowed and not any(ns.endswith("." + a) for a in allowed):
            return f"namespace {ns!r} is denied by nfd-master"
    return None


def line_problem(line):
    if not line.strip() or line.startswith("#"):
        return None
    name, _, value = line.partition("=")
    ns, slash, base = name.rpartition("/")
    if not slash:
        return f"{name!r}: no namespace prefix"
    p = namespace_problem(ns)
    if p:
        return f"{name!r}: {p}"
    if len(base) > 63 or not NAME.match(base):
        return f"{name!r}: name part {base!r} is not a qualified name of at most 63 characters"
    if len(value) > 63 or (value and not NAME.match(value)):
        return f"{name!r}: value {value!r} is not a label value of at most 63 characters"
    return None


def file_problems(data):
    if len(data) > MAX_FILE:
        return [f"{len(data)} bytes: over NFD's 64 kB limit"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return [f"not UTF-8: {e}"]
    problems, seen = [], set()
    for n, line in enumerate(text.split("\n"), 1):
        p = line_problem(line)
        if p:
            problems.append(f"line {n}: {p}")
        elif line and not line.startswith("#"):
            name = line.partition("=")[0]
            if name in seen:
                problems.append(f"line {n}: {name!r} given twice")
            seen.add(name)
    return problems


def self_test():
    good = [
        "feature.node.kubernetes.io/gpucheck.check.status=pass",
        "feature.node.kubernetes.io/gpucheck.driver.version=550.54.14",
        "vendor.example.com/x=" + "a" * 63,
        "feature.node.kubernetes.io/" + "n" * 63 + "=true",
        "sub.feature.node.kubernetes.io/x=",
        "# a comment, = anything <>",
    ]
    bad = [
        "status=pass",                                          # unprefixed
        "kubernetes.io/x=1",                                    # denied namespace
        "node.kubernetes.io/x=1",                               # denied namespace
        "Feature.node.kubernetes.io/x=1",                       # upper-case prefix
        "feature.node.kubernetes.io/" + "n" * 64 + "=true",     # name too long
        "feature.node.kubernetes.io/x=" + "v" * 64,             # value too long
        "feature.node.kubernetes.io/x=550.54.14 beta",          # space in value
        "feature.node.kubernetes.io/-x=1",                      # name must start alphanumeric
        "feature.node.kubernetes.io/x=1.",                      # value must end alphanumeric
        "feature.node.kubernetes.io/x=a,b",                     # comma
    ]
    failures = [g for g in good if line_problem(g)] + [b for b in bad if not line_problem(b)]
    if not file_problems(b"vendor.example.com/a=1\nvendor.example.com/a=2\n"):
        failures.append("a name given twice")
    if not file_problems(b"#" * (MAX_FILE + 1)):
        failures.append("a file over 64 kB")
    for f in failures:
        print(f"self-test: judged wrongly: {f!r}", file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    status = 0
    for path in argv:
        with open(path, "rb") as f:
            for p in file_problems(f.read()):
                print(f"{path}: {p}", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
