// Scaling of Json objects with their member count: parsing an object, building
// one with set(), looking every member up, and compiling a schema whose $defs has that many
// entries each referenced from `properties`. Linear means the time per member stays flat from
// 1 000 to 1 000 000 members (see docs/validator.md for the numbers and the command).
// BM_ParseArray parses the same keys and values as an array (nothing to index): the yardstick
// for what the memory system alone adds at a size.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "base/json.h"
#include "pipeline/validator/validator.h"

namespace {

std::string Key(int64_t i) { return "member_" + std::to_string(i); }

std::string ObjectText(int64_t n, bool as_array = false) {
  std::string text = as_array ? "[" : "{";
  for (int64_t i = 0; i < n; ++i) {
    if (i) text += ',';
    text += "\"" + Key(i) + (as_array ? "\"," : "\":") + std::to_string(i);
  }
  return text + (as_array ? "]" : "}");
}

// {"properties":{"p<i>":{"$ref":"#/$defs/d<i>"}...},"$defs":{"d<i>":{"type":"integer"}...}}
std::string DefsSchemaText(int64_t n) {
  std::string props, defs;
  for (int64_t i = 0; i < n; ++i) {
    if (i) {
      props += ',';
      defs += ',';
    }
    props += "\"p" + std::to_string(i) + "\":{\"$ref\":\"#/$defs/d" + std::to_string(i) + "\"}";
    defs += "\"d" + std::to_string(i) +
            "\":{\"type\":\"integer\",\"minimum\":" + std::to_string(i) + "}";
  }
  return "{\"type\":\"object\",\"properties\":{" + props + "},\"$defs\":{" + defs + "}}";
}

void Finish(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * state.range(0));  // items/s = members per second
  state.SetComplexityN(state.range(0));
}

void BM_ParseObject(benchmark::State& state) {
  std::string text = ObjectText(state.range(0));
  for (auto _ : state) {
    auto parsed = structure::ParseJson(text);
    if (!parsed.ok() || parsed->size() != static_cast<size_t>(state.range(0)))
      state.SkipWithError("parse");
    benchmark::DoNotOptimize(parsed);
  }
  Finish(state);
}

void BM_ParseArray(benchmark::State& state) {
  std::string text = ObjectText(state.range(0), true);
  for (auto _ : state) {
    auto parsed = structure::ParseJson(text);
    if (!parsed.ok()) state.SkipWithError("parse");
    benchmark::DoNotOptimize(parsed);
  }
  Finish(state);
}

void BM_BuildObject(benchmark::State& state) {
  std::vector<std::string> keys;
  for (int64_t i = 0; i < state.range(0); ++i) keys.push_back(Key(i));
  for (auto _ : state) {
    structure::Json o = structure::Json::MakeObject();
    for (int64_t i = 0; i < state.range(0); ++i) o.set(keys[i], i);
    benchmark::DoNotOptimize(o);
  }
  Finish(state);
}

void BM_FindEveryMember(benchmark::State& state) {
  auto parsed = structure::ParseJson(ObjectText(state.range(0)));
  const structure::Json& o = *parsed;
  std::vector<std::string> keys;
  for (int64_t i = 0; i < state.range(0); ++i) keys.push_back(Key(i));
  for (auto _ : state) {
    for (const std::string& k : keys) benchmark::DoNotOptimize(o.find(k));
  }
  Finish(state);
}

void BM_CompileDefs(benchmark::State& state) {
  std::string text = DefsSchemaText(state.range(0));
  for (auto _ : state) {
    auto parsed = structure::ParseJson(text);
    auto compiled = parsed.ok()
                        ? structure::pipeline::CompileSchema(*parsed)
                        : decltype(structure::pipeline::CompileSchema(*parsed))(parsed.status());
    if (!compiled.ok()) state.SkipWithError("compile");
    benchmark::DoNotOptimize(compiled);
  }
  Finish(state);
}

#define STRUCTURE_SCALING(bm)         \
  BENCHMARK(bm)                       \
      ->RangeMultiplier(10)           \
      ->Range(1000, 1000000)          \
      ->Unit(benchmark::kMillisecond) \
      ->Complexity()

STRUCTURE_SCALING(BM_ParseObject);
STRUCTURE_SCALING(BM_ParseArray);
STRUCTURE_SCALING(BM_BuildObject);
STRUCTURE_SCALING(BM_FindEveryMember);
STRUCTURE_SCALING(BM_CompileDefs);

}  // namespace

BENCHMARK_MAIN();
