// Evidence: whether a result ties each value of its answer to a quote of the prompt.
//
// With evidence on, the model returns beside each leaf value the passage of the prompt it took
// the value from; the engine locates every quote in the prompt and checks that it states the
// value. The result then carries, for `ok` and `need-more-input`:
//   evidence:   {"<JSON pointer of the leaf>": {"quote", "byteStart", "byteEnd", "cpStart",
//                "cpEnd", "match", "kind"}, ...} for the grounded leaves (offsets into the
//                prompt in UTF-8 bytes and in code points; `match` says how the quote states
//                the value: exact, normalized, date, number, ...);
//   ungrounded: ["<JSON pointer>", ...], the leaves no quote supports.
#pragma once

#include <optional>
#include <string_view>

namespace structure {

enum class EvidenceMode {
  kOff,      // no quotes asked for; the result has no evidence
  kReport,   // quotes asked for and checked; ungrounded leaves are listed, the answer stands
  kRequire,  // an ungrounded leaf is re-asked, then removed (optional) or need-more-input
};

// "off" | "report" | "require".
std::string_view EvidenceModeName(EvidenceMode mode);

// The mode named `name` (EvidenceModeName's inverse); nullopt for any other text.
std::optional<EvidenceMode> ParseEvidenceMode(std::string_view name);

}  // namespace structure
