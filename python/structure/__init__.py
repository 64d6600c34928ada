"""structure: free text to one JSON object valid against a JSON Schema, by LLM providers,
validated locally and re-asked, in this process (docs/python.md).

    import structure
    engine = structure.Engine({"providers": {"openai": {"kind": "openai"}}})
    result = engine.run("Mike broke the build today", schema_name="user-action-record")
    result.status, result.data
"""
from ._engine import Engine
from ._result import Result
from .errors import ConfigError, Error, ProviderError, SchemaError

__version__ = "0.1.0"
__all__ = ["Engine", "Result", "Error", "ConfigError", "SchemaError", "ProviderError"]
