// The fixture of the `structure batch --provider-batch` end-to-end tests: a simulator per test
// (as many as a test asks for), the command run as a child process with its output in the test's
// directory, configs and inputs, and readers for OUT, the job's journal and the sim's counters.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <curl/curl.h>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/support/sim_process.h"

namespace structure::testing {

inline const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/batch/";

inline size_t Collect(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

inline Json GetJson(const std::string& url) {
  CURL* c = curl_easy_init();
  std::string body;
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, Collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
  curl_easy_perform(c);
  curl_easy_cleanup(c);
  auto parsed = ParseJson(body);
  return parsed.ok() ? *parsed : Json();
}

// The member at a path of keys, or nullptr.
inline const Json* At(const Json& root, std::initializer_list<std::string_view> keys) {
  const Json* at = &root;
  for (std::string_view k : keys) {
    if (!at->is_object() || !(at = at->find(k))) return nullptr;
  }
  return at;
}

// Output records by key ("\"r7\"" for ids, "line:N" for lines without one).
inline std::map<std::string, std::vector<Json>> ReadOut(const std::string& path) {
  std::map<std::string, std::vector<Json>> out;
  auto text = ReadFile(path);
  if (!text.ok()) return out;
  size_t pos = 0;
  while (pos < text->size()) {
    size_t nl = text->find('\n', pos);
    if (nl == std::string::npos) nl = text->size();
    auto rec = ParseJson(std::string_view(*text).substr(pos, nl - pos));
    pos = nl + 1;
    if (!rec.ok()) {
      out["<bad line>"].push_back(Json());
      continue;
    }
    std::string key = rec->contains("id") ? ToJson(*rec->find("id"))
                                          : "line:" + std::to_string(rec->find("line")->as_int());
    out[key].push_back(std::move(*rec));
  }
  return out;
}

class ProviderBatchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "pbatch_cli_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    mkdir(dir_.c_str(), 0755);
  }
  void TearDown() override {
    sims_.clear();
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  ChildProcess& Sim(std::vector<std::string> args) {
    std::string err;
    args.insert(args.begin(), {"--seed", "7"});
    sims_.push_back(StartSim(STRUCTURE_BINARY, args, &err));
    EXPECT_NE(sims_.back(), nullptr) << err;
    return *sims_.back();
  }

  // `structure batch` with stdout and stderr to files in the test's directory.
  std::unique_ptr<ChildProcess> Start(std::vector<std::string> args, const std::string& tag) {
    std::vector<std::string> argv = {STRUCTURE_BINARY, "batch", "--database", ":memory:"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string error;
    auto child = ChildProcess::Spawn(
        argv, ChildIo{"", dir_ + tag + ".stdout", dir_ + tag + ".stderr"}, &error);
    EXPECT_TRUE(child) << error;
    return child;
  }
  int Run(std::vector<std::string> args, const std::string& tag) {
    return Start(std::move(args), tag)->Wait();
  }
  std::string Err(const std::string& tag) { return ReadFile(dir_ + tag + ".stderr").value(); }

  // A config with one provider of `kind` at the simulator, and default:fast pointing at it.
  std::string Config(const std::string& kind, const std::string& base_url,
                     const std::string& model) {
    std::string path = dir_ + kind + ".toml";
    std::ofstream(path) << "[providers.p]\nkind = \"" << kind << "\"\nbase_url = \"" << base_url
                        << "\"\nmodel = \"" << model << "\"\n[aliases]\n\"default:fast\" = \"p/"
                        << model << "\"\n\"default:analyze\" = \"p/" << model << "\"\n";
    return path;
  }

  // n records on the inline --schema, or (mixed) every other one on a registry schema; the
  // prompts all differ.
  std::string Input(int n, bool mixed = false) {
    std::string path = dir_ + "in.jsonl";
    std::ofstream in(path);
    for (int i = 0; i < n; ++i) {
      in << "{\"id\": \"r" << i << "\", \"prompt\": \"Ticket " << i
         << ": Mike says the export hangs since 4.2." << i % 10 << "\""
         << (mixed && i % 2 ? ", \"schemaName\": \"support-ticket\"" : "") << "}\n";
    }
    return path;
  }

  static Json Stats(ChildProcess& sim) { return GetJson(sim.base_url() + "/stats"); }
  static int64_t Batches(ChildProcess& sim, const char* what) {
    Json s = Stats(sim);
    const Json* b = s.find("batches");
    return b && b->find(what) ? b->find(what)->as_int() : -1;
  }

  // Every record of `out` once, and equal to the same record of `live`.
  void ExpectSameResults(const std::string& live, const std::string& batch, size_t n) {
    auto a = ReadOut(live);
    auto b = ReadOut(batch);
    EXPECT_EQ(a.size(), n);
    EXPECT_EQ(b.size(), n);
    for (const auto& [key, recs] : b) {
      ASSERT_EQ(recs.size(), 1u) << key << " written " << recs.size() << " times";
      auto it = a.find(key);
      ASSERT_NE(it, a.end()) << key;
      EXPECT_EQ(ToJson(recs[0]), ToJson(it->second[0])) << key;
    }
  }

  static int64_t Iterations(const std::string& out) {
    int64_t n = 0;
    for (const auto& [key, recs] : ReadOut(out)) {
      for (const Json& r : recs) n += r.find("iterations") ? r.find("iterations")->as_int() : 0;
    }
    return n;
  }

  std::string dir_;
  std::vector<std::unique_ptr<ChildProcess>> sims_;
};

// The simulator's default provider (kind openai) for small jobs: every record ok in round 1.
inline std::vector<std::string> Base(ChildProcess& sim, std::vector<std::string> extra) {
  std::vector<std::string> a = {"--base-url",
                                sim.base_url() + "/v1",
                                "--schema",
                                kData + "schema.json",
                                "--provider-batch",
                                "--poll-ms",
                                "20",
                                "--max-poll-ms",
                                "100"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// Counts the lines naming `event` in the job's state journal (0 when it is gone).
inline size_t JournalEvents(const std::string& out, const std::string& event) {
  auto text = ReadFile(out + ".pbatch/journal.jsonl");
  if (!text.ok()) return 0;
  size_t n = 0;
  for (size_t at = text->find("{\"" + event + "\""); at != std::string::npos;
       at = text->find("{\"" + event + "\"", at + 1)) {
    ++n;
  }
  return n;
}

inline void ExpectEveryIdOnce(const std::string& out, int n, const std::string& status = "ok") {
  auto recs = ReadOut(out);
  EXPECT_EQ(recs.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    auto it = recs.find("\"r" + std::to_string(i) + "\"");
    ASSERT_NE(it, recs.end()) << "r" << i << " missing";
    ASSERT_EQ(it->second.size(), 1u) << "r" << i << " written " << it->second.size() << " times";
    if (!status.empty()) {
      EXPECT_EQ(it->second[0].find("status")->as_string(), status) << ToJson(it->second[0]);
    }
  }
}

}  // namespace structure::testing
