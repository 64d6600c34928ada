"""The exceptions of the structure package.

Each carries ``code`` (the engine's stable error code, e.g. ``"provider_auth"``, or None) and,
when a call ended with it, ``result`` (the :class:`structure.Result`).
"""
from typing import Any, Optional


class Error(Exception):
    """Base class of the package's exceptions."""

    def __init__(self, message: str, *, code: Optional[str] = None, result: Any = None):
        super().__init__(message)
        self.code = code
        self.result = result


class ConfigError(Error):
    """The configuration (a TOML file or dict, provider, base_url, a model reference) cannot work."""


class SchemaError(Error, ValueError):
    """The schema is not a schema, does not compile, or names no registry schema.

    Raised before any provider call."""


class ProviderError(Error):
    """The provider failed the call: refused the key, kept rate limiting, was unreachable,
    rejected the request, spent the quota or does not know the model."""
