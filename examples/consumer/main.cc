// Embeds the engine through its public headers only: starts an engine and lists the bundled
// schemas; with --run it also sends one request to the configured provider (by default the
// local simulator on 127.0.0.1:8089).
#include <cstdio>
#include <cstring>

#include "structure/engine.h"

int main(int argc, char** argv) {
  structure::EngineOptions options;  // built-in configuration: the simulator provider
  options.database = ":memory:";
  auto engine = structure::Engine::Create(options);
  if (!engine.ok()) {
    std::fprintf(stderr, "engine: %s\n", engine.status().message().c_str());
    return 1;
  }
  auto schemas = (*engine)->ListSchemas();
  if (!schemas.ok()) {
    std::fprintf(stderr, "schemas: %s\n", schemas.status().message().c_str());
    return 1;
  }
  std::printf("bundled schemas: %zu\n", schemas->size());
  if (argc > 1 && std::strcmp(argv[1], "--run") == 0) {
    auto request = structure::ParseRequest(*structure::ParseJson(
        R"({"prompt":"Mike broke the build today at 9:00 UTC","schema":"user-action-record"})"));
    if (!request.ok()) return 1;
    structure::StructureResult result = (*engine)->Run(*request);
    std::printf("%s\n",
                structure::ToJson(structure::ResultToJson(std::move(result)), true).c_str());
  }
  return 0;
}
