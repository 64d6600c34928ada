#!/usr/bin/python3
"""CPU per call of the Python package's run_many against `structure batch` on the same records
(and the official OpenAI Python SDK when it is importable), all against one `structure sim`.

Each side runs as its own process, measured whole (user + system CPU of the child, start-up
included) over the same JSONL records at the same concurrency:
  cli     structure batch IN -o OUT --ordered --concurrency C --schema S --base-url URL
  python  python3 -c: Engine(base_url=URL).run_many(records of IN, schema=S, concurrency=C)
  openai  the OpenAI SDK's chat.completions.create with the same json_schema, C threads

  bench/python_cost.py --structure build/bench/apps/structure [--records 20000] [--concurrency 256]
The structure package must be importable by this python3 (pip install ./python). Prints one
JSON line per side and the ratio python/cli. docs/python.md ("Cost") has the numbers.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
          "required": ["name", "age"], "additionalProperties": False}

PYTHON_SIDE = r"""
import json, sys, structure
url, path, schema, concurrency = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
engine = structure.Engine(base_url=url)
with open(path) as f:
    records = (json.loads(line) for line in f)
    ok = sum(r.status == "ok" for r in engine.run_many(records, schema=schema,
                                                      concurrency=concurrency))
print(ok)
"""

OPENAI_SIDE = r"""
import json, sys
from concurrent.futures import ThreadPoolExecutor
import openai
url, path, schema, concurrency = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), int(sys.argv[4])
client = openai.OpenAI(base_url=url, api_key="sk-bench")
def one(line):
    r = client.chat.completions.create(model="sim-model", messages=[
        {"role": "user", "content": json.loads(line)["prompt"]}],
        response_format={"type": "json_schema", "json_schema": {"name": "person", "strict": True,
                                                                "schema": schema}})
    json.loads(r.choices[0].message.content)
    return 1
with open(path) as f, ThreadPoolExecutor(concurrency) as pool:
    print(sum(pool.map(one, f)))
"""


def child_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def measure(name, argv, records, env=None):
    cpu0, t0 = child_cpu(), time.monotonic()
    out = subprocess.run(argv, capture_output=True, text=True, env=env)
    cpu, wall = child_cpu() - cpu0, time.monotonic() - t0
    if out.returncode not in (0, 1):
        raise SystemExit(f"{name} failed ({out.returncode}): {out.stderr[-2000:]}")
    row = {"side": name, "records": records, "cpu_us_per_call": round(cpu / records * 1e6, 1),
           "calls_per_s": round(records / wall), "wall_s": round(wall, 2)}
    print(json.dumps(row), flush=True)
    return row


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--structure", required=True)
    p.add_argument("--records", type=int, default=20000)
    p.add_argument("--concurrency", type=int, default=256)
    p.add_argument("--repeat", type=int, default=3, help="runs per side; the lowest CPU counts")
    a = p.parse_args()

    sim = subprocess.Popen([a.structure, "sim", "--port", "0", "--seed", "7"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = "http://" + sim.stdout.readline().split()[-1] + "/v1"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            records = os.path.join(tmp, "in.jsonl")
            with open(records, "w") as f:
                for i in range(a.records):
                    f.write(json.dumps({"id": f"r{i}", "prompt": f"Person {i} is {i % 90}"}) + "\n")
            schema = os.path.join(tmp, "schema.json")
            with open(schema, "w") as f:
                json.dump(SCHEMA, f)
            sides = {
                "cli": [a.structure, "batch", records, "-o", os.path.join(tmp, "out.jsonl"),
                        "--overwrite", "--ordered", "--concurrency", str(a.concurrency),
                        "--schema", schema, "--base-url", url],
                "python": [sys.executable, "-c", PYTHON_SIDE, url, records, json.dumps(SCHEMA),
                           str(a.concurrency)],
            }
            try:
                import openai  # noqa: F401
                sides["openai"] = [sys.executable, "-c", OPENAI_SIDE, url, records,
                                   json.dumps(SCHEMA), str(min(a.concurrency, 64))]
            except ImportError:
                print(json.dumps({"side": "openai", "skipped": "the openai package is not "
                                  "importable"}))
            best = {}
            for _ in range(a.repeat):
                for name, argv in sides.items():
                    row = measure(name, argv, a.records)
                    if name not in best or row["cpu_us_per_call"] < best[name]["cpu_us_per_call"]:
                        best[name] = row
            ratio = best["python"]["cpu_us_per_call"] / best["cli"]["cpu_us_per_call"]
            print(json.dumps({"python_over_cli": round(ratio, 2),
                              "cli_cpu_us_per_call": best["cli"]["cpu_us_per_call"],
                              "python_cpu_us_per_call": best["python"]["cpu_us_per_call"]}))
    finally:
        sim.terminate()
        sim.wait()


if __name__ == "__main__":
    main()
