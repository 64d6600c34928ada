"""What raises, and what is a status."""
import pytest

import structure
from conftest import PERSON, REVOKED_KEY, Sim


def test_a_bad_schema_raises_before_any_call(engine, sim):
    before = sim.requests()
    for bad in ({"type": "strin"}, {"type": "object", "properties": {"a": {"minimum": "x"}}}):
        with pytest.raises(structure.SchemaError) as e:
            engine.run("Bob is 42", schema=bad)
        assert e.value.code == "bad_schema"
    with pytest.raises(structure.SchemaError, match="not JSON"):
        engine.run("Bob is 42", schema="{not json")
    with pytest.raises(structure.SchemaError, match="must be a JSON object"):
        engine.run("Bob is 42", schema=[1, 2])
    with pytest.raises(structure.SchemaError, match="set is not a JSON value"):
        engine.run("Bob is 42", schema={"enum": {1, 2}})
    with pytest.raises(structure.SchemaError) as e:
        engine.run("Bob is 42", schema_name="no-such-schema")
    assert e.value.code == "unknown_schema"
    assert sim.requests() == before


def test_run_many_with_a_bad_default_schema_raises(engine, sim):
    before = sim.requests()
    with pytest.raises(structure.SchemaError):
        list(engine.run_many([{"prompt": "a"}, {"prompt": "b"}], schema={"type": "strin"}))
    with pytest.raises(structure.SchemaError):
        engine.run_many([{"prompt": "a"}], schema="{")
    assert sim.requests() == before


def test_bad_configuration_raises_config_error(sim, tmp_path):
    with pytest.raises(structure.ConfigError, match="nonsense"):
        structure.Engine({"providers": {"sim": {"kind": "openai", "nonsense": 1}}})
    with pytest.raises(structure.ConfigError):
        structure.Engine(tmp_path / "missing.toml")
    with pytest.raises(structure.ConfigError, match="base_url"):
        structure.Engine(base_url="ftp://nowhere")
    with pytest.raises(TypeError, match="has no TOML form"):
        structure.Engine({"structure": {"maxLoops": {1, 2}}})
    engine = structure.Engine(base_url=sim.url)
    with pytest.raises(structure.ConfigError, match="no-such-provider"):
        engine.run("Bob is 42", schema=PERSON, model="no-such-provider/x")


def test_a_refused_key_raises_provider_error(sim, monkeypatch):
    monkeypatch.setenv("STRUCTURE_TEST_KEY", REVOKED_KEY)
    engine = structure.Engine({"providers": {"sim": {
        "kind": "openai", "base_url": sim.url, "api_key_env": "STRUCTURE_TEST_KEY"}},
        "structure": {"model": "sim"}})
    with pytest.raises(structure.ProviderError) as e:
        engine.run("Bob is 42", schema=PERSON)
    assert e.value.code == "provider_auth"
    assert e.value.result.status == "error"
    assert REVOKED_KEY not in str(e.value)


def test_bad_arguments(engine):
    with pytest.raises(ValueError, match="maxLoops"):
        engine.run("Bob is 42", schema=PERSON, max_loops=12)
    with pytest.raises(ValueError, match="give one of"):
        engine.run("Bob", schema=PERSON, schema_name="x")
    with pytest.raises(ValueError, match="concurrency"):
        engine.run_many([], concurrency=0)
    with pytest.raises(ValueError, match="invalid UTF-8|surrogate"):
        engine.run("Bob \udc80", schema=PERSON)


def test_need_more_input_and_stale_are_statuses(sim):
    s = Sim("--need-rate", "1")
    try:
        engine = structure.Engine(base_url=s.url)
        need = engine.run("nothing here", schema=PERSON)
        assert need.status == "need-more-input" and need.need
        stale_sim = Sim("--invalid-rate", "1")
        try:
            stale = structure.Engine(base_url=stale_sim.url).run("Bob", schema=PERSON, max_loops=2)
            assert stale.status == "stale" and stale.errors and stale.iterations == 2
        finally:
            stale_sim.stop()
    finally:
        s.stop()
