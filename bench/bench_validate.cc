// Validator speed on tests/corpora/bench-schemas (s1_action, s2_order, s3_profile), valid
// and invalid instances: parsed document (simdjson element) and text -> verdict, first-error
// and all-errors modes. Compared with ajv 8 in docs/validator.md ("Benchmark").
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <simdjson.h>

#include "base/read_file.h"
#include "pipeline/validator/validator.h"

namespace {

using structure::pipeline::CompileSchema;
using structure::pipeline::Validator;

struct Case {
  std::shared_ptr<const Validator> validator;
  std::string text;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
};

std::string Load(const std::string& name) {
  auto text = structure::ReadFile(std::string(STRUCTURE_CORPORA_DIR) + "/bench-schemas/" + name);
  if (!text.ok()) {
    std::fprintf(stderr, "%s\n", text.status().message().c_str());
    std::exit(1);
  }
  return *text;
}

Case* GetCase(const std::string& schema, const std::string& instance) {
  auto* c = new Case();  // lives for the whole run
  auto parsed = structure::ParseJson(Load(schema + ".schema.json"));
  auto compiled = CompileSchema(*parsed);
  if (!parsed.ok() || !compiled.ok()) std::exit(1);
  c->validator = *compiled;
  c->text = Load(schema + "." + instance + ".json");
  if (c->parser.parse(c->text).get(c->doc) != simdjson::SUCCESS) std::exit(1);
  return c;
}

void BM_ValidateParsed(benchmark::State& state, const std::string& schema,
                       const std::string& instance, bool all_errors) {
  Case* c = GetCase(schema, instance);
  bool expected = instance == "valid";
  for (auto _ : state) {
    auto result = c->validator->Validate(c->doc, all_errors);
    if (result.valid != expected) state.SkipWithError("unexpected verdict");
    benchmark::DoNotOptimize(result);
  }
}

void BM_ValidateText(benchmark::State& state, const std::string& schema,
                     const std::string& instance, bool all_errors) {
  Case* c = GetCase(schema, instance);
  bool expected = instance == "valid";
  for (auto _ : state) {
    auto result = c->validator->ValidateText(c->text, all_errors);
    if (!result.ok() || result->valid != expected) state.SkipWithError("unexpected verdict");
    benchmark::DoNotOptimize(result);
  }
}

// Same-run baseline: visits every element of the parsed instance (type of each value, length of
// each key), the least any validator must do. Validation time / walk time is comparable across
// machines and load levels where absolute times are not.
size_t Walk(const simdjson::dom::element& e) {
  size_t n = static_cast<size_t>(e.type());
  if (e.type() == simdjson::dom::element_type::OBJECT) {
    simdjson::dom::object obj = e.get_object().value_unsafe();
    for (auto field : obj) n += field.key.size() + Walk(field.value);
  } else if (e.type() == simdjson::dom::element_type::ARRAY) {
    simdjson::dom::array arr = e.get_array().value_unsafe();
    for (simdjson::dom::element item : arr) n += Walk(item);
  }
  return n;
}

void BM_Walk(benchmark::State& state, const std::string& schema) {
  Case* c = GetCase(schema, "valid");
  for (auto _ : state) benchmark::DoNotOptimize(Walk(c->doc));
}

void BM_Compile(benchmark::State& state, const std::string& schema) {
  auto parsed = structure::ParseJson(Load(schema + ".schema.json"));
  for (auto _ : state) {
    auto compiled = CompileSchema(*parsed);
    benchmark::DoNotOptimize(compiled);
  }
}

void Register() {
  for (const char* schema : {"s1_action", "s2_order", "s3_profile"}) {
    for (const char* instance : {"valid", "invalid"}) {
      for (bool all : {false, true}) {
        std::string suffix =
            std::string(schema) + "/" + instance + (all ? "/all_errors" : "/first_error");
        benchmark::RegisterBenchmark(("BM_ValidateParsed/" + suffix).c_str(), BM_ValidateParsed,
                                     schema, instance, all);
        benchmark::RegisterBenchmark(("BM_ValidateText/" + suffix).c_str(), BM_ValidateText, schema,
                                     instance, all);
      }
    }
    benchmark::RegisterBenchmark((std::string("BM_Compile/") + schema).c_str(), BM_Compile, schema);
    benchmark::RegisterBenchmark((std::string("BM_Walk/") + schema).c_str(), BM_Walk, schema);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
