#include "apps/structure/args.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace structure::apps {
namespace {

// "--x", "--", "-h": what Parse reads as a flag. A negative number ("-1", "-0.5") is a value.
bool LooksLikeFlag(const std::string& a) {
  if (a == "-h" || a == "--") return true;
  return a.size() >= 3 && a[0] == '-' && a[1] == '-';
}

}  // namespace

Result<Args> Args::Parse(const std::vector<std::string>& args, const std::vector<FlagSpec>& spec) {
  Args out;
  auto find = [&](const std::string& name) -> const FlagSpec* {
    for (const auto& f : spec) {
      if (f.name == name) return &f;
    }
    return nullptr;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      out.help_ = true;
      continue;
    }
    if (a == "--") {
      out.positional_.insert(out.positional_.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (a.size() < 3 || a[0] != '-' || a[1] != '-') {
      out.positional_.push_back(a);
      continue;
    }
    std::string name = a.substr(2);
    std::string value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    const FlagSpec* f = find(name);
    if (f == nullptr) return NotFound("unknown flag --" + name);
    if (f->takes_value) {
      if (!inline_value) {
        if (i + 1 >= args.size()) return InvalidArgument("flag --" + name + " needs a value");
        // A value that looks like a flag is almost always a forgotten value: `--prompt
        // --final-tool` must not send "--final-tool" as the prompt.
        const std::string& next = args[i + 1];
        if (LooksLikeFlag(next)) {
          return InvalidArgument(
              "flag --" + name + " needs a value, but the next argument '" + next +
              "' is a flag; to give a value that starts with '-', write --" + name + "=" + next);
        }
        value = args[++i];
      }
    } else if (inline_value) {
      return InvalidArgument("flag --" + name + " takes no value");
    }
    auto& slot = out.values_[name];
    if (!slot.empty() && !f->repeated) {
      return InvalidArgument("flag --" + name + " given more than once");
    }
    slot.push_back(value);
  }
  return out;
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() || it->second.empty() ? fallback : it->second.back();
}

const std::vector<std::string>& Args::all(const std::string& name) const {
  static const std::vector<std::string> kEmpty;
  auto it = values_.find(name);
  return it == values_.end() ? kEmpty : it->second;
}

Result<long long> Args::GetInt(const std::string& name, long long fallback) const {
  if (!has(name)) return fallback;
  std::string v = get(name);
  long long out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size()) {
    return InvalidArgument("flag --" + name + " needs a whole number (was '" + v + "')");
  }
  return out;
}

Result<double> Args::GetDouble(const std::string& name, double fallback) const {
  if (!has(name)) return fallback;
  std::string v = get(name);
  char* end = nullptr;
  double out = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(out)) {
    return InvalidArgument("flag --" + name + " needs a finite number (was '" + v + "')");
  }
  return out;
}

std::string Usage(const std::string& usage_line, const std::string& description,
                  const std::vector<FlagSpec>& spec) {
  std::string out = "usage: " + usage_line + "\n\n" + description + "\n";
  if (!spec.empty()) out += "\nflags:\n";
  for (const auto& f : spec) {
    std::string left = "  --" + f.name + (f.takes_value ? " VALUE" : "");
    if (left.size() < 24) left.append(24 - left.size(), ' ');
    out += left + " " + f.help + "\n";
  }
  out += "  --help                 show this help\n";
  return out;
}

std::optional<Args> ParseOrHelp(const std::string& command, const std::vector<std::string>& args,
                                const std::vector<FlagSpec>& spec, const std::string& usage_line,
                                const std::string& description, int& exit_code) {
  auto parsed = Args::Parse(args, spec);
  if (!parsed.ok()) {
    std::string message = parsed.status().message();
    if (parsed.status().code() == Code::kNotFound) {  // an unknown flag
      message += " (structure help " + command + " lists the flags of " + command + ")";
    }
    std::fprintf(stderr, "structure %s: %s\n", command.c_str(), message.c_str());
    exit_code = 2;
    return std::nullopt;
  }
  if (parsed->help()) {
    std::printf("%s", Usage(usage_line, description, spec).c_str());
    exit_code = 0;
    return std::nullopt;
  }
  return std::move(*parsed);
}

}  // namespace structure::apps
