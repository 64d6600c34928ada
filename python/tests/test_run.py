"""Engine(config).run(...) against the simulator: each form of schema and config."""
import json

import pydantic
import pytest

import structure
from conftest import PERSON


class Person(pydantic.BaseModel):
    name: str
    age: int


def test_run_with_a_dict_config_is_ok(sim):
    config = {"providers": {"sim": {"kind": "openai", "base_url": sim.url, "model": "gpt-4o"}},
              "structure": {"model": "sim", "maxLoops": 3}}
    result = structure.Engine(config).run("Bob is 42", schema=PERSON)
    assert result.status == "ok", result
    assert set(result.data) == {"name", "age"} and isinstance(result.data["age"], int)
    assert result.code is None and result.need is None and result.errors == []
    assert result.iterations >= 1 and result.usage["input_tokens"] > 0
    assert result.id is None and result.parsed is None


def test_run_with_a_toml_file(sim, tmp_path):
    path = tmp_path / "structure.toml"
    path.write_text(f'[providers.sim]\nkind = "openai"\nbase_url = "{sim.url}"\n'
                    '[structure]\nmodel = "sim"\n')
    assert structure.Engine(path).run("Bob is 42", schema=PERSON).ok


def test_schema_as_json_text_and_by_name(engine):
    assert engine.run("Bob is 42", schema=json.dumps(PERSON)).status == "ok"
    named = engine.run("Mike broke the build today at 9:00 UTC", schema_name="user-action-record")
    assert named.status in ("ok", "need-more-input"), named


def test_pydantic_v1_class_gives_an_instance(engine):
    assert pydantic.VERSION.startswith("1.")  # Debian 12's python3-pydantic
    result = engine.run("Bob is 42", schema=Person)
    assert result.status == "ok", result
    assert isinstance(result.parsed, Person)
    assert result.parsed.age == result.data["age"]


def test_raw_is_the_json_the_cli_prints(engine):
    result = engine.run("Bob is 42", schema=PERSON)
    raw = json.loads(result.raw)
    assert raw["status"] == "ok" and raw["data"] == result.data
    assert raw["usage"]["inputTokens"] == result.usage["input_tokens"]
    assert raw["iterations"] == result.iterations


def test_evidence_report_quotes_the_prompt(engine):
    prompt = "Bob Stone is 42 years old."
    result = engine.run(prompt, schema=PERSON, evidence="report")
    assert result.status == "ok", result
    assert isinstance(result.evidence, dict) and isinstance(result.ungrounded, list)
    for pointer, quote in result.evidence.items():
        assert pointer.startswith("/")
        assert prompt.encode()[quote["byteStart"]:quote["byteEnd"]].decode() == quote["quote"]
    off = engine.run(prompt, schema=PERSON)
    assert off.evidence is None and off.ungrounded is None


def test_files_are_the_prompt(engine, tmp_path):
    mail = tmp_path / "mail.txt"
    mail.write_text("Bob Stone is 42 years old.")
    result = engine.run(files=[mail], schema=PERSON, evidence="report")
    assert result.status == "ok", result
    both = engine.run("From the mail:", files=[str(mail)], schema=PERSON)
    assert both.status == "ok", both


def test_files_that_cannot_be_read(engine, tmp_path):
    with pytest.raises(FileNotFoundError):
        engine.run(files=[tmp_path / "missing.txt"], schema=PERSON)
    with pytest.raises(ValueError, match="is a directory"):
        engine.run(files=[tmp_path], schema=PERSON)
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"caf\xe9")
    with pytest.raises(ValueError, match="invalid UTF-8 at byte 3"):
        engine.run(files=[bad], schema=PERSON)
    with pytest.raises(ValueError, match="give a prompt"):
        engine.run(schema=PERSON)


def test_schemas_lists_the_bundled_ones(engine):
    names = [name for name, _, _ in engine.schemas()]
    assert "user-action-record" in names
