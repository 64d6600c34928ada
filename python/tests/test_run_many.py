"""run_many: order, laziness, bad records, threads, asyncio."""
import asyncio
import itertools
import json
import threading

import pytest

import structure
from conftest import PERSON


def records(n, start=0):
    return ({"id": f"r{i}", "prompt": f"Person {i} is {i % 90} years old"}
            for i in range(start, start + n))


def test_2000_records_at_concurrency_256_in_input_order(engine):
    results = list(engine.run_many(records(2000), schema=PERSON, concurrency=256))
    assert [r.id for r in results] == [f"r{i}" for i in range(2000)]
    assert all(r.status == "ok" for r in results)


def test_unordered_yields_every_record_once(engine):
    results = list(engine.run_many(records(500), schema=PERSON, concurrency=64, ordered=False))
    assert sorted(r.id for r in results) == sorted(f"r{i}" for i in range(500))
    assert all(r.ok for r in results)


def test_records_are_read_lazily(engine):
    taken = 0

    def counted():
        nonlocal taken
        for r in records(10_000):
            taken += 1
            yield r

    stream = engine.run_many(counted(), schema=PERSON, concurrency=8)
    first = next(stream)
    assert first.id == "r0"
    assert taken <= 8 + 8  # what is in flight, and what replaced the finished ones
    rest = list(itertools.islice(stream, 99))
    assert len(rest) == 99 and taken <= 100 + 16
    stream.close()  # the calls in flight finish; nothing more is read
    assert taken <= 100 + 16


def test_a_record_without_id_is_keyed_by_its_position(engine):
    results = list(engine.run_many([{"prompt": "Bob is 42"}, {"prompt": "Ana is 37"}],
                                   schema=PERSON))
    assert [r.id for r in results] == [0, 1]
    assert json.loads(results[1].raw)["line"] == 2


def test_bad_records_are_error_results(engine):
    given = [{"id": 1, "prompt": "Bob is 42"}, "not a dict", {"prompt": "x", "maxLoops": 99},
             {"id": 1.5, "prompt": "x"}, {"prompt": float("nan")}, {"id": "ok", "prompt": "Ana 3"}]
    results = list(engine.run_many(given, schema=PERSON))
    assert [r.status for r in results] == ["ok", "error", "error", "error", "error", "ok"]
    assert all(r.code == "bad_request" for r in results[1:5])
    assert "record 1: a record is a dict" in results[1].errors[0]
    assert "maxLoops" in results[2].errors[0]
    assert "id: must be a string or an integer" in results[3].errors[0]
    assert "nan" in results[4].errors[0]
    raw = json.loads(results[1].raw)
    assert list(raw)[:4] == ["line", "status", "code", "errors"] and raw["line"] == 2
    assert json.loads(results[0].raw)["id"] == 1


def test_records_with_their_own_schema_and_defaults(engine):
    given = [{"prompt": "Bob is 42"},
             {"prompt": "Mike broke the build today at 9:00", "schemaName": "user-action-record"}]
    results = list(engine.run_many(given, schema=PERSON, max_loops=2))
    assert results[0].ok and set(results[0].data) == {"name", "age"}
    assert results[1].status in ("ok", "need-more-input")


def test_four_threads_share_one_engine(engine):
    outcomes = {}

    def work(t):
        got = list(engine.run_many(records(300, start=t * 1000), schema=PERSON, concurrency=64))
        outcomes[t] = [r.id for r in got if r.ok]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(outcomes) == [0, 1, 2, 3]
    for t, ids in outcomes.items():
        assert ids == [f"r{i}" for i in range(t * 1000, t * 1000 + 300)]


def test_threads_calling_run(engine):
    errors = []

    def work():
        try:
            for _ in range(20):
                assert engine.run("Bob is 42", schema=PERSON).ok
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []


def test_100_run_async_calls_gathered(engine):
    async def main():
        return await asyncio.gather(*(engine.run_async(f"Person {i} is {i}", schema=PERSON)
                                      for i in range(100)))

    results = asyncio.run(main())
    assert len(results) == 100 and all(r.status == "ok" for r in results)


def test_run_async_raises_as_run_does(engine):
    async def main():
        with pytest.raises(structure.SchemaError):
            await engine.run_async("Bob", schema={"type": "strin"})
        return await engine.run_async("Bob is 42", schema=PERSON)

    assert asyncio.run(main()).ok
