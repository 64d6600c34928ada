"""A configuration dict written as TOML text, for the engine's TOML reader."""
import json
import math
import re
from collections.abc import Mapping
from typing import Any, List

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: Any, where: str) -> str:
    if not isinstance(k, str):
        raise TypeError(f"config: {where}: a key of type {type(k).__name__} (keys are str)")
    return k if _BARE.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any, where: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        items = ", ".join(f"{_key(k, where)} = {_value(x, f'{where}.{k}')}" for k, x in v.items())
        return "{" + items + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x, f"{where}[{i}]") for i, x in enumerate(v)) + "]"
    raise TypeError(f"config: {where}: a {type(v).__name__} has no TOML form")


def _table(d: Mapping, path: List[str], lines: List[str]) -> None:
    scalars = [(k, v) for k, v in d.items() if not isinstance(v, Mapping)]
    tables = [(k, v) for k, v in d.items() if isinstance(v, Mapping)]
    if path and (scalars or not tables):
        lines.append("[" + ".".join(_key(p, ".".join(path)) for p in path) + "]")
    for k, v in scalars:
        where = ".".join([*path, str(k)])
        lines.append(f"{_key(k, where)} = {_value(v, where)}")
    for k, v in tables:
        _key(k, ".".join([*path, str(k)]))
        _table(v, [*path, k], lines)


def dumps(config: Mapping) -> str:
    """The TOML text of ``config``; TypeError names the key of a value TOML cannot hold."""
    lines: List[str] = []
    _table(config, [], lines)
    return "\n".join(lines) + "\n"
