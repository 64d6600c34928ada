// A getenv stand-in over a fixed map, for code that reads the environment through GetEnvFn.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "providers/endpoint.h"

namespace structure::providers {

inline GetEnvFn FakeEnv(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

}  // namespace structure::providers
