// The provider kinds a config file may name: the loader accepts each of them, and
// docs/providers.md lists exactly these (its "Configuring a provider" table).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/load_config.h"

namespace structure::config {
namespace {

// The `kind` column (backquoted names) of the first table after "## Configuring a provider".
std::set<std::string> DocumentedKinds() {
  std::ifstream in(std::string(STRUCTURE_SOURCE_DIR) + "/docs/providers.md");
  std::set<std::string> kinds;
  std::string line;
  bool in_section = false;
  bool in_table = false;
  int kind_column = -1;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      if (in_section) break;
      in_section = line == "## Configuring a provider";
      continue;
    }
    if (!in_section) continue;
    if (line.rfind("|", 0) != 0) {
      if (in_table) break;
      continue;
    }
    in_table = true;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) cells.push_back(cell);
    if (kind_column < 0) {
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == " kind ") kind_column = static_cast<int>(i);
      }
      continue;
    }
    if (static_cast<size_t>(kind_column) >= cells.size() ||
        cells[kind_column].find("---") != std::string::npos) {
      continue;
    }
    const std::string& c = cells[kind_column];
    for (size_t open = c.find('`'); open != std::string::npos; open = c.find('`', open)) {
      size_t close = c.find('`', open + 1);
      if (close == std::string::npos) break;
      kinds.insert(c.substr(open + 1, close - open - 1));
      open = close + 1;
    }
  }
  return kinds;
}

TEST(ProviderKindsDocTest, DocsListExactlyTheKindsTheLoaderAccepts) {
  std::set<std::string> accepted;
  for (std::string_view k : ProviderKinds()) accepted.emplace(k);
  EXPECT_EQ(DocumentedKinds(), accepted);
}

TEST(ProviderKindsDocTest, EveryKindLoadsFromAFile) {
  for (std::string_view kind : ProviderKinds()) {
    std::string toml = "[providers.p]\nkind = \"" + std::string(kind) +
                       "\"\nmodel = \"m\"\n[aliases]\n\"default:fast\" = \"p\"\n"
                       "\"default:analyze\" = \"p\"\n";
    auto c = ParseConfig(toml, "kinds.toml");
    ASSERT_TRUE(c.ok()) << kind << ": " << c.status().message();
    EXPECT_EQ(c->providers.at("p").kind, kind);
  }
}

TEST(ProviderKindsDocTest, UnknownKindListsTheKnownOnes) {
  auto c = ParseConfig("[providers.p]\nkind = \"llama-cpp\"\n", "kinds.toml");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find(
                "unknown provider kind 'llama-cpp' (known: openai, anthropic, gemini, ollama, "
                "openai-compatible, openrouter, vllm, llamacpp, llamafile)"),
            std::string::npos)
      << c.status().message();
}

}  // namespace
}  // namespace structure::config
