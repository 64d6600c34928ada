// Cross-check against valijson 1.0 (Debian libvalijson-dev) on draft-07: our verdicts and
// valijson's agree on the draft-07 test suite and on mutated bench instances, except where
// valijson is known to be wrong (tests/data/validator/valijson_known_bugs.txt, one
// "<file>|<group>" per line with the reason). valijson lives only in this file: it compiles slowly.
#define VALIJSON_USE_EXCEPTIONS 1

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

namespace fs = std::filesystem;

const fs::path kSuiteRoot = fs::path(STRUCTURE_CORPORA_DIR) / "json-schema-test-suite";
const fs::path kSuite = kSuiteRoot / "tests/draft7";

// The suite's remote-reference tests assume its remotes/ folder served at localhost:1234.
// Without them those $refs cannot resolve, and failing closed rightly refuses the schema.
const std::map<std::string, Json>& Remotes() {
  static const std::map<std::string, Json> remotes = [] {
    std::map<std::string, Json> out;
    const fs::path root = kSuiteRoot / "remotes";
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      std::ifstream in(entry.path());
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      auto doc = ParseJson(text);
      if (doc.ok())
        out["http://localhost:1234/" + fs::relative(entry.path(), root).generic_string()] = *doc;
    }
    return out;
  }();
  return remotes;
}

std::set<std::string> KnownBugs() {
  std::set<std::string> out;
  std::ifstream in(fs::path(STRUCTURE_SOURCE_DIR) / "tests/data/validator/valijson_known_bugs.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    out.insert(line.substr(0, line.find("  #")));
  }
  return out;
}

// A schema compiled by both validators; valijson_ok is false when valijson rejects the schema.
struct Pair {
  valijson::Schema valijson;
  bool valijson_ok = false;
  std::shared_ptr<const Validator> ours;

  explicit Pair(const nlohmann::json& schema_doc) {
    try {
      valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
      valijson::adapters::NlohmannJsonAdapter adapter(schema_doc);
      parser.populateSchema(adapter, valijson);
      valijson_ok = true;
    } catch (const std::exception&) {
      valijson_ok = false;
    }
    ValidatorOptions options;
    options.default_draft = Draft::kDraft7;
    options.resources = Remotes();
    auto parsed = ParseJson(schema_doc.dump());
    if (!parsed.ok()) return;
    auto compiled = CompileSchema(*parsed, options);
    if (compiled.ok()) ours = *compiled;
  }

  std::optional<bool> Theirs(const nlohmann::json& instance) const {
    try {
      valijson::Validator validator;
      valijson::adapters::NlohmannJsonAdapter target(instance);
      return validator.validate(valijson, target, nullptr);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  bool Ours(const nlohmann::json& instance) const {
    auto r = ours->ValidateText(instance.dump());
    return r.ok() && r->valid;
  }
};

TEST(ValidatorValijson, AgreesOnDraft7SuiteExceptKnownValijsonBugs) {
  std::set<std::string> known = KnownBugs();
  int agree = 0, skipped_known = 0, valijson_rejected = 0;
  std::vector<std::string> disagreements;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kSuite)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file);
    nlohmann::json groups = nlohmann::json::parse(in);
    std::string name = file.filename().string();
    for (const auto& group : groups) {
      std::string key = name + "|" + group["description"].get<std::string>();
      if (known.count(name + "|*") || known.count(key)) {
        ++skipped_known;
        continue;
      }
      Pair pair(group["schema"]);
      ASSERT_NE(pair.ours, nullptr) << key;
      for (const auto& test : group["tests"]) {
        auto theirs = pair.valijson_ok ? pair.Theirs(test["data"]) : std::nullopt;
        if (!theirs) {
          ++valijson_rejected;
          continue;
        }
        bool ours = pair.Ours(test["data"]);
        if (ours == *theirs) {
          ++agree;
        } else {
          disagreements.push_back(key + "|" + test["description"].get<std::string>() + " (ours " +
                                  (ours ? "valid" : "invalid") + ")");
        }
      }
    }
  }
  std::string list;
  for (const std::string& d : disagreements) list += "  " + d + "\n";
  EXPECT_TRUE(disagreements.empty()) << disagreements.size() << " disagreements:\n" << list;
  EXPECT_GT(agree, 600) << "skipped known: " << skipped_known
                        << ", valijson rejected: " << valijson_rejected;
}

// The bench schemas without `format` (valijson 1.0 checks only date/time formats), against the
// valid instance and one mutation per property: removed, null, 0, "x", [] and {}.
TEST(ValidatorValijson, AgreesOnMutatedBenchInstances) {
  const fs::path bench = fs::path(STRUCTURE_CORPORA_DIR) / "bench-schemas";
  int compared = 0;
  for (const char* name : {"s1_action", "s2_order", "s3_profile"}) {
    std::ifstream schema_in(bench / (std::string(name) + ".schema.json"));
    nlohmann::json schema = nlohmann::json::parse(schema_in);
    std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& j) {
      if (j.is_object()) {
        j.erase("format");
        j.erase("$schema");
        for (auto& [k, v] : j.items()) strip(v);
      } else if (j.is_array()) {
        for (auto& v : j) strip(v);
      }
    };
    strip(schema);
    std::ifstream valid_in(bench / (std::string(name) + ".valid.json"));
    nlohmann::json valid = nlohmann::json::parse(valid_in);
    std::vector<nlohmann::json> instances{valid};
    for (auto& [key, value] : valid.items()) {
      nlohmann::json removed = valid;
      removed.erase(key);
      instances.push_back(removed);
      for (const nlohmann::json& replacement :
           {nlohmann::json(nullptr), nlohmann::json(0), nlohmann::json("x"),
            nlohmann::json::array(), nlohmann::json::object()}) {
        nlohmann::json changed = valid;
        changed[key] = replacement;
        instances.push_back(changed);
      }
    }
    Pair pair(schema);
    ASSERT_TRUE(pair.valijson_ok && pair.ours != nullptr) << name;
    for (const nlohmann::json& instance : instances) {
      auto theirs = pair.Theirs(instance);
      ASSERT_TRUE(theirs.has_value()) << name;
      bool ours = pair.Ours(instance);
      EXPECT_EQ(ours, *theirs) << name << ": " << instance.dump().substr(0, 300);
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);
}

}  // namespace
}  // namespace structure::pipeline
