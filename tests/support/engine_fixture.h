// A test suite that shares one `structure sim` child among its tests and gives each test a fresh
// Engine on it (in-memory database). Derive as `class FooTest : public EngineFixture<FooTest>`
// and give FooTest a public
//   static std::unique_ptr<ChildProcess> StartSuiteSim(std::string* error);
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "structure/engine.h"
#include "tests/support/child_process.h"

namespace structure::testing {

template <class Suite>
class EngineFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    sim_ = Suite::StartSuiteSim(&error).release();
    ASSERT_NE(sim_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
  }

  // Creates engine_ from `options`, pointed at the suite's simulator. A fatal failure when the
  // simulator did not start or the engine cannot be created (wrap in ASSERT_NO_FATAL_FAILURE).
  void StartEngine(EngineOptions options = {}) {
    ASSERT_NE(sim_, nullptr);
    options.base_url = sim_->base_url();
    options.database = ":memory:";
    auto engine = Engine::Create(std::move(options));
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    engine_ = std::move(*engine);
  }

  // StartEngine with the config parsed from `toml` (`name` is the file name its errors show).
  void StartEngineWithConfig(const char* toml, const char* name) {
    auto cfg = Config::Parse(toml, name);
    ASSERT_TRUE(cfg.ok()) << cfg.status().message();
    EngineOptions o;
    o.config = *cfg;
    StartEngine(std::move(o));
  }

  static inline ChildProcess* sim_ = nullptr;
  std::unique_ptr<Engine> engine_;
};

}  // namespace structure::testing
