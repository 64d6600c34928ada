// Test helper: the real-world schema corpus (tests/corpora/realworld-schemas).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "base/json.h"
#include "base/read_file.h"

namespace structure::pipeline::testing {

struct CorpusFile {
  std::string name;
  Json schema;
  bool parsed = false;
  std::string parse_error;
};

inline std::vector<CorpusFile> LoadCorpus() {
  std::vector<CorpusFile> out;
  std::filesystem::path dir = std::filesystem::path(STRUCTURE_CORPORA_DIR) / "realworld-schemas";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".json") continue;
    CorpusFile f;
    f.name = entry.path().filename().string();
    Result<std::string> text = ReadFile(entry.path().string());
    if (!text.ok()) {
      f.parse_error = text.status().message();
    } else if (Result<Json> j = ParseJson(*text, {.max_depth = 512, .source = f.name}); j.ok()) {
      f.schema = std::move(*j);
      f.parsed = true;
    } else {
      f.parse_error = j.status().message();
    }
    out.push_back(std::move(f));
  }
  // A missing or empty corpus fails the test that asked for it, naming the folder.
  if (ec) ADD_FAILURE() << "test corpus unreadable: " << dir << " (" << ec.message() << ")";
  if (out.empty()) ADD_FAILURE() << "test corpus empty: no .json file in " << dir;
  std::sort(out.begin(), out.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return out;
}

}  // namespace structure::pipeline::testing
