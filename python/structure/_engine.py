"""Engine: the structure engine in this process."""
import asyncio
import os
import stat
import threading
import tomllib
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import _schema, _structure, _toml
from ._result import Result
from .errors import ConfigError, ProviderError, SchemaError

PathLike = Union[str, "os.PathLike[str]"]

# The error codes run() and run_async() raise as exceptions; every other code stays a Result
# with status "error" (docs/python.md, "Errors").
_SCHEMA_CODES = {"bad_schema", "unknown_schema"}
_CONFIG_CODES = {"bad_config"}
_PROVIDER_CODES = {"provider_auth", "provider_rate_limited", "provider_quota_exhausted",
                   "provider_unavailable", "provider_rejected_request", "not_found"}
_EVIDENCE = {True: "report", False: "off"}
_PROMPT_LIMIT = 1 << 20  # the engine's prompt limit (RequestLimits::max_prompt_bytes)
_BUNDLED_SCHEMAS = Path(__file__).resolve().parent / "schemas"


def _config_sets_registry(config: Any) -> bool:
    if isinstance(config, Mapping):
        stores = config.get("stores")
        return isinstance(stores, Mapping) and "registry_dir" in stores
    if config is not None:
        try:
            with open(config, "rb") as f:
                stores = tomllib.load(f).get("stores", {})
            return isinstance(stores, dict) and "registry_dir" in stores
        except (OSError, tomllib.TOMLDecodeError, ValueError):
            return False  # the engine reports what is wrong with the file
    return False


