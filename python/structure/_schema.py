"""What the ``schema=`` argument may be: a dict (or a boolean), a JSON string, or a class with
``model_json_schema()`` (pydantic v2) or ``schema()`` (pydantic v1)."""
import json
import threading
import weakref
from typing import Any, Optional, Tuple

from . import _structure
from .errors import SchemaError

_lock = threading.Lock()
_by_class: "weakref.WeakKeyDictionary[type, _structure._Schema]" = weakref.WeakKeyDictionary()


def _class_schema(cls: type) -> Any:
    if hasattr(cls, "model_json_schema"):  # pydantic v2
        return cls.model_json_schema()
    return cls.schema()  # pydantic v1


def is_model_class(value: Any) -> bool:
    return isinstance(value, type) and (
        hasattr(value, "model_json_schema") or callable(getattr(value, "schema", None)))


def resolve(schema: Any) -> Tuple[_structure._Schema, Optional[type]]:
    """The converted schema, and the class to parse answers into (None for a dict or string)."""
    if is_model_class(schema):
        with _lock:
            cached = _by_class.get(schema)
        if cached is None:
            try:
                as_dict = _class_schema(schema)
            except Exception as e:  # the class's own error, e.g. a field pydantic cannot express
                raise SchemaError(f"schema: {schema.__name__} has no JSON Schema: {e}") from e
            cached = _structure._Schema(as_dict)
            with _lock:
                _by_class[schema] = cached
        return cached, schema
    if isinstance(schema, (str, bytes, bytearray)):
        try:
            schema = json.loads(schema)
        except (ValueError, UnicodeDecodeError) as e:
            raise SchemaError(f"schema: not JSON: {e}") from e
    return _structure._Schema(schema), None


def parse(cls: type, data: Any) -> Any:
    """``data`` as an instance of the pydantic class ``cls``."""
    if hasattr(cls, "model_validate"):  # pydantic v2
        return cls.model_validate(data)
    return cls.parse_obj(data)  # pydantic v1
