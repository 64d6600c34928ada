"""The pandas, Ray and Spark helpers, called the way those engines call them."""
import pickle

import numpy
import pandas
import pydantic

import structure
import structure.pandas
import structure.ray
import structure.spark
from conftest import PERSON


class Person(pydantic.BaseModel):
    name: str
    age: int


def test_pandas_extract_has_a_column_per_field(engine):
    series = pandas.Series(["Bob is 42", "Ana is 37", "Li is 25"], index=[10, 20, 30])
    df = structure.pandas.extract(series, schema=Person, engine=engine)
    assert list(df.columns) == ["name", "age", "status", "need"]
    assert list(df.index) == [10, 20, 30]
    assert (df["status"] == "ok").all() and df["need"].isna().all()


def test_ray_processor_as_map_batches_calls_it(sim):
    # Ray Data: map_batches(Processor, fn_constructor_kwargs=...) builds the class in each actor
    # and calls it with dict[str, numpy.ndarray] batches.
    processor = structure.ray.Processor(schema=PERSON, engine_options={"base_url": sim.url})
    batch = {"prompt": numpy.array(["Bob is 42", "Ana is 37"]), "row": numpy.array([1, 2])}
    out = processor(batch)
    assert list(out) == ["prompt", "row", "name", "age", "status", "need"]
    assert out["status"] == ["ok", "ok"] and out["row"] == [1, 2]
    assert pickle.loads(pickle.dumps(processor)).schema == PERSON  # no engine inside
    try:
        processor({"text": numpy.array(["x"])})
    except KeyError as e:
        assert "prompt_column" in str(e)
    else:
        raise AssertionError("a batch without the prompt column must fail")


def test_spark_udf_as_pandas_udf_calls_it(sim):
    # Spark: pandas_udf(f, "name string, age long, status string, need string") calls f with a
    # pandas.Series per Arrow batch and reads the DataFrame's columns as the struct's fields.
    f = structure.spark.udf(Person, engine_options={"base_url": sim.url})
    out = f(pandas.Series(["Bob is 42", "Ana is 37"]))
    assert isinstance(out, pandas.DataFrame)
    assert list(out.columns) == ["name", "age", "status", "need"]
    assert list(out["status"]) == ["ok", "ok"]