def _read_file(path: PathLike) -> str:
    """A prompt file's text: a regular file of UTF-8 text within the prompt limit."""
    name = os.fspath(path)
    st = os.stat(name)  # FileNotFoundError, PermissionError name the file
    if not stat.S_ISREG(st.st_mode):
        kind = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "not a regular file")
        raise ValueError(f"files: {name} is {kind}: give a regular file of text")
    with open(name, "rb") as f:
        data = f.read(_PROMPT_LIMIT + 1)
    if len(data) > _PROMPT_LIMIT:
        raise ValueError(f"files: {name}: larger than {_PROMPT_LIMIT} bytes (the prompt limit)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"files: {name}: invalid UTF-8 at byte {e.start}") from None


def _model_ref(provider: Optional[str], model: Optional[str]) -> Optional[str]:
    if provider and model:
        return f"{provider}/{model}"
    return model or provider or None


def _fields(schema_name: Optional[str], schema_text: Optional[str], provider: Optional[str],
            model: Optional[str], max_loops: Optional[int], evidence: Any, tenant: Optional[str],
            project: Optional[str]) -> Dict[str, Any]:
    """The request fields (docs/engine.md) of the keyword arguments that are set."""
    out: Dict[str, Any] = {}
    if schema_name is not None:
        out["schemaName"] = schema_name
    if schema_text is not None:
        out["schemaText"] = schema_text
    ref = _model_ref(provider, model)
    if ref is not None:
        out["model"] = ref
    if max_loops is not None:
        out["maxLoops"] = max_loops
    if evidence is not None:
        out["evidence"] = _EVIDENCE.get(evidence, evidence) if isinstance(evidence, bool) else evidence
    if tenant is not None:
        out["tenant"] = tenant
    if project is not None:
        out["project"] = project
    return out


def _one_schema(schema: Any, schema_name: Optional[str], schema_text: Optional[str]) -> None:
    given = [n for n, v in (("schema", schema), ("schema_name", schema_name),
                            ("schema_text", schema_text)) if v is not None]
    if len(given) > 1:
        raise ValueError(f"give one of schema, schema_name, schema_text (got {', '.join(given)})")


def _raise_for(result: Result) -> Result:
    code = result.code
    if code is None:
        return result
    message = "; ".join(result.errors) or code
    if code in _SCHEMA_CODES:
        raise SchemaError(message, code=code, result=result)
    if code in _CONFIG_CODES:
        raise ConfigError(message, code=code, result=result)
    if code in _PROVIDER_CODES:
        raise ProviderError(message, code=code, result=result)
    return result


class _AsyncBridge:
    """Results of run_async for one event loop: the engine's threads fill a queue whose eventfd
    the loop watches; no Python thread waits."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.sink = _structure._Completions()
        self.fd = self.sink.fileno()
        self.pending: Dict[int, "asyncio.Future[tuple]"] = {}
        self.next_token = 0
        self.watching = False

    def add(self) -> Tuple[int, "asyncio.Future[tuple]"]:
        token = self.next_token
        self.next_token += 1
        future = self.loop.create_future()
        self.pending[token] = future
        if not self.watching:
            self.loop.add_reader(self.fd, self._ready)
            self.watching = True
        return token, future

    def drop(self, token: int) -> None:
        self.pending.pop(token, None)
        self._idle()

    def _ready(self) -> None:
        for item in self.sink.take(1 << 30, 0.0):
            future = self.pending.pop(item[0], None)
            if future is not None and not future.done():
                future.set_result(item)
        self._idle()

    def _idle(self) -> None:
        if not self.pending and self.watching:
            self.loop.remove_reader(self.fd)
            self.watching = False


class Engine:
    """The engine, in this process. One engine is shared safely by many threads.

    config: None (the built-in configuration: the simulator on 127.0.0.1:8089), the path of a
    TOML file, or a dict of the same tables (docs/providers.md). API keys come from the
    environment, as the configuration names them. provider, base_url, registry_dir and database
    are `structure run`'s --provider, --base-url, --registry-dir and --database (database: None
    keeps overrides and caches in memory).
    """

    def __init__(self, config: Union[None, PathLike, Mapping] = None, *,
                 provider: Optional[str] = None, base_url: Optional[str] = None,
                 registry_dir: Optional[PathLike] = None, database: Optional[PathLike] = None):
        text = path = None
        if isinstance(config, Mapping):
            text = _toml.dumps(config)
        elif config is not None:
            if not isinstance(config, (str, os.PathLike)):
                raise TypeError(f"config: a path, a dict or None (was a {type(config).__name__})")
            path = os.fspath(config)
        if registry_dir is None and not _config_sets_registry(config) and _BUNDLED_SCHEMAS.is_dir():
            registry_dir = _BUNDLED_SCHEMAS
        self._core = _structure._Engine(
            config_text=text, config_source="config dict", config_path=path,
            provider=provider or "", base_url=base_url or "",
            registry_dir=os.fspath(registry_dir) if registry_dir is not None else "",
            database=os.fspath(database) if database is not None else ":memory:")
        self._bridges: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _AsyncBridge]" = (
            weakref.WeakKeyDictionary())
        self._lock = threading.Lock()

    # One request ----------------------------------------------------------------------------

    def _request(self, prompt: Optional[str], schema: Any, schema_name: Optional[str],
                 schema_text: Optional[str], provider: Optional[str], model: Optional[str],
                 max_loops: Optional[int], evidence: Any, files: Optional[Sequence[PathLike]],
                 tenant: Optional[str], project: Optional[str]):
        _one_schema(schema, schema_name, schema_text)
        if prompt is not None and not isinstance(prompt, str):
            raise TypeError(f"prompt: a str (was a {type(prompt).__name__})")
        if isinstance(files, (str, os.PathLike)):
            files = [files]
        parts = [prompt] if prompt else []
        parts += [_read_file(f) for f in files or ()]
        if prompt is None and not files:
            raise ValueError("give a prompt, or files to read it from")
        body = _fields(schema_name, schema_text, provider, model, max_loops, evidence, tenant,
                       project)
        body["prompt"] = "\n\n".join(parts)
        compiled, cls = _schema.resolve(schema) if schema is not None else (None, None)
        ref = body.get("model")
        if ref is not None:
            self._core.check_model(ref, tenant or "", project or "")
        return body, compiled, cls

    def run(self, prompt: Optional[str] = None, *, schema: Any = None,
            schema_name: Optional[str] = None, schema_text: Optional[str] = None,
            provider: Optional[str] = None, model: Optional[str] = None,
            max_loops: Optional[int] = None, evidence: Union[None, bool, str] = None,
            files: Optional[Sequence[PathLike]] = None, tenant: Optional[str] = None,
            project: Optional[str] = None) -> Result:
        """Structures ``prompt`` (followed by the text of ``files``) by one schema: ``schema``
        (a dict, a JSON string or a pydantic class), ``schema_name`` (a registry schema) or
        ``schema_text`` (a description the schema builder turns into a schema).

        Waits for the result with the GIL released; Ctrl-C cancels the call. Raises SchemaError,
        ConfigError or ProviderError (docs/python.md, "Errors"); need-more-input, stale and the
        other errors are the Result's status."""
        body, compiled, cls = self._request(prompt, schema, schema_name, schema_text, provider,
                                            model, max_loops, evidence, files, tenant, project)
        sink = _structure._Completions()
        error = self._core.submit(sink, 0, body, compiled, False)
        if error is not None:
            raise ValueError(error)
        try:
            item = sink.take(1, None)[0]
        except KeyboardInterrupt:
            self._core.cancel()
            raise
        return _raise_for(Result(item, cls, True))

    async def run_async(self, prompt: Optional[str] = None, *, schema: Any = None,
                        schema_name: Optional[str] = None, schema_text: Optional[str] = None,
                        provider: Optional[str] = None, model: Optional[str] = None,
                        max_loops: Optional[int] = None, evidence: Union[None, bool, str] = None,
                        files: Optional[Sequence[PathLike]] = None,
                        tenant: Optional[str] = None, project: Optional[str] = None) -> Result:
        """run() for asyncio: the engine's own threads do the I/O; the loop is woken when the
        result is in. Cancelling the task drops the result (the call runs to its end)."""
        body, compiled, cls = self._request(prompt, schema, schema_name, schema_text, provider,
                                            model, max_loops, evidence, files, tenant, project)
        loop = asyncio.get_running_loop()
        with self._lock:
            bridge = self._bridges.get(loop)
            if bridge is None:
                bridge = self._bridges[loop] = _AsyncBridge(loop)
        token, future = bridge.add()
        error = self._core.submit(bridge.sink, token, body, compiled, False)
        if error is not None:
            bridge.drop(token)
            raise ValueError(error)
        try:
            item = await future
        finally:
            bridge.drop(token)
        return _raise_for(Result(item, cls, True))

    # Many records ---------------------------------------------------------------------------

    def run_many(self, records: Iterable[Mapping[str, Any]], *, concurrency: int = 32,
                 ordered: bool = True, schema: Any = None, schema_name: Optional[str] = None,
                 schema_text: Optional[str] = None, provider: Optional[str] = None,
                 model: Optional[str] = None, max_loops: Optional[int] = None,
                 evidence: Union[None, bool, str] = None, tenant: Optional[str] = None,
                 project: Optional[str] = None, window: int = 4096) -> Iterator[Result]:
        """Runs every record, ``concurrency`` at a time, and yields their results: in input
        order (``ordered=True``; no record starts more than ``window`` records past the oldest
        one not yet yielded) or as they complete.

        A record is a dict shaped like a line of `structure batch` (docs/batch.md): an optional
        "id" (str or int), "prompt" and any request field ("schema", "schemaName", "maxLoops",
        ...); the keyword arguments are the defaults of the records that do not set them.
        ``records`` is read lazily: one record is taken when a call finishes, and nothing is
        read ahead of what the consumer takes. A record that is not a request is a Result with
        status "error", code "bad_request". A bad default schema raises SchemaError at the first
        result; Ctrl-C cancels the calls under way."""
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f"concurrency: an int >= 1 (was {concurrency!r})")
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ValueError(f"window: an int >= 1 (was {window!r})")
        _one_schema(schema, schema_name, schema_text)
        defaults = _fields(schema_name, schema_text, provider, model, max_loops, evidence, tenant,
                           project)
        compiled, cls = _schema.resolve(schema) if schema is not None else (None, None)
        if "model" in defaults:
            self._core.check_model(defaults["model"], tenant or "", project or "")
        return self._stream(iter(records), defaults, compiled, cls, concurrency, ordered,
                            max(window, concurrency))

    def _stream(self, records: Iterator[Any], defaults: Dict[str, Any], compiled: Any,
                cls: Optional[type], concurrency: int, ordered: bool,
                window: int) -> Iterator[Result]:
        core, sink = self._core, _structure._Completions()
        schema_defaults = {k: defaults.pop(k) for k in ("schemaName", "schemaText")
                           if k in defaults}
        default_schema = compiled is not None or bool(schema_defaults)
        own_schema = set()  # the records that name their own schema
        in_flight = started = next_out = 0
        exhausted = False
        held: Dict[int, Result] = {}
        try:
            while True:
                while (not exhausted and in_flight < concurrency
                       and (not ordered or started - next_out < window)):
                    try:
                        record = next(records)
                    except StopIteration:
                        exhausted = True
                        break
                    if isinstance(record, dict):
                        if default_schema and ("schema" in record or "schemaName" in record
                                               or "schemaText" in record):
                            own_schema.add(started)
                        elif schema_defaults:
                            record = {**schema_defaults, **record}
                        if defaults:
                            record = {**defaults, **record}
                    core.submit(sink, started, record, compiled, True)
                    started += 1
                    in_flight += 1
                if in_flight == 0:
                    return
                batch = sink.take(in_flight, None)
                in_flight -= len(batch)  # taken: a drain below must not wait for them
                for item in batch:
                    result = Result(item, cls, False)
                    if (default_schema and result.code in _SCHEMA_CODES
                            and item[0] not in own_schema):
                        raise SchemaError("; ".join(result.errors), code=result.code,
                                          result=result)
                    own_schema.discard(item[0])
                    if not ordered:
                        yield result
                        continue
                    held[item[0]] = result
                    while next_out in held:
                        yield held.pop(next_out)
                        next_out += 1
        except KeyboardInterrupt:
            core.cancel()
            raise
        finally:
            # Closed early, or an error: the calls under way finish (their results dropped).
            try:
                while in_flight > 0:
                    in_flight -= len(sink.take(in_flight, None))
            except KeyboardInterrupt:
                core.cancel()
                raise

    # The rest -------------------------------------------------------------------------------

    def schemas(self, tenant: Optional[str] = None,
                project: Optional[str] = None) -> List[Tuple[str, str, str]]:
        """The registry schemas a request of this scope may name: (name, version, origin)."""
        return [tuple(s) for s in self._core.schemas(tenant or "", project or "")]

    def cancel(self) -> None:
        """Ends every call under way (their results say "cancelled"); the engine stays usable."""
        self._core.cancel()
