"""Fixtures: `structure sim` on a free loopback port, and engines pointed at it.

The `structure` program is $STRUCTURE_BINARY (ctest sets it), else the one on PATH."""
import json
import os
import shutil
import subprocess
import urllib.request

import pytest

import structure

REVOKED_KEY = "sk-revoked"


def binary() -> str:
    path = os.environ.get("STRUCTURE_BINARY") or shutil.which("structure")
    if not path:
        pytest.skip("no structure program: set STRUCTURE_BINARY")
    return path


class Sim:
    """A running `structure sim`; stop() ends it."""

    def __init__(self, *flags: str):
        self.proc = subprocess.Popen([binary(), "sim", "--port", "0", "--seed", "7", *flags],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("listening on "):
            self.proc.kill()
            raise RuntimeError(f"structure sim did not start: {line!r}")
        self.address = line[len("listening on "):]
        self.url = f"http://{self.address}/v1"

    def stats(self) -> dict:
        with urllib.request.urlopen(f"http://{self.address}/stats", timeout=10) as r:
            return json.load(r)

    def requests(self) -> int:
        return self.stats()["requests"]["total"]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def sim():
    s = Sim("--invalid-key", REVOKED_KEY)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def engine(sim):
    return structure.Engine(base_url=sim.url)


PERSON = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
