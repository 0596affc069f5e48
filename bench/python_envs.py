#!/usr/bin/env python3
"""Bench: the Python probe on an environment of 2,000 installed distributions,
and (--scaling) how `check --json` grows with distributions and environments.

Builds a snapshot in a temporary directory: a venv with N (default 2000)
*.dist-info directories whose METADATA carry a realistic header block and 0-6
Requires-Dist lines each (pins, ranges, markers, extras, all resolvable inside
the environment), plus torch with its version.py. The interpreter's sys.path
answer is recorded in the manifest, as a real run would. Then it times
`gpucheck --root SNAP probe --json` against the same snapshot without the
distributions, so the difference is the Python probe's share.

usage: bench/python_envs.py path/to/gpucheck [--tests path/to/gpucheck_tests] [--count 2000] [--runs 30]
       bench/python_envs.py path/to/gpucheck --scaling [--runs 11]

With --tests (a build of tests/gpucheck_tests, ideally the optimised `ci`
preset), the Python probe is also timed alone, in-process (hidden test case
"[bench-python]"), on the snapshot and on the live host reading the same
files directly, in wall time and in CPU time.

With --scaling, whole `check --json` runs (process start, matrix, probes,
rules, the JSON) on snapshots of one environment of 0 to 4,000
distributions, then of 1 to 16 environments of 250 each, every one found on
the recorded PATH: the cost per distribution and per environment, which
should stay flat (linear growth).
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

def sys_path_question():
    """The interpreter question as gpucheck asks it (its text is the snapshot key)."""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "probes", "python_sys_path.cpp")).read()
    start = src.index('kSysPathQuestion = R"(') + len('kSysPathQuestion = R"(')
    return src[start:src.index(')";\n', start)]


def build_env(root, prefix, count, seed=42):
    """One venv of `count` distributions at `prefix`; returns the manifest's
    entry for its interpreter's sys.path answer."""
    site = root + prefix + "/lib/python3.11/site-packages"
    os.makedirs(site)
    os.makedirs(root + prefix + "/bin")
    open(root + prefix + "/bin/python3", "w").close()
    with open(root + prefix + "/pyvenv.cfg", "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n")
    rng = random.Random(seed)
    names = ["pkg_%04d" % i for i in range(count - 1)] + ["torch"] if count else []
    versions = {n: "%d.%d.%d" % (rng.randint(0, 9), rng.randint(0, 30), rng.randint(0, 20)) for n in names}
    versions["torch"] = "2.1.0+cu121"
    body = "A long description.\n" * 50
    for n in names:
        v = versions[n]
        reqs = []
        for _ in range(rng.randint(0, 6)):
            dep = rng.choice(names)
            dv = versions[dep].split("+")[0]
            kind = rng.randint(0, 4)
            spec = ["", " (==%s)" % dv, " (>=%s)" % dv, " (<99,>=0.1)", " (~=%s)" % ".".join(dv.split(".")[:2])][kind]
            marker = rng.choice(["", " ; platform_system == \"Linux\"", " ; python_version >= \"3.8\"", " ; extra == \"dev\""])
            reqs.append("Requires-Dist: %s%s%s" % (dep.replace("_", "-"), spec, marker))
        d = "%s/%s-%s.dist-info" % (site, n, v)
        os.makedirs(d)
        with open(d + "/METADATA", "w") as f:
            f.write("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: bench package\nLicense: MIT\n" % (n, v))
            f.write("Classifier: Programming Language :: Python :: 3\n" * 8)
            f.write("".join(r + "\n" for r in reqs))
            f.write("\n" + body)
    if count:
        os.makedirs(site + "/torch")
        with open(site + "/torch/version.py", "w") as f:
            f.write("__version__ = '2.1.0+cu121'\ndebug = False\ncuda = '12.1'\ngit_version = 'x'\nhip = None\n")
    # NUL-separated: version, prefix, base prefix, executable, then sys.path.
    fields = ["3.11.7", prefix, "/usr", prefix + "/bin/python3",
              "/usr/lib/python311.zip", "/usr/lib/python3.11", prefix + "/lib/python3.11/site-packages"]
    # For the live-host run: an interpreter stand-in that gives the same answer
    # about the directory as it lies on this machine (a real python3 spends
    # 15-25 ms starting up; that is the interpreter's cost, not the probe's).
    live = "\\000".join(f.replace(prefix, root + prefix) for f in fields)
    with open(root + prefix + "/bin/python3", "w") as f:
        f.write("#!/bin/sh\nprintf '%s'\n" % live)
    os.chmod(root + prefix + "/bin/python3", 0o755)
    return {prefix + "/bin/python3 -S -c " + sys_path_question(): {"exit_code": 0, "stdout": "\0".join(fields)}}


def build(root, count):
    manifest(root, build_env(root, "/home/bench/venv", count))


