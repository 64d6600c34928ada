// The extension module structure._structure: the engine's public C++ API (include/structure/)
// as the few primitives the Python package (python/structure/) builds its API from.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "completions.h"
#include "engine_handle.h"
#include "json_convert.h"
#include "structure/config.h"
#include "structure/engine.h"
#include "structure/error_code.h"
#include "structure/request.h"
#include "structure/result.h"

namespace structure_py {
namespace {

using structure::Json;

// Raises structure.errors.<kind>(message).
[[noreturn]] void Raise(const char* kind, const std::string& message) {
  py::object cls = py::module_::import("structure.errors").attr(kind);
  PyErr_SetObject(cls.ptr(), py::str(message).ptr());
  throw py::error_already_set();
}

// A schema converted once and shared by every request that uses it (the engine recognises the
// same object without reading it again).
struct Schema {
  std::shared_ptr<const Json> json;
};

size_t Depth(const Json& j) {
  size_t deepest = 0;
  if (j.is_array()) {
    for (const Json& v : j.as_array()) deepest = std::max(deepest, Depth(v));
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.as_object()) deepest = std::max(deepest, Depth(v));
  } else {
    return 0;
  }
  return deepest + 1;
}

Schema MakeSchema(py::handle value) {
  Json json;
  try {
    json = ToJson(value, "schema");
  } catch (const py::builtin_exception& e) {
    Raise("SchemaError", e.what());
  }
  if (!json.is_object() && !json.is_bool()) {
    Raise("SchemaError", "schema: must be a JSON object or a boolean (was a " +
                             std::string(Py_TYPE(value.ptr())->tp_name) + ")");
  }
  structure::RequestLimits limits;
  if (size_t depth = Depth(json); depth > limits.max_schema_depth) {
    Raise("SchemaError", "schema: nested " + std::to_string(depth) + " levels deep (the limit is " +
                             std::to_string(limits.max_schema_depth) + ")");
  }
  if (size_t bytes = structure::ToJson(json).size(); bytes > limits.max_schema_bytes) {
    Raise("SchemaError", "schema: " + std::to_string(bytes) + " bytes as JSON (the limit is " +
                             std::to_string(limits.max_schema_bytes) + ")");
  }
  return Schema{std::make_shared<const Json>(std::move(json))};
}

// What `raw` is made from, on demand: the result and the record's identity.
struct Raw {
  Json identity;
  structure::StructureResult result;

