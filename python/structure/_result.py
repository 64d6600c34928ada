"""Result: the one answer to a request."""
from typing import Any, Dict, List, Optional

from . import _schema


class Result:
    """The engine's result of one request (docs/engine.md).

    status      "ok" | "need-more-input" | "stale" | "error"
    data        the answer (status "ok"), else None
    parsed      data as an instance of the pydantic class given as schema (status "ok"), else None
    need        what the prompt is missing, in words (status "need-more-input"), else None
    errors      the last validation messages (stale) or the error (error)
    code        the error code (status "error"), e.g. "provider_unavailable", else None
    usage       tokens: input_tokens, output_tokens, cached_input_tokens, cache_write_tokens,
                reasoning_tokens
    iterations  content-stage provider calls
    evidence    with evidence on: {JSON pointer: quote}; ungrounded: [JSON pointer], else None
    id          run_many: the record's "id", or its position in the input (from 0); run: None
    raw         the JSON text the CLI prints: `structure run`'s for run, the output line of
                `structure batch` for run_many
    """

    __slots__ = ("status", "data", "parsed", "need", "errors", "code", "usage", "iterations",
                 "evidence", "ungrounded", "id", "_raw", "_pretty")

    status: str
    data: Any
    parsed: Any
    need: Optional[str]
    errors: List[str]
    code: Optional[str]
    usage: Dict[str, int]
    iterations: int
    evidence: Optional[Dict[str, Any]]
    ungrounded: Optional[List[str]]
    id: Any

    def __init__(self, item: tuple, model: Optional[type], pretty: bool):
        (_, self.id, self.status, self.data, self.need, self.errors, self.code, self.usage,
         self.iterations, self.evidence, self.ungrounded, self._raw) = item
        self._pretty = pretty
        self.parsed = None
        if model is not None and self.status == "ok":
            self.parsed = _schema.parse(model, self.data)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def raw(self) -> str:
        return self._raw.text(self._pretty)

    def __repr__(self) -> str:
        shown = {"ok": f"data={self.data!r}", "need-more-input": f"need={self.need!r}"}.get(
            self.status, f"errors={self.errors!r}")
        code = f", code={self.code!r}" if self.code else ""
        ident = f"id={self.id!r}, " if self.id is not None else ""
        return f"Result({ident}status={self.status!r}{code}, {shown})"
