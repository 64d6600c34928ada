#include "pipeline/validator/eval.h"

#include "pipeline/validator/evaluator.h"

namespace structure::pipeline::validator_internal {

ValidationResult Evaluate(const CompiledSchema& schema, const element& instance, bool all_errors) {
  ValidationResult result;
  Evaluator evaluator(schema, all_errors, &result.errors);
  result.valid = evaluator.Run(instance);
  size_t cap = schema.options.max_errors;
  if (all_errors && cap > 0 && result.errors.size() > cap) {
    result.errors.resize(cap);
    result.more_errors = true;
  }
  if (evaluator.aborted()) {
    result.valid = false;
    result.errors.push_back(std::move(evaluator.limit_error()));
  }
  if (!result.valid && result.errors.empty()) {
    // Defensive: a failing verdict always carries at least one error.
    ValidationError error;
    error.keyword = "invalid";
    error.message = "(root): value is not valid";
    result.errors.push_back(std::move(error));
  }
  return result;
}

}  // namespace structure::pipeline::validator_internal
