"""Ctrl-C: a Python process sent SIGINT while its calls wait on a slow provider."""
import os
import signal
import subprocess
import sys
import textwrap
import time

from conftest import Sim

SCRIPT = textwrap.dedent("""
    import sys, time
    import structure
    engine = structure.Engine(base_url=sys.argv[1])
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    print("started", flush=True)
    start = time.monotonic()
    try:
        if sys.argv[2] == "run":
            engine.run("text", schema=schema)
        else:
            list(engine.run_many(({"prompt": str(i)} for i in range(1000)), schema=schema,
                                 concurrency=16))
        print("finished", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {time.monotonic() - start:.1f}s", flush=True)
        sys.exit(130)
""")


def interrupt(url, how):
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, url, how], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.0)  # the calls are on the wire, waiting out the latency
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err, time.monotonic() - sent


def test_ctrl_c_cancels_run_and_run_many():
    slow = Sim("--latency-ms", "60000")
    try:
        for how in ("run", "run_many"):
            rc, out, err, took = interrupt(slow.url, how)
            assert rc == 130, (how, out, err)
            assert "interrupted after" in out and "finished" not in out
            assert took < 10, (how, took)
    finally:
        slow.stop()
