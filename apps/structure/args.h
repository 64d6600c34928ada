// A small flag parser for subcommands: --flag VALUE, --flag=VALUE, boolean --flag, positionals,
// and --help. Unknown flags and missing values are errors that name the flag. A value that looks
// like a flag ("--x", "--", "-h") must be given as --flag=VALUE: `--prompt --final-tool` is an
// error, never the prompt "--final-tool".
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "structure/status.h"

namespace structure::apps {

struct FlagSpec {
  std::string name;       // without dashes: "schema"
  bool takes_value;       // false for boolean switches
  std::string help;       // one line; "VALUE: meaning" reads well
  bool repeated = false;  // may be given more than once (values collected in order)
};

class Args {
 public:
  // Parses args against spec. "--help"/"-h" sets help() and never fails. kNotFound "unknown flag
  // --X" for a flag not in spec; kInvalidArgument for a missing, extra or repeated value.
  static Result<Args> Parse(const std::vector<std::string>& args,
                            const std::vector<FlagSpec>& spec);

  bool help() const { return help_; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  const std::vector<std::string>& all(const std::string& name) const;
  // Parses the flag as a number; kInvalidArgument naming the flag when it is not one (GetDouble:
  // NaN and infinity are not numbers here).
  Result<long long> GetInt(const std::string& name, long long fallback) const;
  Result<double> GetDouble(const std::string& name, double fallback) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  bool help_ = false;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

// "usage line\n\n  --flag VALUE  help\n..." for a command's --help.
std::string Usage(const std::string& usage_line, const std::string& description,
                  const std::vector<FlagSpec>& spec);

// Parses the arguments of `structure <command>`, or ends the command before it starts: a bad
// flag prints "structure <command>: <message>" on stderr (an unknown flag adds where the flags
// are listed) and sets exit_code to 2, and --help
// prints Usage(usage_line, description, spec) on stdout and sets exit_code to 0; both return
// nullopt.
std::optional<Args> ParseOrHelp(const std::string& command, const std::vector<std::string>& args,
                                const std::vector<FlagSpec>& spec, const std::string& usage_line,
                                const std::string& description, int& exit_code);

}  // namespace structure::apps
