#include "sim/grammar_budget.h"

#include <string_view>
#include <utility>

#include "pipeline/lowering/measure.h"
#include "providers/schema_too_large.h"

namespace structure::sim {

size_t RequestGrammar(const std::vector<CheckedSchema>& checks) {
  size_t total = 0;
  for (const CheckedSchema& c : checks) total += pipeline::MeasureSchema(*c.schema).grammar;
  return total;
}

std::optional<http::HttpResponse> GrammarRefusal(const Dialect& dialect, const ChatRequest& request,
                                                 const std::vector<CheckedSchema>& checks,
                                                 const std::map<std::string, size_t>& budgets) {
  if (checks.empty() || budgets.empty()) return std::nullopt;
  auto it = budgets.find(request.model);
  if (it == budgets.end()) it = budgets.find("*");
  if (it == budgets.end()) return std::nullopt;
  size_t grammar = RequestGrammar(checks);
  if (grammar <= it->second) return std::nullopt;
  const providers::SchemaTooLargeError* e =
      providers::SchemaTooLargeErrorOf(ProviderName(dialect.provider()));
  if (e == nullptr) return std::nullopt;  // a provider with no such error compiles anything
  // A message that states the numbers has "{size}" and "{limit}" for them.
  std::string message = e->message;
  for (auto [mark, value] :
       {std::pair<const char*, size_t>{"{size}", grammar}, {"{limit}", it->second}})
    if (size_t at = message.find(mark); at != std::string::npos)
      message.replace(at, std::string_view(mark).size(), std::to_string(value));
  return dialect.Error(e->status, message, e->type);
}

}  // namespace structure::sim
