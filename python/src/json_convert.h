// Python objects to and from structure::Json, walking the CPython objects directly (no JSON text
// in between): dict, list, tuple, str, int, float, bool and None.
#pragma once

#include <pybind11/pybind11.h>

#include "structure/json.h"

namespace structure_py {

namespace py = pybind11;

// The nesting a converted value may have (a list that holds itself ends here).
inline constexpr int kMaxDepth = 512;

// `what` names the value in errors: "schema: /properties/age: a set is not a JSON value".
// Raises TypeError for a type JSON has no form of (and a dict key that is not a str), ValueError
// for NaN or infinity, a str with a lone surrogate, or nesting past kMaxDepth.
structure::Json ToJson(py::handle value, const char* what);

// Builds the Python value: objects become dicts (in order), integers beyond 64 bits ints.
py::object FromJson(const structure::Json& value);

}  // namespace structure_py
