"""structure for Spark: a function shaped for ``pandas_udf`` (a Series of prompts in, a
DataFrame of the struct's fields out), one engine per Python worker.

    from pyspark.sql.functions import pandas_udf
    import structure.spark
    extract = pandas_udf(structure.spark.udf(Person),
                         "name string, age long, status string, need string")
    df.select(extract("text").alias("person")).select("person.*")
"""
from typing import Any, Callable, Dict, Optional

from . import _columns


def udf(schema: Any = None, *, config: Any = None, concurrency: int = 32,
        engine_options: Optional[Dict[str, Any]] = None, **run_kwargs: Any) -> Callable[[Any], Any]:
    """The function ``f(prompts: pandas.Series) -> pandas.DataFrame``: one column per top-level
    field of the schema, then "status" and "need"; rows in the order of ``prompts``. The engine
    (``config``, ``engine_options``) is made in the worker on the first call. Give pandas_udf a
    struct type naming these columns."""
    options = dict(engine_options or {})

    def extract(prompts: Any) -> Any:
        import pandas

        engine = _columns.engines.get(config, options)
        cols = _columns.columns(engine, list(prompts), schema, concurrency, **run_kwargs)
        return pandas.DataFrame(cols, index=prompts.index)

    return extract
