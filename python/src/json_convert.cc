#include "json_convert.h"

#include <cmath>
#include <string>

namespace structure_py {
namespace {

using structure::Json;

// A conversion error under construction: the message, and the JSON pointer of where it happened,
// built while the recursion unwinds.
struct ConvertError {
  bool type_error;
  std::string message;
  std::string pointer;
};

std::string EscapePointerToken(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string TypeName(PyObject* o) { return Py_TYPE(o)->tp_name; }

std::string_view Utf8(PyObject* s) {
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(s, &n);
  if (p == nullptr) {
    PyErr_Clear();
    throw ConvertError{false, "a str that is not valid Unicode (a lone surrogate): no UTF-8 form",
                       ""};
  }
  return std::string_view(p, static_cast<size_t>(n));
}

Json Convert(PyObject* o, int depth) {
  if (depth > kMaxDepth) {
    throw ConvertError{false, "nested deeper than " + std::to_string(kMaxDepth) + " levels", ""};
  }
  if (o == Py_None) return Json();
  if (PyBool_Check(o)) return Json(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) return Json(static_cast<int64_t>(v));
    py::str digits = py::str(py::handle(o));
    return Json::MakeBigInteger(std::string(digits));
  }
  if (PyFloat_Check(o)) {
    double d = PyFloat_AS_DOUBLE(o);
    if (!std::isfinite(d)) {
      throw ConvertError{
          false, "the float " + std::string(py::str(py::handle(o))) + " has no JSON form", ""};
    }
    return Json(d);
  }
  if (PyUnicode_Check(o)) return Json(std::string(Utf8(o)));
  if (PyList_Check(o) || PyTuple_Check(o)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    PyObject** items = PySequence_Fast_ITEMS(o);
    Json::Array array;
    array.reserve(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      try {
        array.push_back(Convert(items[i], depth + 1));
      } catch (ConvertError& e) {
        e.pointer = "/" + std::to_string(i) + e.pointer;
        throw;
      }
    }
    return Json(std::move(array));
  }
  if (PyDict_Check(o)) {
    Json object = Json::MakeObject();
    PyObject* key = nullptr;
    PyObject* value = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &value)) {
      if (!PyUnicode_Check(key)) {
        throw ConvertError{true, "a key of type " + TypeName(key) + " (JSON keys are str)", ""};
      }
      std::string_view k = Utf8(key);
      try {
        object.set(k, Convert(value, depth + 1));
      } catch (ConvertError& e) {
        e.pointer = "/" + EscapePointerToken(k) + e.pointer;
        throw;
      }
    }
    return object;
  }
  throw ConvertError{true, "a " + TypeName(o) + " is not a JSON value", ""};
}

}  // namespace

Json ToJson(py::handle value, const char* what) {
  try {
    return Convert(value.ptr(), 0);
  } catch (const ConvertError& e) {
    std::string message =
        std::string(what) + ": " + (e.pointer.empty() ? "" : e.pointer + ": ") + e.message;
    if (e.type_error) throw py::type_error(message);
    throw py::value_error(message);
  }
}

py::object FromJson(const Json& value) {
  switch (value.type()) {
    case Json::Type::kNull:
      return py::none();
    case Json::Type::kBool:
      return py::bool_(value.as_bool());
    case Json::Type::kInt:
      return py::reinterpret_steal<py::object>(PyLong_FromLongLong(value.as_int()));
    case Json::Type::kDouble: {
      if (!value.big_integer().empty()) {
        std::string digits(value.big_integer());
        PyObject* n = PyLong_FromString(digits.c_str(), nullptr, 10);
        if (n == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(n);
      }
      return py::reinterpret_steal<py::object>(PyFloat_FromDouble(value.as_double()));
    }
    case Json::Type::kString: {
      const std::string& s = value.as_string();
      PyObject* str = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
      if (str == nullptr) throw py::error_already_set();
      return py::reinterpret_steal<py::object>(str);
    }
    case Json::Type::kArray: {
      const Json::Array& a = value.as_array();
      PyObject* list = PyList_New(static_cast<Py_ssize_t>(a.size()));
      if (list == nullptr) throw py::error_already_set();
      py::object owned = py::reinterpret_steal<py::object>(list);
      for (size_t i = 0; i < a.size(); ++i) {
        PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), FromJson(a[i]).release().ptr());
      }
      return owned;
    }
    case Json::Type::kObject: {
      py::dict dict;
      for (const auto& [k, v] : value.as_object()) {
        PyObject* key =
            PyUnicode_DecodeUTF8(k.data(), static_cast<Py_ssize_t>(k.size()), "replace");
        if (key == nullptr) throw py::error_already_set();
        py::object owned_key = py::reinterpret_steal<py::object>(key);
        py::object item = FromJson(v);
        if (PyDict_SetItem(dict.ptr(), key, item.ptr()) != 0) throw py::error_already_set();
      }
      return dict;
    }
  }
  return py::none();
}

}  // namespace structure_py
