#include "tests/bad_inputs/table.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "base/hex.h"

namespace structure::testing {
namespace {

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return fields;
}

}  // namespace

std::vector<Row> LoadRows(const std::string& dir, std::vector<std::string>* errors) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".tsv") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<Row> rows;
  std::set<std::string> names;
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    int number = 0;
    const std::string file = std::filesystem::path(path).filename().string();
    while (std::getline(in, line)) {
      ++number;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f = SplitTabs(line);
      const std::string at = file + ":" + std::to_string(number) + ": ";
      if (f.size() != 5) {
        errors->push_back(at + "expected 5 tab-separated fields, found " +
                          std::to_string(f.size()));
        continue;
      }
      Row row{file, number, f[0], f[1], f[2], f[3], f[4]};
      if (row.kind != "cli" && row.kind != "http" && row.kind != "mcp" && row.kind != "reply") {
        errors->push_back(at + "unknown kind '" + row.kind + "' (cli, http, mcp, reply)");
        continue;
      }
      if (!names.insert(row.name).second) {
        errors->push_back(at + "duplicate row name '" + row.name + "'");
        continue;
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string Unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char e = s[i + 1];
    switch (e) {
      case 'n':
        out += '\n';
        ++i;
        break;
      case 'r':
        out += '\r';
        ++i;
        break;
      case 't':
        out += '\t';
        ++i;
        break;
      case '0':
        out += '\0';
        ++i;
        break;
      case '\\':
        out += '\\';
        ++i;
        break;
      case 'x':
        if (i + 3 < s.size() && HexDigitValue(s[i + 2]) >= 0 && HexDigitValue(s[i + 3]) >= 0) {
          out += static_cast<char>(HexDigitValue(s[i + 2]) * 16 + HexDigitValue(s[i + 3]));
          i += 3;
          break;
        }
        [[fallthrough]];
      default:
        out += '\\';
    }
  }
  return out;
}

std::string SanitizerReport(std::string_view text) {
  static const char* const kMarkers[] = {
      "runtime error:", "ERROR: AddressSanitizer",    "ERROR: LeakSanitizer",
      "LeakSanitizer",  "UndefinedBehaviorSanitizer", "AddressSanitizer:"};
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    for (const char* marker : kMarkers) {
      if (line.find(marker) != std::string_view::npos) return std::string(line);
    }
    start = end + 1;
  }
  return "";
}

std::string Excerpt(std::string_view text, size_t max) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      if (!out.empty() && out.back() != ' ') out += ' ';  // white space folded: one line
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace structure::testing