  std::string Text(bool pretty) const {
    Json body = structure::ResultToJson(result);
    if (!identity.is_object()) return structure::ToJson(body, pretty);
    Json out = identity;  // the record's identity first, as `structure batch` writes it
    for (auto& [k, v] : body.as_object()) out.set(k, std::move(v));
    return structure::ToJson(out, pretty);
  }
};

py::dict UsageDict(const structure::Usage& u) {
  py::dict d;
  d["input_tokens"] = u.input_tokens;
  d["output_tokens"] = u.output_tokens;
  d["cached_input_tokens"] = u.cached_input_tokens;
  d["cache_write_tokens"] = u.cache_write_tokens;
  d["reasoning_tokens"] = u.reasoning_tokens;
  if (u.reasoning_unreported) d["reasoning_unreported"] = true;
  return d;
}

// (token, id, status, data, need, errors, code, usage, iterations, evidence, ungrounded, raw)
py::tuple ResultTuple(Completion&& c) {
  const structure::StructureResult& r = c.result;
  py::object id = py::none();
  if (const Json* given = c.identity.find("id")) {
    id = FromJson(*given);
  } else if (c.identity.is_object()) {
    id = py::int_(c.token);
  }
  py::list errors;
  for (const std::string& e : r.errors) {
    errors.append(py::reinterpret_steal<py::object>(
        PyUnicode_DecodeUTF8(e.data(), static_cast<Py_ssize_t>(e.size()), "replace")));
  }
  py::object code = py::none();
  if (r.status == structure::Outcome::kError)
    code = py::str(structure::ErrorCodeName(r.error_code));
  py::object need = py::none();
  if (r.status == structure::Outcome::kNeedMoreInput) need = py::str(r.need);
  py::object data = r.status == structure::Outcome::kOk ? FromJson(r.data) : py::none();
  py::str status(structure::OutcomeName(r.status));
  py::object evidence = FromJson(r.evidence);
  py::object ungrounded = FromJson(r.ungrounded);
  py::dict usage = UsageDict(r.usage);
  int iterations = r.iterations;
  auto raw = std::make_shared<Raw>(Raw{std::move(c.identity), std::move(c.result)});
  return py::make_tuple(c.token, std::move(id), std::move(status), std::move(data), std::move(need),
                        std::move(errors), std::move(code), std::move(usage), iterations,
                        std::move(evidence), std::move(ungrounded), std::move(raw));
}

// Waits up to `timeout` seconds (None: until one comes) for results, with the GIL released;
// every 100 ms it lets Python's signal handlers run, so Ctrl-C raises KeyboardInterrupt here.
py::list Take(Completions& completions, size_t max, std::optional<double> timeout) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  std::vector<Completion> got;
  for (;;) {
    int slice = 100;
    if (timeout) {
      double left = *timeout - std::chrono::duration<double>(Clock::now() - start).count();
      slice = left <= 0 ? 0 : std::min(100, static_cast<int>(left * 1000) + 1);
    }
    {
      py::gil_scoped_release nogil;
      got = completions.Take(max, slice);
    }
    if (!got.empty() || slice == 0) break;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  py::list out;
  for (Completion& c : got) out.append(ResultTuple(std::move(c)));
  return out;
}

// Starts one record: a dict shaped like a line of `structure batch` (an optional "id", then the
// request fields of docs/engine.md). Returns None when it started, else the message of why it
// could not (also pushed to `sink` as an error result with code bad_request).
py::object Submit(EngineHandle& engine, const std::shared_ptr<Completions>& sink, uint64_t token,
                  py::handle record, const Schema* default_schema, bool batch_identity) {
  std::string where = batch_identity ? "record " + std::to_string(token) + ": " : "";
  Json identity;
  if (batch_identity) identity = Json::MakeObject();
  auto fail = [&](const std::string& message) -> py::object {
    structure::StructureResult r;
    r.status = structure::Outcome::kError;
    r.error_code = structure::ErrorCode::kBadRequest;
    r.errors.push_back(where + message);
    if (batch_identity && !identity.contains("id")) identity.set("line", Json(int64_t(token) + 1));
    sink->Push(Completion{token, std::move(identity), std::move(r)});
    return py::str(where + message);
  };
  if (!PyDict_Check(record.ptr())) {
    return fail(std::string("a record is a dict of request fields (was a ") +
                Py_TYPE(record.ptr())->tp_name + ")");
  }
  Json body;
  try {
    body = ToJson(record, "record");
  } catch (const py::builtin_exception& e) {
    std::string m = e.what();
    return fail(m.substr(m.find(' ') + 1));  // drop the leading "record:"
  }
  if (batch_identity) {
    if (const Json* id = body.find("id")) {
      if (!id->is_string() && !id->is_int()) return fail("id: must be a string or an integer");
      identity.set("id", *id);
      body.erase("id");
    } else {
      identity.set("line", Json(int64_t(token) + 1));
    }
  }
  structure::Status status;
  structure::Status engine_down;
  {
    py::gil_scoped_release nogil;
    auto request =
        structure::ParseRequest(body, {}, default_schema ? default_schema->json : nullptr);
    if (request.ok()) {
      engine_down = engine.Submit(std::move(*request), sink, token, identity);
    } else {
      status = request.status();
    }
  }
  if (!engine_down.ok()) Raise("ConfigError", engine_down.message());  // it cannot restart
  if (!status.ok()) return fail(status.message());
  return py::none();
}

std::unique_ptr<EngineHandle> CreateEngine(std::optional<std::string> config_text,
                                           const std::string& config_source,
                                           std::optional<std::string> config_path,
                                           const std::string& provider, const std::string& base_url,
                                           const std::string& registry_dir,
                                           const std::string& database) {
  structure::EngineOptions options;
  if (config_path) {
    auto config = structure::Config::Load(*config_path);
    if (!config.ok()) Raise("ConfigError", config.status().message());
    options.config = std::move(*config);
  } else if (config_text) {
    auto config = structure::Config::Parse(*config_text, config_source);
    if (!config.ok()) Raise("ConfigError", config.status().message());
    options.config = std::move(*config);
  }
  options.provider = provider;
  options.base_url = base_url;
  options.registry_dir = registry_dir;
  options.database = database;
  options.names.provider = "provider=";
  options.names.base_url = "base_url=";
  options.names.registry_dir = "registry_dir=";
  options.names.database = "database=";
  std::optional<structure::Result<std::unique_ptr<EngineHandle>>> handle;
  {
    py::gil_scoped_release nogil;
    handle.emplace(EngineHandle::Create(std::move(options)));
  }
  if (!handle->ok()) Raise("ConfigError", handle->status().message());
  return std::move(**handle);
}

}  // namespace
}  // namespace structure_py

PYBIND11_MODULE(_structure, m) {
  using namespace structure_py;
  m.doc() = "The structure engine's primitives; use the structure package's API instead.";

  py::class_<Schema>(m, "_Schema").def(py::init(&MakeSchema), py::arg("schema"));

  py::class_<Raw, std::shared_ptr<Raw>>(m, "_Raw").def("text", &Raw::Text, py::arg("pretty"));

  py::class_<Completions, std::shared_ptr<Completions>>(m, "_Completions")
      .def(py::init<>())
      .def("take", &Take, py::arg("max"), py::arg("timeout"))
      .def("fileno", &Completions::EventFd);

  py::class_<EngineHandle>(m, "_Engine")
      .def(py::init(&CreateEngine), py::arg("config_text"), py::arg("config_source"),
           py::arg("config_path"), py::arg("provider"), py::arg("base_url"),
           py::arg("registry_dir"), py::arg("database"))
      .def("submit", &Submit, py::arg("sink"), py::arg("token"), py::arg("record"),
           py::arg("default_schema"), py::arg("batch_identity"))
      .def("cancel", &EngineHandle::Cancel, py::call_guard<py::gil_scoped_release>())
      .def("check_model",
           [](const EngineHandle& e, const std::string& model, const std::string& tenant,
              const std::string& project) {
             structure::Status s = e.CheckModel(model, tenant, project);
             if (!s.ok())
               Raise("ConfigError", (model.empty() ? "" : "model " + model + ": ") + s.message());
           })
      .def("schemas",
           [](const EngineHandle& e, const std::string& tenant, const std::string& project) {
             auto list = e.ListSchemas(tenant, project);
             if (!list.ok()) throw py::value_error(list.status().message());
             py::list out;
             for (const auto& s : *list) out.append(py::make_tuple(s.name, s.version, s.origin));
             return out;
           });
}
