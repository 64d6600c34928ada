"""structure for pandas: one column per top-level field of the schema.

    import pandas as pd, structure, structure.pandas
    df = structure.pandas.extract(pd.Series(["Bob is 42", "Ana, 37"]), schema=Person,
                                  engine=structure.Engine())
"""
from typing import Any, Optional

from . import _columns
from ._engine import Engine


def extract(series: Any, schema: Any = None, *, engine: Optional[Engine] = None,
            concurrency: int = 32, **run_kwargs: Any) -> Any:
    """A DataFrame with the index of ``series`` (its values are the prompts): one column per
    top-level field of the schema, then "status" and "need" (the need text of need-more-input,
    the errors of stale and error rows, None for ok). ``run_kwargs`` are run_many's
    (schema_name, model, max_loops, evidence, ...)."""
    import pandas

    engine = engine if engine is not None else Engine()
    cols = _columns.columns(engine, list(series), schema, concurrency, **run_kwargs)
    return pandas.DataFrame(cols, index=series.index)
