#!/usr/bin/env python3
"""Checks the Kubernetes manifests of docs/deploy.md (the test `deploy_manifests`).

Every ```yaml block must parse (PyYAML, Debian's python3-yaml), and every document in it must
carry the fields its kind requires, as the Kubernetes API reference gives them
(https://kubernetes.io/docs/reference/kubernetes-api/): apiVersion, kind, metadata.name, and
per kind the spec's required parts. Beyond the schema, what docs/deploy.md promises: the
Deployment's readiness probe is GET /readyz, the Service selects the Deployment's pods, the
ConfigMap's TOML parses (tomllib) and names a PostgreSQL database and a Redis store, the Job is
Indexed and runs `structure batch --shard` with its completion index, and every ConfigMap and
Secret a pod names exists. Prints one line per problem; exit 1 when there is any.
"""
import re
import sys
import tomllib

import yaml

problems = []


def need(cond, what):
    if not cond:
        problems.append(what)
    return cond


def get(doc, path):
    cur = doc
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def check_pod(name, spec, configmaps, secrets):
    containers = spec.get("containers") if isinstance(spec, dict) else None
    if not need(isinstance(containers, list) and containers, f"{name}: no containers"):
        return []
    for c in containers:
        need(isinstance(c.get("name"), str) and c["name"], f"{name}: a container has no name")
        need(isinstance(c.get("image"), str) and c["image"], f"{name}: container without image")
        for src in c.get("envFrom", []):
            if "secretRef" in src:
                secrets.append((name, src["secretRef"].get("name")))
            if "configMapRef" in src:
                configmaps.append((name, src["configMapRef"].get("name")))
    for v in spec.get("volumes", []):
        if "configMap" in v:
            configmaps.append((name, v["configMap"].get("name")))
        if "secret" in v:
            secrets.append((name, v["secret"].get("secretName")))
        mounted = any(m.get("name") == v.get("name") for c in containers
                      for m in c.get("volumeMounts", []))
        need(mounted, f"{name}: volume {v.get('name')} is mounted by no container")
    for c in containers:
        for m in c.get("volumeMounts", []):
            need(any(v.get("name") == m.get("name") for v in spec.get("volumes", [])),
                 f"{name}: mount {m.get('name')} names no volume")
    return containers


def main(path):
    text = open(path, encoding="utf-8").read()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    need(blocks, f"{path}: no ```yaml block")
    docs = []
    for i, block in enumerate(blocks):
        try:
            docs += [d for d in yaml.safe_load_all(block) if d is not None]
        except yaml.YAMLError as e:
            problems.append(f"yaml block {i + 1}: {e}")
    kinds = {}
    configmaps, secrets = [], []
    for d in docs:
        kind = d.get("kind")
        name = f"{kind}/{get(d, 'metadata.name')}"
        need(isinstance(d.get("apiVersion"), str), f"{name}: no apiVersion")
        need(isinstance(get(d, "metadata.name"), str), f"{name}: no metadata.name")
        kinds.setdefault(kind, []).append(d)
        if kind == "Deployment":
            need(d["apiVersion"] == "apps/v1", f"{name}: apiVersion must be apps/v1")
            labels = get(d, "spec.selector.matchLabels")
            pod_labels = get(d, "spec.template.metadata.labels") or {}
            if need(isinstance(labels, dict) and labels, f"{name}: no spec.selector.matchLabels"):
                need(all(pod_labels.get(k) == v for k, v in labels.items()),
                     f"{name}: the template's labels do not match the selector")
            cs = check_pod(name, get(d, "spec.template.spec"), configmaps, secrets)
            for c in cs:
                need(get(c, "readinessProbe.httpGet.path") == "/readyz",
                     f"{name}: container {c.get('name')}: readiness must be GET /readyz")
                need(c.get("args", [])[:1] == ["serve"], f"{name}: the container runs no serve")
        elif kind == "Service":
            need(d["apiVersion"] == "v1", f"{name}: apiVersion must be v1")
            ports = get(d, "spec.ports")
            need(isinstance(ports, list) and ports and all("port" in p for p in ports),
                 f"{name}: spec.ports needs a port each")
            need(isinstance(get(d, "spec.selector"), dict), f"{name}: no spec.selector")
        elif kind == "ConfigMap":
            need(d["apiVersion"] == "v1", f"{name}: apiVersion must be v1")
            data = d.get("data")
            if need(isinstance(data, dict) and data, f"{name}: no data"):
                for key, value in data.items():
                    if not key.endswith(".toml"):
                        continue
                    try:
                        cfg = tomllib.loads(value)
                    except tomllib.TOMLDecodeError as e:
                        problems.append(f"{name}: {key}: {e}")
                        continue
                    db = cfg.get("stores", {}).get("database", "")
                    need(db.startswith("postgresql://") and ":" not in db.split("@")[0][13:],
                         f"{name}: {key}: stores.database must be a postgresql:// URL without "
                         "a password")
                    need(cfg.get("stores", {}).get("shared", "").startswith("redis://"),
                         f"{name}: {key}: stores.shared must be a redis:// URL")
        elif kind == "Secret":
            need(d["apiVersion"] == "v1", f"{name}: apiVersion must be v1")
            need(isinstance(d.get("stringData") or d.get("data"), dict),
                 f"{name}: no data or stringData")
        elif kind == "Job":
            need(d["apiVersion"] == "batch/v1", f"{name}: apiVersion must be batch/v1")
            need(get(d, "spec.completionMode") == "Indexed", f"{name}: must be an Indexed Job")
            n = get(d, "spec.completions")
            need(isinstance(n, int) and n > 0, f"{name}: an Indexed Job needs spec.completions")
            need(get(d, "spec.template.spec.restartPolicy") in ("Never", "OnFailure"),
                 f"{name}: restartPolicy must be Never or OnFailure")
            cs = check_pod(name, get(d, "spec.template.spec"), configmaps, secrets)
            for c in cs:
                line = " ".join(c.get("command", []) + c.get("args", []))
                need("structure batch" in line, f"{name}: the container runs no structure batch")
                need(f"--shard $((JOB_COMPLETION_INDEX + 1))/{n}" in line,
                     f"{name}: --shard must be the completion index + 1 over {n}")
        else:
            problems.append(f"{name}: a kind this check does not know")
    for kind in ("Deployment", "Service", "ConfigMap", "Secret", "Job"):
        need(kind in kinds, f"no {kind} in {path}")
    names = lambda kind: {get(d, "metadata.name") for d in kinds.get(kind, [])}
    for owner, cm in configmaps:
        need(cm in names("ConfigMap"), f"{owner}: names ConfigMap {cm}, which is not there")
    for owner, s in secrets:
        need(s in names("Secret"), f"{owner}: names Secret {s}, which is not there")
    for svc in kinds.get("Service", []):
        sel = get(svc, "spec.selector") or {}
        need(any(all((get(d, "spec.template.metadata.labels") or {}).get(k) == v
                     for k, v in sel.items()) for d in kinds.get("Deployment", [])),
             f"Service/{get(svc, 'metadata.name')}: selects no Deployment's pods")
    for p in problems:
        print(p)
    print(f"{len(docs)} manifests, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
