// Embeds the engine: builds one request and, with --run, sends it to the configured provider
// (by default the local simulator on 127.0.0.1:8089). Without --run it only checks that an
// engine starts and lists the bundled schemas.
#include <cstdio>
#include <cstring>

#include "engine/engine.h"
#include "registry/schema_registry.h"

int main(int argc, char** argv) {
  structure::EngineOptions options;  // built-in defaults: the simulator provider
  options.database = ":memory:";
  auto engine = structure::Engine::Create(options);
  if (!engine.ok()) {
    std::fprintf(stderr, "engine: %s\n", engine.status().message().c_str());
    return 1;
  }
  auto schemas = (*engine)->schemas().List({});
  if (!schemas.ok()) return 1;
  std::printf("bundled schemas: %zu\n", schemas->size());
  if (argc > 1 && std::strcmp(argv[1], "--run") == 0) {
    auto request = structure::pipeline::ParseRequest(*structure::ParseJson(
        R"({"prompt":"Mike broke the build today at 9:00 UTC","schema":"user-action-record"})"));
    auto result = (*engine)->Run(*request);
    std::printf("%s\n", structure::ToJson(structure::pipeline::ResultToJson(result), true).c_str());
  }
  return 0;
}
