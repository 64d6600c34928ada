"""Memory stays flat over 100 000 records of run_many (RSS sampled)."""
import os

from conftest import PERSON

PAGE = os.sysconf("SC_PAGE_SIZE")
N = int(os.environ.get("STRUCTURE_MEMORY_RECORDS", "100000"))


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / (1 << 20)


def test_memory_is_flat_over_many_records(engine):
    samples = []
    records = ({"prompt": f"Person {i} is {i % 90} years old"} for i in range(N))
    count = ok = 0
    for r in engine.run_many(records, schema=PERSON, concurrency=128, ordered=True):
        count += 1
        ok += r.ok
        if count % (N // 10) == 0:
            samples.append(rss_mib())
    assert count == N and ok == N
    # After the first fifth (caches, pools and the allocator warmed up), RSS stays within a band.
    warm = samples[1]
    growth = max(samples[2:]) - warm
    assert growth < 40, f"RSS grew {growth:.1f} MiB after warm-up: {samples}"
