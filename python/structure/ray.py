"""structure for Ray Data: a callable class for ``Dataset.map_batches``, one engine per actor.

    import ray, structure.ray
    ds = ray.data.read_json("in.jsonl")
    out = ds.map_batches(structure.ray.Processor, fn_constructor_kwargs={"schema": Person},
                         concurrency=4, batch_size=256)
"""
from typing import Any, Dict, List, Optional

from . import _columns


class Processor:
    """``__call__(batch: dict[str, list]) -> dict[str, list]``: the batch's columns, then one
    per top-level field of the schema, "status" and "need". The prompts are the column
    ``prompt_column``. The engine (``config`` and ``engine_options``, as structure.Engine's) is
    made on the first batch, once per process, and is not pickled with the object."""

    def __init__(self, schema: Any = None, *, config: Any = None, prompt_column: str = "prompt",
                 concurrency: int = 32, engine_options: Optional[Dict[str, Any]] = None,
                 **run_kwargs: Any):
        self.schema = schema
        self.config = config
        self.prompt_column = prompt_column
        self.concurrency = concurrency
        self.engine_options = dict(engine_options or {})
        self.run_kwargs = run_kwargs

    def __call__(self, batch: Dict[str, Any]) -> Dict[str, List[Any]]:
        if self.prompt_column not in batch:
            raise KeyError(f"the batch has no column {self.prompt_column!r} "
                           f"(it has {', '.join(map(repr, batch))}): set prompt_column")
        engine = _columns.engines.get(self.config, self.engine_options)
        out = {k: list(v) for k, v in batch.items()}
        out.update(_columns.columns(engine, out[self.prompt_column], self.schema,
                                    self.concurrency, **self.run_kwargs))
        return out
