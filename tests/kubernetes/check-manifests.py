#!/usr/bin/env python3
"""Checks the Kubernetes manifests in packaging/kubernetes/ (run by
validate.sh, inside its virtual environment with kubernetes-validate).

  check-manifests.py validate VERSION FILE...
      Every document of every FILE against the Kubernetes VERSION schemas
      of kubernetes-validate, strictly (unknown fields are errors). A kind
      or apiVersion without a schema in VERSION (one removed, or never
      there) is an error too: the command-line tool only warns about it.

  check-manifests.py layout DAEMONSET NFD_FILE JOB... --out DIR
      The DaemonSet writes where its consumers read: the NFD feature file
      into a hostPath mount of NFD's local-source directory, the .prom file
      into a hostPath mount, the matrix cache into one; the node labels the
      JOBs' affinities use are labels gpucheck writes (NFD_FILE, a real
      `gpucheck check --format nfd` output). Writes DIR/loop.sh (the
      container's script) and DIR/env.sh (its environment) so the shell
      test can run them.
"""
import shlex
import sys

import kubernetes_validate
import yaml

# NFD's local feature source reads this directory on the node
# (https://kubernetes-sigs.github.io/node-feature-discovery/v0.14/usage/customization-guide,
# "Feature files"; docs/kubernetes.md).
NFD_DIR = "/etc/kubernetes/node-feature-discovery/features.d"


def fail(msg):
    print(f"check-manifests: {msg}", file=sys.stderr)
    sys.exit(1)


def docs(path):
    with open(path, encoding="utf-8") as f:
        found = [d for d in yaml.safe_load_all(f) if d is not None]
    if not found:
        fail(f"{path}: no Kubernetes resource in it")
    return found


def validate(version, files):
    n = 0
    for path in files:
        for d in docs(path):
            if not isinstance(d, dict) or "kind" not in d or "apiVersion" not in d:
                fail(f"{path}: a document without kind and apiVersion")
            name = f"{d['kind']}/{d.get('metadata', {}).get('name', '?')}"
            try:
                kubernetes_validate.validate(d, version, strict=True)
            except Exception as e:  # ValidationError, SchemaNotFoundError, ...
                msg = str(e).splitlines()[0] if str(e) else "no schema for this kind and apiVersion"
                fail(f"{path}: {name} is not valid Kubernetes {version}: {type(e).__name__}: {msg}")
            n += 1
    print(f"check-manifests: {n} resources in {len(files)} files valid for Kubernetes {version} (strict)")


def pod_specs(d):
    kind = d["kind"]
    if kind == "Pod":
        return [d["spec"]]
    if kind in ("DaemonSet", "Deployment", "StatefulSet", "Job", "ReplicaSet"):
        return [d["spec"]["template"]["spec"]]
    if kind == "CronJob":
        return [d["spec"]["jobTemplate"]["spec"]["template"]["spec"]]
    return []


def layout(daemonset, nfd_file, jobs, out):
    ds = [d for d in docs(daemonset) if d["kind"] == "DaemonSet"]
    if len(ds) != 1:
        fail(f"{daemonset}: expected one DaemonSet, found {len(ds)}")
    spec = pod_specs(ds[0])[0]
    host = {v["name"]: v["hostPath"]["path"] for v in spec.get("volumes", []) if "hostPath" in v}
    (c,) = spec["containers"]
    mounts = {m["mountPath"]: host.get(m["name"]) for m in c.get("volumeMounts", [])}
    if NFD_DIR not in host.values():
        fail(f"{daemonset}: no hostPath volume of NFD's local-source directory {NFD_DIR}")
    script = c["args"][0]
    if c.get("command") != ["/bin/sh", "-c"] or len(c["args"]) != 1:
        fail(f"{daemonset}: the container should run one /bin/sh -c script")
    env = {e["name"]: e["value"] for e in c.get("env", []) if "value" in e}

    def var(name):
        for line in script.splitlines():
            line = line.strip()
            if line.startswith(name + "="):
                return line.split("=", 1)[1]
        fail(f"{daemonset}: the script sets no {name}=")

    def host_dir_of(path, what):
        d, _, base = path.rpartition("/")
        if base.startswith(".") or not base:
            fail(f"{daemonset}: {what} {path}: a dot file is skipped by its reader")
        if d not in mounts or mounts[d] is None:
            fail(f"{daemonset}: {what} {path} is not in a hostPath mount")
        return mounts[d]

    nfd = var("nfd")
    if host_dir_of(nfd, "NFD feature file") != NFD_DIR:
        fail(f"{daemonset}: the NFD feature file {nfd} is not written into the node's {NFD_DIR}")
    prom = var("prom")
    host_dir_of(prom, "textfile")
    if not prom.endswith(".prom"):
        fail(f"{daemonset}: {prom}: node_exporter's textfile collector reads only *.prom")
    cache = env.get("GPUCHECK_CACHE_DIR")
    if not cache or mounts.get(cache) is None:
        fail(f"{daemonset}: GPUCHECK_CACHE_DIR ({cache}) is not a hostPath mount")
    if '-o nfd="$nfd"' not in script or '-o prometheus="$prom"' not in script:
        fail(f"{daemonset}: the script does not write both files from one check with -o FORMAT=FILE (atomic)")
    if "--nfd-expiry" not in script:
        fail(f"{daemonset}: the NFD labels do not expire (--nfd-expiry): a stopped pod would leave its last verdict")

    # The labels the jobs select on are labels gpucheck writes.
    written = set()
    with open(nfd_file, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                written.add(line.split("=", 1)[0])
    if not written:
        fail(f"{nfd_file}: gpucheck wrote no label")
    used = 0
    for path in jobs:
        for d in docs(path):
            for ps in pod_specs(d):
                na = ps.get("affinity", {}).get("nodeAffinity", {})
                req = na.get("requiredDuringSchedulingIgnoredDuringExecution", {})
                terms = req.get("nodeSelectorTerms", [])
                terms += [p["preference"] for p in na.get("preferredDuringSchedulingIgnoredDuringExecution", [])]
                keys = [e["key"] for t in terms for e in t.get("matchExpressions", [])]
                keys += list(ps.get("nodeSelector", {}))
                for k in keys:
                    if "gpucheck" in k:
                        used += 1
                        if k not in written:
                            fail(f"{path}: selects on {k}, a label gpucheck does not write ({nfd_file})")
    if used == 0:
        fail("no job selects nodes on a gpucheck label")

    with open(f"{out}/loop.sh", "w", encoding="utf-8") as f:
        f.write(script)
    with open(f"{out}/env.sh", "w", encoding="utf-8") as f:
        for k, v in env.items():
            f.write(f"export {k}={shlex.quote(v)}\n")
        f.write(f"NFD_FILE={shlex.quote(nfd)}\nPROM_FILE={shlex.quote(prom)}\n")
    print(f"check-manifests: {daemonset} writes {nfd} (NFD local source), {prom}, cache {cache}; "
          f"{used} node-affinity keys on gpucheck labels, all written by gpucheck")


def main(argv):
    if len(argv) >= 3 and argv[0] == "validate":
        validate(argv[1], argv[2:])
    elif len(argv) >= 5 and argv[0] == "layout" and argv[-2] == "--out":
        layout(argv[1], argv[2], argv[3:-2], argv[-1])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
