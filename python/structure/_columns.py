"""Results as columns: one per top-level field of the schema, then status and need. Shared by
the pandas, Ray and Spark helpers."""
import threading
from collections.abc import Mapping
from typing import Any, Dict, Iterable, List, Optional

from . import _schema
from ._engine import Engine


def schema_fields(schema: Any) -> Optional[List[str]]:
    """The top-level property names of ``schema`` (a dict or a pydantic class), when it has any."""
    if _schema.is_model_class(schema):
        schema = _schema._class_schema(schema)
    if isinstance(schema, Mapping) and isinstance(schema.get("properties"), Mapping):
        return list(schema["properties"])
    return None


def columns(engine: Engine, prompts: Iterable[Any], schema: Any = None,
            concurrency: int = 32, **run_kwargs: Any) -> Dict[str, List[Any]]:
    """Runs one request per prompt (in order) and returns the columns: the schema's top-level
    fields (of the schema, else of every answer, in first-seen order), "status" and "need"."""
    results = list(engine.run_many(({"prompt": p} for p in prompts), schema=schema,
                                   concurrency=concurrency, ordered=True, **run_kwargs))
    fields = schema_fields(schema)
    if fields is None:
        seen: Dict[str, None] = {}
        for r in results:
            if isinstance(r.data, Mapping):
                seen.update(dict.fromkeys(r.data))
        fields = list(seen)
    out: Dict[str, List[Any]] = {}
    for f in fields:
        out[f] = [r.data.get(f) if isinstance(r.data, Mapping) else None for r in results]
    out["status"] = [r.status for r in results]
    out["need"] = [r.need if r.status == "need-more-input" else
                   ("; ".join(r.errors) if r.status != "ok" else None) for r in results]
    return out


class EngineCache:
    """One engine per process for the settings it is asked with (a Ray actor, a Spark worker)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: Dict[str, Engine] = {}

    def get(self, config: Any, options: Dict[str, Any]) -> Engine:
        key = repr((config, sorted(options.items())))
        with self._lock:
            engine = self._engines.get(key)
            if engine is None:
                engine = self._engines[key] = Engine(config, **options)
            return engine


engines = EngineCache()
