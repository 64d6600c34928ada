// libFuzzer target: one `structure batch` input line (batch/batch_line.cc), with and
// without the defaults the command's flags give, and the result line it would write.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "batch/batch_line.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  static const structure::batch::LineDefaults kNone;
  static const structure::batch::LineDefaults kSome = [] {
    structure::batch::LineDefaults d;
    d.schema = std::make_shared<const structure::Json>(
        *structure::ParseJson(R"({"type":"object","properties":{"name":{"type":"string"}}})"));
    d.max_loops = 2;
    d.tenant = "t";
    d.model = "default:fast";
    return d;
  }();
  for (const auto* defaults : {&kNone, &kSome}) {
    auto line = structure::batch::ParseBatchLine(text, 7, *defaults);
    if (!line.error.ok()) {
      (void)structure::batch::FormatResultLine(line.id, line.line_no,
                                               structure::batch::BadLineResult(line.error));
    }
  }
  return 0;
}