def manifest(root, commands, prefixes=("/home/bench/venv",)):
    os.makedirs(root + "/.gpucheck", exist_ok=True)
    with open(root + "/.gpucheck/manifest.json", "w") as f:
        json.dump({"format": "gpucheck-snapshot/1", "uname": {"sysname": "Linux", "machine": "x86_64"},
                   "env": {"VIRTUAL_ENV": prefixes[0], "PATH": ":".join(p + "/bin" for p in prefixes)},
                   "commands": commands}, f)


def median_check(binary, root, runs):
    """Median ms of `check --json` on the snapshot, after checking what it found."""
    out = json.loads(subprocess.run([binary, "--root", root, "check", "--json"], capture_output=True).stdout)
    envs = out["facts"]["software"]["python"]
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([binary, "--root", root, "check", "--json"], stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), len(envs), sum(len(e["distributions"]) for e in envs)


def scaling(binary, runs, tmp):
    def table(title, unit, cases):
        print("| %s | environments found | distributions found | `check --json` median ms | ms per %s beyond the first row |" % (title, unit))
        print("|---:|---:|---:|---:|---:|")
        first = None
        for n, root in cases:
            ms, envs, dists = median_check(binary, root, runs)
            per = "" if first is None or n == first[0] else "%.3f" % ((ms - first[1]) / (n - first[0]))
            first = first or (n, ms)
            print("| %d | %d | %d | %.1f | %s |" % (n, envs, dists, ms, per))
        print()

    dist_cases = []
    for count in (0, 250, 500, 1000, 2000, 4000):
        root = "%s/dists-%d" % (tmp, count)
        manifest(root, build_env(root, "/home/bench/venv", count))
        dist_cases.append((count, root))
    table("distributions in one environment", "distribution", dist_cases)
    env_cases = []
    for n in (1, 2, 4, 8, 16):
        root = "%s/envs-%d" % (tmp, n)
        prefixes = ["/home/bench/venv%d" % i for i in range(n)]
        commands = {}
        for i, p in enumerate(prefixes):
            commands.update(build_env(root, p, 250, seed=i))
        manifest(root, commands, prefixes)
        env_cases.append((n, root))
    table("environments of 250 distributions", "environment", env_cases)


def time_runs(binary, root, runs, json_out=True):
    """`probe --json` (the facts written out, 2 MB for 2,000 distributions),
    or `probe` (the same probing, a few lines of text)."""
    argv = [binary, "--root", root, "probe"] + (["--json"] if json_out else [])
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpucheck")
    ap.add_argument("--tests")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--scaling", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="gpucheck-bench-")
    try:
        if a.scaling:
            scaling(a.gpucheck, a.runs, tmp)
            return
        full, empty = tmp + "/full", tmp + "/empty"
        build(full, a.count)
        os.makedirs(empty)
        manifest(empty, {})
        out = json.loads(subprocess.run([a.gpucheck, "--root", full, "probe", "--json"], check=True, capture_output=True).stdout)
        env = out["software"]["python"][0]
        reqs = sum(len(d["requires_dist"]) for d in env["distributions"])
        judged = sum(1 for d in env["distributions"] for r in d["requires_dist"] if r["satisfied"] is not None)
        assert len(env["distributions"]) == a.count, len(env["distributions"])
        assert env["sys_path_source"] == "interpreter", "the recorded sys.path answer was not used: %s" % env["sys_path_source"]
        time_runs(a.gpucheck, full, 3)  # warm the page cache
        rows = []
        for json_out in (False, True):
            cmd = "probe --json" if json_out else "probe"
            f = time_runs(a.gpucheck, full, a.runs, json_out)
            e = time_runs(a.gpucheck, empty, a.runs, json_out)
            rows.append(("`%s`, %d distributions" % (cmd, a.count), f))
            rows.append(("`%s`, no Python environment" % cmd, e))
            rows.append(("`%s`, the Python probe's share (median difference)" % cmd, None, statistics.median(f) - statistics.median(e)))
        print("distributions %d, requirements %d (judged %d), runs %d" % (a.count, reqs, judged, a.runs))
        print("| snapshot | median ms | min ms | max ms |")
        print("|---|---|---|---|")
        for row in rows:
            if row[1] is None:
                print("| %s | %.1f | | |" % (row[0], row[2]))
            else:
                xs = row[1]
                print("| %s | %.1f | %.1f | %.1f |" % (row[0], statistics.median(xs), min(xs), max(xs)))
        if a.tests:
            for extra in ({}, {"GPUCHECK_BENCH_PYTHON": full + "/home/bench/venv/bin/python3"}):
                env = dict(os.environ, GPUCHECK_BENCH_ROOT=full, GPUCHECK_BENCH_RUNS=str(a.runs), **extra)
                out = subprocess.run([a.tests, "[bench-python]"], env=env, check=True, capture_output=True, text=True).stdout
                print("".join(l + "\n" for l in out.splitlines() if l.startswith("BENCH")), end="")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
